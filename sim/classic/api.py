"""``sim.attack(...)``: one Classic physical-attack scenario from Python (the CLI uses it too).

Exact when ``trials`` is None, Monte Carlo otherwise (chunks of 2**17 seeded exactly like the
engine: ``Generator(PCG64DXSM(SeedSequence(seed, spawn_key=(0, chunk))))``, so results do not
depend on ``n_jobs``). Both return the same metric names.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic.metrics import FALL_LOC_METRICS, LOC_METRICS, METRICS
from sim.classic.tables import LOCATIONS
from sim.errors import ConfigError, check_int

CHUNK = 2**17
#: nested JSON groups: key -> flat metric names (location order HD, CT, ...)
NESTED = {
    "expected_damage_by_location": LOC_METRICS,
    "expected_fall_damage_target_by_location": FALL_LOC_METRICS["target"],
    "expected_fall_damage_attacker_by_location": FALL_LOC_METRICS["attacker"],
}


def _chunk(model: Any, scn: Any, seed: int, j: int, n: int) -> Aggregate:
    rng = np.random.Generator(np.random.PCG64DXSM(np.random.SeedSequence(seed,
                                                                         spawn_key=(0, j))))
    return model.sample(scn, rng, n)


def monte_carlo(model: Any, scn: Any, trials: int, seed: int, n_jobs: int = 1,
                chunk: int = CHUNK) -> Aggregate:
    """Run ``trials`` trials of one scenario in chunks; merge the aggregates in chunk order."""
    sizes = [min(chunk, trials - i) for i in range(0, trials, chunk)]
    if n_jobs == 1 or len(sizes) == 1:
        parts = [_chunk(model, scn, seed, j, n) for j, n in enumerate(sizes)]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=n_jobs)(delayed(_chunk)(model, scn, seed, j, n)
                                        for j, n in enumerate(sizes))
    return Aggregate.merge_all(parts)


def summarize(agg: Aggregate) -> dict[str, float]:
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


def attack(kind: str, *, tons: int | None = None, piloting: int | None = None,
           target_tons: int | None = None, target_piloting: int | None = None,
           arm: str | None = None, damaged: Any = None, missing: Any = None,
           moved: str | None = None, target_hexes: int | None = None,
           target_jumped: bool | None = None, terrain: str | None = None,
           target_prone: bool | None = None, target_immobile: bool | str | None = None,
           side: str | None = None, hexes: int | None = None, tsm: bool | None = None,
           rules: str | None = None, attacker: str | None = None, target: str | None = None,
           trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
           flat: bool = False, **options: Any) -> dict[str, Any]:
    """Resolve one physical attack scenario; exact if ``trials`` is None, else Monte Carlo.

    Keyword names are the experiment-grid parameters (see :mod:`sim.classic.scenario`);
    ``**options`` takes the extension parameters and any :class:`~sim.classic.rules.ClassicRules`
    field as an override. Returns a dict: ``params``, facts (``target_number``,
    ``target_number_left``/``_right``, ``impossible``, ``notes``, ``damage_on_hit``, ``rules``,
    ``rule_options``), ``mode`` ("exact" or "monte-carlo"), every metric by name (Monte Carlo:
    also ``<name>_se`` and ``trials``, ``seed``), ``damage_dist`` as a list of probabilities,
    and per-location metrics nested under ``expected_damage_by_location`` etc. (``flat=True``
    keeps them as ``expected_damage_HD`` ...). Impossible scenarios never raise: they give the
    reason in ``impossible``, ``damage_on_hit`` None, every metric NaN (standard errors too)
    and ``damage_dist`` None. ``n_jobs``: worker processes (>= 1, or -1 for all cores).
    """
    from sim.classic.model import MODEL

    params = dict(attack=kind, tons=tons, piloting=piloting, target_tons=target_tons,
                  target_piloting=target_piloting, arm=arm, damaged=damaged, missing=missing,
                  moved=moved, target_hexes=target_hexes, target_jumped=target_jumped,
                  terrain=terrain, target_prone=target_prone, target_immobile=target_immobile,
                  side=side, hexes=hexes, tsm=tsm, rules=rules, attacker=attacker,
                  target=target, **options)
    params = {k: v for k, v in params.items() if v is not None}
    n_jobs = check_int("jobs", n_jobs, lo=-1)
    if n_jobs == 0:
        raise ConfigError("jobs", 0, "a positive worker count, or -1 for all cores")
    scn = MODEL.scenario(params)
    res: dict[str, Any] = {"params": MODEL.params(scn), **MODEL.facts(scn)}
    if trials is None:
        ex = MODEL.exact(scn)
        res["mode"] = "exact"
        for m in METRICS:
            v = ex[m.name]
            res[m.name] = v[0].tolist() if m.kind == "hist" else float(v[0])
    else:
        trials = check_int("trials", trials, 1)
        seed = check_int("seed", 0 if seed is None else seed, 0)
        agg = monte_carlo(MODEL, scn, trials, seed, n_jobs=n_jobs)
        res["mode"] = "monte-carlo"
        res["trials"] = trials
        res["seed"] = seed
        res.update(summarize(agg))
    if scn.impossible is not None:  # no attack is made: no metric has a value
        for m in METRICS:
            for key in (m.name, m.name + "_se"):
                if key in res:
                    res[key] = None if m.kind == "hist" else math.nan
    return res if flat else nest(res)
