"""Reading numbers back from a summary frame (the one-row-per-scenario table ``btsim run``
writes): the best estimate of a metric, its Monte Carlo interval and its exact value.

The engine writes, per metric ``m``: the Monte Carlo mean ``m`` with ``m_se``,
``m_ci_low``/``m_ci_high`` and ``m_n``, and, where the model has an exact path, ``m_exact``.
These helpers are shared by the model-side balance metrics (:mod:`sim.classic.balance`,
:mod:`sim.alphastrike.balance`) and the report, so both read a frame the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd


def estimate(frame: pd.DataFrame, metric: str) -> pd.Series:
    """The best estimate of ``metric`` per row: the exact value where the model computed one
    (column ``<metric>_exact``), else the Monte Carlo mean; NaN when the frame has neither."""
    if metric not in frame.columns and metric + "_exact" not in frame.columns:
        return pd.Series(np.nan, index=frame.index, dtype=float)
    mc = pd.to_numeric(frame[metric], errors="coerce") if metric in frame.columns else None
    if metric + "_exact" in frame.columns:
        ex = pd.to_numeric(frame[metric + "_exact"], errors="coerce")
        return ex.where(ex.notna(), mc) if mc is not None else ex
    assert mc is not None
    return mc.astype(float)


def mc_ci(frame: pd.DataFrame, metric: str) -> tuple[np.ndarray, np.ndarray | None,
                                                     np.ndarray | None]:
    """Monte Carlo mean and 95% interval bounds (bounds None when the run was exact-only)."""
    if metric not in frame.columns:
        return estimate(frame, metric).to_numpy(float), None, None
    mean = pd.to_numeric(frame[metric], errors="coerce").to_numpy(float)
    lo = hi = None
    if metric + "_ci_low" in frame.columns:
        lo = pd.to_numeric(frame[metric + "_ci_low"], errors="coerce").to_numpy(float)
        hi = pd.to_numeric(frame[metric + "_ci_high"], errors="coerce").to_numpy(float)
    return mean, lo, hi


def exact_of(frame: pd.DataFrame, metric: str) -> np.ndarray | None:
    """The exact values of ``metric`` (None when the model has no exact path for it)."""
    col = metric + "_exact"
    if col not in frame.columns:
        return None
    return pd.to_numeric(frame[col], errors="coerce").to_numpy(float)


def std_error(frame: pd.DataFrame, metric: str) -> np.ndarray | None:
    """The Monte Carlo standard errors of ``metric`` (None for an exact-only run)."""
    col = metric + "_se"
    return pd.to_numeric(frame[col], errors="coerce").to_numpy(float) \
        if col in frame.columns else None


def rows_until_settled(rows: Sequence[Any], p_end_by: Iterable[float | None],
                       tol: float = 1e-9) -> list[Any]:
    """The per-turn ``rows`` of a duel up to and including the first turn by which every
    duel has ended (``p_end_by``: P(ended by that turn), one per row): the later rows only
    repeat it (the Alpha Strike and Classic duel tables print this many)."""
    out = []
    for row, p in zip(rows, p_end_by, strict=False):
        out.append(row)
        if p is not None and p >= 1 - tol:
            break
    return out


def _value_text(value: Any) -> str:
    """An option value as ``--rule`` takes it (``true``/``false`` for booleans)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_header(preset: Any, overrides: Mapping[str, Any] | str | None = None) -> str:
    """A text output's rules (the CLI headers, the duel's ``to_text``): ``default``, or ``default + tac=false, pilot_damage=false``
    (``overrides``: name -> value, or the ``"a=1,b=2"`` text of a ``rule_overrides``
    parameter)."""
    if isinstance(overrides, str):
        parts = [p.strip() for p in overrides.split(",") if p.strip()]
    else:
        parts = [f"{k}={_value_text(v)}" for k, v in (overrides or {}).items()]
    return str(preset) + (" + " + ", ".join(parts) if parts else "")


#: z of a two-sided 95% normal interval (the engine's ``sim.engine.Z95``, not imported here:
#: the text outputs stay light to import)
Z95 = 1.959963984540054
#: The one convention of every text output for a Monte Carlo estimate (issue 18), stated in
#: each output's header: the estimate, then its 95% interval in parentheses.
INTERVAL_NOTE = "Monte Carlo estimates are shown as value (95% interval)"


def with_interval(value: float | None, se: float | None = None, low: float | None = None,
                  high: float | None = None, digits: int = 3, spec: str | None = None) -> str:
    """``0.412 (0.398–0.426)``: ``value`` and its 95% interval, the one form of every text
    output. The interval is ``low``–``high`` when given (the engine's: Wilson for
    proportions), else ``value`` ± 1.96 ``se``; only ``value`` without either; ``(n/a)``
    when the interval is not a number. ``spec`` overrides the ``.{digits}f`` format."""
    fmt = spec or f".{digits}f"
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    text = format(value, fmt)
    if (low is None or high is None) and se is not None:
        low, high = value - Z95 * se, value + Z95 * se
    if low is None or high is None:
        return text
    if not (np.isfinite(low) and np.isfinite(high)):
        return text + " (n/a)"
    return f"{text} ({format(low, fmt)}–{format(high, fmt)})"


def frame_cell(row: Mapping[str, Any], metric: str, mc: bool, digits: int = 3,
               spec: str | None = None) -> str:
    """One metric of one summary row as a text output prints it: with ``mc`` the Monte Carlo
    mean and its 95% interval (the row's ``_ci_low``/``_ci_high``, else 1.96 ``_se``:
    :func:`with_interval`), otherwise the exact value alone."""
    def num(key: str) -> float | None:
        v = row.get(key) if hasattr(row, "get") else None
        return None if v is None else float(v)

    if not mc:
        return with_interval(num(metric), digits=digits, spec=spec)
    return with_interval(num(metric), num(metric + "_se"), num(metric + "_ci_low"),
                         num(metric + "_ci_high"), digits=digits, spec=spec)


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]],
               left: int = 0) -> list[str]:
    """Lines of a right-aligned text table (the first ``left`` columns left-aligned), each
    column as wide as its widest cell: cells with intervals vary in width."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return " ".join(c.ljust(w) if i < left else c.rjust(w)
                        for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return [line(header)] + [line(r) for r in rows]


def proportion_interval(p: float, n: float) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion ``p`` of ``n`` trials (the engine's
    interval for probabilities, ``sim.engine._interval``): for the bins of a Monte Carlo
    histogram printed as text."""
    if not n > 0:
        return math.nan, math.nan
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def estimate_text(value: float | None, se: float | None = None, trials: float | None = None,
                  probability: bool = False, digits: int = 3) -> str:
    """A Monte Carlo estimate from a result's ``name``/``name_se`` pair as text
    (:func:`with_interval`): a probability with the Wilson interval of ``trials`` (the
    engine's, inside [0, 1]), another value ± 1.96 ``se``; ``value`` alone when ``se`` is
    None (exact)."""
    if se is not None and probability and trials and value is not None \
            and not math.isnan(value):
        lo, hi = proportion_interval(float(value), float(trials))
        return with_interval(value, low=lo, high=hi, digits=digits)
    return with_interval(value, se, digits=digits)
