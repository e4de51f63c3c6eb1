"""`python -m tests.fuzz --count N --seed S`: run N generated documents through every language
and print the report; exit status 1 on any disagreement or escaped error."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tests.fuzz import only, run
from tests.fuzz.drivers import LANGUAGES
from tests.fuzz.generate import generate


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    p.add_argument("--count", type=int, default=2000, help="documents (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", type=int, default=0, help="index of the first document")
    p.add_argument("--batch", type=int, default=5000, help="files per batch folder (default 5000)")
    p.add_argument("--show", type=int, default=10, help="failures printed in full (default 10)")
    p.add_argument(
        "--languages", default=",".join(LANGUAGES), help="comma-separated subset of " + ",".join(LANGUAGES)
    )
    p.add_argument("--only", help="comma-separated document indices: run just those (and print them)")
    p.add_argument("--save", type=Path, help="write every failing document into this folder")
    p.add_argument(
        "--typescript-cli", type=Path, help="a compiled conformance.js to run instead of the work tree's"
    )
    p.add_argument(
        "--rust-cli", type=Path, help="a toolnexus-conformance binary to run instead of the work tree's"
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line at the end")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)
    languages = tuple(x for x in args.languages.split(",") if x)
    if unknown := set(languages) - set(LANGUAGES):
        p.error(f"unknown languages: {sorted(unknown)}")
    started = time.perf_counter()

    def progress(report) -> None:  # type: ignore[no-untyped-def]
        if not args.quiet:
            n = sum(report.failure_counts.values())
            print(
                f"  {report.docs} documents, {n} failures, {time.perf_counter() - started:.1f}s",
                file=sys.stderr,
            )

    kwargs = dict(
        batch=args.batch,
        languages=languages,
        keep_failures=max(args.show, 1),
        save=args.save,
        progress=progress,
        clis={k: v for k, v in (("typescript", args.typescript_cli), ("rust", args.rust_cli)) if v},
    )
    if args.only:
        indices = [int(x) for x in args.only.split(",")]
        for i in indices:
            d = generate(args.seed, i)
            print(f"#{i} {d.type_name} {d.cls} {d.variant}: {d.raw!r}")
        report = only(args.seed, indices, **kwargs)
    else:
        report = run(args.seed, args.count, args.start, **kwargs)
    print(report.text(show=args.show))
    print(f"wall time {time.perf_counter() - started:.1f}s")
    if args.json:
        print(json.dumps(report.summary()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
