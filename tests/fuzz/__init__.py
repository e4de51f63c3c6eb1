"""Cross-language differential fuzzer (issue #12): the same documents through the Python
models, the TypeScript package and the Rust crate, and any difference in verdict, in emitted
bytes, or an error that is not the language's wire error, is a failure.

    python -m tests.fuzz --count 2000 --seed 1

- `generate`: the seeded, deterministic document generator (classes `mutate`, `unicode`,
  `number`, `nesting`, `framing`, for every wire type);
- `drivers`: a batch written to a folder laid out like idl/examples, run through Python in
  process and through the TypeScript and Rust conformance CLIs;
- `compare`: the verdict per document (the emitted bytes of every accepted one) and
  the report.

The JSON-level rules every language follows (docs/limits.md): not JSON (NaN/Infinity
literals, invalid UTF-8, lone surrogate escapes in values or keys, trailing garbage) is
refused; a number beyond the range of a double is refused (integers within it are kept
exactly); nesting past 100 levels (the document's object being level 1) is refused, 100 is
accepted.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tests.fuzz.compare import Report
from tests.fuzz.drivers import LANGUAGES, prepare, run_batch
from tests.fuzz.generate import Doc, documents, generate

__all__ = ["only", "run", "run_docs"]


def run_docs(
    seed: int,
    docs: Iterable[Doc],
    *,
    batch: int = 5000,
    languages: Sequence[str] = LANGUAGES,
    keep_failures: int = 20,
    save: Path | None = None,
    progress: Callable[[Report], None] | None = None,
    clis: dict[str, Path] | None = None,
) -> Report:
    """Every document through every language, `batch` files at a time (`clis`: see `drivers.prepare`)."""
    report = Report(seed, tuple(languages), keep_failures=keep_failures)
    with tempfile.TemporaryDirectory(prefix="toolnexus-fuzz-cli-") as scratch:
        t0 = time.perf_counter()
        commands = prepare(languages, Path(scratch), clis)
        report.seconds["build"] = time.perf_counter() - t0
        _batches(report, docs, commands, "python" in languages, batch, save, progress)
    return report


def _batches(
    report: Report,
    docs: Iterable[Doc],
    commands: dict[str, list[str]],
    python: bool,
    batch: int,
    save: Path | None,
    progress: Callable[[Report], None] | None,
) -> None:
    languages = report.languages
    it = iter(docs)
    while True:
        t0 = time.perf_counter()
        chunk = []
        for d in it:
            chunk.append(d)
            if len(chunk) >= batch:
                break
        report.seconds["generate"] += time.perf_counter() - t0
        if not chunk:
            break
        t0 = time.perf_counter()
        result = run_batch(chunk, commands, python)
        report.seconds["run"] += time.perf_counter() - t0
        for lang, s in result.seconds.items():
            report.seconds[lang] += s
        report.cli_runs.update(result.cli_runs)
        t0 = time.perf_counter()
        for d in chunk:
            verdict = report.add(d, {lang: result.outcomes[lang][d.index] for lang in languages})
            if save is not None and verdict.failures:
                save.mkdir(parents=True, exist_ok=True)
                (save / f"{d.index:09d}-{d.type_name}-{d.cls}.json").write_bytes(d.raw)
        report.seconds["compare"] += time.perf_counter() - t0
        if progress is not None:
            progress(report)


def _generate_batch(seed: int, start: int, count: int) -> list[Doc]:
    return list(documents(seed, count, start))


def _prefetched(seed: int, count: int, start: int, batch: int) -> Iterator[Doc]:
    """The documents, each batch generated in a worker process while the previous one runs."""
    bounds = [(s, min(batch, start + count - s)) for s in range(start, start + count, batch)]
    if len(bounds) <= 1:
        yield from documents(seed, count, start)
        return
    with ProcessPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(_generate_batch, seed, *bounds[0])
        for following in [*bounds[1:], None]:
            docs = pending.result()
            if following is not None:
                pending = pool.submit(_generate_batch, seed, *following)
            yield from docs


def run(seed: int, count: int, start: int = 0, *, batch: int = 5000, **kwargs: Any) -> Report:
    """Documents `start` .. `start + count - 1` of `seed`."""
    return run_docs(seed, _prefetched(seed, count, start, batch), batch=batch, **kwargs)


def only(seed: int, indices: Iterable[int], **kwargs: Any) -> Report:
    """The documents of `seed` with these indices."""
    return run_docs(seed, (generate(seed, i) for i in indices), **kwargs)
