"""The wire vectors in `idl/examples/` against the JSON Schema in `idl/`.

Checks, for every wire type:

* every `valid/*.json` and every `canonical/*.json` is accepted by the type's schema
  (the per-type files in `idl/`, cross-file `$ref`s resolved through a `referencing`
  registry, and the bundled `generated/jsonschema/toolnexus.schema.json` when it exists);
* every `invalid/*.json` is rejected: it is not UTF-8, not JSON, or the schema reports
  errors, all at the one place its `.path` sidecar names;
* canonical files are canonical: compact, raw UTF-8, one final newline, and a
  parse -> emit round trip under the wire rules (schema key order, unknown keys after,
  `isError` always present, empty `parts`/`calls` omitted) reproduces them byte for byte;
  a valid vector with a `canonical/` sidecar emits exactly that sidecar;
* the counts (at least 6 valid and 4 invalid per type, 60 and 30 in all).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from toolnexus_wire import MAX_DEPTH
from toolnexus_wire._speed import nesting

from tests.needs import missing
from tests.vectors import repeats_a_key
from toolnexus._schema import validator_for

# JSON Schema patterns are ECMA-262 regexes; Python's `re` reads `$` differently.
Draft202012Validator = validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"})

ROOT = Path(__file__).resolve().parents[2]
IDL = ROOT / "idl"
EXAMPLES = IDL / "examples"
BUNDLE = ROOT / "generated" / "jsonschema" / "toolnexus.schema.json"

TYPES: list[str] = json.loads((IDL / "manifest.json").read_text(encoding="utf-8"))["types"]
SCHEMAS: dict[str, dict[str, Any]] = {
    t: json.loads((IDL / f"{t}.json").read_text(encoding="utf-8")) for t in TYPES
}

MIN_VALID_PER_TYPE, MIN_INVALID_PER_TYPE = 6, 4
MIN_VALID_TOTAL, MIN_INVALID_TOTAL = 60, 30

# A JSON path as the sidecars write it: `$`, `.key` and `[index]` steps.
PATH_RE = re.compile(r"\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])*")


# --------------------------------------------------------------------------- schemas


def _registry() -> Registry:
    # Each file is registered under its own name, so `{"$ref": "ContentPart.json"}`
    # resolves against the referring file's base URI (which is also its name).
    # `$schema` is left out of the registered copies: jsonschema would otherwise switch to its
    # stock 2020-12 class when following a `$ref`, losing the ECMA pattern semantics.
    return Registry().with_resources(
        (f"{t}.json", DRAFT202012.create_resource({k: v for k, v in SCHEMAS[t].items() if k != "$schema"}))
        for t in TYPES
    )


_REGISTRY = _registry()


def idl_validator(type_name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"{type_name}.json"}, registry=_REGISTRY)


def bundle_validator(type_name: str) -> Draft202012Validator:
    if not BUNDLE.exists():
        missing(f"{BUNDLE.relative_to(ROOT)} is not generated yet (run `python -m codegen gen`)")
    bundle = json.loads(BUNDLE.read_text(encoding="utf-8"))
    base = bundle.get("$id", "urn:toolnexus-bundle")
    registry = Registry().with_resource(
        base, Resource.from_contents(bundle, default_specification=DRAFT202012)
    )
    assert type_name in bundle["$defs"], f"the bundle has no $defs/{type_name}"
    return Draft202012Validator({"$ref": f"{base}#/$defs/{type_name}"}, registry=registry)


def test_schemas_are_valid_2020_12() -> None:
    for t in TYPES:
        Draft202012Validator.check_schema(SCHEMAS[t])


# --------------------------------------------------------------------------- vectors


def _files(type_name: str, kind: str) -> list[Path]:
    folder = EXAMPLES / type_name / kind
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _cases(kind: str) -> list[Any]:
    return [pytest.param(t, p, id=f"{t}/{kind}/{p.stem}") for t in TYPES for p in _files(t, kind)]


def _load(path: Path) -> Any:
    """Strict: UTF-8 (no BOM) and JSON under the JSON-level rules every language keeps
    (docs/limits.md, "One verdict": no NaN or Infinity, no lone surrogate escape, no number
    beyond a double, at most MAX_DEPTH levels, no repeated key), or an exception. Those rules are not the
    schema's to express, so they come before it, as in tests/conformance.py."""
    raw = path.read_bytes()
    orjson.loads(raw)  # the verdict on the text; the value comes from `json`, whose ints are exact
    doc = json.loads(raw.decode("utf-8"))
    if nesting(doc)[0] > MAX_DEPTH:
        raise json.JSONDecodeError(f"nested more than {MAX_DEPTH} levels", raw.decode("utf-8"), 0)
    if repeats_a_key(raw):
        raise json.JSONDecodeError("an object repeats a key", raw.decode("utf-8"), 0)
    return doc


def _errors(validator: Draft202012Validator, doc: Any) -> list[ValidationError]:
    return list(validator.iter_errors(doc))


def _where(error: ValidationError) -> str:
    """The path every language names for `error`. A type's requirements (its `allOf` of
    `if`/`then`) are checked on the object once its fields are, so their errors are at the
    object's path: the steps `properties` added inside the `allOf` are taken off."""
    schema_path = list(error.absolute_schema_path)
    if "allOf" not in schema_path:
        return error.json_path
    inner = schema_path[len(schema_path) - schema_path[::-1].index("allOf") :]
    steps = list(error.absolute_path)
    drop = inner.count("properties")
    kept = steps[: len(steps) - drop] if drop else steps
    return "$" + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in kept)


def _requirement(error: ValidationError) -> bool:
    """An error of a type's requirements: the IDL's `allOf` (in the bundle, under `dependentSchemas`)."""
    return "allOf" in error.absolute_schema_path


def _reported(errors: list[ValidationError]) -> set[str]:
    """The paths of the errors a parser reports: the requirements are checked only when the
    fields are valid, so their errors count only when there are no others."""
    fields = [e for e in errors if not _requirement(e)]
    return {_where(e) for e in (fields or errors)}


def _describe(errors: list[ValidationError]) -> str:
    return "; ".join(f"{e.json_path}: {e.message}" for e in errors)


# --------------------------------------------------------------------------- emitter
# A reference emitter for the wire rules, driven by the schema files themselves, so a
# canonical vector is checked against the rules and not only against `json.dumps`.


def _ref_name(ref: str) -> str:
    assert ref.endswith(".json"), ref
    return ref[: -len(".json")]


def _emit_value(value: Any, prop: dict[str, Any]) -> Any:
    if "$ref" in prop:
        return emit_object(value, _ref_name(prop["$ref"]))
    items = prop.get("items")
    if prop.get("type") == "array" and isinstance(items, dict) and "$ref" in items:
        return [emit_object(v, _ref_name(items["$ref"])) for v in value]
    return value  # primitives and free-form objects: as parsed, insertion order kept


def emit_object(value: dict[str, Any], type_name: str) -> dict[str, Any]:
    props: dict[str, dict[str, Any]] = SCHEMAS[type_name]["properties"]
    out: dict[str, Any] = {}
    for key, prop in props.items():
        default = prop.get("default")
        if key in value:
            v = value[key]
        elif default is not None and default not in ([], ""):
            v = default  # `isError` is always written
        else:
            continue  # absent optional: omitted
        if default in ([], "") and v == default:
            continue  # empty `parts` / `calls`, and empty strings with the default "": omitted
        out[key] = _emit_value(v, prop)
    for key, v in value.items():  # unknown keys: kept, after the known ones, in order
        if key not in props:
            out[key] = v
    return out


class _Number(str):
    """A number's text as written in a vector (the number rule writes it back so, R6)."""


def _spelled(text: str) -> str:
    """The number rule's spelling: as written, an exponent as `e` with a sign."""
    return re.sub(r"[eE]([+-]?)", lambda m: "e" + (m.group(1) or "+"), text)


def loads_keeping_numbers(raw: bytes | str) -> Any:
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    return json.loads(text, parse_int=_Number, parse_float=_Number)


def dumps(doc: Any) -> str:
    """Compact JSON, non-ASCII raw, numbers as the number rule writes them."""
    if isinstance(doc, _Number):
        return _spelled(doc)
    if isinstance(doc, dict):
        return "{" + ",".join(f"{dumps(str(k))}:{dumps(v)}" for k, v in doc.items()) + "}"
    if isinstance(doc, list):
        return "[" + ",".join(dumps(v) for v in doc) + "]"
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def emit(doc: dict[str, Any], type_name: str) -> bytes:
    return (dumps(emit_object(doc, type_name)) + "\n").encode("utf-8")


def _no_nulls_in_known_fields(doc: Any, type_name: str, where: str = "$") -> list[str]:
    """Paths of known fields that hold `null` (never allowed: absent fields are omitted)."""
    bad = []
    for key, prop in SCHEMAS[type_name]["properties"].items():
        if key not in doc:
            continue
        v, here = doc[key], f"{where}.{key}"
        if v is None:
            bad.append(here)
        elif "$ref" in prop:
            bad += _no_nulls_in_known_fields(v, _ref_name(prop["$ref"]), here)
        elif prop.get("type") == "array" and "$ref" in prop.get("items", {}):
            for i, item in enumerate(v):
                bad += _no_nulls_in_known_fields(item, _ref_name(prop["items"]["$ref"]), f"{here}[{i}]")
    return bad


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize(("type_name", "path"), _cases("valid") + _cases("canonical"))
def test_valid_vector_is_accepted(type_name: str, path: Path) -> None:
    doc = _load(path)
    errors = _errors(idl_validator(type_name), doc)
    assert not errors, f"{path.relative_to(ROOT)} rejected: {_describe(errors)}"
    assert not _no_nulls_in_known_fields(doc, type_name)


@pytest.mark.parametrize(("type_name", "path"), _cases("valid") + _cases("canonical"))
def test_valid_vector_is_accepted_by_bundled_schema(type_name: str, path: Path) -> None:
    validator = bundle_validator(type_name)
    errors = _errors(validator, _load(path))
    assert not errors, f"{path.relative_to(ROOT)} rejected by the bundle: {_describe(errors)}"


@pytest.mark.parametrize(("type_name", "path"), _cases("valid"))
def test_valid_vector_round_trips_to_its_canonical_form(type_name: str, path: Path) -> None:
    raw = path.read_bytes()
    sidecar = EXAMPLES / type_name / "canonical" / path.name
    expected = sidecar.read_bytes() if sidecar.exists() else raw
    _load(path)  # the JSON-level rules
    assert emit(loads_keeping_numbers(raw), type_name) == expected
    if sidecar.exists():
        assert raw != expected, f"{path.name} is already canonical; drop canonical/{path.name}"
    else:
        # The plain check the brief names: compact, raw UTF-8, key order as in the file.
        assert raw == (dumps(loads_keeping_numbers(raw)) + "\n").encode("utf-8")


@pytest.mark.parametrize(("type_name", "path"), _cases("canonical"))
def test_canonical_file_is_canonical(type_name: str, path: Path) -> None:
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and not raw.endswith(b"\n\n") and raw.count(b"\n") == 1
    assert raw == (dumps(loads_keeping_numbers(raw)) + "\n").encode("utf-8")
    _load(path)  # the JSON-level rules
    assert emit(loads_keeping_numbers(raw), type_name) == raw
    assert (EXAMPLES / type_name / "valid" / path.name).exists(), "a canonical file needs its valid vector"


def _invalid_path(path: Path) -> str:
    sidecar = path.with_suffix(".path")
    assert sidecar.exists(), f"{path.relative_to(ROOT)} has no .path sidecar"
    text = sidecar.read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 1, f"{sidecar.name}: one line, ending in a newline"
    where = text.strip()
    assert PATH_RE.fullmatch(where), f"{sidecar.name}: {where!r} is not a JSON path like $.parts[0].data"
    return where


def _check_rejected(validator: Draft202012Validator, path: Path, where: str) -> None:
    try:
        doc = _load(path)
    except (UnicodeDecodeError, json.JSONDecodeError):
        assert where == "$", f"{path.name}: a document that does not decode fails at `$`"
        return
    errors = _errors(validator, doc)
    assert errors, f"{path.relative_to(ROOT)} was accepted"
    paths = _reported(errors)
    assert paths == {where}, (
        f"{path.name}: errors at {sorted(paths)}, sidecar says {where}: {_describe(errors)}"
    )


@pytest.mark.parametrize(("type_name", "path"), _cases("invalid"))
def test_invalid_vector_is_rejected(type_name: str, path: Path) -> None:
    _check_rejected(idl_validator(type_name), path, _invalid_path(path))


@pytest.mark.parametrize(("type_name", "path"), _cases("invalid"))
def test_invalid_vector_is_rejected_by_bundled_schema(type_name: str, path: Path) -> None:
    _check_rejected(bundle_validator(type_name), path, _invalid_path(path))


def test_every_sidecar_belongs_to_a_vector() -> None:
    for t in TYPES:
        for sidecar in sorted((EXAMPLES / t / "invalid").glob("*.path")):
            assert sidecar.with_suffix(".json").exists(), f"{sidecar.relative_to(ROOT)} has no vector"
    folders = {p.name for p in EXAMPLES.iterdir() if p.is_dir()}
    assert folders == set(TYPES), f"example folders {sorted(folders)} != manifest types"
    for t in TYPES:
        kinds = {p.name for p in (EXAMPLES / t).iterdir()}
        assert kinds <= {"valid", "invalid", "canonical"}, f"{t}: unexpected {sorted(kinds)}"


def test_counts() -> None:
    valid = {t: len(_files(t, "valid")) for t in TYPES}
    invalid = {t: len(_files(t, "invalid")) for t in TYPES}
    for t in TYPES:
        assert valid[t] >= MIN_VALID_PER_TYPE, f"{t}: {valid[t]} valid vectors"
        assert invalid[t] >= MIN_INVALID_PER_TYPE, f"{t}: {invalid[t]} invalid vectors"
    assert sum(valid.values()) >= MIN_VALID_TOTAL
    assert sum(invalid.values()) >= MIN_INVALID_TOTAL


def _number_tokens(raw: bytes) -> tuple[list[str], list[str]]:
    """The integer and float literals of a JSON document, as written."""
    ints: list[str] = []
    floats: list[str] = []

    def on_int(s: str) -> int:
        ints.append(s)
        return int(s)

    def on_float(s: str) -> float:
        floats.append(s)
        return float(s)

    json.loads(raw, parse_int=on_int, parse_float=on_float)
    return ints, floats


def test_coverage_of_required_cases() -> None:
    """The cases the brief asks for are present (by the vectors' own content)."""
    docs = [(t, p, p.read_bytes()) for t in TYPES for p in _files(t, "valid")]
    texts = [raw.decode("utf-8") for _, _, raw in docs]
    big = [p.name for _, p, raw in docs if b"9007199254740993" in raw]
    huge = [p.name for _, p, raw in docs if b"123456789012345678901234567890" in raw]
    assert big and all(n.startswith("bigint-") for n in big)
    assert huge and all(n.startswith("bigint-") for n in huge)
    # every vector holding an integer outside +-(2^53-1) is a `bigint-` one
    for t, p, raw in docs:
        ints, floats = _number_tokens(raw)
        if any(abs(int(i)) > 2**53 - 1 for i in ints):
            assert p.name.startswith("bigint-"), f"{t}/{p.name} holds a big integer"
        for f in floats:  # other spellings are the number rule's vectors (R6)
            assert "number-spellings" in p.name or re.fullmatch(r"-?(0|[1-9][0-9]*)\.[0-9]*[1-9]", f), (
                f"{t}/{p.name}: float {f} is not simple"
            )
    assert any(re.search(r"[\u4e00-\u9fff]", s) for s in texts), "CJK"
    assert any(re.search(r"[\U0001F300-\U0001FAFF]", s) for s in texts), "emoji"
    assert any(re.search(r"[\u0590-\u06ff]", s) for s in texts), "RTL"
    assert any(re.search(r"[\u0300-\u036f]", s) for s in texts), "combining marks"
    for kind in ("text", "image", "audio", "file"):
        assert any(f'"type":"{kind}"' in s for s in texts), kind
    pending_runs = [json.loads(s) for (t, _, _), s in zip(docs, texts, strict=True) if t == "RunResult"]
    assert any(r["status"] == "pending" and r.get("calls") for r in pending_runs)
    results = [json.loads(s) for (t, _, _), s in zip(docs, texts, strict=True) if t == "ToolResult"]
    suspended = [r for r in results if "pending" in r.get("metadata", {})]
    assert suspended
    for r in suspended:
        assert idl_validator("Request").is_valid(r["metadata"]["pending"])
