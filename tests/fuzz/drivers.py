"""Batch drivers: a batch of documents through the Python models (in process), the TypeScript
conformance CLI and the Rust conformance CLI, each answer an `Outcome`.

The CLIs read a folder laid out like idl/examples (`<Type>/valid/<n>.json`) and print one
JSON line per file: `{"vector", "ok": true, "emitted"}` or `{"vector", "ok": false, "error",
"path"}` for a wire error. Anything else is a failure of the language (`kind == "escaped"`):

- a line without `path` on a rejection, or a line of another shape;
- no line for a document: the CLI crashed on it (the TypeScript CLI rethrows an error that
  is not a `WireError` and so prints nothing for the whole folder; the Rust CLI aborts on a
  panic or a stack overflow). A run with missing lines is narrowed down by running the
  documents still unanswered again, halving the set when a run makes no progress, until each
  crashing document is alone; its exit status and the end of its stderr become the error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import toolnexus
from tests.fuzz.generate import EXAMPLES, REPO, Doc

TS_DIR = REPO / "tests" / "typescript"
TS_CLI = TS_DIR / ".cache" / "conformance.js"
RUST_RUN = REPO / "tests" / "rust" / "run.sh"
LANGUAGES = ("python", "typescript", "rust")


@dataclass(frozen=True)
class Outcome:
    kind: str  # "accept", "reject" (the language's wire error) or "escaped" (anything else)
    emitted: str | None = None  # when accepted
    error: str = ""  # when rejected or escaped
    path: str | None = None  # the wire error's path

    def brief(self, width: int = 160) -> str:
        if self.kind == "accept":
            text = f"accepted {self.emitted!r}"
        elif self.kind == "reject":
            text = f"rejected at {self.path}: {self.error}"
        else:
            text = f"ESCAPED: {self.error}"
        return text if len(text) <= width else text[: width - 1] + "…"


class DriverError(RuntimeError):
    """A CLI that cannot run at all (not a verdict on any document)."""


# --------------------------------------------------------------------------- Python


def python_outcome(doc: Doc) -> Outcome:
    cls = getattr(toolnexus, doc.type_name)
    try:
        emitted = cls.from_json(doc.raw).to_json()
    except toolnexus.WireError as exc:
        return Outcome("reject", error=str(exc), path=exc.errors[0][0] if exc.errors else None)
    except Exception as exc:
        return Outcome("escaped", error=f"{type(exc).__name__}: {exc}"[:2000])
    if not isinstance(emitted, str):
        return Outcome("escaped", error=f"to_json returned {type(emitted).__name__}")
    return Outcome("accept", emitted=emitted)


def run_python(docs: Sequence[Doc]) -> dict[int, Outcome]:
    return {d.index: python_outcome(d) for d in docs}


# --------------------------------------------------------------------------- the CLIs


def rust_binary() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "support" / "rust" / "target"))
    return target / "debug" / "toolnexus-conformance"


def _vector_count() -> int:
    return sum(1 for kind in ("valid", "invalid") for _ in EXAMPLES.glob(f"*/{kind}/*.json"))


def _answers_examples(cmd: list[str]) -> tuple[bool, str]:
    """Whether `cmd` answers every vector of idl/examples (a CLI that works at all)."""
    try:
        proc = subprocess.run([*cmd, str(EXAMPLES)], capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return False, "timed out over idl/examples"
    answered = len(_parse_lines(proc.stdout))
    return (
        answered == _vector_count(),
        f"{answered} lines, exit status {proc.returncode}: {proc.stderr.decode(errors='replace')[-1500:]}",
    )


def _snapshot_typescript(into: Path) -> list[str]:
    """A private copy of the compiled CLI and the package it imports, so that a rebuild in the
    work tree while the fuzzer runs (run.sh build deletes both first) does not pull them away."""
    if into.exists():
        shutil.rmtree(into)
    shutil.copytree(TS_DIR / ".cache", into / "cli")
    pkg = into / "node_modules" / "toolnexus-contract"
    pkg.mkdir(parents=True)
    shutil.copy2(REPO / "support" / "typescript" / "package.json", pkg / "package.json")
    shutil.copytree(REPO / "support" / "typescript" / "dist", pkg / "dist")
    return ["node", str(into / "cli" / "conformance.js")]


def _snapshot_rust(into: Path) -> list[str]:
    into.mkdir(parents=True, exist_ok=True)
    binary = into / "toolnexus-conformance"
    shutil.copy2(rust_binary(), binary)
    return [str(binary)]


def prepare(
    languages: Iterable[str], scratch: Path, clis: dict[str, Path] | None = None, wait: float = 300.0
) -> dict[str, list[str]]:
    """Build (if need be) and snapshot each CLI once per run: {language: command before the folder}.

    Others may be rebuilding the CLIs in the work tree: a snapshot that does not answer every
    vector of idl/examples is taken again, for up to `wait` seconds. `clis` names CLIs to use
    as they are instead (a `conformance.js`, or a Rust binary), e.g. those of another checkout.
    """
    commands: dict[str, list[str]] = {}
    deadline = time.monotonic() + wait
    for lang in languages:
        if lang == "python":
            continue
        if clis and lang in clis:
            path = clis[lang].resolve()
            cmd = ["node", str(path)] if path.suffix in (".js", ".mjs") else [str(path)]
            ok, why = _answers_examples(cmd)
            if not ok:
                raise DriverError(f"{path} does not run over idl/examples: {why}")
            commands[lang] = cmd
            continue
        while True:
            why = ""
            try:
                if lang == "typescript":
                    if not TS_CLI.exists():  # as tests/conformance.py: build it when missing
                        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, capture_output=True)
                    cmd = _snapshot_typescript(scratch / "typescript")
                else:
                    # run.sh builds the binary (a no-op when it is fresh), then --help only prints usage.
                    proc = subprocess.run(
                        ["bash", str(RUST_RUN), "conformance", "--help"], cwd=REPO, capture_output=True
                    )
                    if proc.returncode != 0:
                        raise OSError(proc.stderr.decode(errors="replace")[-1500:])
                    cmd = _snapshot_rust(scratch / "rust")
                ok, why = _answers_examples(cmd)
            except OSError as exc:  # a file missing mid-build, a failed build
                ok, why = False, str(exc)
            if ok:
                commands[lang] = cmd
                break
            if time.monotonic() > deadline:
                raise DriverError(f"the {lang} conformance CLI does not run: {why}")
            time.sleep(5)
    return commands


def write_folder(docs: Iterable[Doc], folder: Path) -> None:
    for d in docs:
        path = folder / d.id
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(d.raw)


def _outcome_of_line(row: dict) -> Outcome:  # type: ignore[type-arg]
    if row.get("ok") is True and isinstance(row.get("emitted"), str):
        return Outcome("accept", emitted=row["emitted"])
    if row.get("ok") is False and isinstance(row.get("path"), str):
        return Outcome("reject", error=str(row.get("error", "")), path=row["path"])
    return Outcome("escaped", error=f"unexpected answer line: {json.dumps(row)[:500]}")


@dataclass
class _Run:
    lines: dict[str, Outcome]
    returncode: int | None  # None: timed out
    stderr: str


def _run_cli(cmd: list[str], folder: Path, n_docs: int) -> _Run:
    timeout = 60 + 0.05 * n_docs
    try:
        proc = subprocess.run([*cmd, str(folder)], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out, err, rc = exc.stdout or b"", exc.stderr or b"", None
    else:
        out, err, rc = proc.stdout, proc.stderr, proc.returncode
    return _Run(_parse_lines(out), rc, err.decode("utf-8", "replace"))


def _parse_lines(out: bytes) -> dict[str, Outcome]:
    lines: dict[str, Outcome] = {}
    # Split on "\n" only: emitted JSON may hold U+2028 and other characters splitlines() breaks at.
    for line in out.split(b"\n"):
        if not line.strip():
            continue
        try:
            row = json.loads(line.decode("utf-8", "surrogateescape"))
        except ValueError:
            continue  # a line cut short by a crash: its document counts as unanswered
        if isinstance(row, dict) and isinstance(row.get("vector"), str):
            lines[row["vector"]] = _outcome_of_line(row)
    return lines


class _CliBatch:
    """One language's CLI over a batch folder, narrowing crashes down to single documents."""

    def __init__(self, language: str, cmd: list[str], scratch: Path) -> None:
        self.language = language
        self.cmd = cmd
        self.scratch = scratch
        self.runs = 0
        self._sub = 0

    def start(self, folder: Path) -> subprocess.Popen[bytes]:
        self.runs += 1
        return subprocess.Popen([*self.cmd, str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def finish(self, proc: subprocess.Popen[bytes], docs: Sequence[Doc]) -> dict[int, Outcome]:
        try:
            out, err = proc.communicate(timeout=120 + 0.05 * len(docs))
            run = _Run(_parse_lines(out), proc.returncode, err.decode("utf-8", "replace"))
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            run = _Run(_parse_lines(out), None, err.decode("utf-8", "replace"))
        return self._settle(docs, run)

    def _settle(self, docs: Sequence[Doc], run: _Run) -> dict[int, Outcome]:
        answers = {d.index: run.lines[d.id] for d in docs if d.id in run.lines}
        missing = [d for d in docs if d.id not in run.lines]
        if not missing:
            return answers
        if len(docs) == 1:
            status = "timed out" if run.returncode is None else f"exit status {run.returncode}"
            tail = run.stderr.strip()[-1500:]
            return {docs[0].index: Outcome("escaped", error=f"no answer line ({status}); stderr: {tail}")}
        if not answers:
            self._canary()
        return answers | self._narrow(missing)

    def _narrow(self, docs: Sequence[Doc]) -> dict[int, Outcome]:
        run = self._run_subset(docs)
        answered = [d for d in docs if d.id in run.lines]
        if answered or len(docs) == 1:
            return self._settle(docs, run)
        half = len(docs) // 2
        return self._narrow(docs[:half]) | self._narrow(docs[half:])

    def _run_subset(self, docs: Sequence[Doc]) -> _Run:
        self._sub += 1
        folder = self.scratch / f"{self.language}-{self._sub}"
        write_folder(docs, folder)
        self.runs += 1
        try:
            return _run_cli(self.cmd, folder, len(docs))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _canary(self) -> None:
        """A run that answered nothing: is the CLI itself broken (a build under way, a missing
        module)? Run it over one valid vector; raise when that fails too."""
        vector = next(EXAMPLES.glob("ToolResult/valid/*.json"))
        folder = self.scratch / f"{self.language}-canary"
        target = folder / "ToolResult" / "valid" / vector.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(vector.read_bytes())
        try:
            run = _run_cli(self.cmd, folder, 1)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if not run.lines:
            raise DriverError(
                f"the {self.language} CLI answers nothing even for {vector.name} "
                f"(exit status {run.returncode}): {run.stderr.strip()[-2000:]}"
            )


@dataclass
class BatchResult:
    outcomes: dict[str, dict[int, Outcome]]  # language -> doc index -> outcome
    seconds: dict[str, float]
    cli_runs: dict[str, int]


def run_batch(
    docs: Sequence[Doc], commands: dict[str, list[str]], python: bool = True, keep: Path | None = None
) -> BatchResult:
    """Every document through Python (when `python`) and every CLI in `commands` (from
    `prepare`); the CLIs run side by side while Python runs in process."""
    scratch = Path(tempfile.mkdtemp(prefix="toolnexus-fuzz-batch-"))
    try:
        folder = scratch / "batch"
        write_folder(docs, folder)
        seconds: dict[str, float] = {}
        clis = {lang: _CliBatch(lang, cmd, scratch) for lang, cmd in commands.items()}
        started = {}
        for lang, cli in clis.items():
            started[lang] = (cli.start(folder), time.perf_counter())
        outcomes: dict[str, dict[int, Outcome]] = {}
        if python:
            t0 = time.perf_counter()
            outcomes["python"] = run_python(docs)
            seconds["python"] = time.perf_counter() - t0
        for lang, (proc, t0) in started.items():
            outcomes[lang] = clis[lang].finish(proc, docs)
            seconds[lang] = time.perf_counter() - t0  # wall time, overlapping the others
        if keep is not None:
            shutil.copytree(folder, keep, dirs_exist_ok=True)
        return BatchResult(outcomes, seconds, {lang: cli.runs for lang, cli in clis.items()})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
