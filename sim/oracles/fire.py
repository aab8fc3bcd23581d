"""Scalar-Python oracle of the ``fire`` model: one 'Mech, one turn, one weapon at a time.

Written from the rules reference (part 2: 10.2-10.3, 11, 12.1, 13.1-13.4) with plain ``if``
statements and Python's own random numbers drawn from the passed generator, independently of
the vectorized kernel and of the chain. It shares with them only the validated scenario (the
unit's weapons and ammunition, the rule options), the cluster table data (11.1) and the
policy's decisions (:class:`sim.classic.fire.policies.Decider`, which is not a rule). Target
numbers, heat-scale effects, cluster reading, grouping, jams and the heat phase are
recomputed here. Tests compare it with the exact chain by distribution; ``btsim bench`` times
it as the scalar baseline.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.classic.fire.cluster import ROWS
from sim.classic.fire.policies import Decider
from sim.classic.fire.scenario import FireScenario, build_scenario

#: missile families: cluster rolls (10.3), engaged by an AMS
MISSILES = ("lrm", "srm", "mrm", "atm", "streak")
TMM_STEPS = ((2, 0), (4, 1), (6, 2), (9, 3), (17, 4), (24, 5))


def _roll(rand: random.Random) -> int:
    return rand.randint(1, 6) + rand.randint(1, 6)


def _cluster(rack: int, total: int) -> int:
    size = min(r for r in ROWS if r >= rack) if rack > 1 else None
    if size is None:
        return 1
    return min(rack, ROWS[size][max(2, min(12, total)) - 2])


def _tn(scn: FireScenario, gun: Any, distance: int, heat: int, move_mod: int) -> int:
    w = gun.weapon
    if distance > w.long:
        return 99
    tn = scn.gunnery
    if distance > w.medium:
        tn += 4
    elif distance > w.short:
        tn += 2
    if w.min_range and distance <= w.min_range:
        tn += w.min_range - distance + 1
    hexes = scn.target_hexes
    tmm = 6 if scn.rules.fire_tmm_table == "tw" else 4
    for top, m in TMM_STEPS if scn.rules.fire_tmm_table == "tw" else TMM_STEPS[:4]:
        if hexes <= top:
            tmm = m
            break
    tn += tmm + (1 if scn.target_jumped else 0)
    tn += {"clear": 0, "light-woods": 1, "heavy-woods": 2}[scn.terrain]
    if w.to_hit_by_range is not None and distance <= w.long:  # variable-speed pulse lasers
        tn += w.to_hit_by_range[0 if distance <= w.short else 1 if distance <= w.medium else 2]
    else:
        tn += w.to_hit_mod
    if w.family == "lbx" and scn.rules.lbx_ammo == "cluster":
        tn -= 1
    if w.family == "mrm" and (scn.rules.mrm_to_hit == "core" or gun.artemis == "apollo"):
        tn -= 1
    if scn.unit.targeting_computer and w.family in (
            "laser", "pulse", "ppc", "ac", "ultra", "rotary", "gauss", "lbx"):
        if not (w.family == "lbx" and scn.rules.lbx_ammo == "cluster"):
            tn -= 1
    tn += move_mod
    if heat >= 8:
        tn += 1
    if heat >= 13:
        tn += 1
    if heat >= 17:
        tn += 1
    if heat >= 24:
        tn += 1
    return tn


def _cluster_mod(scn: FireScenario, gun: Any, ams: bool) -> int:
    """11.2: ATM +2 built in, Artemis IV +2 / V +3 (not Streak; the larger bonus only), MRM
    -1 under the Core rules, AMS -4."""
    w = gun.weapon
    bonus = 2 if w.family == "atm" else 0
    if w.family != "streak":
        bonus = max(bonus, {"": 0, "iv": 2, "v": 3, "apollo": 0}[gun.artemis])
    mod = bonus - (1 if w.family == "mrm" and (scn.rules.mrm_to_hit == "core"
                                               or gun.artemis == "apollo") else 0)
    return mod - (4 if ams else 0)


def _mean_hit_damage(scn: FireScenario, gun: Any) -> float:
    """Expected damage of one hit (the order in which an AMS engages attacks)."""
    w = gun.weapon
    if w.family == "streak":
        return float(w.cluster * w.damage)
    mod = _cluster_mod(scn, gun, False)
    ways = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    return sum(_cluster(w.cluster, a + b + mod) * w.damage for a, b in ways) / 36


def _damage(scn: FireScenario, gun: Any, shots: int, rand: random.Random,
            ams: bool = False) -> int:
    """Damage of one hit with ``shots`` shots (cluster roll where the rules need one;
    ``ams``: the target's anti-missile system engages it, 10.3)."""
    w = gun.weapon
    fam = w.family
    if fam == "streak" and not ams:
        return w.cluster * w.damage
    if fam in MISSILES:
        return _cluster(w.cluster, _roll(rand) + _cluster_mod(scn, gun, ams)) * w.damage
    if fam == "lbx" and scn.rules.lbx_ammo == "cluster":
        return _cluster(w.damage, _roll(rand))
    if fam in ("ultra", "rotary") and shots > 1:
        return _cluster(shots, _roll(rand)) * w.damage
    return w.damage


def _shutdown_avoid(scn: FireScenario, heat: int, restart: bool) -> int:
    if heat >= 30:
        return 13
    avoid = 4 + 2 * ((heat - 14) // 4)
    if scn.rules.tacops_shutdown and not restart:
        avoid += -5 + (-2, -2, -1, -1, 0, 0, 1, 1, 1)[scn.rules.piloting]
    return avoid


def _biggest_bin(pool: Any, left: int) -> int:
    """C8: rounds of the fullest bin when ``left`` rounds are left, the bins emptied in
    slot order (the first bins go first)."""
    bins = list(pool.bins or (pool.shots,))
    used = sum(bins) - left
    for k, size in enumerate(bins):
        take = min(size, used)
        bins[k] -= take
        used -= take
    return max(bins)


def one_trial(scn: FireScenario, dec: Decider, rand: random.Random,
              danger: dict[int, float] | None = None) -> dict[str, list[float]]:
    """One 'Mech through every turn; per-turn observations. ``danger``: each gun's expected
    damage of a hit (the order an AMS engages them; computed here when not given)."""
    if danger is None:
        danger = {g: _mean_hit_damage(scn, gun) for g, gun in enumerate(scn.guns)
                  if gun.weapon.family in MISSILES}
    pools = scn.unit.pools
    heat, shut, out = scn.start_heat, False, False
    ever_s = ever_x = False
    jammed = [False] * len(scn.guns)
    ammo = [p.shots for p in pools]
    cum = 0
    obs: dict[str, list[float]] = {k: [] for k in (
        "expected_damage", "expected_cumulative_damage", "mean_heat", "p_shutdown",
        "p_shutdown_by", "p_ammo_explosion_by", "expected_ammo_left", "heat", "damage")}
    for t in range(scn.turns):
        distance = scn.ranges[t]
        build = 0
        dealt = 0
        if not shut and not out:
            moves = scn.moved == "jump" or scn.unit.walk_mp - heat // 5 >= 1
            move_mod = {"stand": 0, "walk": 1, "run": 2, "jump": 3}[scn.moved] if moves else 0
            if moves:
                build += (max(3, scn.jump_hexes) if scn.moved == "jump"
                          else {"stand": 0, "walk": 1, "run": 2}[scn.moved])
            avail = 0
            for g, gun in enumerate(scn.guns):
                if not jammed[g] and (gun.pool < 0 or ammo[gun.pool] > 0):
                    avail |= 1 << g
            if scn.policy.kind == "callable":
                assert scn.policy.fn is not None
                want = np.broadcast_to(np.asarray(scn.policy.fn(
                    np.array([heat]), t + 1, {"avail": np.array([[(avail >> g) & 1 for g in
                                                                 range(len(scn.guns))]], bool),
                                              "ammo": np.array([ammo])})).astype(bool),
                    (1, len(scn.guns)))[0]
                mask = sum(1 << g for g in range(len(scn.guns)) if want[g])
            else:
                mask = dec.mask(scn.steps[t], heat, avail)
            landed: list[tuple[int, int]] = []     # (gun, shots) of the hits
            fired_missiles: list[int] = []
            for g, gun in enumerate(scn.guns):
                if not ((mask >> g) & 1 and (avail >> g) & 1):
                    continue
                tn = _tn(scn, gun, distance, heat, move_mod)
                if tn > 12:
                    continue
                w = gun.weapon
                shots = gun.rate
                if gun.pool >= 0 and not gun.streak:
                    shots = min(shots, ammo[gun.pool])
                roll = _roll(rand)
                hit = roll >= tn
                if gun.streak:
                    if hit:
                        build += w.heat
                        if gun.pool >= 0:
                            ammo[gun.pool] -= 1
                else:
                    build += w.heat * shots
                    if gun.pool >= 0:
                        ammo[gun.pool] -= shots
                if w.family == "ultra" and shots == 2 and scn.rules.uac_jam == "tw" \
                        and roll == 2:
                    jammed[g] = True
                if w.family == "rotary" and scn.rules.rac_jam == "megamek" and shots > 1 \
                        and roll <= (2 if shots <= 3 else 3 if shots <= 5 else 4):
                    jammed[g] = True
                if w.family in MISSILES:
                    fired_missiles.append(g)
                if hit and shots > 0:
                    landed.append((g, shots))
            # the target's AMS engage the most dangerous missile attacks (10.3), one each
            pick = [g for g, _ in landed] if scn.rules.ams_engages == "hit" else fired_missiles
            pick = [g for g in pick if g in fired_missiles]
            pick.sort(key=lambda g: (-danger[g], g))
            engaged = set(pick[:scn.target_ams])
            for g, shots in landed:
                dealt += _damage(scn, scn.guns[g], shots, rand, g in engaged)
        heat = max(0, heat + build - scn.dissipation)
        if shut:
            if heat < 14 or (heat < 30 and _roll(rand) >= _shutdown_avoid(scn, heat, True)):
                shut = False
        elif not out and heat >= 14:
            if heat >= 30 or _roll(rand) < _shutdown_avoid(scn, heat, False):
                shut = True
                ever_s = True
        if not out and heat >= 19 and (scn.rules.explosion_while_shutdown or not shut):
            avoid = 4 if heat < 23 else 6 if heat < 28 else 8
            if _roll(rand) < avoid:
                best = None
                for i, p in enumerate(pools):
                    if p.explosive and ammo[i] > 0:
                        k = (p.damage_per_shot, _biggest_bin(p, ammo[i]), -i)
                        if best is None or k > best[0]:
                            best = (k, i)
                if best is not None:
                    ever_x = True
                    i = best[1]
                    if pools[i].contained:
                        ammo[i] -= _biggest_bin(pools[i], ammo[i])
                    else:
                        out, shut = True, False
        cum += dealt
        for name, v in (("expected_damage", dealt), ("expected_cumulative_damage", cum),
                        ("mean_heat", heat), ("p_shutdown", shut), ("p_shutdown_by", ever_s),
                        ("p_ammo_explosion_by", ever_x), ("expected_ammo_left", sum(ammo)),
                        ("heat", heat), ("damage", dealt)):
            obs[name].append(float(v))
    return obs


def scalar(params: Mapping[str, Any], rng: np.random.Generator, n: int
           ) -> dict[str, np.ndarray]:
    """``n`` trials one at a time; per-turn means, and ``heat_hist`` / ``damage_hist`` as
    (turns, bins) frequencies."""
    scn = params if isinstance(params, FireScenario) else build_scenario(params)
    dec = Decider(scn)
    rand = random.Random(int(rng.integers(2**63)))
    danger = {g: _mean_hit_damage(scn, gun) for g, gun in enumerate(scn.guns)
              if gun.weapon.family in MISSILES}
    sums: dict[str, np.ndarray] = {}
    hh = np.zeros((scn.turns, scn.heat_bins))
    dh = np.zeros((scn.turns, scn.damage_bins))
    for _ in range(n):
        obs = one_trial(scn, dec, rand, danger)
        for k, v in obs.items():
            sums[k] = sums.get(k, 0) + np.asarray(v)
        for t in range(scn.turns):
            hh[t, int(obs["heat"][t])] += 1
            dh[t, int(obs["damage"][t])] += 1
    out = {k: v / n for k, v in sums.items() if k not in ("heat", "damage")}
    out["heat_hist"] = hh / n
    out["damage_hist"] = dh / n
    return out
