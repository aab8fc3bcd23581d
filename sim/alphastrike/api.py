"""``sim.heat(...)`` support: the ``btsim heat --json`` view of an Alpha Strike heat result.

:func:`sim.heat` is defined in :mod:`sim.api` (re-exported here) and runs through the engine
like every other door.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from sim.api import heat
from sim.result import Result

__all__ = ["heat", "result_view", "to_json"]

_ROW_METRICS = ("p_shutdown", "p_shutdown_by", "mean_heat", "expected_damage",
                "expected_cumulative_damage", "p_destroyed_by")
_RUN_METRICS = ("expected_first_shutdown_turn", "p_ever_shutdown", "expected_turns_survived")


def _num(x: Any) -> float | None:
    v = float(x)
    return None if math.isnan(v) else v


def to_json(frame: pd.DataFrame, params: dict[str, Any], mc: bool) -> dict[str, Any]:
    """The ``--json`` document: ``{"turns": [...], ...per-run values, params}``."""
    turns = []
    heat_cols = [f"p_heat_{k}" for k in range(5)]
    for _, r in frame.iterrows():
        row: dict[str, Any] = {"turn": int(r["turn"]),
                               "p_heat": [_num(r[c]) for c in heat_cols]}
        if mc:
            row["p_heat_se"] = [_num(r[c + "_se"]) for c in heat_cols]
            row["p_heat_exact"] = [_num(r[c + "_exact"]) for c in heat_cols
                                   if c + "_exact" in frame]
        for m in _ROW_METRICS:
            row[m] = _num(r[m])
            if mc:
                row[m + "_se"] = _num(r[m + "_se"])
                if m + "_exact" in frame:
                    row[m + "_exact"] = _num(r[m + "_exact"])
        turns.append(row)
    doc: dict[str, Any] = {"turns": turns}
    first = frame.iloc[0]
    for m in _RUN_METRICS:
        doc[m] = _num(first[m])
        if mc:
            doc[m + "_se"] = _num(first[m + "_se"])
    doc["mode"] = "monte-carlo" if mc else "exact"
    if mc:
        doc["trials"] = int(first["trials"])
    doc["params"] = params
    return doc


def result_view(res: Result) -> dict[str, Any]:
    """The ``btsim heat --json`` document of a heat result, with its ``notes`` (a list) and,
    for a run stopped at a target error, ``target_error``, ``trials_used`` and
    ``target_reached``."""
    from sim.classic.api import target_fields

    mc = res.metadata["mode"] == "monte-carlo"
    doc = to_json(res.frame, res.metadata["params"], mc)
    if mc:
        extra = target_fields(res.frame.iloc[0], res.metadata)
        params = doc.pop("params")
        doc.update(extra)
        doc["params"] = params
    doc["notes"] = list(res.notes)
    return doc
