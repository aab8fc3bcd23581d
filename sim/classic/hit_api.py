"""``sim.hit``: what damage groups do to a fresh Classic 'Mech, exactly or by sampling
(reference-classic-combat.md 14; ``btsim hit``).

The exact path enumerates every outcome of every die (hit location with TAC, determining
table, slot choice) through :class:`~sim.classic.damage_state.ExactChooser` and merges equal
states after each group; the Monte Carlo path runs the same kernel with a
:class:`~sim.classic.damage_state.SampleChooser` through the engine (:func:`monte_carlo`:
the chunk streams of ``sim.run``, issue 21). Both return the same summary fields.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim import options
from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.apply import DamageModel, apply_group, apply_group_from_side
from sim.classic.damage_state.choose import Chooser, ExactChooser
from sim.classic.damage_state.outcome import ARMOR_NAMES, dedupe, summarize
from sim.classic.damage_state.start import damaged_state, read_state
from sim.classic.damage_state.state import canonical, fresh
from sim.errors import UserError, check_int, shown
from sim.units.catalog import get_classic
from sim.units.types import ClassicMech

SIDES = ("front", "left", "right", "rear")
#: exact enumeration gives up (asking for Monte Carlo) beyond this many distinct states
MAX_STATES = 400_000
#: Monte Carlo trials and seed when none are given
MC_TRIALS = 100_000
MC_SEED = 1
#: the largest damage group accepted (no 'Mech has this much armor and structure)
MAX_GROUP_DAMAGE = 10_000


def _groups(damage: int | None, groups: Sequence[int] | None) -> tuple[int, ...]:
    if groups:
        out = tuple(int(g) for g in groups)
        if damage is not None and sum(out) != damage:
            raise UserError(f"--groups {','.join(map(str, out))} add up to {sum(out)}, not "
                            f"--damage {damage}")
    elif damage is not None:
        out = (int(damage),)
    else:
        raise UserError("give --damage N (and optionally --groups)")
    bad = [g for g in out if g < 1]
    if bad:
        raise UserError("--damage/--groups: each damage group must be at least 1; got "
                        f"{bad[0]}")
    big = [g for g in out if g > MAX_GROUP_DAMAGE]
    if big:
        raise UserError("--damage/--groups: each damage group must be at most "
                        f"{MAX_GROUP_DAMAGE} (more than any 'Mech's armor and structure); "
                        f"got {shown(big[0])}")
    return out


def _target(location: str | None, rear: bool, side: str | None) -> tuple[int | None, str | None]:
    if (location is None) == (side is None):
        raise UserError("give exactly one of --location LOC or --side "
                        + "|".join(SIDES))
    if side is not None:
        if side not in SIDES:
            raise UserError(f"unknown side {side!r}; expected one of {', '.join(SIDES)}")
        if rear:
            raise UserError("--rear goes with --location (use --side rear for the rear column)")
        return None, side
    loc = str(location).upper()
    loc = lay.QUAD_ALIASES.get(loc, loc)  # a quad's FLL/FRL/RLL/RRL: its LA/RA/LL/RL
    if loc not in lay.LOC_INDEX:
        raise UserError(f"unknown location {location!r}; expected one of "
                        + ", ".join(lay.LOCS) + " (a quad's legs also "
                        + ", ".join(lay.QUAD_ALIASES) + ")")
    if rear and loc not in ("CT", "LT", "RT"):
        raise UserError(f"--rear applies to CT, LT or RT; not {loc}")
    return lay.LOC_INDEX[loc], None


def _squares(S: np.ndarray, w: np.ndarray, layout: lay.Layout) -> dict[str, Any]:
    """Weighted means of the squares of the per-trial values behind ``summarize``'s
    expectations (the same keys), for their sample standard errors."""
    w = w / w.sum()
    x = S.astype(np.float64)
    x[:, :st.N_ARMOR] = layout.armor_points(S[:, :st.N_ARMOR])  # points (hardened: halves)
    sq = w @ (x * x)
    pilot = np.minimum(x[:, st.PILOT], st.PILOT_DEAD)
    engine = np.minimum(x[:, st.ENGINE], st.ENGINE_DEAD)
    return {"expected_armor_left": {n: float(sq[i]) for i, n in enumerate(ARMOR_NAMES)
                                    if layout.armor[i] > 0 or i < 8},
            "expected_structure_left": {n: float(sq[st.IS0 + i])
                                        for i, n in enumerate(lay.LOCS)},
            "expected_pilot_damage": float(w @ (pilot * pilot)),
            "expected_engine_hits": float(w @ (engine * engine))}


def monte_carlo(mech: ClassicMech, layout: lay.Layout, rules: DamageRules,
                groups: Sequence[int],
                location: int | None, rear: bool, side: str | None, start: np.ndarray,
                trials: int, seed: int) -> dict[str, Any]:
    """The Monte Carlo summary through the engine (:func:`sim.engine.sample_run`, issue 21:
    every door): the ``hit`` model with every document field as a metric
    (:class:`~sim.classic.hit_model.HitSummaryModel`), so the same seed and trials give the
    bits of ``sim.run`` on the ``hit`` model. Each estimate is followed by ``<field>_se``
    (the engine's: binomial ``sqrt(p(1-p)/n)`` for probabilities, for a slot sharing its
    class's mean (14.2) an upper bound; the sample standard error for expectations)."""
    from sim import engine
    from sim.classic.damage_state.outcome import nest
    from sim.classic.hit_model import HitScenario, HitSummaryModel

    model = HitSummaryModel.for_layout(layout, start)
    scn = HitScenario(mech, tuple(groups), location, rear, side, "", rules)
    agg = engine.sample_run(model, [scn], trials, seed, n_jobs=1,
                            backend="sequential").parts[0]
    means: dict[str, float] = {}
    ses: dict[str, float] = {}
    for m in model.metrics:
        c, t, q = agg.stats[m.name][0]
        mean, se, _lo, _hi = engine._interval(m.kind, np.array([c]), np.array([t]),
                                              np.array([q]))
        means[m.name] = float(mean[0])
        ses[m.name] = float(se[0])
    est, err = nest(means), nest(ses)
    out: dict[str, Any] = {}
    for k, v in est.items():          # each estimate, then its standard error
        out[k] = v
        out[f"{k}_se"] = err[k]
    return out


def run_groups(dm: DamageModel, groups: Sequence[int], location: int | None, rear: bool,
               side: str | None, S: np.ndarray, w: np.ndarray, ch: Chooser, exact: bool
               ) -> tuple[np.ndarray, np.ndarray]:
    """Apply ``groups`` in order to the states ``(S, w)``."""
    for g in groups:
        if side is not None:
            S, w = apply_group_from_side(S, w, dm, side, g, ch)
        else:
            n = len(S)
            S, w = apply_group(S, w, dm, np.full(n, location), np.full(n, rear),
                               np.full(n, g), np.zeros(n, dtype=bool), ch)
        if exact:
            S, w = dedupe(canonical(S, dm.layout), w)
            if len(S) > MAX_STATES:
                raise UserError(f"the exact distribution has more than {MAX_STATES} states "
                                "after this many groups; use --method mc")
    return S, w


def hit(unit: str | ClassicMech, damage: int | None = None, groups: Sequence[int] | None = None,
        location: str | None = None, rear: bool = False, side: str | None = None,
        rules: Mapping[str, Any] | DamageRules | None = None, method: str = "exact",
        trials: int = MC_TRIALS, seed: int = MC_SEED,
        state: Mapping[str, Any] | str | Path | None = None) -> dict[str, Any]:
    """The outcome distribution of damage ``groups`` (or one group of ``damage``) landing on a
    fresh ``unit`` at ``location`` (``rear`` armor for torsos) or rolled from ``side``;
    ``state``: start from a damaged state instead (a mapping or a JSON/TOML file, see
    :mod:`sim.classic.damage_state.start`).
    ``method``: ``exact`` or ``mc`` (``trials``, ``seed``). Returns a dict with the fields of
    :func:`~sim.classic.damage_state.outcome.summarize` plus ``params``, ``notes``,
    ``states`` (distinct end states) and ``seconds``; Monte Carlo adds ``<field>_se`` beside
    every estimate (:func:`standard_errors`)."""
    gs = _groups(damage, groups)
    loc, side = _target(location, rear, side)
    mech = unit if isinstance(unit, ClassicMech) else get_classic(unit)
    if isinstance(rules, DamageRules):
        dr = rules
    else:
        dr = options.build(DamageRules, "default", dict(rules or {}))
    if (location is not None and str(location).upper() in lay.QUAD_ALIASES
            and mech.config != "Quad"):
        raise UserError(f"--location {location}: {mech.name} is a {mech.config} 'Mech; "
                        f"{str(location).upper()} names a quad's leg (expected one of "
                        + ", ".join(lay.LOCS) + ")")
    layout = lay.build_layout(mech, quad=True)
    dm = DamageModel.build(layout, dr)
    spec = read_state(state) if isinstance(state, (str, Path)) else state
    start = fresh(layout, 1) if spec is None else damaged_state(layout, dm, spec)
    t0 = time.perf_counter()
    if method == "exact":
        S, w = run_groups(dm, gs, loc, rear, side, start, np.ones(1),
                          ExactChooser(lambda s: canonical(s, layout, inplace=True)), True)
        out = summarize(S, w, layout, start[0])
    elif method == "mc":
        trials = check_int("trials", trials, lo=1, hi=10**9)
        seed = check_int("seed", seed, lo=0)
        out = monte_carlo(mech, layout, dr, gs, loc, rear, side, start, trials, seed)
    else:
        raise UserError(f"unknown method {method!r}; expected exact or mc")
    seconds = time.perf_counter() - t0
    out["params"] = {"unit": mech.name, "config": mech.config, "groups": list(gs),
                     "damage": sum(gs),
                     "location": lay.LOCS[loc] if loc is not None else None, "rear": rear,
                     "side": side, "method": method, "rules": dr.as_dict(),
                     "state": None if spec is None else dict(spec),
                     **({"trials": trials, "seed": seed} if method == "mc" else {})}
    notes = list(layout.notes)
    notes.append("p_slot_hit counts critical hits on a slot; slots lost with a destroyed "
                 "location count in p_location_destroyed only")
    notes.append("p_ammo_explosion includes Gauss rifle explosions; a cockpit hit counts as "
                 "destroyed_by pilot")
    if method == "mc":
        notes.append("Monte Carlo: <field>_se is the standard error of each estimate "
                     "(binomial for probabilities; for a slot sharing its class's mean, 14.2, "
                     "an upper bound)")
    out["notes"] = notes
    out["states"] = int(len(S)) if method == "exact" else None
    out["seconds"] = seconds
    return out
