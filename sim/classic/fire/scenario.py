"""Scenario of the ``fire`` model: one 'Mech firing at one target for N turns.

Validates the parameters and compiles everything the kernel and the chain share: per weapon
its target numbers by (range step, heat level), its hit tables (cluster rows by shots), its
damage groups, heat, ammunition and jam thresholds; the movement heat and modifier by heat
level (13.1 MP loss can force a standing turn); dissipation (13.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from os import PathLike
from typing import Any

import numpy as np

from sim.classic import tables as CT
from sim.classic.bv import check_skill
from sim.classic.fire import cluster as C
from sim.classic.fire import heat as H
from sim.classic.fire import to_hit as TH
from sim.classic.fire.policies import Policy, parse_policy
from sim.classic.fire.rules import OPTION_NAMES, FireRules, rules_from
from sim.classic.fire.unit import FireUnit, Mount, fire_unit
from sim.classic.weapons import Weapon, cluster_mod_at, damage_at, rounds_for
from sim.dice import P_2D6_AT_LEAST, PMF_2D6
from sim.errors import ConfigError, check_bool, check_choice, check_int
from sim.units.types import ClassicMech

#: Heat levels at which a 'Mech can be active (it shuts down automatically at 30+).
ACTIVE_HEATS = H.AUTO_SHUTDOWN
MAX_TURNS = 100
#: :attr:`Gun.tn_uncapped` of a weapon beyond its long range: no modifier brings it to 12
OUT_OF_RANGE = 99
#: Parameters of the model besides the rule options.
PARAMS = ("unit", "gunnery", "range", "ranges", "moved", "target_hexes", "target_jumped",
          "terrain", "policy", "turns", "start_heat", "water", "jump_hexes", "target_ams",
          "edit")
#: Most anti-missile systems a target can bring to bear (``target_ams``).
MAX_TARGET_AMS = 8


@dataclass(frozen=True)
class Gun:
    """One forward weapon as the kernel and the chain see it.

    ``tn[r, h]``: target number at range step ``r`` and heat ``h`` (0..29), 13 = cannot fire;
    ``tn_uncapped[r, h]`` the same number before that cap (:data:`OUT_OF_RANGE` beyond long
    range), for callers that add modifiers of their own (the Classic duel's per-trial
    movement, prone or shut-down targets).
    For ``s`` shots (1..rate): ``hits[s]`` = hits (missiles/pellets/shots) by unmodified 2D6
    total given a hit (index 0..12), ``groups[s][k]`` = damage groups of ``k`` hits,
    ``jam_le[s]`` = jams on an unmodified roll <= that (0: never). ``streak``: no heat and
    no ammunition on a miss; all missiles hit. ``hits_ams[s]``: the hits when the target's
    anti-missile system engages the attack (10.3: -4 on the cluster roll, a Streak rolls on
    the table); ``ams_target``: a missile attack an AMS engages; ``ams_priority``: its
    expected damage given a hit, the order in which AMS engages attacks (MegaMek: the most
    dangerous first; ties to the first gun)."""

    index: int
    name: str
    key: str
    location: str
    weapon: Weapon
    kind: str
    rate: int
    heat_per_shot: int
    pool: int
    streak: bool
    tn: np.ndarray
    hits: tuple[np.ndarray, ...]
    groups: tuple[tuple[tuple[int, ...], ...], ...]
    jam_le: tuple[int, ...]
    tn_uncapped: np.ndarray
    hits_ams: tuple[np.ndarray, ...] = ()
    ams_target: bool = False
    ams_priority: float = 0.0
    #: Artemis fire control of the mount ("" none, "iv", "v"; 10.3)
    artemis: str = ""

    def heat_of(self, shots: int) -> int:
        """Heat when fired with ``shots`` shots (13.2; Streak: when it hits)."""
        return self.heat_per_shot * shots

    def max_damage(self, shots: int | None = None) -> int:
        s = self.rate if shots is None else shots
        return max(sum(g) for g in self.groups[s])

    def damage_given_hit(self, shots: int, ams: bool = False) -> np.ndarray:
        """Float distribution of the damage given a hit with ``shots`` shots (index = points;
        the cluster roll is a second, independent 2D6); ``ams``: the target's anti-missile
        system engages the attack (:attr:`hits_ams`)."""
        table = self.hits_ams if ams and self.ams_target else self.hits
        out = np.zeros(self.max_damage(shots) + 1 if shots else 1)
        for t2 in range(2, 13):
            k = int(table[shots][t2])
            out[sum(self.groups[shots][k])] += float(PMF_2D6[t2])
        return out

    def damage_pmf_float(self, tn: int, shots: int | None = None) -> np.ndarray:
        """Float distribution of this weapon's damage when fired at ``tn`` (index = points)."""
        s = self.rate if shots is None else shots
        p = float(P_2D6_AT_LEAST[max(0, min(14, tn))]) if tn <= TH.MAX_TN else 0.0
        out = p * self.damage_given_hit(s)
        out[0] += 1.0 - p
        return out

    def damage_pmf(self, tn: int, shots: int | None = None) -> dict[int, Fraction]:
        """Exact distribution of this weapon's damage when fired at ``tn`` with ``shots``."""
        s = self.rate if shots is None else shots
        out: dict[int, Fraction] = {}
        for total in range(2, 13):
            p = PMF_2D6[total]
            if tn <= TH.MAX_TN and (tn <= 2 or total >= tn):
                # the cluster roll is a second, independent 2D6
                for t2 in range(2, 13):
                    dd = sum(self.groups[s][int(self.hits[s][t2])])
                    out[dd] = out.get(dd, Fraction(0)) + p * PMF_2D6[t2]
            else:
                out[0] = out.get(0, Fraction(0)) + p
        return out


@dataclass(frozen=True)
class FireScenario:
    """A validated, compiled fire scenario."""

    unit: FireUnit
    unit_label: str
    gunnery: int
    ranges: tuple[int, ...]          # per turn
    steps: tuple[int, ...]           # range step index per turn
    step_ranges: tuple[int, ...]     # distinct ranges in first-use order
    moved: str
    target_hexes: int
    target_jumped: bool
    terrain: str
    policy: Policy
    turns: int
    start_heat: int
    water: bool
    jump_hexes: int
    rules: FireRules
    overrides: tuple[tuple[str, Any], ...]
    guns: tuple[Gun, ...]
    mount_rows: tuple[dict[str, Any], ...]
    move_heat: np.ndarray            # by heat 0..29
    move_mod: np.ndarray             # by heat 0..29
    dissipation: int
    heat_bins: int                   # heat values 0..heat_bins-1 can occur
    damage_bins: int
    notes: tuple[str, ...]
    #: anti-missile systems of the target (each engages one missile attack a turn, 10.3)
    target_ams: int = 0

    @property
    def n_guns(self) -> int:
        return len(self.guns)

    def pool_shots(self) -> tuple[int, ...]:
        return tuple(p.shots for p in self.unit.pools)

    def explosive_pools(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.unit.pools) if p.explosive and p.shots > 0)


def _resolve_unit(value: Any, edit: Any = None) -> tuple[FireUnit, str]:
    """The firing unit; ``edit`` (``--edit`` text, :mod:`sim.units.edited`) changes the
    'Mech first (issue 20)."""
    if edit is not None and edit != "" and edit != []:
        if isinstance(value, FireUnit):
            raise ConfigError("edit", edit, "an edit of a catalog name, an .mtf path or a "
                              "ClassicMech (a compiled FireUnit has no design)")
        from sim.units.edited import edit_unit

        mech = edit_unit(value if isinstance(value, ClassicMech) else _mech_of(value), edit)
        return fire_unit(mech), mech.name
    if isinstance(value, FireUnit):
        return value, value.name
    if isinstance(value, ClassicMech):
        return fire_unit(value), value.name
    if isinstance(value, str | PathLike) and str(value).strip():
        from sim.units.catalog import get_classic

        mech = get_classic(value)
        return fire_unit(mech), mech.name
    raise ConfigError("unit", value, "a catalog unit name, an .mtf path or a ClassicMech")


def _mech_of(value: Any) -> ClassicMech | str | PathLike[str]:
    if isinstance(value, str | PathLike) and str(value).strip():
        return value
    raise ConfigError("unit", value, "a catalog unit name, an .mtf path or a ClassicMech")


def _ranges(params: Mapping[str, Any], turns: int) -> tuple[int, ...]:
    rng = params.get("ranges")
    if rng is None:
        r = check_int("range", params.get("range", 6), lo=1, hi=99)
        return (r,) * turns
    return range_script(rng, turns)


def range_script(rng: Any, turns: int) -> tuple[int, ...]:
    """The range of each of ``turns`` turns from a script (``"9,6,3"`` or a list; the last
    range repeats); ConfigError for anything else."""
    if isinstance(rng, str):
        parts = [x for x in rng.split(",") if x.strip()]
    elif isinstance(rng, Sequence):
        parts = list(rng)
    else:
        raise ConfigError("ranges", rng, "a list of ranges in hexes (each >= 1)")
    if not parts:
        raise ConfigError("ranges", rng, "a non-empty list of ranges in hexes (each >= 1)")
    vals = [check_int("ranges", p, lo=1, hi=99) for p in parts]
    return tuple(vals[min(t, len(vals) - 1)] for t in range(turns))


def _shots_for(w: Weapon, rules: FireRules) -> int:
    if w.family == "ultra":
        return 2 if rules.ultra_mode == "ultra" else 1
    if w.family == "rotary":
        return rules.rotary_shots
    return 1


def _jam_le(w: Weapon, s: int, rules: FireRules) -> int:
    """C4 / C5 jam thresholds on the unmodified to-hit roll."""
    if w.family == "ultra":
        return 2 if (s == 2 and rules.uac_jam == "tw") else 0
    if w.family == "rotary" and rules.rac_jam == "megamek":
        return 0 if s == 1 else 2 if s <= 3 else 3 if s <= 5 else 4
    return 0


def _hit_tables(w: Weapon, rate: int, rules: FireRules, artemis: str = "",
                ams: bool = False, range_mod: int = 0
                ) -> tuple[tuple[np.ndarray, ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Per shot count s (index 0 unused): hits by unmodified roll, and groups by hits.
    Cluster launchers read their modifier from :func:`cluster.cluster_modifier` (ATM +2,
    Artemis, MRM Core -1; ``ams``: the target's AMS engages, -4 and a Streak rolls)."""
    hits: list[np.ndarray] = [np.zeros(13, dtype=np.int64)]
    groups: list[tuple[tuple[int, ...], ...]] = [((),)]
    lbx_cluster = w.family == "lbx" and rules.lbx_ammo == "cluster"
    for s in range(1, rate + 1):
        if w.family in C.CLUSTER_LAUNCHERS or lbx_cluster or w.cluster_by_range is not None:
            rack = w.cluster if w.cluster else w.damage
            mod = 0 if lbx_cluster else C.cluster_modifier(
                w, mrm_to_hit=rules.mrm_to_hit, artemis=artemis, ams=ams,
                range_mod=range_mod)
            h = C.hits_by_roll(rack, mod)
            per, grp = (1, 1) if lbx_cluster else (w.damage, w.group)
            g = tuple(C.groups(k, per, grp) for k in range(rack + 1))
        elif w.family == "streak":
            rack = w.cluster
            # all missiles hit, unless an AMS forces a cluster roll (10.3)
            h = (C.hits_by_roll(rack, C.cluster_modifier(w, ams=True)) if ams
                 else np.full(13, rack, dtype=np.int64))
            g = tuple(C.groups(k, w.damage, w.group) for k in range(rack + 1))
        elif w.family == "mg" and w.cluster > 1:
            # a machine gun array (unit.link_mg_arrays): the guns that hit, from the cluster
            # table with the gun count as the column; one location for the salvo
            rack = w.cluster
            h = C.hits_by_roll(rack, 0)
            g = tuple(((w.damage * k,) if k else ()) for k in range(rack + 1))
        elif w.family in ("ultra", "rotary") and s > 1:
            h = C.hits_by_roll(s)
            g = tuple((w.damage,) * k for k in range(s + 1))
        else:
            h = np.ones(13, dtype=np.int64)
            g = ((), (w.damage,))
        h = h.copy()
        h[:2] = 0
        hits.append(h)
        groups.append(g)
    return tuple(hits), tuple(groups)


def build_scenario(params: Mapping[str, Any]) -> FireScenario:
    """Validate ``params`` and compile the scenario (ConfigError / UserError on bad input)."""
    known = set(PARAMS) | set(OPTION_NAMES)
    for k in params:
        if k not in known:
            raise ConfigError("parameter", k, "one of " + ", ".join(sorted(known)))
    overrides = {k: v for k, v in params.items() if k in OPTION_NAMES and v is not None}
    rules = rules_from(overrides)
    unit, label = _resolve_unit(params.get("unit"), params.get("edit"))
    gunnery = check_skill("gunnery", params.get("gunnery", 4))
    turns = check_int("turns", params.get("turns", 10), lo=1, hi=MAX_TURNS)
    ranges = _ranges(params, turns)
    moved = check_choice("moved", params.get("moved", "stand"), tuple(CT.ATTACKER_MOVEMENT))
    target_hexes = check_int("target_hexes", params.get("target_hexes", 0), lo=0, hi=99)
    target_jumped = check_bool("target_jumped", params.get("target_jumped", False))
    terrain = check_choice("terrain", params.get("terrain", "clear"), tuple(CT.TERRAIN))
    start_heat = check_int("start_heat", params.get("start_heat", 0), lo=0,
                           hi=ACTIVE_HEATS - 1)
    water = check_bool("water", params.get("water", False))
    policy = parse_policy(params.get("policy", "all"))
    target_ams = check_int("target_ams", params.get("target_ams", 0), lo=0, hi=MAX_TARGET_AMS)
    if moved == "jump" and unit.jump_mp < 1:
        raise ConfigError("moved", moved, f"stand, walk or run ({label} has no jump jets)")
    jh = params.get("jump_hexes")
    jump_hexes = unit.jump_mp if jh is None else check_int("jump_hexes", jh, lo=1,
                                                           hi=max(1, unit.jump_mp))
    if rules.jump_heat == "rating":
        jump_hexes = unit.jump_mp
    step_ranges = tuple(dict.fromkeys(ranges))
    steps = tuple(step_ranges.index(r) for r in ranges)

    # movement by heat level: MP loss can leave no walking MP -> the 'Mech stands (13.1)
    hs = np.arange(ACTIVE_HEATS)
    can_move = (moved == "jump") | (unit.walk_mp - H.mp_loss(hs) >= 1)
    move_heat = np.where(can_move, H.movement_heat(moved, jump_hexes), 0).astype(np.int64)
    move_mod = np.where(can_move, TH.attacker_movement_mod(moved), 0).astype(np.int64)

    guns: list[Gun] = []
    rows: list[dict[str, Any]] = []
    notes = list(unit.notes)
    for m in unit.mounts:
        row, mount_guns = _compile_rounds(m, len(guns), unit, rules, gunnery, step_ranges,
                                          target_hexes, target_jumped, terrain, move_mod)
        rows.append(row)
        guns.extend(mount_guns)
    heat_turn = int(move_heat.max() + sum(g.heat_of(g.rate) for g in guns))
    diss = H.dissipation(unit.heat_sinks, unit.double_sinks, water, unit.leg_sinks,
                         rules.water_cooling)
    heat_bins = max(ACTIVE_HEATS, start_heat + 1) + heat_turn + 1
    damage_bins = sum(g.max_damage() for g in guns) + 1
    if water:
        notes.append("the firing 'Mech stands in depth-1 water: extra cooling per C17; the "
                     "partial cover the water gives it only matters to attacks on it (not "
                     "simulated)")
    notes.append("not simulated: damage to the firing 'Mech (criticals, life support, "
                 "engine heat), pilot damage, the +3 PSR on shutdown, external heat")
    if target_ams:
        notes.append(f"the target has {target_ams} anti-missile system(s) with ammunition "
                     f"that never runs out: each engages one missile attack a turn "
                     f"(ams_engages={rules.ams_engages}), -4 on its cluster roll (10.3)")
    return FireScenario(
        unit=unit, unit_label=label, gunnery=gunnery, ranges=ranges, steps=steps,
        step_ranges=step_ranges, moved=moved, target_hexes=target_hexes,
        target_jumped=target_jumped, terrain=terrain, policy=policy, turns=turns,
        start_heat=start_heat, water=water, jump_hexes=jump_hexes, rules=rules,
        overrides=tuple(sorted(overrides.items())), guns=tuple(guns),
        mount_rows=tuple(rows), move_heat=move_heat, move_mod=move_mod, dissipation=diss,
        heat_bins=heat_bins, damage_bins=damage_bins, notes=tuple(notes),
        target_ams=target_ams)


def expected_damage(gun: Gun, tn: int) -> Fraction:
    """Exact expected damage of one attack of ``gun`` at target number ``tn`` (full rate)."""
    return sum((d * p for d, p in gun.damage_pmf(tn).items()), Fraction(0))


def choose_rounds(guns: Sequence[Gun]) -> tuple[int, ...]:
    """Per range step, which of a launcher's kinds of round it fires (issue 19: MML LRM or
    SRM rounds, ATM standard, ER or HE rounds): ``guns`` holds one compiled gun per kind it
    has ammunition for, standard rounds first; the pick is the one with the highest exact
    expected damage at that step (target number at heat 0: heat adds the same to every
    kind), ties to the earlier (the standard rounds). A fixed choice per step: the rounds
    are not switched when the chosen bins run dry (docs/rules.md)."""
    out = []
    for r in range(guns[0].tn.shape[0]):
        vals = [expected_damage(g, int(g.tn[r, 0])) for g in guns]
        out.append(max(range(len(guns)), key=lambda k: (vals[k], -k)))
    return tuple(out)


def _compile_rounds(m: Mount, index: int, unit: FireUnit, rules: FireRules, gunnery: int,
                    step_ranges: tuple[int, ...], target_hexes: int, target_jumped: bool,
                    terrain: str, move_mod: np.ndarray) -> tuple[dict[str, Any], list[Gun]]:
    """The row and the guns of one mount. A launcher with several kinds of round on hand
    (:func:`sim.classic.weapons.rounds_for`) gets one gun per kind it fires at some step
    (:func:`choose_rounds`), each unable to fire (target number 13) at the other steps."""
    w = m.weapon
    assert w is not None
    if w.cluster_by_range is not None and not m.rear:
        return _compile_brackets(m, w, index, unit, rules, gunnery, step_ranges,
                                 target_hexes, target_jumped, terrain, move_mod)
    rounds = rounds_for(w)
    fed = [c for c in rounds if unit.pool_index(c) >= 0
           and unit.pools[unit.pool_index(c)].shots > 0]
    if len(rounds) == 1 or not unit.ammo_known or not fed or m.rear:
        row, gun = _compile_mount(m, w, index, unit, rules, gunnery, step_ranges,
                                  target_hexes, target_jumped, terrain, move_mod)
        return row, [] if gun is None else [gun]
    # the mount's Artemis link is judged on the bins of its standard rounds (unit.py
    # linked_artemis): the other kinds of round fire without it
    compiled = [_compile_mount(m if c is w else replace(m, artemis=""), c, index, unit, rules,
                               gunnery, step_ranges, target_hexes, target_jumped, terrain,
                               move_mod) for c in fed]
    row = compiled[0][0]
    cands = [g for _, g in compiled if g is not None]
    if len(cands) < len(compiled):
        return row, cands[:1]
    pick = np.array(choose_rounds(cands))
    out: list[Gun] = []
    for k, g in enumerate(cands):
        steps = pick == k
        if not steps.any():
            continue
        out.append(replace(g, index=index + len(out),
                           tn=np.where(steps[:, None], g.tn, 13),
                           tn_uncapped=np.where(steps[:, None], g.tn_uncapped, OUT_OF_RANGE)))
    row["rounds"] = {step_ranges[r]: cands[int(k)].weapon.ammo for r, k in enumerate(pick)}
    return row, out


def _compile_brackets(m: Mount, w: Weapon, index: int, unit: FireUnit, rules: FireRules,
                      gunnery: int, step_ranges: tuple[int, ...], target_hexes: int,
                      target_jumped: bool, terrain: str, move_mod: np.ndarray
                      ) -> tuple[dict[str, Any], list[Gun]]:
    """A weapon whose cluster roll changes with the range bracket (HAG: ``cluster_by_range``,
    MegaMek ``HAGWeaponHandler``): one gun per modifier the steps need, each firing at its
    steps only (target number 13 elsewhere; steps beyond long range go to the first)."""
    mods = [cluster_mod_at(w, TH.bracket(w, d)) for d in step_ranges]
    kinds = list(dict.fromkeys(mods))
    out: list[Gun] = []
    row: dict[str, Any] = {}
    for mod in kinds:
        row, gun = _compile_mount(m, w, index + len(out), unit, rules, gunnery, step_ranges,
                                  target_hexes, target_jumped, terrain, move_mod,
                                  cluster_range_mod=mod)
        if gun is None:
            return row, []
        steps = np.array([x == mod for x in mods])
        out.append(replace(gun, tn=np.where(steps[:, None], gun.tn, 13),
                           tn_uncapped=np.where(steps[:, None], gun.tn_uncapped,
                                                OUT_OF_RANGE)))
    row["cluster_mod"] = {d: x for d, x in zip(step_ranges, mods, strict=True)}
    return row, out


def _compile_mount(m: Mount, w: Weapon, index: int, unit: FireUnit, rules: FireRules,
                   gunnery: int, step_ranges: tuple[int, ...], target_hexes: int,
                   target_jumped: bool, terrain: str, move_mod: np.ndarray,
                   cluster_range_mod: int = 0) -> tuple[dict[str, Any], Gun | None]:
    row: dict[str, Any] = {"name": w.name, "key": w.key, "location": m.location,
                           "rear": m.rear}
    reason = None
    pool = unit.pool_index(w, m)
    if m.rear:
        reason = "rear-mounted: fires only into the rear arc (10.1)"
    elif w.damage <= 0 and w.family not in ("plasma", "narc"):
        # (a plasma cannon heats a 'Mech, a Narc pod marks it: the Classic duel's effects)
        reason = "no damage (equipment)"
    elif w.family == "flamer" and rules.flamer_mode == "heat":
        reason = "flamer used to heat the target (C24): no damage counted"
    elif ((w.ammo is not None or m.pool_key) and unit.ammo_known
          and (pool < 0 or unit.pools[pool].shots <= 0)):
        reason = "no ammunition for it"
    elif w.damage_by_range is not None:  # damage by range bracket (snub-nose PPC, heavy Gauss)
        damages = {damage_at(w, TH.bracket(w, d)) for d in step_ranges if d <= w.long}
        if len(damages) > 1:
            reason = ("its damage changes with the range bracket and these ranges span "
                      "brackets: not fired (give ranges within one bracket)")
        elif damages:
            w = replace(w, damage=damages.pop())
    if reason is not None:
        row["reason"] = reason
        return row, None
    rate = _shots_for(w, rules)
    hits, groups = _hit_tables(w, rate, rules, m.artemis, range_mod=cluster_range_mod)
    ams_target = w.family in C.AMS_TARGETS
    hits_ams = (_hit_tables(w, rate, rules, m.artemis, ams=True,
                            range_mod=cluster_range_mod)[0] if ams_target else ())
    tn = np.full((len(step_ranges), ACTIVE_HEATS), 13, dtype=np.int64)
    raw = np.full((len(step_ranges), ACTIVE_HEATS), OUT_OF_RANGE, dtype=np.int64)
    for r, dist in enumerate(step_ranges):
        base, _ = TH.weapon_base_tn(
            w, gunnery=gunnery, distance=dist, target_hexes=target_hexes,
            target_jumped=target_jumped, terrain=terrain, tmm_table=rules.fire_tmm_table,
            lbx_cluster=rules.lbx_ammo == "cluster", mrm_to_hit=rules.mrm_to_hit,
            targeting_computer=unit.targeting_computer, apollo=m.artemis == "apollo")
        if base is not None:
            raw[r] = base + move_mod + H.TO_HIT[:ACTIVE_HEATS]
            tn[r] = np.minimum(raw[r], 13)
    gun = Gun(index=index, name=w.name, key=w.key, location=m.location, weapon=w,
              kind=w.family, rate=rate, heat_per_shot=w.heat, pool=pool,
              streak=w.family == "streak", tn=tn, hits=hits, groups=groups,
              jam_le=tuple(_jam_le(w, s, rules) for s in range(rate + 1)), tn_uncapped=raw,
              hits_ams=hits_ams, ams_target=ams_target, artemis=m.artemis)
    if ams_target:
        dg = gun.damage_given_hit(rate)
        gun = replace(gun, ams_priority=float(np.dot(np.arange(dg.size), dg)))
    return row, gun
