"""Testing helpers in the spirit of ``pandas.testing``: assertions users can call on their
own models and runs, e.g. in a notebook after a long run.

>>> from sim import engine, testing
>>> from sim.demo import MODEL
>>> frame = engine.simulate(MODEL, [{"tons": 70}], trials=100_000, seed=1)
>>> testing.assert_mc_matches_exact(frame)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.engine import zscores
from sim.result import Result


def assert_mc_matches_exact(frame: pd.DataFrame | Result, z: float = 4.0,
                            metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Assert every Monte Carlo mean lies within ``z`` standard errors of its exact value.

    ``frame``: an engine summary frame or a :class:`~sim.result.Result` (its ``.frame``).
    Returns the z-score table; raises ``AssertionError`` listing the offending rows.
    Hist metrics (distributions) are compared bin by bin, each bin as a proportion.
    """
    if isinstance(frame, Result):
        frame = frame.frame
    table = zscores(frame, metrics)
    hist_cols = [c[: -len("_exact")] for c in frame.columns if c.endswith("_exact")
                 and c[: -len("_exact")] in frame.columns
                 and any(isinstance(v, list | np.ndarray) for v in frame[c])]
    rows = []
    for name in hist_cols if metrics is None else [m for m in hist_cols if m in metrics]:
        for i in range(len(frame)):
            if frame[name].iloc[i] is None or frame[name + "_exact"].iloc[i] is None:
                continue  # an impossible scenario has no distribution
            mc = np.asarray(frame[name].iloc[i], dtype=float)
            ex = np.asarray(frame[name + "_exact"].iloc[i], dtype=float)
            width = max(mc.size, ex.size)
            mc = np.pad(mc, (0, width - mc.size))
            ex = np.pad(ex, (0, width - ex.size))
            n = float(frame["trials"].iloc[i]) if "trials" in frame else np.nan
            se = np.sqrt(ex * (1 - ex) / n)
            with np.errstate(invalid="ignore", divide="ignore"):
                zz = np.where(se > 0, (mc - ex) / np.where(se > 0, se, 1),
                              np.where(np.abs(mc - ex) <= 1e-12, 0.0, np.inf))
            for b in range(width):
                rows.append({"row": i, "metric": f"{name}[{b}]", "mc": mc[b], "exact": ex[b],
                             "se": se[b], "z": zz[b]})
    if rows:
        table = pd.concat([table, pd.DataFrame(rows)], ignore_index=True)
    bad = table[~(table["z"].abs() <= z)]
    if len(bad):
        raise AssertionError(f"{len(bad)} Monte Carlo estimates are more than {z} standard "
                             f"errors from their exact values:\n{bad.to_string()}")
    return table
