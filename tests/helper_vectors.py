"""The helper vectors in idl/helpers: edge inputs of `from_path`, `from_url`, `from_bytes`,
`pending` and `auth_required`, and what every language's helper must make of them.

Each language answers one JSON line per case (`{"case", "ok", "value"|"error", "message"?}`):
Python here (in process), TypeScript and Rust through their conformance CLIs (`--helpers`).
`judge` compares an answer with the case. `python -m tests.helper_vectors` prints the table.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolnexus import ContentPart, Request, auth_required, pending

REPO = Path(__file__).resolve().parent.parent
HELPERS = REPO / "idl" / "helpers"
TS_DIR = REPO / "tests" / "typescript"
FRESH_ID = re.compile(r"^pnd-[0-9a-f]{32}$")


@dataclass(frozen=True)
class Case:
    helper: str
    name: str
    args: dict[str, Any]
    expected: Any  # the part's or the result's wire form, when the helper gives one
    error: str | None  # else the code of the error it must give

    @property
    def id(self) -> str:
        return f"{self.helper}/{self.name}"


def cases() -> list[Case]:
    found = []
    for path in sorted(HELPERS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for c in doc["cases"]:
            found.append(
                Case(doc["helper"], c["name"], c["args"], c.get("part", c.get("result")), c.get("error"))
            )
    return found


def make_files(root: Path, files: dict[str, str | None]) -> None:
    """Makes `files` under `root`: a name ending in `/` is a directory, any other a file of
    the base64 content given."""
    for name, content in files.items():
        if name.endswith("/"):
            (root / name).mkdir(parents=True, exist_ok=True)
        else:
            (root / name).write_bytes(base64.b64decode(content or ""))


def with_fresh_ids(value: Any) -> Any:
    """`value` with a pending request's id `pnd-<32 hex>` written `<pnd>`, as the vectors write it."""
    pending_ = (value.get("metadata") or {}).get("pending") if isinstance(value, dict) else None
    if isinstance(pending_, dict) and isinstance(pending_.get("id"), str) and FRESH_ID.match(pending_["id"]):
        pending_["id"] = "<pnd>"
    return value


# --- Python ----------------------------------------------------------------------------------------


def _file_code(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "ENOENT"
    if isinstance(exc, NotADirectoryError):
        return "ENOTDIR"
    if isinstance(exc, IsADirectoryError):
        return "EISDIR"
    text = str(exc)
    if isinstance(exc, ValueError) and "not a regular file" in text:
        return "ENOTREG"
    if isinstance(exc, ValueError) and ("over the limit" in text or "grew past the limit" in text):
        return "EFBIG"
    if isinstance(exc, ValueError) and "NUL" in text:
        return "EINVAL"
    if isinstance(exc, ValueError) and "is empty: a part carries content" in text:
        return "empty-content"
    return f"unexpected {type(exc).__name__}"


def _value_code(exc: BaseException) -> str:
    """The code of a `ValueError` from `from_url`, `from_bytes` or `pending`, from its wording."""
    text = str(exc)
    for code, words in (
        ("empty-content", "needs at least one byte"),
        ("empty-url", "needs a non-empty URL"),
        ("missing-mime-type", "needs its MIME type"),
        ("missing-mime-type", "needs a MIME type"),
        ("bad-mime-type", "MIME type"),
        ("bad-data-url", "data: URL"),
        ("bad-url", "URL"),
    ):
        if isinstance(exc, ValueError) and words in text:
            return code
    return f"unexpected {type(exc).__name__}"


def _python_value(case: Case, tmp: Path) -> Any:
    a = case.args
    if case.helper == "from_url":
        return ContentPart.from_url(a["url"], a.get("mimeType")).to_wire()
    if case.helper == "from_bytes":
        return ContentPart.from_bytes(base64.b64decode(a["base64"]), a["mimeType"]).to_wire()
    if case.helper == "from_path":
        make_files(tmp, a["files"])
        # A string join: pathlib would drop a trailing slash, which is the point of some cases.
        path = os.path.join(tmp, a["path"]) if a["path"] else ""
        kw = {"max_bytes": a["maxBytes"]} if "maxBytes" in a else {}
        return ContentPart.from_path(path, **kw).to_wire()
    if case.helper == "pending":
        return pending(Request.from_wire(a["request"])).to_wire()
    if case.helper == "auth_required":
        return auth_required(a["url"], a["prompt"]).to_wire()
    raise LookupError(f"no helper {case.helper!r}")


def python_answers() -> dict[str, dict[str, Any]]:
    out = {}
    for case in cases():
        with tempfile.TemporaryDirectory() as tmp:
            try:
                value = _python_value(case, Path(tmp))
            except (OSError, ValueError) as exc:
                code = _file_code(exc) if case.helper == "from_path" else _value_code(exc)
                out[case.id] = {"case": case.id, "ok": False, "error": code, "message": str(exc)}
            else:
                out[case.id] = {
                    "case": case.id,
                    "ok": True,
                    "value": with_fresh_ids(json.loads(json.dumps(value))),
                }
    return out


# --- TypeScript and Rust, through their CLIs -------------------------------------------------------


def _lines(cmd: list[str], cwd: Path) -> dict[str, dict[str, Any]]:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=600)
    if proc.returncode not in (0, 1):  # 1: the CLI judged a case failed; the verdict here is the test's
        raise RuntimeError(proc.stderr.decode("utf-8", "replace"))
    lines = proc.stdout.decode("utf-8").split("\n")
    return {row["case"]: row for row in map(json.loads, filter(None, lines))}


def typescript_answers() -> dict[str, dict[str, Any]]:
    if not (TS_DIR / ".cache" / "conformance.js").exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    return _lines(["node", ".cache/conformance.js", "--helpers", str(HELPERS)], TS_DIR)


def rust_answers() -> dict[str, dict[str, Any]]:
    return _lines(["bash", "tests/rust/run.sh", "conformance", "--helpers", str(HELPERS)], REPO)


SOURCES: dict[str, Callable[[], dict[str, dict[str, Any]]]] = {
    "python": python_answers,
    "typescript": typescript_answers,
    "rust": rust_answers,
}


def judge(case: Case, answer: dict[str, Any] | None) -> str:
    """`pass`, or what went wrong."""
    if answer is None:
        return "no answer"
    if case.error is not None:
        if answer["ok"]:
            return f"gave {json.dumps(answer['value'], ensure_ascii=False)}, not the error {case.error}"
        if answer["error"] != case.error:
            return f"error {answer['error']} ({answer.get('message')}), not {case.error}"
        return "pass"
    if not answer["ok"]:
        return f"error {answer['error']}: {answer.get('message')}"
    if answer["value"] != case.expected:
        return f"gave {json.dumps(answer['value'], ensure_ascii=False)}"
    return "pass"


if __name__ == "__main__":
    all_cases = cases()
    table = {name: source() for name, source in SOURCES.items()}
    print("| case | " + " | ".join(SOURCES) + " |")
    print("|---|" + "---|" * len(SOURCES))
    for case in all_cases:
        cells = [judge(case, table[name].get(case.id)) for name in SOURCES]
        print(f"| {case.id} | " + " | ".join(cells) + " |")
