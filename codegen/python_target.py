"""Python target: `generated/python/toolnexus_wire/`.

The pydantic v2 models come from datamodel-code-generator (pinned exactly in
pyproject.toml); the base class, the wire encoders and the package's
`__init__` come from the jinja2 templates in `templates/python/`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import environment, header_lines
from .idl import Idl, TypeRef, WireType

__all__ = ["render"]

PACKAGE = "python/toolnexus_wire"

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


def _models(idl: Idl) -> str:
    """Run datamodel-codegen on the bundled schema and return models.py."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "toolnexus.schema.json"
        out = Path(tmp) / "models.py"
        src.write_text(json.dumps(idl.bundle()), encoding="utf-8")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "datamodel_code_generator",
                f"--input={src}",
                f"--output={out}",
                f"--custom-file-header={_comment(idl).rstrip()}",
                f"--base-class-map={json.dumps(_base_class_map(idl))}",
                *DATAMODEL_CODEGEN_ARGS,
            ],
            check=True,
            env=env,
            cwd=tmp,
        )
        text = out.read_text(encoding="utf-8")
    return _drop_root_model(text, idl)


def _nullable_fields(t: WireType) -> list[str]:
    """Optional fields without a default: None in Python, absent on the wire, never `null`."""
    return [f.py_name for f in t.fields if f.emit == "if_present"]


def _base_class_map(idl: Idl) -> dict[str, str]:
    """Types with such fields get a base of their own (from `_bases.py`) that refuses `null`."""
    return {t.name: f"toolnexus_wire._bases.{t.name}Base" for t in idl.types if _nullable_fields(t)}


def _drop_root_model(text: str, idl: Idl) -> str:
    """The bundle's root (a document of `$defs`) has no wire meaning; datamodel-codegen
    still emits a RootModel for it. Remove it, failing loudly if its shape changes."""
    root_class = "".join(part.capitalize() for part in idl.name.split("_"))
    marker = f"\n\nclass {root_class}(RootModel[Any]):\n"
    start = text.find(marker)
    if start < 0 or text.count("RootModel") != 2:
        raise RuntimeError(
            f"datamodel-codegen output changed: expected exactly one `class {root_class}(RootModel[Any])`"
        )
    end = text.find("\n\nclass ", start + len(marker))
    text = text[:start] + (text[end:] if end >= 0 else "\n")
    old_import = "from pydantic import ConfigDict, Field, RootModel\n"
    if old_import not in text:
        raise RuntimeError(f"datamodel-codegen output changed: expected the import {old_import!r}")
    return text.replace(old_import, "from pydantic import ConfigDict, Field\n")


def _encode_value(t: TypeRef, expr: str) -> str:
    """A Python expression that encodes `expr` (a value of type `t`) to its wire form."""
    if t.kind == "ref":
        return f"_encode_{t.ref}({expr})"
    if t.kind == "array":
        assert t.items is not None
        if t.items.kind in ("ref", "array"):
            return f"[{_encode_value(t.items, 'v')} for v in {expr}]"
        return f"list({expr})"
    return expr


#: The IDL's pattern for standard padded base64 (RFC 4648 section 4), which `_fast.py`
#: checks with a specialised function rather than the regex.
BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


def render(idl: Idl) -> dict[str, str]:
    env = environment("python")
    env.globals["base64_pattern"] = BASE64_PATTERN
    env.globals["encode_value"] = _encode_value
    env.globals["nullable_fields"] = _nullable_fields
    ctx = {"idl": idl, "header": _comment(idl)}
    files = {
        f"{PACKAGE}/models.py": _models(idl),
        f"{PACKAGE}/py.typed": "",
    }
    for name in ("__init__.py", "_base.py", "_bases.py", "_serde.py"):
        files[f"{PACKAGE}/{name}"] = env.get_template(name + ".jinja").render(ctx)
    # Written out field by field, it is long and loops in jinja; ruff (pinned) lays it out.
    files[f"{PACKAGE}/_fast.py"] = _ruff_format(env.get_template("_fast.py.jinja").render(ctx))
    return files


def _ruff_format(text: str) -> str:
    """`text` formatted by ruff with fixed options, whatever the machine's configuration."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--line-length=110", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout
