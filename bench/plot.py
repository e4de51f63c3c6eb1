"""The plot of `make bench`'s framework overhead: the median time each framework adds per tool
call, against the number of calls in the turn, one line per framework (matplotlib, a bench-only
dependency). Written as SVG with no date and a fixed hash salt, so a run changes the file only
where the figures changed."""

from __future__ import annotations

from pathlib import Path

__all__ = ["overhead_svg"]


def overhead_svg(series: dict[str, dict[int, float]], path: Path, title: str) -> None:
    """`series`: framework -> {calls in the turn: median seconds per call}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "toolnexus-bench"
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, and searchable
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for name, points in series.items():
        ns = sorted(points)
        ax.plot(ns, [points[n] * 1e6 for n in ns], marker="o", linewidth=2 if name == "toolnexus" else 1.2, label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sorted({n for points in series.values() for n in points}))
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set_xlabel("tool calls in the turn")
    ax.set_ylabel("framework time per tool call (µs, median)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
