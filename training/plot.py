"""Loss curves as PNG (matplotlib, headless)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def plot_loss(history: Sequence[float], path: str | Path, title: str = "") -> None:
    """Per-step loss (faint) and its moving average over 50 steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    steps = range(1, len(history) + 1)
    ax.plot(steps, history, color="tab:blue", alpha=0.25, linewidth=0.8, label="step loss")
    w = min(50, max(1, len(history) // 10))
    if len(history) >= w:
        avg = [sum(history[i - w : i]) / w for i in range(w, len(history) + 1)]
        ax.plot(range(w, len(history) + 1), avg, color="tab:blue", label=f"mean of {w} steps")
    ax.set_xlabel("step")
    ax.set_ylabel("masked-token cross-entropy")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
