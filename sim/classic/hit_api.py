"""``sim.hit``: what damage groups do to a fresh Classic 'Mech, exactly or by sampling
(reference-classic-combat.md 14; ``btsim hit``).

The exact path enumerates every outcome of every die (hit location with TAC, determining
table, slot choice) through :class:`~sim.classic.damage_state.ExactChooser` and merges equal
states after each group; the Monte Carlo path runs the same kernel with a
:class:`~sim.classic.damage_state.SampleChooser`. Both return the same summary fields.
"""

from __future__ import annotations

import math
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
from sim.classic.damage_state.choose import Chooser, ExactChooser, SampleChooser
from sim.classic.damage_state.outcome import ARMOR_NAMES, dedupe, summarize
from sim.classic.damage_state.start import damaged_state, read_state
from sim.classic.damage_state.state import canonical, fresh
from sim.errors import UserError, check_int, shown
from sim.units.catalog import get_classic
from sim.units.types import ClassicMech

SIDES = ("front", "left", "right", "rear")
#: exact enumeration gives up (asking for Monte Carlo) beyond this many distinct states
MAX_STATES = 400_000
#: Monte Carlo trials per block (``method="mc"``): memory is bounded by it
MC_BLOCK = 65_536
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


def _pooled(parts: Sequence[tuple[int, Any]]) -> Any:
    """Trial-weighted mean of block summaries (every field of ``summarize`` is a mean or a
    probability, nested in dicts)."""
    first = parts[0][1]
    if isinstance(first, dict):
        return {k: _pooled([(n, p[k]) for n, p in parts]) for k in first}
    total = sum(n for n, _ in parts)
    return sum(n * float(p) for n, p in parts) / total


def _squares(S: np.ndarray, w: np.ndarray, layout: lay.Layout) -> dict[str, Any]:
    """Weighted means of the squares of the per-trial values behind ``summarize``'s
    expectations (the same keys), for their sample standard errors."""
    w = w / w.sum()
    x = S.astype(np.float64)
    sq = w @ (x * x)
    pilot = np.minimum(x[:, st.PILOT], st.PILOT_DEAD)
    engine = np.minimum(x[:, st.ENGINE], st.ENGINE_DEAD)
    return {"expected_armor_left": {n: float(sq[i]) for i, n in enumerate(ARMOR_NAMES)
                                    if layout.armor[i] > 0 or i < 8},
            "expected_structure_left": {n: float(sq[st.IS0 + i])
                                        for i, n in enumerate(lay.LOCS)},
            "expected_pilot_damage": float(w @ (pilot * pilot)),
            "expected_engine_hits": float(w @ (engine * engine))}


def standard_errors(out: Mapping[str, Any], squares: Mapping[str, Any], n: int
                    ) -> dict[str, Any]:
    """``<name>_se`` for every estimate of a Monte Carlo summary of ``n`` trials (nested
    like the estimate, as ``sim.attack``'s ``expected_damage_by_location_se``): binomial
    ``sqrt(p(1-p)/n)`` for the probabilities (``p_*``; for a slot that shares its class's
    mean, 14.2, an upper bound), ``sqrt((E[x^2] - E[x]^2)/(n-1))`` for the expectations
    (``squares``: :func:`_squares`)."""
    def binom(p: Any) -> Any:
        if isinstance(p, dict):
            return {k: binom(v) for k, v in p.items()}
        var = p * (1 - p)
        # a certain event pooled over blocks reads 1 - 5e-14: no variance, not rounding noise
        return 0.0 if var <= 1e-12 else math.sqrt(var / n)

    def sample(m: Any, m2: Any) -> Any:
        if isinstance(m, dict):
            return {k: sample(m[k], m2[k]) for k in m}
        var = m2 - m * m
        # E[x^2] - E[x]^2 of a constant leaves rounding noise of order 1e-15 x E[x^2]
        var = 0.0 if var <= 1e-12 * max(m2, 1.0) else var
        return math.sqrt(var / max(n - 1, 1))

    se: dict[str, Any] = {}
    for k, v in out.items():
        if k.startswith("p_"):
            se[f"{k}_se"] = binom(v)
        elif k in squares:
            se[f"{k}_se"] = sample(v, squares[k])
    return se


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
        ch = SampleChooser(np.random.default_rng(seed))
        parts: list[tuple[int, dict[str, Any]]] = []
        squares: list[tuple[int, dict[str, Any]]] = []
        for lo in range(0, trials, MC_BLOCK):     # memory bounded by the block, not trials
            n = min(MC_BLOCK, trials - lo)
            S, w = run_groups(dm, gs, loc, rear, side, np.repeat(start, n, axis=0),
                              np.full(n, 1.0 / n), ch, False)
            parts.append((n, summarize(S, w, layout, start[0])))
            squares.append((n, _squares(S, w, layout)))
        mean = _pooled(parts)
        se = standard_errors(mean, _pooled(squares), trials)
        out = {}
        for k, v in mean.items():          # each estimate, then its standard error
            out[k] = v
            if f"{k}_se" in se:
                out[f"{k}_se"] = se[f"{k}_se"]
    else:
        raise UserError(f"unknown method {method!r}; expected exact or mc")
    seconds = time.perf_counter() - t0
    out["params"] = {"unit": mech.name, "groups": list(gs), "damage": sum(gs),
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
