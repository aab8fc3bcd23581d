"""``sim.fire(...)`` and ``sim.profile(...)``: the fire model from Python.

Both run through the one door :func:`sim.api.run_scenario` (the same seed, trials and chunk
size give the same bits as ``btsim run`` of a one-scenario experiment of the ``fire`` or
``profile`` model) and return a :class:`sim.result.Result` whose ``.to_dict()`` is the CLI's
``--json`` document. Exact by default; ``trials=N`` (with ``seed``) runs Monte Carlo, every
number then with its ``_se`` (and ``_exact`` beside it when the chain is available).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.classic import tables as CT
from sim.classic.fire.scenario import FireScenario
from sim.dice import P_2D6_AT_LEAST
from sim.result import Result

_TURN_METRICS = ("expected_damage", "expected_cumulative_damage", "mean_heat", "p_shutdown",
                 "p_shutdown_by", "p_ammo_explosion_by", "p_out_by", "expected_ammo_left")
LOCS = CT.LOCATIONS[:8]


def _num(x: Any) -> float | None:
    v = float(x)
    return None if math.isnan(v) else v


def weapon_rows(scn: FireScenario) -> list[dict[str, Any]]:
    """One row per weapon mount, first turn at the start heat: ``target_number``, ``p_hit``,
    ``expected_damage`` (if fired), or a ``reason`` it cannot fire."""
    r, h = scn.steps[0], scn.start_heat
    guns = iter(scn.guns)
    rows = []
    for row in scn.mount_rows:
        row = dict(row)
        if "reason" not in row:
            g = next(guns)
            tn = int(g.tn[r, h])
            if scn.ranges[0] > g.weapon.long:
                row["reason"] = f"out of range (long range {g.weapon.long})"
            elif tn > 12:
                row["target_number"] = tn
                row["reason"] = "target number 13+: cannot be attempted"
            else:
                row["target_number"] = tn
                row["p_hit"] = float(P_2D6_AT_LEAST[max(0, tn)])
                row["expected_damage"] = float(sum(d * p for d, p in g.damage_pmf(tn).items()))
        rows.append(row)
    return rows


def document(scn: FireScenario, frame: pd.DataFrame, mc: bool) -> dict[str, Any]:
    """The ``btsim fire --json`` object from a summary frame."""
    from sim.classic.fire.model import MODEL

    params = MODEL.params(scn)
    params["ranges"] = list(scn.ranges)
    params["rule_options"] = scn.rules.as_dict()
    turns = []
    for _, r in frame.iterrows():
        row: dict[str, Any] = {"turn": int(r["turn"])}
        for m in _TURN_METRICS:
            row[m] = _num(r[m])
            if mc:
                row[m + "_se"] = _num(r[m + "_se"])
                if m + "_exact" in frame:
                    row[m + "_exact"] = _num(r[m + "_exact"])
        hh = np.asarray(r["heat_hist"], dtype=float)
        row["p_heat"] = {str(k): float(p) for k, p in enumerate(hh) if p > 0}
        if mc:
            n = float(r["trials"])
            row["p_heat_se"] = {str(k): float(math.sqrt(p * (1 - p) / n))
                                for k, p in enumerate(hh) if p > 0}
        row["expected_damage_by_location"] = {loc: _num(r[f"expected_damage_{loc}"])
                                              for loc in LOCS}
        if mc:
            row["expected_damage_by_location_se"] = {
                loc: _num(r[f"expected_damage_{loc}_se"]) for loc in LOCS}
        dh = np.asarray(r["damage_hist"], dtype=float)
        row["p_damage"] = {str(k): float(p) for k, p in enumerate(dh) if p > 0}
        turns.append(row)
    doc: dict[str, Any] = {"params": params, "notes": list(MODEL.notes(scn)),
                           "weapons": weapon_rows(scn), "turns": turns,
                           "mode": "monte-carlo" if mc else "exact",
                           "dissipation": scn.dissipation}
    if mc:
        doc["trials"] = int(frame["trials"].iloc[0])
    return doc


def fire_result(params: Mapping[str, Any], *, trials: int | None = None,
                seed: int | None = None, n_jobs: int = 1, chunk_size: int | None = None,
                progress: bool | str | None = "auto") -> Result:
    """Run one ``fire`` scenario through the one door (:func:`sim.api.run_scenario`) and
    attach the ``btsim fire --json`` document as the result's ``data``."""
    from sim.api import run_scenario
    from sim.classic.fire.model import MODEL

    res = run_scenario(MODEL, params, trials=trials, seed=seed, n_jobs=n_jobs,
                       chunk_size=chunk_size, progress=progress)
    scn = MODEL.scenario(params)
    doc = document(scn, res.frame, trials is not None)
    if trials is not None:
        doc["seed"] = res.metadata.get("seed")
    res.data = doc
    res.legacy = "data"
    return res


def profile_result(params: Mapping[str, Any], *, trials: int | None = None,
                   seed: int | None = None, n_jobs: int = 1, chunk_size: int | None = None,
                   progress: bool | str | None = "auto") -> Result:
    """Run one ``profile`` scenario through :func:`sim.api.run_scenario` and attach the
    ``btsim profile --json`` document (``params``, ``notes``, ``ranges``, ``mode``)."""
    from sim.api import run_scenario
    from sim.classic.fire.profile import MODEL

    res = run_scenario(MODEL, params, trials=trials, seed=seed, n_jobs=n_jobs,
                       chunk_size=chunk_size, progress=progress)
    mc = trials is not None
    rows = []
    for _, r in res.frame.iterrows():
        row: dict[str, Any] = {"range": int(r["range"])}
        for m in ("max_damage", "hit_weighted", "sustained"):
            row[m] = _num(r[m])
            if mc and m == "sustained":
                row[m + "_se"] = _num(r[m + "_se"])
        rows.append(row)
    params_out = dict(res.metadata["params"])
    params_out["rule_options"] = res.metadata["options"]
    doc: dict[str, Any] = {"params": params_out, "notes": list(res.notes), "ranges": rows,
                           "mode": "monte-carlo" if mc else "exact"}
    if mc:
        doc["trials"] = res.metadata.get("trials")
        doc["seed"] = res.metadata.get("seed")
    res.data = doc
    res.legacy = "data"
    return res
