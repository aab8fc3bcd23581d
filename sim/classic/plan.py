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

from sim.classic import damage as D
from sim.classic import eligibility as E
from sim.classic import psr as P
from sim.classic import tables as T
from sim.classic import to_hit as H
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


def _tn(s: Scenario, actuator_mod: int, extra: tuple[tuple[str, int], ...] = ()):
    return H.target_number(
        s.attack, piloting=s.piloting, target_piloting=s.target_piloting,
        actuator_mod=actuator_mod, moved=s.moved, target_hexes=s.target_hexes,
        target_jumped=s.target_jumped, terrain=s.terrain, partial_cover=s.target_partial_cover,
        target_prone=s.target_prone, target_immobile=s.target_immobile, rules=s.rules,
        extra=extra)


def _strikes(s: Scenario) -> tuple[list[Strike], list[str], dict[str, int | None]]:
    """Build the attacker's strikes; arms that cannot punch are dropped with a note."""
    r = s.rules
    side = T.SIDE[s.side]
    notes: list[str] = []
    tns: dict[str, int | None] = {"left": None, "right": None}
    out: list[Strike] = []

    def add(label: str, mod: int, dmg: int, grp: tuple[int, ...], table: int, sd: int,
            extra: tuple[tuple[str, int], ...] = ()) -> None:
        tn, terms = _tn(s, mod, extra)
        why = E.tn_reason(tn)
        tns[label] = tn
        if why:
            notes.append(f"{label}: {why}" if label in tns else why)
            return
        out.append(Strike("attacker", label, tn, tuple(terms), dmg, grp, table, sd))

    a = s.attack
    if a == "punch":
        table = T.TABLE_PUNCH
        if s.target_level == 1:  # target's legs at arm level (reference 2.2)
            table = T.TABLE_STANDARD if s.target_prone else T.TABLE_KICK
        for arm in (("left", "right") if s.arm == "both" else (s.arm,)):
            why = E.limb_reason(s, arm)
            if why:
                notes.append(why)
                continue
            lh = (arm, "lower-arm") in s.missing and (arm, "hand") in s.missing
            mod = H.punch_arm_mod(s.bad(arm, "upper-arm"), s.bad(arm, "lower-arm"),
                                  s.bad(arm, "hand"), lh, r)
            halv = s.bad(arm, "upper-arm") + s.bad(arm, "lower-arm")
            dmg = D.punch(s.tons, halv, s.tsm, r)
            add(arm, mod, dmg, (dmg,), table, side)
    elif a == "kick":
        leg = s.arm
        mod = H.kick_leg_mod(s.bad(leg, "upper-leg"), s.bad(leg, "lower-leg"), s.bad(leg, "foot"))
        dmg = D.kick(s.tons, s.bad(leg, "upper-leg") + s.bad(leg, "lower-leg"), s.tsm, r)
        table = T.TABLE_KICK
        if s.target_prone:
            table = T.TABLE_STANDARD  # prone target at the same level (reference 2.2)
        elif s.target_level == -1:
            table = T.TABLE_PUNCH
        add("kick", mod, dmg, (dmg,), table, side)
    elif a in ("club", "hatchet"):
        arms = ("left", "right") if a == "club" else (s.arm,)
        n_bad = sum(s.bad(x, y) for x in arms for y in ("upper-arm", "lower-arm"))
        dmg = D.club(s.tons, s.tsm, r)
        table, extra = T.TABLE_STANDARD, ()
        if r.club_table != "standard":  # D11 called shot
            table = T.TABLE_PUNCH if r.club_table == "punch" else T.TABLE_KICK
            extra = ((f"aimed at the {r.club_table} table", r.club_aimed_mod),)
        add(a, H.club_mod(n_bad), dmg, (dmg,), table, side, extra)
    elif a == "push":
        n_sh = sum((x, "shoulder") in s.damaged for x in ("left", "right"))
        add("push", H.push_mod(n_sh), 0, (), T.TABLE_STANDARD, side)
    elif a == "charge":
        dmg = D.charge(s.tons, s.hexes)
        table = T.TABLE_STANDARD
        if s.target_partial_cover:
            table = T.TABLE_PUNCH
        elif s.target_level == 1:
            table = T.TABLE_KICK  # charger shorter than its target (reference 2.2)
        add("charge", 0, dmg, D.groups(dmg), table, side)
    elif a == "dfa":
        dmg = D.dfa(s.tons, r)
        table, sd = (T.TABLE_STANDARD, T.SIDE["rear"]) if s.target_prone else (T.TABLE_PUNCH,
                                                                                 side)
        add("dfa", 0, dmg, D.groups(dmg), table, sd)
    return out, notes, tns


def _unit_fall(piloting: int, pre: int, triggers: list[int], mode: str, tons: int,
               pilot_rule: str, immobile: bool, missed_dfa: bool,
               gyro_destroyed: bool = False) -> UnitFall:
    tns = P.roll_tns(piloting, pre, triggers, mode, gyro_destroyed)
    levels = 2 if missed_dfa else 0
    pil = tuple(P.pilot_tn(rule=pilot_rule, piloting=piloting, pre=pre, levels=levels,
                           failed_tn=t, missed_dfa=missed_dfa, immobile=immobile) for t in tns)
    dmg = D.fall(tons, levels)
    return UnitFall(tuple(tns), pil, levels, T.SIDE["rear"] if missed_dfa else None, dmg,
                    D.groups(dmg))


def _outcome(s: Scenario, strikes: list[Strike], hits: tuple[bool, ...]) -> Outcome:
    r = s.rules
    a = s.attack
    att_hits = [h for h, st in zip(hits, strikes, strict=True) if st.who == "attacker"]
    counter = any(h for h, st in zip(hits, strikes, strict=True) if st.who == "target")
    any_hit = any(att_hits)
    tdmg = sum(st.damage for h, st in zip(hits, strikes, strict=True)
               if h and st.who == "attacker")
    possible = bool(strikes)
    t_trig: list[int] = []
    a_trig: list[int] = []
    psr_charge = any_hit and (not s.displacement_prohibited or r.charge_psr_without_displacement)
    self_dmg, self_table = 0, T.TABLE_STANDARD
    if a == "kick" and possible:
        (t_trig if any_hit else a_trig).append(P.KICKED if any_hit else P.MISSED_KICK)
    elif a == "push" and any_hit:
        t_trig.append(P.PUSHED)
    elif a == "charge" and any_hit:
        self_dmg = D.charge_self(s.target_tons)
        if psr_charge:
            t_trig.append(P.CHARGED)
            a_trig.append(P.MADE_CHARGE)
    elif a == "dfa" and possible:
        if any_hit:
            self_dmg, self_table = D.dfa_self(s.tons), T.TABLE_KICK
            t_trig.append(P.HIT_BY_DFA)
            a_trig.append(P.MADE_DFA)
        else:
            a_trig.append(P.AUTO)
    if counter:
        a_trig.append(P.PUSHED)
    if tdmg >= 20:
        t_trig.append(P.DAMAGE_20)
    if self_dmg >= 20:
        a_trig.append(P.DAMAGE_20)
    if s.target_prone:
        t_trig = []  # a prone 'Mech is already down: it makes no PSR and cannot fall (4.1)
    mode = r.psr_modifiers
    t_pre = P.preexisting_mod(s.target_damaged, s.target_gyro_hits)
    a_pre = P.preexisting_mod(s.damaged | s.missing, s.gyro_hits)
    tfall = _unit_fall(s.target_piloting, t_pre, t_trig, mode, s.target_tons,
                       r.fall_pilot_damage, s.target_immobile, False, s.target_gyro_hits >= 2)
    missed_dfa = a == "dfa" and possible and not any_hit
    afall = _unit_fall(s.piloting, a_pre, a_trig, mode, s.tons, r.fall_pilot_damage, False,
                       missed_dfa, s.gyro_hits >= 2)
    displaced = False
    if any_hit and not s.displacement_prohibited:
        displaced = a in ("charge", "dfa") or (a == "push" and not counter)
    if missed_dfa:
        displaced = True  # MegaMek "preferred displacement" to any free adjacent hex (4.6)
    att_displaced = counter and not any_hit and not s.displacement_prohibited
    if a == "charge" and possible and not any_hit:
        att_displaced = True  # missed charge: placed in the left/right front hex (4.6)
    return Outcome(hits, any_hit, tdmg, self_dmg, D.groups(self_dmg), self_table, tfall, afall,
                   displaced, att_displaced)


@lru_cache(maxsize=4096)
def make_plan(s: Scenario) -> Plan:
    """Resolve a scenario into a plan (cached: scenarios are frozen values)."""
    why = E.common(s) or E.attack_reason(s)
    strikes: list[Strike] = []
    notes: list[str] = []
    tns: dict[str, int | None] = {"left": None, "right": None}
    if why is None:
        strikes, notes, tns = _strikes(s)
        if not strikes:
            why = "; ".join(notes) or "no strike possible"
        elif s.attack == "push" and s.mutual_push:
            tn = s.target_piloting - 1  # counter-push from a standing target, no other mods
            strikes.append(Strike("target", "counter-push", tn, (("target piloting",
                                                                  s.target_piloting),
                                                                 ("push", -1)),
                                  0, (), T.TABLE_STANDARD, T.SIDE["front"]))
    if why is not None:
        strikes = []
    notes.extend(s.unit_notes)
    n = len(strikes)
    outcomes = tuple(_outcome(s, strikes, tuple(bool(p >> i & 1) for i in range(n)))
                     for p in range(1 << n))
    maxd = max(o.target_damage for o in outcomes)
    if s.attack == "punch":
        tn_main = tns["right"] if tns["right"] is not None else tns["left"]
    else:
        tn_main = tns.get(s.attack)
    return Plan(s, why, tuple(notes), tuple(strikes), outcomes, maxd, tn_main,
                tns["left"] if s.attack == "punch" else None,
                tns["right"] if s.attack == "punch" else None)
