"""The resolved attack: every deterministic consequence of a scenario, computed once.

A :class:`Plan` lists the *strikes* (to-hit rolls: one per punching arm, one for every other
attack, plus the target's counter-push in a mutual push) and, for every hit pattern (bit ``i``
set = strike ``i`` hit), an :class:`Outcome`: damage dealt, PSR target numbers of both units,
fall damage, displacement. The exact engine weights the outcomes by their probabilities; the
Monte Carlo kernel draws the to-hit dice and indexes the same outcomes. Only the location rolls,
PSR rolls, facing rolls and pilot rolls are random given the pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sim.classic import attacks as A
from sim.classic import damage as D
from sim.classic import eligibility as E
from sim.classic import psr as P
from sim.classic import tables as T
from sim.classic import to_hit as H
from sim.classic.attacks import Attack
from sim.classic.scenario import Scenario


@dataclass(frozen=True)
class Strike:
    """One to-hit roll. ``who`` = "attacker" (damages the target) or "target" (counter-push)."""

    who: str
    label: str
    tn: int
    terms: tuple[tuple[str, int], ...]
    damage: int
    groups: tuple[int, ...]
    table: int
    side: int


@dataclass(frozen=True)
class UnitFall:
    """One unit's PSRs and possible fall in one hit pattern."""

    tns: tuple[int, ...]          # PSR TNs in rolling order (13 = automatic fall)
    pilot_tns: tuple[int, ...]    # pilot-damage TN when the fall came from roll i (D10)
    levels: int                   # levels fallen (0 in place; missed DFA 2)
    column: int | None            # fixed hit column (rear for a missed DFA) or None = facing roll
    damage: int                   # fall damage if it falls
    groups: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """Everything deterministic about one hit pattern."""

    hits: tuple[bool, ...]
    any_hit: bool                 # at least one of the attacker's strikes hit
    target_damage: int
    self_damage: int
    self_groups: tuple[int, ...]
    self_table: int
    target: UnitFall
    attacker: UnitFall
    target_displaced: bool
    attacker_displaced: bool


@dataclass(frozen=True)
class Plan:
    scenario: Scenario
    impossible: str | None
    notes: tuple[str, ...]
    strikes: tuple[Strike, ...]
    outcomes: tuple[Outcome, ...]
    max_damage: int
    target_number: int | None
    target_number_left: int | None
    target_number_right: int | None

    @property
    def attacker_strikes(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.strikes) if s.who == "attacker")


def _tn(a: Attack, s: Scenario, actuator_mod: int, extra: tuple[tuple[str, int], ...] = ()
        ) -> tuple[int, list[tuple[str, int]]]:
    return H.target_number(
        a, piloting=s.piloting, target_piloting=s.target_piloting,
        actuator_mod=actuator_mod, moved=s.moved, target_hexes=s.target_hexes,
        target_jumped=s.target_jumped, terrain=s.terrain, partial_cover=s.target_partial_cover,
        target_prone=s.target_prone, target_immobile=s.target_immobile, rules=s.rules,
        extra=extra)


def _strikes(a: Attack, s: Scenario) -> tuple[list[Strike], list[str], dict[str, int | None]]:
    """Build the attacker's strikes from the declaration: one per chosen arm for a per-arm
    attack (arms that cannot make it are dropped with a note), else one."""
    r = s.rules
    notes: list[str] = []
    tns: dict[str, int | None] = {"left": None, "right": None}
    out: list[Strike] = []
    table, column = A.table_of(a, s)
    side = T.SIDE[column or s.side]
    extra: tuple[tuple[str, int], ...] = ()
    if a.aimable and r.club_table != "standard":  # D11 called shot
        table = A.TABLE_IDS[r.club_table]
        extra = ((f"aimed at the {r.club_table} table", r.club_aimed_mod),)
    limbs = (("left", "right") if s.arm == "both" else (s.arm,)) if a.per_arm else (s.arm,)
    for limb in limbs:
        label = limb if a.per_arm else a.name
        if a.per_arm:
            why = E.limb_reason(s, limb)
            if why:
                notes.append(why)
                continue
        mod = H.actuator_mod(a, s.bad, lambda sd, x: (sd, x) in s.missing, limb, r)
        dmg = A.strike_damage(a, s, limb)
        tn, terms = _tn(a, s, mod, extra)
        tns[label] = tn
        why = E.tn_reason(tn)
        if why:
            notes.append(f"{label}: {why}")
            continue
        out.append(Strike("attacker", label, tn, tuple(terms), dmg, A.damage_groups(a, dmg),
                          table, side))
    return out, notes, tns


def _unit_fall(piloting: int, pre: int, triggers: list[int], mode: str, tons: int,
               pilot_rule: str, immobile: bool, miss_fall: int | None,
               gyro_destroyed: bool = False, auto_fail: bool = False) -> UnitFall:
    tns = P.roll_tns(piloting, pre, triggers, mode, gyro_destroyed or auto_fail)
    levels = miss_fall or 0
    pil = tuple(P.pilot_tn(rule=pilot_rule, piloting=piloting, pre=pre, levels=levels,
                           failed_tn=t, missed_dfa=miss_fall is not None, immobile=immobile)
                for t in tns)
    dmg = D.fall(tons, levels)
    return UnitFall(tuple(tns), pil, levels, T.SIDE["rear"] if miss_fall is not None else None,
                    dmg, D.groups(dmg))


def _outcome(a: Attack, s: Scenario, strikes: list[Strike], hits: tuple[bool, ...]) -> Outcome:
    """The deterministic consequences of one hit pattern, from the declaration (reference
    2, 4.2-4.6)."""
    r = s.rules
    att_hits = [h for h, st in zip(hits, strikes, strict=True) if st.who == "attacker"]
    counter = any(h for h, st in zip(hits, strikes, strict=True) if st.who == "target")
    any_hit = any(att_hits)
    tdmg = sum(st.damage for h, st in zip(hits, strikes, strict=True)
               if h and st.who == "attacker")
    possible = bool(strikes)
    missed = possible and not any_hit
    t_trig: list[int] = []
    a_trig: list[int] = []
    self_dmg, self_table = 0, T.TABLE_STANDARD
    if any_hit:
        psr_ok = (not a.psr_needs_displacement or not s.displacement_prohibited
                  or r.charge_psr_without_displacement)  # D8
        if a.self_damage is not None:
            self_dmg, self_table = a.self_damage(s), A.TABLE_IDS[a.self_table]
        if psr_ok and a.psr_hit_target is not None:
            t_trig.append(a.psr_hit_target)
        if psr_ok and a.psr_hit_attacker is not None:
            a_trig.append(a.psr_hit_attacker)
    elif missed and a.psr_miss_attacker is not None:
        a_trig.append(a.psr_miss_attacker)
    if counter:  # the target's counter-attack hit the attacker (mutual push: +0, 4.6)
        a_trig.append(a.psr_hit_target or 0)
    if tdmg >= 20:
        t_trig.append(P.DAMAGE_20)
    if self_dmg >= 20:
        a_trig.append(P.DAMAGE_20)
    if s.target_prone:
        t_trig = []  # a prone 'Mech is already down: it makes no PSR and cannot fall (4.1)
    mode = r.psr_modifiers
    t_pre = P.preexisting_mod(s.target_damaged, s.target_gyro_hits)
    a_pre = P.preexisting_mod(s.damaged | s.missing, s.gyro_hits)
    # D22: a shut-down 'Mech or one with an unconscious pilot fails every PSR (reference 4.1)
    t_auto = s.target_immobile_cause in P.AUTO_FAIL_CAUSES and r.immobile_psr == "auto-fail"
    tfall = _unit_fall(s.target_piloting, t_pre, t_trig, mode, s.target_tons,
                       r.fall_pilot_damage, s.target_immobile, None, s.target_gyro_hits >= 2,
                       t_auto)
    miss_fall = a.miss_fall_levels if missed else None
    afall = _unit_fall(s.piloting, a_pre, a_trig, mode, s.tons, r.fall_pilot_damage, False,
                       miss_fall, s.gyro_hits >= 2)
    displaced = any_hit and not s.displacement_prohibited and a.displace_target_on_hit \
        and not counter
    if missed and a.displace_target_on_miss:
        displaced = True  # MegaMek "preferred displacement" to any free adjacent hex (4.6)
    att_displaced = counter and not any_hit and not s.displacement_prohibited
    if missed and a.displace_attacker_on_miss:
        att_displaced = True  # missed charge: placed in the left/right front hex (4.6)
    return Outcome(hits, any_hit, tdmg, self_dmg, D.groups(self_dmg), self_table, tfall, afall,
                   displaced, att_displaced)


@lru_cache(maxsize=4096)
def make_plan(s: Scenario) -> Plan:
    """Resolve a scenario into a plan (cached: scenarios are frozen values)."""
    a = A.spec(s.attack)
    why = E.common(s) or E.attack_reason(s)
    strikes: list[Strike] = []
    notes: list[str] = []
    tns: dict[str, int | None] = {"left": None, "right": None}
    if why is None:
        strikes, notes, tns = _strikes(a, s)
        if not strikes:
            why = "; ".join(notes) or "no strike possible"
        elif a.counter and s.mutual_push:
            # the target answers with the same attack from a standing position: its Piloting
            # and the attack's base modifier, no other modifier
            tn = s.target_piloting + a.base_mod
            strikes.append(Strike("target", f"counter-{a.name}", tn,
                                  (("target piloting", s.target_piloting),
                                   (a.term_label(), a.base_mod)),
                                  0, (), T.TABLE_STANDARD, T.SIDE["front"]))
    if why is not None:
        strikes = []
    notes.extend(s.unit_notes)
    n = len(strikes)
    outcomes = tuple(_outcome(a, s, strikes, tuple(bool(p >> i & 1) for i in range(n)))
                     for p in range(1 << n))
    maxd = max(o.target_damage for o in outcomes)
    if a.per_arm:
        tn_main = tns["right"] if tns["right"] is not None else tns["left"]
    else:
        tn_main = tns.get(a.name)
    return Plan(s, why, tuple(notes), tuple(strikes), outcomes, maxd, tn_main,
                tns["left"] if a.per_arm else None,
                tns["right"] if a.per_arm else None)
