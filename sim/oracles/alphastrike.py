"""Scalar-Python oracle of the Alpha Strike heat model: one unit, one turn at a time.

Written from the rules reference (sections 6.1-6.7) in plain ``if`` statements, independently
of the vectorized kernel (it shares only the validated scenario: card numbers, lookup tables
of movement modifiers, rule options; attack target numbers and physical damage it derives
itself, :func:`attack_bases`). The Alpha Strike heat model has no impossible scenarios (bad
input is a ConfigError), so there is no eligibility to decide. Tests compare it with the exact chain; ``btsim bench``
times it as the scalar baseline.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

CRIT = {2: "ammo", 3: "engine", 4: "fc", 5: "none", 6: "weapon", 7: "mp", 8: "weapon",
        9: "none", 10: "fc", 11: "engine", 12: "destroyed"}


def _roll2(rand: Callable[[], float]) -> int:
    return int(rand() * 6) + int(rand() * 6) + 2


def _request(s: Any, heat: int, turn: int, state: dict[str, int]) -> int:
    """The policy's OV request for one unit (-1: no weapon attack)."""
    pol, cap = s.policy, s.ov_cap
    if pol.kind == "hold":
        return -1
    if pol.kind == "never":
        return 0
    if pol.kind == "max":
        return cap
    if pol.kind == "fixed":
        return min(pol.arg, cap)
    if pol.kind == "below":
        return cap if heat < pol.arg else 0
    arrays = {k: np.array([v]) for k, v in state.items()}
    return int(np.ravel(pol.request(np.array([heat], np.uint8), turn, arrays, cap))[0])


def _heat_update(s: Any, heat: int, fired: bool, ov: int, engine: bool, ht: int) -> int:
    """Reference 6.4 pseudocode, literally."""
    r = s.rules
    ht = min(ht, r.ht_cap)
    if heat >= 4:
        new = 0
        if r.ht_while_shutdown == "apply":
            new += ht
        return min(new, 4)
    if r.ht_order == "before_cooling":
        heat = min(heat + ht, 4)
    eng = 1 if engine else 0
    depth = s.water_depth
    if fired and ov > 0:
        new = heat + ov + eng
        if depth > 0 and depth >= r.water_ov_depth and (r.water_ov == "steps" or ov == 1):
            new -= 1
    elif fired:
        new = heat + eng
        if depth > 0 and depth >= r.water_cool_depth:
            new -= 1
    else:
        new = 0
    if r.ht_order == "after_cooling":
        new += ht
    return max(0, min(new, 4))


#: Reference 6.1 range modifiers and 6.7 physical attack modifiers (D13 readings), transcribed
#: here so that the oracle does not reuse the scenario's derived target numbers.
RANGE_MOD = {"short": 0, "medium": 2, "long": 4, "extreme": 6}
PHYS_MOD = {"asce": {"standard": 0, "melee": 0}, "as2013": {"standard": 0, "melee": 1}}


def attack_bases(s: Any) -> tuple[int, int, int]:
    """(weapon TN base, physical TN base, physical damage) from the scenario's plain inputs
    (reference 6.1 SATOR: Skill + Range + Target + Other; immobile -4 replaces the TMM; 6.7:
    physical damage = Size, +1 for a MEL unit's melee attack)."""
    target = -4 if s.target_immobile else s.target_tmm + (1 if s.target_jumped else 0)
    weapon = s.skill + RANGE_MOD[s.range] + target + s.attack_mod
    kind = "standard" if s.physical == "none" else s.physical
    phys = s.skill + PHYS_MOD[s.rules.physical_mods][kind] + target + s.attack_mod
    dmg = s.size + (1 if kind == "melee" and s.mel else 0)
    return weapon, phys, dmg


def one_unit(s: Any, rand: Callable[[], float]) -> dict[str, list[float]]:
    """Play one unit through ``s.turns`` turns (``rand``: uniform [0, 1) floats); per-turn
    observations."""
    tn_weapon_base, tn_phys_base, phys_dmg = attack_bases(s)
    heat, eng, fc, wh, mp, taken = s.start_heat, 0, 0, 0, 0, 0
    alive, ever = True, False
    total = s.armor + s.structure
    obs: dict[str, list[float]] = {"heat": [], "alive": [], "ever": [], "dealt": []}
    for turn in range(1, s.turns + 1):
        dealt = 0
        if alive and heat < 4:
            state = {"eng": eng, "fc": fc, "wh": wh, "mp": mp, "dmg": taken, "alive": True}
            req = _request(s, heat, turn, state)
            level = max(s.level0 - wh, 0)
            amod = s.amod[heat][mp]
            fired = req >= 0 and level >= 1
            ov = min(max(req, 0), s.ov_cap) if fired else 0
            phys = (not fired) and s.physical != "none"
            if fired:
                tn = tn_weapon_base + amod + heat + 2 * fc
                dmg = max(level - 1, 0) + ov
                if level == 1 and s.rules.minimal_damage == "one":
                    dmg += 1
            elif phys:
                tn = tn_phys_base + amod + (heat if s.rules.physical_heat else 0)
                dmg = phys_dmg
            if fired or phys:
                if _roll2(rand) >= tn:
                    dealt = dmg
                    if fired and level == 1 and s.rules.minimal_damage == "roll":
                        dealt += int(rand() * 6) + 1 >= 4
        else:
            fired, ov = False, 0
        pend, ht, killed = 0, 0, False
        eng_start = eng
        if alive:
            tmod = s.tmod[heat][mp]
            for inc in s.incoming:
                if _roll2(rand) < inc.base + tmod:
                    continue
                before = taken + pend
                pend += inc.hit_dmg
                ht += inc.hit_heat
                roll_again = inc.hit_dmg > 0 and before + inc.hit_dmg > s.armor \
                    and before + inc.hit_dmg < total and not killed
                while roll_again:
                    roll_again = False
                    res = CRIT[_roll2(rand)]
                    if res == "ammo":
                        if s.ammo_mode == "destroy":
                            killed = True
                        elif s.ammo_mode == "case" and s.rules.case_damage > 0:
                            pend += s.rules.case_damage
                            after = taken + pend
                            roll_again = s.armor < after < total
                    elif res == "engine":
                        eng += 1
                        killed = killed or eng >= 2
                    elif res == "fc":
                        fc += 1
                    elif res == "weapon":
                        wh += 1
                    elif res == "mp":
                        mp = min(mp + 1, s.mp_cap)
                    elif res == "destroyed":
                        killed = True
            # End Phase
            taken = min(taken + pend, total)
            if killed or taken >= total:
                alive = False
            elif s.has_heat:
                engine = (eng if s.rules.engine_heat_same_turn else eng_start) > 0
                heat = _heat_update(s, heat, fired, ov, engine, ht)
                ever = ever or heat == 4
        obs["heat"].append(heat if alive else -1)
        obs["alive"].append(float(alive))
        obs["ever"].append(float(ever))
        obs["dealt"].append(float(dealt))
    return obs


def run_oracle(params: Mapping[str, Any], rng: np.random.Generator, n: int
               ) -> dict[str, np.ndarray]:
    """Run ``n`` units one at a time; per-turn means of the model's main metrics. Dice come
    from Python's ``random`` (seeded from ``rng``): 1D6 = floor(6u) + 1."""
    from sim.alphastrike.scenario import build_scenario

    s = build_scenario(params)
    heat = np.zeros((n, s.turns))
    alive = np.zeros((n, s.turns))
    ever = np.zeros((n, s.turns))
    dealt = np.zeros((n, s.turns))
    rand = random.Random(int(rng.integers(2**63))).random
    for i in range(n):
        o = one_unit(s, rand)
        heat[i], alive[i], ever[i], dealt[i] = o["heat"], o["alive"], o["ever"], o["dealt"]
    out = {f"p_heat_{k}": (heat == k).mean(axis=0) for k in range(5)}
    out["p_shutdown_by"] = ever.mean(axis=0)
    out["p_destroyed_by"] = 1.0 - alive.mean(axis=0)
    out["expected_damage"] = dealt.mean(axis=0)
    out["expected_cumulative_damage"] = np.cumsum(dealt, axis=1).mean(axis=0)
    return out
