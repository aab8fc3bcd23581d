"""``sim.attack(...)`` support: the dict view of one Classic physical-attack result.

:func:`sim.attack` (defined in :mod:`sim.api`, re-exported here) runs through the engine like
every other door; this module turns its :class:`~sim.result.Result` into the ``btsim attack
--json`` document (:func:`result_view`) and keeps two helpers the tests use:
:func:`monte_carlo` (the engine's loop for one built scenario) and :func:`summarize`.
"""

from __future__ import annotations

import math
from typing import Any

from sim.aggregate import Aggregate
from sim.api import attack
from sim.classic.metrics import FALL_LOC_METRICS, LOC_METRICS, METRICS
from sim.classic.tables import LOCATIONS
from sim.model import Model
from sim.result import Result

__all__ = ["NESTED", "attack", "monte_carlo", "nest", "result_view", "summarize"]

#: nested JSON groups: key -> flat metric names (location order HD, CT, ...)
NESTED = {
    "expected_damage_by_location": LOC_METRICS,
    "expected_fall_damage_target_by_location": FALL_LOC_METRICS["target"],
    "expected_fall_damage_attacker_by_location": FALL_LOC_METRICS["attacker"],
}


def monte_carlo(model: Model, scn: Any, trials: int, seed: int, n_jobs: int = 1,
                chunk: int | None = None) -> Aggregate:
    """``trials`` trials of one built scenario through the engine's loop
    (:func:`sim.engine.sample_scenarios`, scenario index 0): the merged aggregate."""
    from sim import engine

    return engine.sample_scenarios(model, [scn], trials, seed, n_jobs=n_jobs,
                                   chunk_size=chunk, progress="never")[0]


def summarize(agg: Aggregate) -> dict[str, Any]:
    """Means and standard errors (``name``, ``name_se``) of every metric, hist as a list."""
    out: dict[str, Any] = {}
    for name, st in agg.stats.items():
        c, s, q = st[0]
        if c == 0:
            out[name], out[name + "_se"] = math.nan, math.nan
            continue
        m = s / c
        var = max(q / c - m * m, 0.0)
        out[name] = m
        out[name + "_se"] = math.sqrt(var / c) if c > 1 else math.nan
    for name, h in agg.hists.items():
        out[name] = (h[0] / h[0].sum()).tolist()
    return out


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """Group per-location metrics under ``*_by_location`` dicts keyed HD, CT, ... (JSON shape)."""
    out = dict(flat)
    for key, names in NESTED.items():
        for suffix in ("", "_se"):
            if names[0] + suffix in out:
                out[key + suffix] = {loc: out.pop(n + suffix) for loc, n in zip(LOCATIONS, names,
                                                                               strict=True)}
    return out


def _float(v: Any) -> float:
    return math.nan if v is None else float(v)


def target_fields(row: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """``target_error``, ``trials_used`` and ``target_reached`` of a run stopped at a target
    error (``--target-error``), from its first summary row; empty for a fixed-trials run."""
    if "trials_used" not in row.index:
        return {}
    out: dict[str, Any] = {}
    if meta.get("target_error") is not None:
        out["target_error"] = float(meta["target_error"])
    out["trials_used"] = int(row["trials_used"])
    out["target_reached"] = bool(row["target_reached"])
    return out


def result_view(res: Result, flat: bool = False) -> dict[str, Any]:
    """The dict of one attack result (``btsim attack --json`` before NaN -> null): ``params``,
    the facts, ``mode``, (``trials``, ``seed``; with a target error ``target_error``,
    ``trials_used``, ``target_reached``), every metric (``<name>_se`` for Monte Carlo) and,
    unless ``flat``, per-location metrics nested by location."""
    meta = res.metadata
    mc = meta["mode"] == "monte-carlo"
    out: dict[str, Any] = {"params": meta["params"], **meta["facts"], "mode": meta["mode"]}
    row = res.frame.iloc[0]
    if mc:
        out["trials"] = meta["trials"]
        out["seed"] = meta["seed"]
        out.update(target_fields(row, meta))
    impossible = meta["facts"].get("impossible") is not None
    for m in METRICS:
        v = row[m.name] if m.name in row.index else None
        if m.kind == "hist":
            out[m.name] = None if impossible or v is None else [float(x) for x in v]
            continue
        out[m.name] = math.nan if impossible else _float(v)
        if mc:
            out[m.name + "_se"] = math.nan if impossible else _float(row[m.name + "_se"])
    return out if flat else nest(out)
