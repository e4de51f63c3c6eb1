"""Issue 29's Rust core, measured: `from_json` over the PyO3 reader in `src/lib.rs` against the
pure-Python `from_json`, in one process, interleaved (as `make bench` measures).

    python bench/rust_core/measure.py      (builds the module with cargo first)

The reader gives what `toolnexus_wire._number.loads` gives after orjson's verdict, and refuses
what the wire refuses (every vector in idl/examples is checked against `from_json` first); the
generated decoders then build the model as they do now (`floats=True`: every float it leaves a
plain `float` is one `repr` writes alike). Not shipped: README "Speed" says why.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import peers  # noqa: E402
from pydantic import ValidationError  # noqa: E402
from toolnexus_wire import JsonNumber, WireError, _speed, models  # noqa: E402

import toolnexus  # noqa: E402
from tests.vectors import vectors  # noqa: E402


def build() -> Any:
    env = {**os.environ, "PYO3_PYTHON": sys.executable}
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=HERE, env=env, check=True)
    out = Path(tempfile.mkdtemp())
    shutil.copy(HERE / "target" / "release" / "lib_core.so", out / "_core.so")
    sys.path.insert(0, str(out))
    import _core  # type: ignore[import-not-found]

    return _core


def main() -> None:
    core = build()

    def from_json(cls: Any, data: bytes) -> Any:
        try:
            doc = core.loads(data, JsonNumber)
        except ValueError as exc:
            raise WireError(cls.__name__, [("$", str(exc))]) from None
        decode = _speed.decoder_for(cls)
        obj = decode(doc, True) if decode is not None else None
        if obj is not None:
            return obj
        try:
            return cls.model_validate(doc, by_alias=True, by_name=False)
        except ValidationError as exc:
            raise WireError.from_validation(cls.__name__, exc) from None

    def outcome(read: Any, cls: Any, raw: bytes) -> tuple[str, str]:
        try:
            return "ok", read(cls, raw).to_json()
        except WireError as exc:
            return "refused", exc.path

    differ = [
        v.id
        for v in vectors()
        if outcome(lambda c, d: c.from_json(d), getattr(models, v.type_name), v.raw)
        != outcome(from_json, getattr(models, v.type_name), v.raw)
    ]
    assert not differ, differ

    def medians(fns: dict[str, Any], number: int, repeats: int) -> dict[str, float]:
        samples: dict[str, list[float]] = {k: [] for k in fns}
        for _ in range(repeats):
            for name, fn in fns.items():
                t0 = time.perf_counter()
                for _ in range(number):
                    fn()
                samples[name].append((time.perf_counter() - t0) / number)
        return {k: statistics.median(v) for k, v in samples.items()}

    T = toolnexus.ToolResult
    print("| document | pure-Python `from_json` | over the Rust reader | ratio |")
    print("|---|---|---|---|")
    for case, doc in peers.PAYLOADS.items():
        text = T.from_json(json.dumps(doc, separators=(",", ":"))).to_json_bytes()
        number = {"small": 5000, "medium": 2000, "image": 20}[case]
        t = medians(
            {"py": lambda text=text: T.from_json(text), "rust": lambda text=text: from_json(T, text)},
            number,
            15,
        )
        print(
            f"| {case} | {t['py'] * 1e6:,.1f} µs | {t['rust'] * 1e6:,.1f} µs | {t['rust'] / t['py']:.2f}× |"
        )
    for shape, make in peers.WORST_CASES.items():
        data = make(1 << 20)
        t = medians(
            {
                "py": lambda data=data: T.from_json(data),
                "rust": lambda data=data: from_json(T, data),
                "json": lambda data=data: json.loads(data),
            },
            1,
            5,
        )
        print(
            f"| {shape}, 1 MB | {t['py'] / t['json']:.2f}× json.loads | {t['rust'] / t['json']:.2f}× json.loads "
            f"| {t['rust'] / t['py']:.2f}× |"
        )


if __name__ == "__main__":
    main()
