"""``sim.fire(...)`` and ``sim.profile(...)``: the fire model from Python.

Both return the same document as the CLI's ``--json`` (a dict; the ``door`` helper's Result
type wraps it later). Exact by default; ``trials=N`` (with ``seed``) runs Monte Carlo through
:func:`sim.engine.simulate`, every number then with its ``_se`` (and ``_exact`` beside it
when the chain is available).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from sim.classic import tables as CT
from sim.classic.fire.scenario import FireScenario
from sim.dice import P_2D6_AT_LEAST
from sim.errors import UserError

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
    doc: dict[str, Any] = {"params": params, "notes": list(scn.notes),
                           "weapons": weapon_rows(scn), "turns": turns,
                           "mode": "monte-carlo" if mc else "exact",
                           "dissipation": scn.dissipation}
    if mc:
        doc["trials"] = int(frame["trials"].iloc[0])
    return doc


def run_fire(params: dict[str, Any], trials: int | None = None, seed: int | None = None,
             n_jobs: int = 1) -> dict[str, Any]:
    """Validate, run (exact or Monte Carlo) and return the document."""
    from sim import engine
    from sim.classic.fire.model import MODEL

    scn = MODEL.scenario(params)
    if trials is None:
        if seed is not None:
            from sim.errors import ConfigError

            raise ConfigError("seed", seed, "given only with trials (exact answers need none)")
        if MODEL.exact(scn) is None:
            raise UserError("the exact chain has too many states for this scenario; use "
                            "--trials N --seed S")
        frame = engine.exact_frame(MODEL, [params])
        return document(scn, frame, False)
    frame = engine.simulate(MODEL, [params], trials=trials, seed=0 if seed is None else seed,
                            n_jobs=n_jobs, progress=False)
    return document(scn, frame, True)


def fire(unit: Any, *, gunnery: int = 4, range: int | None = 6, ranges: Any = None,
         moved: str = "stand", target_hexes: int = 0, target_jumped: bool = False,
         terrain: str = "clear", policy: Any = "all", turns: int = 10, start_heat: int = 0,
         water: bool = False, trials: int | None = None, seed: int | None = None,
         n_jobs: int = 1, **rules: Any) -> dict[str, Any]:
    """Per-turn fire and heat curves of one 'Mech (model ``fire``).

    ``unit``: catalog name, ``.mtf`` path or ClassicMech. ``ranges``: per-turn script (the
    last value repeats). ``policy``: ``all``, ``neutral``, ``below:H``, ``max-expected`` or a
    callable ``f(heat, turn, state) -> bool (n, weapons)``. ``rules``: FireRules fields.
    """
    params: dict[str, Any] = {"unit": unit, "gunnery": gunnery, "moved": moved,
                              "target_hexes": target_hexes, "target_jumped": target_jumped,
                              "terrain": terrain, "policy": policy, "turns": turns,
                              "start_heat": start_heat, "water": water, **rules}
    if ranges is not None:
        params["ranges"] = ranges
    else:
        params["range"] = range
    return run_fire(params, trials, seed, n_jobs)


def profile(unit: Any, *, gunnery: int = 4, turns: int = 10, policy: Any = "all",
            trials: int | None = None, seed: int | None = None,
            n_jobs: int = 1) -> dict[str, Any]:
    """Damage versus range (model ``profile``): ``ranges`` rows with ``range``,
    ``max_damage``, ``hit_weighted``, ``sustained`` (see :mod:`sim.classic.fire.profile`)."""
    from sim import engine
    from sim.classic.fire.profile import MODEL

    params = {"unit": unit, "gunnery": gunnery, "turns": turns, "policy": policy}
    scn = MODEL.scenario(params)
    if trials is None:
        if seed is not None:
            from sim.errors import ConfigError

            raise ConfigError("seed", seed, "given only with trials (exact answers need none)")
        frame = engine.exact_frame(MODEL, [params])
        mc = False
    else:
        frame = engine.simulate(MODEL, [params], trials=trials,
                                seed=0 if seed is None else seed, n_jobs=n_jobs,
                                progress=False)
        mc = True
    rows = []
    for _, r in frame.iterrows():
        row: dict[str, Any] = {"range": int(r["range"])}
        for m in ("max_damage", "hit_weighted", "sustained"):
            row[m] = _num(r[m])
            if mc and m == "sustained":
                row[m + "_se"] = _num(r[m + "_se"])
        rows.append(row)
    return {"params": MODEL.params(scn), "notes": list(scn.scenarios[0].notes),
            "ranges": rows, "mode": "monte-carlo" if mc else "exact"}
