"""Figure data shared by the sections: bar series (Monte Carlo mean, 95% interval and exact
value per category) in the shape :func:`sim.plots.grouped_bars` draws."""

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
