"""Python target: the IDL-derived half of the package `toolnexus_wire`.

One class per wire type. `models.py` comes from datamodel-code-generator (pinned exactly in
pyproject.toml): each model's base class is its `<Type>Base` in `_bases.py` (through the
generator's `--base-class-map`), and its positional constructor is passed in as class body
lines (`--extra-template-data`), so nothing is patched into generated text but the removal
of the bundle's root model, which asserts what it removes. From the templates in
`templates/python/` come `_bases.py` (the hand-written helpers of a type, if it has any,
plus the refusal of `null`), `_serde.py` (the wire encoders) and `__init__.py`; `_fast.py`
(the per-type fast decoders and JSON-ready encoders) is written by this module. The package's
root is its hand-written tree, `support/python/toolnexus_wire/`, where these files appear as
links into `generated/python/toolnexus_wire/` (see `common`).
"""

from __future__ import annotations

import ast
import copy
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import loop_data
from .common import SUPPORT, environment, header_lines, support_files
from .idl import Idl, TypeRef, WireType, snake_case
from .jsonschema_target import published

__all__ = ["render"]

PACKAGE = "python/toolnexus_wire"
HELPERS = "toolnexus_wire/_helpers"
#: This project's model template for datamodel-code-generator (`pydantic_v2/BaseModel.jinja2`).
DATAMODEL_TEMPLATES = Path(__file__).parent / "templates" / "python" / "datamodel"

# Options are spelled out so that the output does not depend on the generator's defaults.
DATAMODEL_CODEGEN_ARGS = [
    "--input-file-type=jsonschema",
    "--output-model-type=pydantic_v2.BaseModel",
    "--target-python-version=3.11",
    "--base-class=toolnexus_wire._base.WireModel",
    "--snake-case-field",
    "--use-title-as-name",
    "--use-field-description",
    "--use-schema-description",
    "--use-annotated",
    "--field-constraints",
    "--use-standard-collections",
    "--use-union-operator",
    "--enum-field-as-literal=all",
    "--strict-nullable",
    "--use-double-quotes",
    "--disable-timestamp",
    "--formatters",
    "ruff-format",
]


def _comment(idl: Idl) -> str:
    return "".join(f"# {line}\n" for line in header_lines(idl))


# -- what the hand-written helpers of each type provide ---------------------------------------


def _helper_module(t: WireType) -> str:
    return snake_case(t.name)


def _helpers(idl: Idl, support: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Per type with a `_helpers/<type>.py`: whether it defines `<Type>Helpers`, and its
    `INIT_DEFAULTS` (read as a literal, without importing the module)."""
    found: dict[str, dict[str, Any]] = {}
    for t in idl.types:
        rel = f"{HELPERS}/{_helper_module(t)}.py"
        if rel not in support:
            continue
        tree = ast.parse((SUPPORT / "python" / rel).read_text(encoding="utf-8"))
        info: dict[str, Any] = {
            "module": _helper_module(t),
            "class": None,
            "init_defaults": {},
            "methods": [],
        }
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == f"{t.name}Helpers":
                info["class"] = node.name
                info["methods"] = [
                    f.name
                    for f in node.body
                    if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.name.startswith("_")
                ]
            elif isinstance(node, ast.Assign) and any(
                isinstance(x, ast.Name) and x.id == "INIT_DEFAULTS" for x in node.targets
            ):
                info["init_defaults"] = ast.literal_eval(node.value)
        known = {f.py_name for f in t.fields}
        unknown = set(info["init_defaults"]) - known
        if unknown:
            raise ValueError(f"support/python/{rel}: INIT_DEFAULTS names unknown fields {sorted(unknown)}")
        found[t.name] = info
    return found


# -- the positional constructor ---------------------------------------------------------------


def _py_type(t: TypeRef) -> str:
    if t.kind == "string":
        return f"Literal[{', '.join(json.dumps(v) for v in t.enum)}]" if t.enum else "str"
    if t.kind == "ref":
        assert t.ref is not None
        return t.ref
    if t.kind == "array":
        assert t.items is not None
        return f"list[{_py_type(t.items)}]"
    return {"boolean": "bool", "integer": "int", "number": "float", "map": "dict[str, Any]", "any": "Any"}[
        t.kind
    ]


def _init_lines(t: WireType, init_defaults: dict[str, Any]) -> list[str]:
    """`__init__` with every field as a parameter: the required ones without a default first,
    then the rest, each in schema order. An optional field left as None is absent."""
    first: list[str] = []
    rest: list[str] = []
    passed: list[str] = []
    optional: list[str] = []
    for f in t.fields:
        annotation = _py_type(f.type)
        if f.py_name in init_defaults:
            rest.append(f"{f.py_name}: {annotation} = {init_defaults[f.py_name]!r}")
            passed.append(f.py_name)
        elif f.required:
            first.append(f"{f.py_name}: {annotation}")
            passed.append(f.py_name)
        elif f.default is not None and not isinstance(f.default, (list, dict)):
            rest.append(f"{f.py_name}: {annotation} = {f.default!r}")
            passed.append(f.py_name)
        else:
            rest.append(f"{f.py_name}: {annotation} | None = None")
            optional.append(f.py_name)
    params = ", ".join(["self", *first, *rest])
    args = [f"{n}={n}" for n in passed]
    if optional:
        args.append("**given(" + ", ".join(f"{n}={n}" for n in optional) + ")")
    return [
        "@wire_init",
        f"def __init__({params}) -> None:",
        f'    """A `{t.name}` from Python values; an optional field left as None is absent on the wire."""',
        # BaseModel's own `__init__` (`**data: Any`), as type checkers see the bases' as field-less.
        f"    BaseModel.__init__(self, {', '.join(args)})",
    ]


def _doc_lines(t: WireType, helper: dict[str, Any] | None) -> list[str]:
    """The class docstring after the type's description, so help() shows the fields and the
    helpers before pydantic's own members."""
    lines = ["", "Fields (wire key in brackets where it differs):"]
    for f in t.fields:
        key = f" [{f.wire_name}]" if f.wire_name != f.py_name else ""
        lines.append(f"    {f.py_name}{key}: {f.description}")
    if helper and helper["methods"]:
        lines += ["", f"Helpers (from {helper['class']}): {', '.join(helper['methods'])}."]
    lines += ["", "Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text)."]
    return lines


def _models(idl: Idl, helpers: dict[str, dict[str, Any]]) -> str:
    """Run datamodel-codegen on the bundled schema and return models.py."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    extra = {
        t.name: {
            "init_lines": _init_lines(t, helpers.get(t.name, {}).get("init_defaults", {})),
            "doc_lines": _doc_lines(t, helpers.get(t.name)),
        }
        for t in idl.types
    }
    bases = {t.name: f"toolnexus_wire._bases.{t.name}Base" for t in idl.types}
    # A field whose API name is not its wire key (`x-name`): the wire key becomes the alias.
    aliases = {
        f"{t.name}.{f.wire_name}": f.py_name for t in idl.types for f in t.fields if f.api_name != f.wire_name
    }
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "toolnexus.schema.json"
        out = Path(tmp) / "models.py"
        data = Path(tmp) / "extra.json"
        src.write_text(json.dumps(_bundle_for_models(idl)), encoding="utf-8")
        data.write_text(json.dumps(extra), encoding="utf-8")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "datamodel_code_generator",
                f"--input={src}",
                f"--output={out}",
                f"--custom-file-header={_comment(idl).rstrip()}",
                f"--base-class-map={json.dumps(bases)}",
                *([f"--aliases={json.dumps(aliases)}"] if aliases else []),
                f"--extra-template-data={data}",
                f"--custom-template-dir={DATAMODEL_TEMPLATES}",
                *DATAMODEL_CODEGEN_ARGS,
            ],
            check=True,
            env=env,
            cwd=tmp,
        )
        text = out.read_text(encoding="utf-8")
    return _finish_models(text, idl)


def _bundle_for_models(idl: Idl) -> dict[str, Any]:
    """The bundle as datamodel-codegen reads it: a field of any JSON value loses its `type`
    list, so it becomes `Any` (a union of `float` and the rest would turn `0` into `0.0`);
    `null` is refused by the base class, as for every optional field."""
    bundle = copy.deepcopy(idl.bundle())  # the bundle shares its schemas with `idl`
    for t in idl.types:
        # The requirements (`allOf`) are checked by the generated base class, not by a model.
        bundle["$defs"][t.name].pop("allOf", None)
        props = bundle["$defs"][t.name].get("properties", {})
        for f in t.fields:
            if f.type.kind == "any":
                props[f.wire_name] = {k: v for k, v in props[f.wire_name].items() if k != "type"}
    return bundle


def _finish_models(text: str, idl: Idl) -> str:
    """The bundle's root (a document of `$defs`) has no wire meaning; datamodel-codegen
    still emits a RootModel for it. Remove it, and import what the constructors use,
    failing loudly if the generator's output changes shape."""
    root_class = "".join(part.capitalize() for part in idl.name.split("_"))
    marker = f"\n\nclass {root_class}(RootModel[Any]):\n"
    start = text.find(marker)
    if start < 0 or text.count("RootModel") != 2:
        raise RuntimeError(
            f"datamodel-codegen output changed: expected exactly one `class {root_class}(RootModel[Any])`"
        )
    end = text.find("\n\nclass ", start + len(marker))
    text = text[:start] + (text[end:] if end >= 0 else "\n")
    pydantic_import = next((ln for ln in text.splitlines() if ln.startswith("from pydantic import ")), None)
    if pydantic_import is None or "RootModel" not in pydantic_import:
        raise RuntimeError("datamodel-codegen output changed: expected `from pydantic import ..., RootModel`")
    names = [n.strip() for n in pydantic_import[len("from pydantic import ") :].split(",")]
    kept = ", ".join(sorted({n for n in names if n != "RootModel"} | {"BaseModel"}))
    text = text.replace(pydantic_import, f"from pydantic import {kept}" if kept else "", 1)
    typing_import = next((ln for ln in text.splitlines() if ln.startswith("from typing import ")), None)
    wanted = {"Any", "Literal"}
    if typing_import is None:
        raise RuntimeError("datamodel-codegen output changed: expected `from typing import ...`")
    have = {n.strip() for n in typing_import[len("from typing import ") :].split(",")}
    text = text.replace(typing_import, "from typing import " + ", ".join(sorted(have | wanted)), 1)
    base_import = "from toolnexus_wire._base import WireModel\n"
    if base_import in text:
        text = text.replace(base_import, "from toolnexus_wire._base import WireModel, given, wire_init\n", 1)
    else:
        anchor = "from toolnexus_wire._bases import"
        if anchor not in text:
            raise RuntimeError(f"datamodel-codegen output changed: expected `{anchor}`")
        text = text.replace(anchor, "from toolnexus_wire._base import given, wire_init\n" + anchor, 1)
    return text


# -- the wire encoders and the fast paths -----------------------------------------------------


def _encode_value(t: TypeRef, expr: str, depth: int = 0) -> str:
    """A Python expression that encodes `expr` (a value of type `t`) to its wire form."""
    if t.kind == "ref":
        return f"_encode_{t.ref}({expr})"
    if t.kind == "array":
        assert t.items is not None
        if t.items.kind in ("ref", "array"):
            v = f"v{depth}"
            return f"[{_encode_value(t.items, v, depth + 1)} for {v} in {expr}]"
        return f"list({expr})"
    return expr


def _bounds_bad(t: TypeRef, v: str) -> str:
    """` or <v outside t's bounds>`, or nothing when `t` has none."""
    out = ""
    if t.minimum is not None:
        out += f" or {v} < {t.minimum!r}"
    if t.maximum is not None:
        out += f" or {v} > {t.maximum!r}"
    return out


def _number_leaf(t: TypeRef) -> bool:
    """Whether `t` is a `number`, or an array (of arrays) of them."""
    return t.kind == "number" or (t.kind == "array" and t.items is not None and _number_leaf(t.items))


def _number_fields(t: WireType) -> list[str]:
    """The fields whose numbers keep their text through the model (`_number.keep_number_text`)."""
    return [f.py_name for f in t.fields if _number_leaf(f.type)]


def _has_ref(t: TypeRef) -> bool:
    return t.kind == "ref" or (t.kind == "array" and t.items is not None and _has_ref(t.items))


class _Fast:
    """Writes `_fast.py`: per type a decoder over orjson's parse and a JSON-ready encoder."""

    def __init__(self, idl: Idl) -> None:
        self.idl = idl
        self.checks: dict[str, str] = {}  # pattern -> the name of its check

    def _check_name(self, pattern: str) -> str:
        if pattern not in self.checks:
            self.checks[pattern] = f"_PATTERN_{len(self.checks)}"
        return self.checks[pattern]

    def _scalar_bad(self, t: TypeRef, v: str) -> str:
        """An expression true when the parsed JSON value `v` is not a valid `t` (or not sure)."""
        if t.kind == "string":
            out = f"type({v}) is not str"
            if t.enum:
                out += f" or {v} not in ({''.join(json.dumps(e) + ', ' for e in t.enum).rstrip()})"
            if t.min_length is not None:
                out += f" or len({v}) < {t.min_length}"
            if t.pattern:
                out += f" or not {self._check_name(t.pattern)}({v})"
            return out
        if t.kind == "boolean":
            return f"type({v}) is not bool"
        if t.kind == "integer":
            return f"type({v}) is not int" + _bounds_bad(t, v)
        if t.kind == "number":  # a float whose text is not as `repr` writes it: the validator keeps it
            return f"type({v}) is not float or not (floats and _float_ok({v}))" + _bounds_bad(t, v)
        if t.kind == "any":  # as a map's values are: a float's text is kept by the reference path
            return (
                f"{v} is None or (type({v}) is float and not (floats and _float_ok({v})))"
                f" or (type({v}) in (dict, list) and not _sound({v}, _FREE_DEPTH, floats))"
            )
        assert t.kind == "map"
        return f"type({v}) is not dict or not _sound({v}, _FREE_DEPTH, floats)"

    def _decode(self, t: TypeRef, src: str, dst: str, ind: str, depth: int) -> list[str]:
        """Statements that check `src` and bind `dst`, or `return None`."""
        if t.kind == "ref":
            return [
                f"{ind}{dst} = _decode_{t.ref}({src}, floats)",
                f"{ind}if {dst} is None:",
                f"{ind}    return None",
            ]
        if t.kind == "array":
            assert t.items is not None
            item, out = f"{dst}_i{depth}", f"{dst}_a{depth}"
            lines = [f"{ind}if type({src}) is not list:", f"{ind}    return None"]
            if not _has_ref(t.items) and t.items.kind != "array":
                lines += [
                    f"{ind}for {item} in {src}:",
                    f"{ind}    if {self._scalar_bad(t.items, item)}:",
                    f"{ind}        return None",
                    f"{ind}{dst} = {src}",
                ]
                return lines
            lines += [f"{ind}{out}: list[Any] = []", f"{ind}for {item} in {src}:"]
            lines += self._decode(t.items, item, f"{dst}_x{depth}", ind + "    ", depth + 1)
            lines += [f"{ind}    {out}.append({dst}_x{depth})", f"{ind}{dst} = {out}"]
            return lines
        if t.kind == "number":  # an integer keeps its digits as its text (`_number.int_number`)
            int_bad = f"type({src}) is not int" + _bounds_bad(t, src)
            return [
                f"{ind}if not ({int_bad}):",
                f"{ind}    {dst} = _int_number({src})",
                f"{ind}elif {self._scalar_bad(t, src)}:",
                f"{ind}    return None",
                f"{ind}else:",
                f"{ind}    {dst} = {src}",
            ]
        return [f"{ind}if {self._scalar_bad(t, src)}:", f"{ind}    return None", f"{ind}{dst} = {src}"]

    @staticmethod
    def _new_model(name: str, extra: str) -> list[str]:
        """Statements that return an instance of `name` from checked values: the four slots
        `model_construct` sets (the contract in `_speed`), without its overhead."""
        return [
            f"    obj = _new(models.{name})",
            "    _set_dict(obj, values)",
            "    _set_fields_set(obj, fields_set)",
            f"    _set_extra(obj, {extra})",
            "    _set_private(obj, None)",
            "    return obj",
        ]

    def decoder(self, t: WireType) -> list[str]:
        lines = [
            "",
            "",
            f"def _decode_{t.name}(d: Any, floats: bool | None) -> Any:",
            f'    """A `{t.name}` from orjson\'s parse of its JSON, or None to let the validator decide;',
            "    `floats`: whether the text's floats are as Python writes them, None when the document",
            '    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""',
            "    if type(d) is not dict:",
            "        return None",
            "    fields_set: set[str] = set()",
        ]
        for f in t.fields:
            lines.append(f'    v = d.get("{f.wire_name}", _MISS)')
            if f.required:
                lines += ["    if v is _MISS:", "        return None"]
                body_ind = "    "
            else:
                lines.append("    if v is _MISS:")
                if f.type.kind == "array":
                    default = "[]"
                elif f.default is not None:
                    default = repr(f.default)
                else:
                    default = "None"
                lines += [f"        {f.py_name}: Any = {default}", "    else:"]
                body_ind = "        "
            lines += self._decode(f.type, "v", f.py_name, body_ind, 0)
            lines.append(f'{body_ind}fields_set.add("{f.py_name}")')
        by_wire = {f.wire_name: f.py_name for f in t.fields}
        for r in t.requires:  # the IDL's `allOf`: the validator words the error
            values = "(" + "".join(f"{v!r}, " for v in r.values) + ")"
            present = " or ".join(by_wire[name] for name in r.any_of)
            lines += [f"    if {by_wire[r.when]} in {values} and not ({present}):", "        return None"]
        lines.append("    values = {" + ", ".join(f'"{f.py_name}": {f.py_name}' for f in t.fields) + "}")
        if t.open:
            lines += [
                "    if len(d) > len(fields_set):",
                f"        extra = {{k: v for k, v in d.items() if k not in _KNOWN_{t.name}}}",
                "        if not _sound(extra, _FREE_DEPTH, floats):",
                "            return None",
                "        fields_set.update(extra)  # pydantic counts unknown keys as set fields too",
                "    else:",
                "        extra = {}",
                *self._new_model(t.name, "extra"),
            ]
        else:
            lines += [
                "    if len(d) > len(fields_set):",
                "        return None",
                *self._new_model(t.name, "None"),
            ]
        known = ", ".join(json.dumps(f.wire_name) for f in t.fields)
        lines += ["", "", f"_KNOWN_{t.name} = frozenset({{{known}}})"]
        return lines

    def _plain_bad(self, t: TypeRef, v: str) -> str:
        if t.kind == "string":
            return f"type({v}) is not str"
        if t.kind == "boolean":
            return f"type({v}) is not bool"
        if t.kind == "integer":
            return f"type({v}) is not int or not _INT_MIN <= {v} <= _INT_MAX"
        if t.kind == "number":
            return f"not _plain_float({v})"
        if t.kind == "any":  # checked as the one element of a list, one level up
            return f"{v} is None or not _plain([{v}], _FREE_DEPTH + 1)"
        assert t.kind == "map"
        return f"type({v}) is not dict or not _plain({v}, _FREE_DEPTH)"

    def _json_value(self, t: TypeRef, src: str, dst: str, ind: str, depth: int) -> list[str]:
        if t.kind == "number":  # a float, or a `JsonNumber` as the fragment of its text
            return [f"{ind}{dst} = _number_json({src})", f"{ind}if {dst} is None:", f"{ind}    return None"]
        if t.kind == "ref":
            return [f"{ind}{dst} = _json_{t.ref}({src})", f"{ind}if {dst} is None:", f"{ind}    return None"]
        if t.kind == "array":
            assert t.items is not None
            item, out = f"{dst}_i{depth}", f"{dst}_a{depth}"
            if not _has_ref(t.items) and t.items.kind != "array":
                return [
                    f"{ind}{dst} = list({src})",
                    f"{ind}for {item} in {dst}:",
                    f"{ind}    if {self._plain_bad(t.items, item)}:",
                    f"{ind}        return None",
                ]
            lines = [f"{ind}{out}: list[Any] = []", f"{ind}for {item} in {src}:"]
            lines += self._json_value(t.items, item, f"{dst}_x{depth}", ind + "    ", depth + 1)
            lines += [f"{ind}    {out}.append({dst}_x{depth})", f"{ind}{dst} = {out}"]
            return lines
        return [f"{ind}{dst} = {src}", f"{ind}if {self._plain_bad(t, dst)}:", f"{ind}    return None"]

    def json_encoder(self, t: WireType) -> list[str]:
        lines = [
            "",
            "",
            f"def _json_{t.name}(m: Any) -> dict[str, Any] | None:",
            '    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it',
            '    byte for byte as `json` does."""',
            "    out: dict[str, Any] = {}",
        ]
        for f in t.fields:
            if f.emit == "always":
                ind = "    "
            elif f.emit == "if_nonempty":
                lines.append(f"    if m.{f.py_name}:")
                ind = "        "
            else:
                lines.append(f"    if m.{f.py_name} is not None:")
                ind = "        "
            lines += self._json_value(f.type, f"m.{f.py_name}", f"{f.py_name}_v", ind, 0)
            lines.append(f'{ind}out["{f.wire_name}"] = {f.py_name}_v')
        if t.open:
            lines += [
                "    extra = m.__pydantic_extra__",
                "    if extra:",
                "        if not _plain(extra, _FREE_DEPTH):",
                "            return None",
                "        out.update(extra)",
            ]
        lines.append("    return out")
        return lines

    def render(self, header: str) -> str:
        body: list[str] = []
        for t in self.idl.types:
            body += self.decoder(t)
        for t in self.idl.types:
            body += self.json_encoder(t)
        names = [t.name for t in self.idl.types]
        body += [
            "",
            "",
            "install(",
            "    {" + ", ".join(f"models.{n}: _decode_{n}" for n in names) + "},",
            "    {" + ", ".join(f"models.{n}: _json_{n}" for n in names) + "},",
            ")",
        ]
        checks = [f"{name} = check_for({json.dumps(p)})" for p, name in self.checks.items()]
        head = [
            header.rstrip("\n"),
            '"""The fast paths of `to_json` and `from_json`, written out field by field from the IDL.',
            "",
            "The rules they follow, and when they decline, are in `_speed`'s docstring.",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Any",
            "",
            "from . import models",
            "from ._speed import FLOAT_MAX as _FLOAT_MAX",
            "from ._speed import FREE_DEPTH as _FREE_DEPTH",
            "from ._speed import INT_MAX as _INT_MAX",
            "from ._speed import INT_MIN as _INT_MIN",
            "from ._speed import MISS as _MISS",
            "from ._speed import check_for, install",
            "from ._speed import number_json as _number_json",
            "from ._number import int_number as _int_number",
            "from ._speed import float_ok as _float_ok",
            "from ._speed import new as _new",
            "from ._speed import set_dict as _set_dict",
            "from ._speed import set_extra as _set_extra",
            "from ._speed import set_fields_set as _set_fields_set",
            "from ._speed import set_private as _set_private",
            "from ._speed import plain as _plain",
            "from ._speed import plain_float as _plain_float",
            "from ._speed import sound as _sound",
            "",
            "__all__: list[str] = []",
            "",
            *checks,
        ]
        return "\n".join(head + body) + "\n"


def _schemas_module(idl: Idl, header: str) -> str:
    # The published bundle's form of each type (`jsonschema_target`), so that FastAPI and every
    # pydantic path show what the bundle shows: requirements under `dependentSchemas`.
    defs = published(idl)["$defs"]
    text = json.dumps({t.name: defs[t.name] for t in idl.types}, indent=1, ensure_ascii=False)
    if '"""' in text:
        raise RuntimeError("a schema holds three quotes in a row; _schemas.py cannot embed it")
    classes = ", ".join(f'models.{t.name}: "{t.name}"' for t in idl.types)
    return (
        f"{header}"
        '"""Each wire type\'s JSON Schema from the IDL: what pydantic gives on every path."""\n\n'
        "from __future__ import annotations\n\n"
        "import json\n"
        "from typing import Any\n\n"
        "from . import models\n"
        "from ._base import install_schemas\n\n"
        "__all__: list[str] = []\n\n"
        f'_SCHEMAS: dict[str, Any] = json.loads(r"""{text}""")\n'
        f"\ninstall_schemas({{{classes}}}, _SCHEMAS)\n"
    )


def _nullable_fields(t: WireType) -> list[str]:
    """The fields that refuse `null`: optional ones without a default (None in Python, absent
    on the wire), and every field of any JSON value (whose Python type, `Any`, takes None)."""
    return [f.py_name for f in t.fields if f.emit == "if_present" or f.type.kind == "any"]


def render(idl: Idl) -> dict[str, str]:
    support = support_files(idl, "python")
    helpers = _helpers(idl, support)
    env = environment("python")
    env.globals["encode_value"] = _encode_value
    env.globals["nullable_fields"] = _nullable_fields
    env.globals["number_fields"] = _number_fields
    env.globals["py_name"] = lambda t, wire: next(f.py_name for f in t.fields if f.wire_name == wire)
    header = _comment(idl)
    number_types = [t.name for t in idl.types if _number_fields(t)]
    ctx = {"idl": idl, "header": header, "helpers": helpers, "number_types": number_types}
    files = {
        f"{PACKAGE}/models.py": _models(idl, helpers),
        f"{PACKAGE}/py.typed": "",
    }
    for name in ("__init__.py", "_bases.py", "_serde.py"):
        files[f"{PACKAGE}/{name}"] = env.get_template(name + ".jinja").render(ctx)
    # Written out field by field, it is long; ruff (pinned) lays it out.
    files[f"{PACKAGE}/_fast.py"] = _ruff_format(_Fast(idl).render(header))
    files[f"{PACKAGE}/_schemas.py"] = _ruff_format(_schemas_module(idl, header))
    if idl.loop is not None:
        files[f"{PACKAGE}/loop_data.py"] = _ruff_format(loop_data.python_module(idl.loop, header))
    return files


def _ruff_format(text: str) -> str:
    """`text` formatted by ruff with fixed options, whatever the machine's configuration."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--line-length=110", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"ruff could not format the generated _fast.py:\n{done.stderr}")
    return done.stdout
