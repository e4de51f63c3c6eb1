"""The comparer: one verdict per document from the three languages' outcomes, and the report.

A document fails when

- `escaped`: a language gave something other than its wire error: Python an exception other
  than `WireError`, a CLI a line of the wrong shape or no line at all (a crash);
- `verdict`: the languages that answered disagree on accept/reject;
- `bytes`: all accepted it, and the emitted texts differ.

A disagreement is put on the language that stands alone (two against one); `all` when all
three differ.

Every accepted document's emitted bytes are compared, numbers included: each language writes
a number back as it was written, its exponent spelled `e` with a sign (docs/limits.md, R6).

An object that repeats a key is refused by every language (R7); a document that does and is
accepted by all three fails as a `verdict` of `all`. The `repeats-a-key` column counts such
documents, judged by Python's `json` module apart from the three readers.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz.drivers import LANGUAGES, Outcome
from tests.fuzz.generate import Doc


@dataclass(frozen=True)
class Failure:
    doc: Doc
    kind: str  # "escaped", "verdict", "bytes"
    language: str  # the language that stands alone, or "all"
    outcomes: dict[str, Outcome]
    detail: str


def _odd_one(values: dict[str, Any]) -> str:
    groups = defaultdict(list)
    for lang, v in values.items():
        groups[v].append(lang)
    if len(groups) == 1:
        return ""
    singles = [langs[0] for langs in groups.values() if len(langs) == 1]
    if len(groups) == 2 and len(singles) == 1:
        return singles[0]
    return "all" if len(values) > 2 else "+".join(sorted(values))


@dataclass
class DocVerdict:
    failures: list[Failure]
    agreed: str | None  # "accept" / "reject" when every language answered alike
    compared: bool  # emitted bytes compared
    repeats_a_key: bool = False  # some object of the document names a key twice


def has_repeated_key(raw: bytes) -> bool:
    """Whether some object in `raw` repeats a key (as far as Python's `json` can read it)."""
    found = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        if len({k for k, _ in pairs}) != len(pairs):
            found = True
        return dict(pairs)

    # Past 1,024 levels every language refuses the text anyway (orjson's and serde_json's own
    # limits), so reading 2,000 deep is enough; Python's default limit stops at about 1,000.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 2_500))
    try:
        json.loads(raw.decode("utf-8", "surrogatepass"), object_pairs_hook=pairs_hook)
    except (ValueError, RecursionError):
        pass  # the objects read before the error were seen
    finally:
        sys.setrecursionlimit(limit)
    return found


def judge(doc: Doc, outcomes: dict[str, Outcome]) -> DocVerdict:
    failures = [
        Failure(doc, "escaped", lang, outcomes, o.error)
        for lang, o in outcomes.items()
        if o.kind == "escaped"
    ]
    verdicts = {lang: o.kind for lang, o in outcomes.items() if o.kind != "escaped"}
    agreed = None
    compared = False
    odd = _odd_one(verdicts)
    repeats = has_repeated_key(doc.raw)
    if odd:
        detail = " ".join(f"{lang}={v}" for lang, v in verdicts.items())
        failures.append(Failure(doc, "verdict", odd, outcomes, detail))
    elif verdicts and len(verdicts) == len(outcomes):
        agreed = next(iter(verdicts.values()))
        if agreed == "accept" and repeats:
            failures.append(Failure(doc, "verdict", "all", outcomes, "accepted an object that repeats a key"))
        elif agreed == "accept":
            compared = True
            emitted = {lang: o.emitted for lang, o in outcomes.items()}
            odd = _odd_one(emitted)
            if odd:
                failures.append(Failure(doc, "bytes", odd, outcomes, "emitted texts differ"))
    return DocVerdict(failures, agreed, compared, repeats)


def variant_label(doc: Doc) -> str:
    """The document's class and variant without its random particulars (seed file, bytes)."""
    v = doc.variant
    if doc.cls == "mutate":
        head, _, ops = v.partition(":")
        v = ("foreign" if head == "foreign" else head.split("/")[0]) + ":" + ops
    elif doc.cls == "framing":
        v = v.split(":")[0]
    return f"{doc.cls}/{v}"


def show_bytes(raw: bytes, limit: int = 240) -> str:
    """`repr` of the document, cut in the middle when long, plus hex when it is not ASCII."""
    text = repr(raw) if len(raw) <= limit else f"{raw[: limit // 2]!r} … {raw[-limit // 3 :]!r}"
    out = f"({len(raw)} bytes) {text}"
    bad = next((i for i, b in enumerate(raw) if b >= 0x80 or (b < 0x20 and b not in b"\t\n\r")), None)
    if bad is not None:
        lo = max(bad - 8, 0)
        out += f"\n        hex @{lo}: {raw[lo : lo + 24].hex(' ')}"
    return out


@dataclass
class Report:
    seed: int
    languages: tuple[str, ...] = LANGUAGES
    docs: int = 0
    per_class: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    failures: list[Failure] = field(default_factory=list)
    failure_counts: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # kind, language, class
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    cli_runs: Counter[str] = field(default_factory=Counter)
    keep_failures: int = 20
    # (kind, language, pattern) -> variant -> count, and -> class -> count
    groups: dict[tuple[str, str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    group_classes: dict[tuple[str, str, str], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )

    def add(self, doc: Doc, outcomes: dict[str, Outcome]) -> DocVerdict:
        v = judge(doc, outcomes)
        self.docs += 1
        c = self.per_class[doc.cls]
        c["docs"] += 1
        if v.agreed == "accept":
            c["accepted"] += 1
        elif v.agreed == "reject":
            c["rejected"] += 1
        c["bytes-compared"] += v.compared
        c["repeats-a-key"] += v.repeats_a_key
        if v.failures:
            c["failing"] += 1
        for f in v.failures:
            self.failure_counts[(f.kind, f.language, doc.cls)] += 1
            group = (f.kind, f.language, f.detail if f.kind == "verdict" else "")
            self.groups[group][variant_label(doc)] += 1
            self.group_classes[group][doc.cls] += 1
            if len(self.failures) < self.keep_failures:
                self.failures.append(f)
        return v

    @property
    def ok(self) -> bool:
        return not self.failure_counts

    def summary(self) -> dict[str, Any]:
        return {
            "docs": self.docs,
            "failures": {"/".join(k): n for k, n in sorted(self.failure_counts.items())},
            "bytes_compared": sum(c["bytes-compared"] for c in self.per_class.values()),
            "repeats_a_key": sum(c["repeats-a-key"] for c in self.per_class.values()),
        }

    def text(self, show: int = 10) -> str:
        lines = []
        total = sum(self.seconds.values())
        lines.append(
            f"toolnexus fuzz: seed {self.seed}, {self.docs} documents, {', '.join(self.languages)}; "
            + ", ".join(f"{k} {v:.1f}s" for k, v in self.seconds.items())
            + (
                f" (cli runs: {', '.join(f'{k} {v}' for k, v in self.cli_runs.items())})"
                if self.cli_runs
                else ""
            )
            if total
            else f"toolnexus fuzz: seed {self.seed}, {self.docs} documents"
        )
        cols = (
            "docs",
            "accepted",
            "rejected",
            "split",
            "repeats-a-key",
            "bytes-compared",
            "failing",
        )
        lines.append(f"{'class':<10}" + "".join(f"{c:>16}" for c in cols))
        totals: Counter[str] = Counter()
        for cls in sorted(self.per_class):
            c = self.per_class[cls]
            c["split"] = c["docs"] - c["accepted"] - c["rejected"]
            totals.update(c)
            lines.append(f"{cls:<10}" + "".join(f"{c[k]:>16}" for k in cols))
        lines.append(f"{'total':<10}" + "".join(f"{totals[k]:>16}" for k in cols))
        lines.append(
            "  (split: not one accept/reject verdict from every language; repeats-a-key: documents with"
        )
        lines.append("   an object that names a key twice, which every language must refuse)")
        if not self.failure_counts:
            lines.append("no disagreement, no escaped error")
            return "\n".join(lines)
        lines.append(
            "failures (kind, the language that stands alone, pattern: count; per class; commonest variants):"
        )
        for (kind, lang, pattern), per in sorted(
            self.groups.items(), key=lambda kv: (kv[0][0], -sum(kv[1].values()))
        ):
            lines.append(f"  {kind:<8} {lang:<11} {pattern}: {sum(per.values())}")
            lines.append(
                "      "
                + ", ".join(
                    f"{cls} {n}" for cls, n in self.group_classes[(kind, lang, pattern)].most_common()
                )
            )
            lines.append("      " + ", ".join(f"{v} {n}" for v, n in per.most_common(4)))
        lines.append(f"first {min(show, len(self.failures))} failures:")
        for f in self.failures[:show]:
            d = f.doc
            lines.append(
                f"- #{d.index} {d.type_name} {d.cls} {d.variant}: {f.kind} ({f.language}) {f.detail[:300]}"
            )
            lines.append(f"      doc {show_bytes(d.raw)}")
            for lang, o in f.outcomes.items():
                lines.append(f"      {lang:<10} {o.brief()}")
        lines.append(f"(one document again: python -m tests.fuzz --seed {self.seed} --only INDEX)")
        return "\n".join(lines)
