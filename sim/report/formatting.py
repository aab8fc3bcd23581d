"""Formatting shared by tables, findings and figure footnotes: numbers, percentages, grids,
lists, unit names, and the footnote that states sample size, seed and rule set.

One function formats a number wherever it appears, so a finding quoting a table cell shows
exactly the cell's text (``tests/report`` checks it). Reading a metric back from a summary
frame (exact where available, else the Monte Carlo mean) is :mod:`sim.summary`'s job; it is
re-exported here as :func:`value` for the sections.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sim.summary import estimate as value
from sim.summary import exact_of, mc_ci, std_error

if TYPE_CHECKING:
    from sim.report.types import Result

__all__ = [
    "LEGEND_NOTES", "and_list", "column_of", "exact_of", "finite", "fmt_num", "fmt_pct",
    "footnote_text", "grid_text", "incoming_text", "is_mc", "mc_ci", "middle", "num",
    "pick", "possible", "rule_options_text", "rules_text", "short_unit", "std_error",
    "two_lines", "value",
]


def finite(v: Any) -> bool:
    """True for a finite number (not None, NaN, inf or text)."""
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def num(v: Any) -> float:
    """A table cell or scalar as a float (a typed ``float(v)`` for pandas scalars)."""
    return float(v)


def fmt_spec(spec: str, scale: float = 1.0) -> Callable[[Any], str]:
    """A cell formatter: ``format(scale * v, spec)``, or "–" for a missing or infinite value
    (the one place the sections' fixed-format columns are written)."""
    def fmt(v: Any) -> str:
        return "–" if not finite(v) else format(scale * float(v), spec)
    return fmt


def fmt_pct(v: Any) -> str:
    """A probability as a percentage: 1 decimal, more for small non-zero values."""
    if not finite(v):
        return "–"
    p = 100.0 * float(v)
    if p == 0 or p == 100:
        return f"{p:.0f}%"
    if abs(p) < 0.1:
        return f"{p:.3f}%"
    if abs(p) < 1 or 99 < p < 100:
        return f"{p:.2f}%" if p < 99.99 else f"{p:.3f}%"
    return f"{p:.1f}%"


def fmt_num(v: Any) -> str:
    """A mean value (damage points, turns): 2 decimals."""
    return "–" if not finite(v) else f"{float(v):.2f}"


def fmt_count(v: Any) -> str:
    """A whole number (PV, OV, steps) without decimals."""
    return "–" if not finite(v) else f"{float(v):g}"


def is_mc(result: Result) -> bool:
    """Whether the result holds Monte Carlo estimates (not an exact-only run)."""
    return bool(result.meta.get("trials")) and not result.meta.get("exact_only")


#: what the marks of each kind of chart mean, for footnotes
LEGEND_NOTES = {
    "bars": "Bars: Monte Carlo mean with 95% CI; black ◆: exact value.",
    "curves": "Solid lines: Monte Carlo mean, shaded band: 95% CI; dashed black: exact value.",
    "cells": "Cells and bars show the exact value where the model has one, else the Monte "
             "Carlo mean.",
}


def footnote_text(result: Result, extra: str = "", kind: str = "bars") -> str:
    """Sample size, seed, rule set and what the marks mean, for a figure footnote."""
    m = result.meta
    if is_mc(result):
        head = f"Monte Carlo: {int(m['trials']):,} trials per scenario, seed {m.get('seed')}."
        marks = LEGEND_NOTES.get(kind, "")
    else:
        head = "Exact values (no Monte Carlo sampling)."
        marks = ""
    lines = [" ".join(x for x in (head, marks) if x)]
    if extra:
        lines.append(extra)
    lines.append(f"Rules: {rules_text(result)}.  btsim {m.get('btsim_version', '?')}, "
                 f"experiment '{result.name}'.")
    return "\n".join(lines)


def rules_text(result: Result) -> str:
    """The rule set(s) of a result, e.g. ``default``, from metadata or the frame."""
    rs = result.meta.get("rule_sets") or {}
    names = rs.get("rules") if isinstance(rs, dict) else None
    if not names and "rules" in result.frame.columns:
        names = sorted({str(v) for v in result.frame["rules"].dropna()})
    if not names:
        return "model defaults"
    return ", ".join(str(n) for n in names)


def rule_options_text(result: Result) -> str:
    """Rule options recorded with a result (JSON dicts), as readable text."""
    rs = result.meta.get("rule_sets") or {}
    opts = rs.get("rule_options") if isinstance(rs, dict) else None
    if not opts and "rule_options" in result.frame.columns:
        opts = sorted({str(v) for v in result.frame["rule_options"].dropna()})
    if not opts and "rule_overrides" in result.frame.columns:
        over = sorted({str(v) for v in result.frame["rule_overrides"].dropna() if str(v)})
        return "; ".join(over) if over else "preset defaults (no overrides)"
    if not opts:
        return ""
    out = []
    for o in opts:
        if isinstance(o, str):
            try:
                o = json.loads(o)
            except ValueError:
                out.append(o)
                continue
        if isinstance(o, dict):
            out.append(", ".join(f"{k}={v}" for k, v in o.items()))
        else:
            out.append(str(o))
    return "; ".join(out)


def column_of(frame: pd.DataFrame, name: str, default: Any = None) -> pd.Series:
    """Column ``name`` of ``frame``, or a column of ``default`` when the frame lacks it."""
    if name in frame.columns:
        return frame[name]
    return pd.Series([default] * len(frame), index=frame.index)


def possible(frame: pd.DataFrame) -> pd.Series:
    """True where the scenario is legal (the model's ``impossible`` fact is empty)."""
    imp = column_of(frame, "impossible")
    return imp.isna() | (imp.astype(str).isin(["", "None", "nan", "False"]))


def grid_text(values: Sequence[Any], what: str, unit: str = "") -> str:
    """``[20, 25, ..., 100]`` -> ``"attacker tonnage 20 to 100 t in steps of 5 t"``."""
    vals = sorted({float(v) for v in values if finite(v)})
    u = f" {unit}" if unit else ""
    if not vals:
        return what
    if len(vals) == 1:
        return f"{what} {vals[0]:g}{u}"
    steps = {round(b - a, 9) for a, b in zip(vals, vals[1:], strict=False)}
    if len(steps) == 1:
        return f"{what} {vals[0]:g} to {vals[-1]:g}{u} in steps of {steps.pop():g}{u}"
    return f"{what} " + ", ".join(f"{v:g}" for v in vals) + u


def pick(values: Sequence[Any], want: Sequence[Any]) -> list[Any]:
    """The wanted values that are present, else an even spread of what is there."""
    vals = sorted(set(values))
    got = [v for v in want if v in vals]
    if got:
        return got
    if len(vals) <= len(want):
        return vals
    idx = np.linspace(0, len(vals) - 1, len(want)).round().astype(int)
    return [vals[i] for i in sorted(set(idx))]


def middle(values: Iterable[Any], prefer: Any) -> Any:
    """``prefer`` if present, else the middle of the sorted values."""
    vals = sorted(set(values))
    if prefer in vals:
        return prefer
    return vals[len(vals) // 2]


def and_list(items: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def short_unit(name: str) -> str:
    """'Atlas AS7-D' -> 'Atlas AS7-D'; 'Loki (Hellbringer) Prime' -> 'Loki Prime'."""
    return re.sub(r"\s*\([^)]*\)", "", str(name)).strip()


def two_lines(name: str) -> str:
    """A unit name for a crowded axis, model code on its own line:
    ``"Grand Titan T-IT-N10M"`` -> ``"Grand Titan\\nT-IT-N10M"``."""
    head, _, tail = str(name).rpartition(" ")
    return f"{head}\n{tail}" if head else tail


def incoming_text(value: Any) -> str:
    """``"tn=6,dmg=1;tn=6,dmg=1"`` -> ``"2 × (tn=6,dmg=1)"``; empty -> ``"none"``."""
    if isinstance(value, list | tuple | np.ndarray):
        items = [str(v) for v in value]
    else:
        items = [x for x in str(value or "").split(";") if x.strip()]
    if not items:
        return "none"
    counts = dict.fromkeys(items, 0)
    for x in items:
        counts[x] += 1
    return " + ".join(f"{n} × ({x})" if n > 1 else f"({x})" for x, n in counts.items())
