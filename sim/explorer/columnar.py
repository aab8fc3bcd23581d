"""Columnar JSON for the explorer page: a table is ``{"n": rows, "cols": {name: column}}``.

A column is a plain JSON list, except a text column with repeated values (unit names in a
duel grid), which is dictionary-encoded as ``{"dict": [distinct texts], "codes": [index per
row]}`` (the page's ``decode`` expands it). Numbers are rounded to :data:`DIGITS` significant
digits (far below any Monte Carlo interval shown) and NaN becomes ``null``. A 4,332-duel grid
is about a third of its row-JSON size this way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim.summary import estimate

#: significant digits kept of every float
DIGITS = 5


def _num(v: Any) -> float | int | None:
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(f):
        return None
    if f == int(f) and abs(f) < 2**53:
        return int(f)
    return float(f"{f:.{DIGITS}g}")


def column(values: Iterable[Any]) -> list[Any] | dict[str, list[Any]]:
    """One column: numbers rounded (NaN -> null), booleans as 0/1, text dictionary-encoded
    when that is smaller (fewer distinct values than half the rows)."""
    vals = list(values)
    if all(isinstance(v, bool | np.bool_) or v is None for v in vals) and any(
            v is not None for v in vals):
        return [None if v is None else int(bool(v)) for v in vals]
    if all(v is None or isinstance(v, int | float | np.integer | np.floating) for v in vals):
        return [_num(v) for v in vals]
    texts = [None if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
             for v in vals]
    distinct = list(dict.fromkeys(t for t in texts if t is not None))
    if len(texts) >= 8 and len(distinct) * 2 < len(texts):
        index = {t: i for i, t in enumerate(distinct)}
        return {"dict": distinct, "codes": [None if t is None else index[t] for t in texts]}
    return texts


def table(cols: Mapping[str, Iterable[Any]]) -> dict[str, Any]:
    """A columnar table from name -> values (every column the same length)."""
    out = {k: column(v) for k, v in cols.items()}
    lengths = {len(v["codes"]) if isinstance(v, dict) else len(v) for v in out.values()}
    if len(lengths) > 1:
        raise ValueError(f"columns of different lengths: {sorted(lengths)}")
    return {"n": lengths.pop() if lengths else 0, "cols": out}


def frame_table(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> dict[str, Any]:
    """A columnar table of ``frame``'s ``columns`` (default: all)."""
    cols = list(columns) if columns is not None else list(frame.columns)
    return table({c: frame[c].tolist() for c in cols})


def estimates(frame: pd.DataFrame, metric: str, name: str | None = None
              ) -> dict[str, list[Any]]:
    """A metric as explorer columns: ``<name>`` the best estimate (exact where the model
    computed one, else the Monte Carlo mean), ``<name>_lo`` / ``<name>_hi`` its 95% Monte
    Carlo interval (null where the value is exact) and, when any row is exact,
    ``<name>_x`` (1: exact)."""
    name = name or metric
    best = estimate(frame, metric).to_numpy(float)
    n = len(frame)
    ex_col = metric + "_exact"
    exact = (pd.to_numeric(frame[ex_col], errors="coerce").notna().to_numpy()
             if ex_col in frame.columns else np.zeros(n, bool))
    lo = np.full(n, np.nan)
    hi = np.full(n, np.nan)
    if metric + "_ci_low" in frame.columns:
        lo = pd.to_numeric(frame[metric + "_ci_low"], errors="coerce").to_numpy(float)
        hi = pd.to_numeric(frame[metric + "_ci_high"], errors="coerce").to_numpy(float)
    lo = np.where(exact, np.nan, lo)
    hi = np.where(exact, np.nan, hi)
    out: dict[str, list[Any]] = {name: best.tolist(), f"{name}_lo": lo.tolist(),
                                 f"{name}_hi": hi.tolist()}
    if exact.any():
        out[f"{name}_x"] = exact.astype(int).tolist()
    return out


def dumps(doc: Any) -> str:
    """Compact JSON, safe inside a ``<script>`` element (no ``</`` sequence)."""
    text = json.dumps(doc, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    return text.replace("</", "<\\/")
