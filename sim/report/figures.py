"""Figure pieces shared by the sections: bar series (Monte Carlo mean, 95% interval and exact
value per category) in the shape :func:`sim.plots.grouped_bars` draws, a log axis with plain
labels, and the two panels of a cost-fairness figure (PV or BV): the score against the cost
ratio with the fitted curve, and the outliers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim.summary import exact_of, mc_ci


def bar_series(sub: pd.DataFrame, cat_col: str, cats: Sequence[str], metric: str,
               scale: float = 1.0) -> dict[str, Any]:
    """One bar series of ``metric``: a value per category ``cats`` (read from column
    ``cat_col``; NaN where the category is absent), with its CI bounds and exact values."""
    s = sub.set_index(cat_col)
    s = s[~s.index.duplicated()]
    mean, lo, hi = mc_ci(s, metric)
    ex = exact_of(s, metric)
    idx = {c: i for i, c in enumerate(s.index)}

    def take(a: np.ndarray | None) -> np.ndarray | None:
        if a is None:
            return None
        return np.array([a[idx[c]] * scale if c in idx else np.nan for c in cats])

    return {"values": take(mean), "lo": take(lo), "hi": take(hi), "exact": take(ex)}


def log_ticks(ax: Any, ticks: list[float]) -> None:
    """A log x axis labelled with plain numbers at ``ticks``."""
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(ScalarFormatter())


def outlier_panel(ax: Any, out: pd.DataFrame, beta: float, cost: str, n_out: int,
                  label: Any, colors: tuple[str, str], ticks: list[float]) -> None:
    """Strength against cost (``cost`` = ``pv`` or ``bv``, log x) with the fairness line
    ``beta * (ln cost - mean)`` and the ``n_out`` most under- (first color) and over-costed
    (second) units of ``out`` (sorted by residual, with ``ci_low``/``ci_high``) marked with
    their residual intervals and labelled by ``label(unit)``."""
    lc = np.log(out[cost].to_numpy(float))
    xs = np.linspace(lc.min(), lc.max(), 50)
    ax.plot(np.exp(xs), beta * (xs - lc.mean()), color="black", linewidth=1.4,
            label=f"predicted from {cost.upper()} (fairness curve)")
    ends = pd.concat([out.head(n_out), out.tail(n_out)]).drop_duplicates("unit")
    for _, o in ends.iterrows():
        col = colors[0] if o["residual"] > 0 else colors[1]
        ax.errorbar(o[cost], o["theta"], yerr=[[o["residual"] - o["ci_low"]],
                                               [o["ci_high"] - o["residual"]]],
                    fmt="o", color=col, markersize=5, capsize=2, zorder=4)
        ax.annotate(label(o["unit"]), (o[cost], o["theta"]), fontsize=7,
                    xytext=(4, 3 if o["residual"] > 0 else -9),
                    textcoords="offset points", color=col)
    lo, hi = float(np.exp(lc.min())) / 1.1, float(np.exp(lc.max())) * 1.1
    log_ticks(ax, [t for t in ticks if lo <= t <= hi])
    ax.set_ylabel("strength (ln Bradley-Terry)")


def fairness_panel(ax: Any, fit: Any, cost: str, ranges: Sequence[Any], range_label: Any,
                   who: str, ticks: Sequence[float], size: float, alpha: float) -> None:
    """The score of the side with the higher ``cost`` (``pv`` or ``bv``) in every pairing of
    two different units (each pair once) against the cost ratio, one color per range
    (labelled ``range_label(r)``), with the fitted logistic curve, its slope interval and its
    bootstrap band over ``who`` (``fit``: :func:`sim.alphastrike.duel.analysis.fairness`)."""
    from sim import plots

    up = cost.upper()
    pts = fit.points
    pts = pts[pts[f"{cost}_a"] >= pts[f"{cost}_b"]]
    for n, r in enumerate(ranges):
        pr = pts[pts["range"] == r]
        ax.scatter(np.exp(pr["x"]), pr["score_a"] * 100, s=size, alpha=alpha,
                   color=plots.color(n), label=range_label(r), linewidths=0)
    c = fit.curve[fit.curve["x"] >= 0]
    ax.fill_between(c["ratio"], c["lo"] * 100, c["hi"] * 100, color="black", alpha=0.18,
                    linewidth=0, label=f"95% band (bootstrap over {who})")
    ax.plot(c["ratio"], c["p"] * 100, color="black", linewidth=1.8,
            label=f"fitted: beta = {fit.beta:.2f} ({fit.beta_low:.2f} to {fit.beta_high:.2f})")
    top = float(c["ratio"].max()) * 1.05
    log_ticks(ax, [t for t in ticks if t <= top])
    ax.set_xlabel(f"{up} ratio (higher {up} / lower {up}, log scale)")
    ax.set_ylabel(f"score of the side with the higher {up} (%)")
    ax.set_ylim(-2, 102)
    ax.axhline(50, color="#bbbbbb", linewidth=0.8)
    ax.legend(loc="lower right", fontsize=8)
