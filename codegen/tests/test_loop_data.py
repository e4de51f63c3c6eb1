"""The loop's data (`idl/loop.json`, `codegen.loop_data`): loaded with its checks, and rendered
into every language with the same values and texts."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from codegen import __main__ as cli
from codegen.idl import IdlError, load, load_loop_data

IDL = cli.ROOT / "idl"
DATA = json.loads((IDL / "loop.json").read_text(encoding="utf-8"))


def _filled(text: str) -> tuple[str, dict[str, str]]:
    """The text with each placeholder filled with a value of its own, and those values."""
    values = {name: f"<{name}-{i}>" for i, name in enumerate(re.findall(r"\{([a-z_]+)\}", text))}
    return re.sub(r"\{([a-z_]+)\}", lambda m: values[m.group(1)], text), values


def test_every_language_gets_every_limit_reason_extension_and_text() -> None:
    files = cli.render_all()
    modules = {
        "python": files["python/toolnexus_wire/loop_data.py"],
        "typescript": files["typescript/src/loop.ts"],
        "rust": files["rust/src/loop_data.rs"],
    }
    for language, text in modules.items():
        for name, spec in DATA["limits"].items():
            assert re.search(rf"\b{name}\b[^=\n]*= {spec['value']}\b", text), (language, name)
        for reason in DATA["resumeReasons"]:
            assert f'"{reason["name"]}"' in text, (language, reason["name"])
        for ext, mime in DATA["extensions"].items():
            assert f'"{ext}"' in text and f'"{mime}"' in text, (language, ext)
        for name, spec in DATA["texts"].items():
            for literal in re.split(r"\{[a-z_]+\}", spec["text"]):
                quoted = json.dumps(literal, ensure_ascii=False)  # ruff writes one with `"` in single quotes
                assert not literal or quoted in text or repr(literal) in text, (language, name, literal)


def test_the_python_texts_fill_their_placeholders() -> None:
    from toolnexus_wire import loop_data

    assert DATA["limits"]["MESSAGE_LIMIT"]["value"] == loop_data.MESSAGE_LIMIT
    assert list(loop_data.RESUME_REASONS) == [r["name"] for r in DATA["resumeReasons"]]
    for name, spec in DATA["texts"].items():
        want, values = _filled(spec["text"])
        function = getattr(loop_data, name)
        got = function(**values) if len(values) > 1 else function(*values.values())
        assert got == want, name


def _idl_with(tmp_path: Path, data: dict[str, object]) -> Path:
    root = tmp_path / "idl"
    shutil.copytree(IDL, root)
    (root / "loop.json").write_text(json.dumps(data), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"limits": {}}, r"MAX_DEPTH is required"),
        ({"limits": {"MAX_DEPTH": {"value": -1, "description": "x"}}}, r"#/limits/MAX_DEPTH: .*non-negative"),
        ({"texts": {"odd": {"text": "a {b", "description": "x"}}}, r"#/texts/odd/text: a brace"),
        ({"texts": {"k": {"text": "as {ref}", "description": "x"}}}, r"#/texts/k/text: \{ref\} is a keyword"),
        ({"texts": {"Odd": {"text": "a", "description": "x"}}}, r"#/texts/Odd: a snake_case name"),
        ({"extensions": {"PNG": "image/png"}}, r"#/extensions/PNG"),
        ({"texts": {"t": {"text": "a", "description": ""}}}, r"#/texts/t/description"),
        ({"more": 1}, r"unknown keys \['more'\]"),
    ],
)
def test_a_bad_file_is_refused_naming_where(tmp_path: Path, change: dict[str, object], message: str) -> None:
    data = {**DATA, **change}
    with pytest.raises(IdlError, match=message):
        load(_idl_with(tmp_path, data))


def test_an_idl_without_the_file_gets_the_depth_alone(tmp_path: Path) -> None:
    root = tmp_path / "idl"
    root.mkdir()
    data, raw = load_loop_data(root)
    assert raw == b""
    assert [n for n, _, _ in data.limits] == ["MAX_DEPTH"]
    assert not data.texts and not data.extensions and not data.resume_reasons


def test_the_file_counts_in_the_idls_digest(tmp_path: Path) -> None:
    before = load(IDL).sha256
    data = json.loads(json.dumps(DATA))
    data["limits"]["MESSAGE_LIMIT"]["value"] += 1
    assert load(_idl_with(tmp_path, data)).sha256 != before
