"""Scalar-Python oracle of the ``classic-duel`` model: one duel at a time, plain ``if``
statements, Python's own random numbers seeded from the passed generator.

Written from the rules (reference-classic-combat.md 12-15, reference.md 1-5) independently of
the vectorized kernel and of :mod:`sim.classic.damage_state.apply`: damage to armor and
structure, transfer, through-armor criticals, critical slots and their effects, ammunition
and Gauss explosions with CASE, destruction causes, PSRs, falls, punches and kicks, the heat
phase and consciousness, and the duel's rule options (C1, C2, C7, C12, C14, C21, C22 and
the consciousness rolls, read as validated values from ``scn.duel_rules``; the physical-attack
options D4, D5, D6, D10, D11, D18, D19, D21, D22, TAC and pilot damage from
``scn.classic_rules``) are recomputed here. It shares with the kernel only the validated
scenario (each side's slot layout and compiled weapons: base target numbers by heat, cluster
and group tables, from the fire model), the firing policy's decisions (``Decider``, not a
rule) and the tactics' movement decisions (issue 22: ``sim.classic.duel.tactics.Planner``,
data looked up per state; the initiative roll-off, the moves and their dice are its own).
Tests compare it with the kernel by distribution; ``btsim bench`` times it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.classic import equipment_rules as ER
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state.apply import CORE_CASE_ARMOR_CAP, CORE_IS_CAP
from sim.classic.duel import tactics as TC
from sim.classic.duel.rules import AUTOCANNON_FAMILIES, LIFE_SUPPORT_STEPS
from sim.classic.duel.scenario import DuelScenario, Side, build
from sim.classic.fire import to_hit as TH
from sim.classic.fire.cluster import ROWS
from sim.classic.fire.policies import Decider
from sim.classic.fire.scenario import FireScenario
from sim.classic.tables import CONSCIOUSNESS
from sim.classic.to_hit import tmm
from sim.classic.weapons import AMMO, lookup_equipment

HD, CT, LT, RT, LA, RA, LL, RL = range(8)
NEXT = {HD: None, CT: None, LT: CT, RT: CT, LA: LT, RA: RT, LL: LT, RL: RT}
REAR_ARMOR = {CT: 8, LT: 9, RT: 10}
#: standard hit table by 2D6 (reference.md 3.2): (location, rear) per column
_FRONT = {2: CT, 3: RA, 4: RA, 5: RL, 6: RT, 7: CT, 8: LT, 9: LL, 10: LA, 11: LA, 12: HD}
_LEFT = {2: LT, 3: LL, 4: LA, 5: LA, 6: LL, 7: LT, 8: CT, 9: RT, 10: RA, 11: RL, 12: HD}
_RIGHT = {2: RT, 3: RL, 4: RA, 5: RA, 6: RL, 7: RT, 8: CT, 9: LT, 10: LA, 11: LL, 12: HD}
_REAR = {2: CT, 3: RA, 4: RA, 5: RL, 6: RT, 7: CT, 8: LT, 9: LL, 10: LA, 11: LA, 12: HD}
COLUMNS = {"front": _FRONT, "left": _LEFT, "right": _RIGHT, "rear": _REAR}
PUNCH = {1: LA, 2: LT, 3: CT, 4: RT, 5: RA, 6: HD}
KICK = {1: RL, 2: RL, 3: RL, 4: LL, 5: LL, 6: LL}
#: a quad's punch and kick tables, front column (MegaMek QuadMek; sim/classic/tables.py)
QUAD_PUNCH = {1: LA, 2: LT, 3: CT, 4: RT, 5: RA, 6: HD}
QUAD_KICK = {1: LA, 2: LA, 3: LA, 4: RA, 5: RA, 6: RA}
FALL = {1: "front", 2: "right", 3: "right", 4: "rear", 5: "left", 6: "left"}


def _consc(pilot: int) -> int:
    """Consciousness roll target for a pilot's total damage (reference.md 4.5)."""
    return int(CONSCIOUSNESS[min(pilot, len(CONSCIOUSNESS) - 1)])


class Mech:
    """One 'Mech's damage state for the oracle."""

    def __init__(self, side: Side, rules: Any) -> None:
        L = side.layout
        self.side = side
        self.side_rules = rules
        self.L = L
        self.armor = [int(a) for a in L.armor]   # hardened armor: half points (layout)
        self.IS = [int(s) for s in L.structure]
        # a torso-mounted cockpit (issue 19; sim.classic.equipment_rules)
        self.torso = ER.torso_cockpit(side.mech.cockpit)
        self.blind = ER.SENSORS_BLIND_AT[self.torso]
        self.hit: list[set[int]] = [set() for _ in range(8)]
        self.ammo = [b[1] for b in L.bins]
        self.pilot = 0
        self.cause = ""
        self.pending: list[int] = []
        self.hittable = [[s for s in range(len(L.names[loc])) if (int(side.dm.hittable[loc])
                                                                  >> s) & 1]
                         for loc in range(8)]
        self.heat = 0
        self.ext = 0        # external heat taken this turn (plasma hits)
        self.narc_hit = self.narced = False     # a Narc beacon stuck / marks it now
        self.shut = self.prone = self.uncon = self.fell = self.shut_ever = False
        self.shut_now = False
        self.pilot_seen = 0
        self.jam: set[int] = set()
        self.out = ""
        #: AMS mounts that engaged an attack this turn (reset each turn)
        self.ams_spent = 0
        #: the coolant pods' layout items and the ones spent (issue 19)
        self.pods = [i for i, it in enumerate(L.items)
                     if (eq := lookup_equipment(it.name.replace("(OMNIPOD)", "").strip(),
                                                side.mech.tech_base)) is not None
                     and eq.kind == "coolant_pod"]
        self.pods_spent: set[int] = set()

    # -- facts -----------------------------------------------------------------------
    def kind_hits(self, kind: int) -> int:
        return sum(1 for loc in range(8) for s in self.hit[loc] if self.L.kind[loc, s] == kind)

    def engine_hits(self) -> int:
        n = self.kind_hits(lay.ENGINE)
        for t in (LT, RT):
            if self.IS[t] == 0:
                n += sum(1 for s in range(len(self.L.names[t]))
                         if self.L.kind[t, s] == lay.ENGINE and s not in self.hit[t])
        return n

    def act_hit(self, loc: int, name: str) -> bool:
        m = int(self.side.act[name][loc])
        return any((m >> s) & 1 for s in self.hit[loc])

    def has_act(self, loc: int, name: str) -> bool:
        return int(self.side.act[name][loc]) != 0

    def item_lost(self, it: int, crits_needed: int = 1) -> bool:
        masks = self.L.item_masks[it]
        locs = [loc for loc in range(8) if masks[loc]]
        crits = sum(1 for loc in locs for s in self.hit[loc] if (int(masks[loc]) >> s) & 1)
        if crits >= crits_needed:
            return True
        return all(self.IS[loc] == 0 for loc in locs)

    def gun_lost(self, g: int, kind: str) -> bool:
        """Gun ``g`` destroyed (C7: under ``damaged`` an autocannon needs two criticals)."""
        it = self.side.gun_item[g]
        if it < 0:
            return False
        second = self.side_rules.ac_first_crit == "damaged" and kind in AUTOCANNON_FAMILIES
        return self.item_lost(it, 2 if second else 1)

    def alive(self) -> bool:
        return self.cause == ""

    # -- damage (14.1-14.5) ----------------------------------------------------------
    def damage(self, r: random.Random, loc: int, rear: bool, d: int, tac: bool,
               explosion: bool = False) -> None:
        """One damage group: armor, structure, criticals (and the explosions they cause,
        resolved before the rest of the damage moves on), transfer, destruction."""
        d0 = d
        while d > 0 and loc is not None and self.alive():
            before = self.IS[loc]
            gone = before == 0
            took = 0
            void = False
            if not explosion and not gone:
                col = REAR_ARMOR[loc] if rear and loc in REAR_ARMOR else loc
                if self.L.lamellor:     # ferro-lamellor: floor(4/5) of a group on armor
                    d = ER.lamellor_damage(d, self.armor[col])
                    void = d == 0       # cut to nothing: no through-armor critical
                took = min(self.armor[col], d)
                self.armor[col] -= took
                d -= took
            isd, d = ER.structure_take(self.L.structure_kind, self.IS[loc], d)
            self.IS[loc] -= isd
            if loc == HD and took + isd > 0 and not explosion:
                self.pilot += ER.head_hit_pilot_damage(self.torso)
            destroyed_now = isd > 0 and self.IS[loc] == 0
            tac = tac and not void
            ndet = (1 if isd > 0 else 0) + (1 if tac and not gone else 0)
            stop = explosion and (bool(self.L.case[loc]) or bool(self.L.case2[loc]))
            nxt = NEXT[loc]
            # C10: an explosion set off by the group that destroyed the head or CT still
            # destroys the 'Mech by ammunition
            vital = loc == CT or (loc == HD and ER.head_destruction_kills(self.torso))
            if (destroyed_now or (gone and d > 0)) and explosion and vital \
                    and self.cause == "":
                self.cause = "ammunition"
            mod = min(max((d0 - 1) // 5, 0), 4) if \
                self.side.dm.rules.advanced_criticals else 0      # C15: the hit's damage
            # hardened armor that stopped the whole group: its TAC is rolled at -2 (issue 19)
            hard = ER.hardened_tac_mod(self.side.mech.armor_type, tac and not gone,
                                       took > 0 and d == 0 and isd == 0)
            for _ in range(ndet):
                if not self.alive():
                    break
                self._determine(r, loc, mod + hard)
            self._effects()
            if not explosion:
                self._run_pending(r)
            if (gone or destroyed_now) and d > 0 and not stop and nxt is not None:
                loc, tac = nxt, False
            else:
                break
        self._effects()

    def _run_pending(self, r: random.Random) -> None:
        while self.pending and self.alive():
            e = min(self.pending)
            self.pending.remove(e)
            self._explode(r, e)
        self._effects()

    def explode_now(self, r: random.Random, e: int) -> None:
        """A heat-induced explosion of explosive ``e`` (13.4 step 4)."""
        if self.alive():
            self.pending.append(e)
            self._run_pending(r)

    def _explode(self, r: random.Random, e: int) -> None:
        L = self.L
        nb = len(L.bins)
        core = self.side.dm.rules.explosion_size == "core"
        if e < nb:
            loc, _, per, explosive = L.bins[e]
            d = self.ammo[e] * (per if explosive else 0)
            self.ammo[e] = 0
        else:
            it = L.gauss_items[e - nb]
            loc, d = L.items[it].location, L.items[it].explosion
            if core:    # C30: 2 per critical slot of the rifle
                d = 2 * sum(bin(int(m)).count("1") for m in L.item_masks[it])
        if self.side.dm.rules.case2_explosion == "one-point" and L.case2[loc]:
            d = min(d, 1)
        if core and e < nb and d > 0:
            # C30: structure damage capped (20; CASE 10; CASE II 1), the rest strips armor
            cap = CORE_IS_CAP[2 if L.case2[loc] else 1 if L.case[loc] else 0]
            rest = max(d - cap, 0)
            if L.case[loc] or L.case2[loc]:
                rest = min(rest, CORE_CASE_ARMOR_CAP)
            col = REAR_ARMOR.get(loc, loc)
            self.armor[col] -= min(self.armor[col], rest)
            d = min(d, cap)
        if d <= 0:
            return
        if e < nb:
            self.pilot += 2
        self.damage(r, loc, False, d, False, explosion=True)
        # explosions set off by this one run after it (lowest first)
        self._run_pending(r)

    def _determine(self, r: random.Random, loc: int, mod: int = 0) -> None:
        """Determining critical hits (reference.md 5.4; C15 ``mod``) and the slots
        (14.2-14.3)."""
        roll = min(r.randint(1, 6) + r.randint(1, 6) + mod, 12)
        if roll <= 7:
            return
        if roll == 12 and loc in (HD, LA, RA, LL, RL):
            self.IS[loc] = 0
            return
        n = 1 if roll <= 9 else 2 if roll <= 11 else 3
        for _ in range(n):
            free = [s for s in self.hittable[loc] if s not in self.hit[loc]]
            if not free:
                return
            s = free[int(r.random() * len(free))]
            it = int(self.L.item[loc, s])
            first = it >= 0 and not any(
                (int(self.L.item_masks[it][lc]) >> x) & 1 for lc in range(8)
                for x in self.hit[lc])
            self.hit[loc].add(s)
            if it >= 0 and it in self.L.gauss_items and first:
                self.pending.append(len(self.L.bins) + self.L.gauss_items.index(it))
            b = int(self.L.bin_slot[loc, s])
            if b >= 0 and self.ammo[b] > 0 and self.L.bins[b][3] and self.L.bins[b][2] > 0:
                self.pending.append(b)

    def _effects(self) -> None:
        for t, a in ((LT, LA), (RT, RA)):
            if self.IS[t] == 0:
                self.IS[a] = 0
        for loc in range(8):
            if self.IS[loc] == 0:
                self.armor[loc] = 0
                if loc in REAR_ARMOR:
                    self.armor[REAR_ARMOR[loc]] = 0
        if self.cause or self.pending:
            # an explosion still to go off (set off by the criticals of the group that
            # destroys the 'Mech, C10) is resolved before the cause is read
            return
        if self.kind_hits(lay.COCKPIT) > 0:
            self.cause = "pilot"
        elif self.IS[HD] == 0 and ER.head_destruction_kills(self.torso):
            self.cause = "head"
        elif self.IS[CT] == 0:
            self.cause = "center_torso"
        elif self.engine_hits() >= 3:
            self.cause = "engine"
        elif self.pilot >= 6:
            self.cause = "pilot"

    def group(self, r: random.Random, column: str, d: int) -> None:
        """One damage group with its location rolled on the standard table (a 2 is a
        through-armor critical chance unless the option ``tac`` is off)."""
        roll = r.randint(1, 6) + r.randint(1, 6)
        tac = roll == 2 and self.side.classic.tac
        if tac and self.side.dm.rules.location_roll_two == "floating":
            roll = r.randint(1, 6) + r.randint(1, 6)    # C28: the critical chance moves
        loc = COLUMNS[column][roll]
        rear = column == "rear" and loc in REAR_ARMOR
        self.damage(r, loc, rear, d, tac)


def _roll(r: random.Random) -> int:
    return r.randint(1, 6) + r.randint(1, 6)


def _quad(m: Mech) -> bool:
    return m.side.layout.config == "Quad"


def _legs(m: Mech) -> tuple[int, ...]:
    """The leg locations: a quad's front legs stand in LA/RA (issue 19)."""
    return (LL, RL, LA, RA) if _quad(m) else (LL, RL)


def _gone(m: Mech) -> int:
    return sum(m.IS[x] == 0 for x in _legs(m))


def _gyro_dead(m: Mech) -> bool:
    return m.kind_hits(lay.GYRO) >= m.side.layout.gyro_destroyed_at


def _gyro_loud(m: Mech) -> int:
    """Gyro hits that are PSR triggers (a heavy-duty gyro's first is not)."""
    return max(m.kind_hits(lay.GYRO) - ER.gyro_quiet_hits(m.side.mech.gyro), 0)


def _pre(m: Mech) -> int:
    """Pre-existing PSR modifiers (reference.md 4.2; a heavy-duty gyro +1/+3, destroyed +6;
    a quad: -2 with all legs, +5 with two gone, an automatic failure with three; a small
    cockpit +1 and hardened armor +1, MegaMek ``Mek.addEntityBonuses``)."""
    g = m.kind_hits(lay.GYRO)
    mod = ER.gyro_psr_mod(m.side.mech.gyro, g)
    out = 6 if mod is None else mod
    out += ER.cockpit_psr_mod(m.side.mech.cockpit) + ER.armor_psr_mod(m.side.mech.armor_type)
    for leg in _legs(m):
        if m.IS[leg] == 0:
            out += 0 if _quad(m) else 5
        elif m.act_hit(leg, "hip"):
            out += 2
        else:
            out += sum(m.act_hit(leg, a) for a in ("upper_leg", "lower_leg", "foot"))
    if _quad(m):
        out += {0: -2, 1: 0, 2: 5}.get(_gone(m), 13)
    return out


def _leg_events(m: Mech) -> int:
    return sum(m.act_hit(leg, a) for leg in _legs(m)
               for a in ("hip", "upper_leg", "lower_leg", "foot"))


def _snap(m: Mech) -> tuple[int, int, int]:
    return (_gyro_loud(m), _leg_events(m), _gone(m))


def _settle(m: Mech) -> None:
    if m.alive() and m.pilot >= 6:
        m.cause = "pilot"


def _pilot_hurt(r: random.Random, m: Mech, tn: int) -> None:
    """The MechWarrior's roll after a fall (reference.md 4.3): 1 damage below ``tn``,
    automatic when unconscious or shut down; never with the option ``pilot_damage`` off."""
    if (m.uncon or m.shut or _roll(r) < tn) and m.side.classic.pilot_damage:
        m.pilot += 1
    _settle(m)


def _fall(r: random.Random, m: Mech, failed_tn: int) -> None:
    """A fall from standing (0 levels); ``failed_tn``: the target number of the PSR that
    failed (the MechWarrior's roll under D10 ``megamek``)."""
    if not m.alive():
        return
    m.prone = m.fell = True
    left = math.ceil(m.side.tons / 10)
    column = FALL[r.randint(1, 6)]      # one facing roll per fall (reference.md 4.4)
    while left > 0:
        d = min(5, left)
        left -= d
        m.group(r, column, d)
    if m.side.classic.fall_pilot_damage == "tw":
        tn = m.side.piloting + _pre(m)      # + 1 per level fallen: none
    else:
        tn = failed_tn
    _pilot_hurt(r, m, tn)


def _psrs(r: random.Random, m: Mech, before: tuple[int, int, int], dmg: int,
          triggers: list[int] | None = None) -> None:
    """The PSRs of one phase: 20+ damage (+1), a gyro hit and each leg-actuator critical
    (+0 beyond the pre-existing modifiers they add), then ``triggers`` (the attacks'
    situational modifiers, in the order they were resolved)."""
    if m.prone or not m.alive():
        return
    rules = m.side.classic
    big = dmg >= 20
    gyro_new = _gyro_loud(m) > before[0]
    auto = (gyro_new and _gyro_dead(m)) or _gone(m) > before[2]
    mods = ([1] if big else []) + [0] * (int(gyro_new) + max(_leg_events(m) - before[1], 0))
    mods += triggers or []
    base = m.side.piloting + _pre(m)
    tn = base + sum(mods)       # cumulative (D19): every roll adds the phase's modifiers
    fail = auto
    failed_tn = tn
    if rules.psr_modifiers == "cumulative":
        for _ in mods:
            if _roll(r) < tn:
                fail = True
    elif not fail:
        for mod in mods:        # own: each roll only its trigger's; the first failure falls
            if _roll(r) < base + mod:
                fail, failed_tn = True, base + mod
                break
    if mods and (m.shut or m.uncon) and rules.immobile_psr == "auto-fail":
        fail = True
    if fail:
        _fall(r, m, failed_tn)


def _stealth_on(y: Mech, m: Mech, rng_: int) -> bool:
    """``y``'s stealth armor is on (issue 19): it hampers one of ``m``'s weapons at this
    range, its ECM suite works and it is not shut down."""
    if not ER.has_stealth(y.side.mech.armor_type) or y.shut:
        return False
    ecm = [i for i, it in enumerate(y.L.items)
           if (eq := lookup_equipment(it.name.replace("(OMNIPOD)", "").strip(),
                                      y.side.mech.tech_base)) is not None
           and eq.kind == "ecm"]
    if not ecm or y.item_lost(ecm[0]):
        return False
    guns = next(iter(m.side.fire.values())).guns
    return any(ER.STEALTH_MOD[band] > 0 for g in guns
               if (band := TH.bracket(g.weapon, rng_)) is not None)


def _fire_list(scn: DuelScenario, m: Mech, y: Mech, fs: FireScenario, dec: Decider,
               mv: tuple[int, int, bool, int], tmv: tuple[int, int, bool, int], rng_: int,
               can: bool) -> list[tuple[int, int, int]]:
    """(gun, target number, shots) of every weapon fired (12.1), decided from the state at
    the start of the phase."""
    if not can:
        return []
    side = m.side
    h = min(m.heat, 29)
    sensors = m.kind_hits(lay.SENSORS)
    ammo = [0] * len(fs.unit.pools)
    for b, p in enumerate(side.bin_pool):
        if p >= 0 and m.IS[side.layout.bins[b][0]] > 0:
            ammo[p] += m.ammo[b]
    mod = ER.sensor_to_hit(sensors, m.torso) if sensors < m.blind else 0
    # the fire model's tables hold the mode's nominal movement modifiers: replace them by
    # what both 'Mechs really moved (hexes with their current MP)
    mod += mv[1] - int(fs.move_mod[h])
    table = fs.rules.fire_tmm_table
    mod += ((tmm(tmv[0], tmv[2], table) if tmv[0] > 0 else 0)
            - tmm(fs.target_hexes, fs.target_jumped, table))
    if y.prone:
        mod += -2 if rng_ <= 1 else 1
    if y.shut or y.uncon:
        mod -= 4
    if m.prone:
        mod += 2
    # a prone quad (sim/classic/quad.py): on four legs it fires everything; else its
    # front legs prop it up as a biped's arms, three legs gone: nothing
    quad = _quad(m)
    restricted = m.prone and not (quad and _gone(m) == 0)
    stealthy = _stealth_on(y, m, rng_)
    avail_mask, tns, shots = 0, [], []
    for g, gun in enumerate(fs.guns):
        loc = lay.LOC_INDEX.get(gun.location, -1)
        e = mod
        if stealthy and (band := TH.bracket(gun.weapon, rng_)) is not None:
            e += ER.STEALTH_MOD[band]
        if loc in (LA, RA) and not quad:
            if m.act_hit(loc, "shoulder"):
                e += 4
            else:
                e += m.act_hit(loc, "upper_arm") + m.act_hit(loc, "lower_arm")
        tn = int(gun.tn_uncapped[0, h]) + e
        ok = tn <= 12 and sensors < m.blind and g not in m.jam
        if m.gun_lost(g, gun.kind):
            ok = False
        if gun.pool >= 0 and ammo[gun.pool] <= 0:
            ok = False
        if loc in (LL, RL) and restricted:
            ok = False
        tns.append(tn)
        shots.append(min(ammo[gun.pool], gun.rate) if gun.pool >= 0 else gun.rate)
        if ok:
            avail_mask |= 1 << g
    if restricted and quad and (_gone(m) >= 3 or (m.IS[LA] == 0 and m.IS[RA] == 0)):
        avail_mask = 0
    elif restricted and quad and (m.IS[LA] == 0 or m.IS[RA] == 0):
        pass                # one front leg left: its weapons fire (MegaMek)
    elif restricted and scn.duel_rules.prone_fire == "one-arm":
        # propped up on the arm whose available weapons are worth less (left on a tie);
        # no weapon at all with an arm destroyed
        worth = {arm: sum(_gun_mean(fs.guns[g], fs.guns[g].rate) for g in range(len(fs.guns))
                          if (avail_mask >> g) & 1
                          and lay.LOC_INDEX.get(fs.guns[g].location, -1) == arm)
                 for arm in (LA, RA)}
        prop = LA if worth[LA] <= worth[RA] else RA
        for g, gun in enumerate(fs.guns):
            if lay.LOC_INDEX.get(gun.location, -1) == prop or m.IS[LA] == 0 or m.IS[RA] == 0:
                avail_mask &= ~(1 << g)
    # ``all`` fires every weapon whose own number is 12 or less; the other policies decide
    # from the fire model's tables (the nominal numbers of the situation's movement modes),
    # so a weapon out of reach at its nominal number is not chosen by them
    if fs.policy.kind == "all":
        mask = avail_mask
    else:
        mask = dec.mask(0, h, avail_mask) & avail_mask
    return [(g, tns[g], shots[g]) for g in range(len(fs.guns)) if (mask >> g) & 1]


MISSILES = ("lrm", "srm", "mrm", "atm", "streak")


def _ams_engaged(r: random.Random, y: Mech, fs: FireScenario,
                 fired: list[tuple[int, int, int]]) -> tuple[dict[int, int], set[int], int]:
    """The target's anti-missile systems (10.3): forward AMS mounts not destroyed, one per
    round of AMS ammunition, none while shut down; each engages one missile attack, the
    most dangerous first (expected damage of a hit; the attacks that hit, or all declared
    ones under ``ams_engages=declared``). Returns the to-hit rolls (drawn first, in gun
    order), the engaged guns and the engagements that cost a round and 1 heat."""
    side = y.side
    rolls = {g: _roll(r) for g, _, _ in fired}
    rounds = sum(y.ammo[b] for b, p in enumerate(side.bin_pool)
                 if p == side.ams_pool and y.IS[side.layout.bins[b][0]] > 0)
    # mounts that engaged an earlier attacker this turn (N 'Mechs a side) are spent
    free = 0 if y.shut or side.ams_pool < 0 else max(0, min(
        rounds, sum(1 for it in side.ams_items if not y.item_lost(it)) - y.ams_spent))
    tns = {g: tn for g, tn, _ in fired}
    cands = [g for g, tn, _ in fired if fs.guns[g].weapon.family in MISSILES
             and (fs.rules.ams_engages == "declared" or rolls[g] >= tn)]
    cands.sort(key=lambda g: (-_gun_mean(fs.guns[g], fs.guns[g].rate), g))
    engaged = set(cands[:free])
    y.ams_spent += len(engaged)
    used = sum(1 for g in engaged if rolls[g] >= tns[g])
    need = used
    for b, p in enumerate(side.bin_pool):
        if p == side.ams_pool and need > 0 and y.IS[side.layout.bins[b][0]] > 0:
            take = min(need, y.ammo[b])
            y.ammo[b] -= take
            need -= take
    return rolls, engaged, used


def _ams_hits(gun: Any, total: int) -> int:
    """Hits of a missile attack the target's AMS engages (10.3, 11.2): -4 on the cluster
    roll, plus the launcher's own bonus (ATM +2; Artemis IV +2 / V +3, not on Streaks; the
    larger only); the roll clamped to 2..12; a Streak rolls like a launcher."""
    w = gun.weapon
    bonus = 2 if w.family == "atm" else 0
    if w.family != "streak":
        bonus = max(bonus, {"": 0, "iv": 2, "v": 3, "apollo": 0}[gun.artemis])
    if w.family == "mrm" and gun.artemis == "apollo":
        bonus -= 1  # an Apollo-linked MRM (11.2)
    rack = w.cluster
    size = min(k for k in ROWS if k >= rack)
    return min(rack, ROWS[size][max(2, min(12, total + bonus - 4)) - 2])


def _narc_bonus(m: Mech, gun: Any) -> int:
    """+2 on the cluster roll of a gun fed only Narc-capable rounds, with no Artemis or
    built-in bonus (C23), against a marked target."""
    if gun.pool < 0:
        return 0
    key = next(iter(m.side.fire.values())).unit.pools[gun.pool].key
    fed = [b.munition for b in m.side.mech.ammo_bins
           if (a := AMMO.get(b.ammo or "")) is not None and a.weapon_family_key == key]
    capable = bool(fed) and all(x == "narc" for x in fed)
    return ER.narc_cluster_bonus(True, capable, int(bool(gun.artemis)) + gun.weapon.cluster_bonus)


def _resolve_fire(r: random.Random, m: Mech, y: Mech, fs: FireScenario,
                  fired: list[tuple[int, int, int]]) -> tuple[int, int, set[int], int]:
    """Every declared weapon of ``m`` at ``y``: damage dealt, ``m``'s weapon heat, the
    locations that fired and ``y``'s AMS heat."""
    side = m.side
    dmg = heat = 0
    locs: set[int] = set()
    rolls: dict[int, int] = {}
    engaged: set[int] = set()
    ams_used = 0
    if y.side.ams_items:
        rolls, engaged, ams_used = _ams_engaged(r, y, fs, fired)
    for g, tn, s in fired:
        gun = fs.guns[g]
        locs.add(lay.LOC_INDEX.get(gun.location, -1))
        roll = rolls[g] if g in rolls else _roll(r)
        hit = roll >= tn
        if roll <= gun.jam_le[s]:
            m.jam.add(g)
        cl = _roll(r)
        if hit:
            if y.narced:
                cl = min(cl + _narc_bonus(m, gun), 12)
            if gun.weapon.family == "narc":
                y.narc_hit = True
            k = _ams_hits(gun, cl) if g in engaged else int(gun.hits[s][cl])
            for d in gun.groups[s][k]:
                if d > 0:
                    y.group(r, "front", d)
                    dmg += d
            if k > 0:       # a plasma weapon's heat on the 'Mech it hit
                y.ext += sum(r.randint(1, 6)
                             for _ in range(ER.PLASMA_HEAT_DICE.get(gun.weapon.key, 0)))
        used = hit if gun.streak else True
        if used:
            heat += gun.heat_per_shot * s
            if gun.pool >= 0:
                need = s
                for b, p in enumerate(side.bin_pool):
                    if p == gun.pool and need > 0 and m.IS[side.layout.bins[b][0]] > 0:
                        take = min(need, m.ammo[b])
                        m.ammo[b] -= take
                        need -= take
    return dmg, heat, locs, ams_used * y.side.ams_heat


def _p(tn: int) -> float:
    if tn > 12:
        return 0.0
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= tn) / 36


def _mp(m: Mech, scn: DuelScenario) -> tuple[int, int, int]:
    """(walk, run, jump) MP the 'Mech has now (reference-classic-combat.md 13.1, 14.3):
    legs, hips, leg actuators, heat, jump jets."""
    rules = scn.physical_rules
    side = m.side
    gone = [leg for leg in _legs(m) if m.IS[leg] == 0]
    hips = sum(1 for leg in _legs(m) if m.IS[leg] > 0 and m.act_hit(leg, "hip"))
    acts = sum(m.act_hit(leg, a) for leg in _legs(m)
               if m.IS[leg] > 0 and not m.act_hit(leg, "hip")
               for a in ("upper_leg", "lower_leg", "foot"))
    if _quad(m):        # MegaMek QuadMek.getWalkMP: the legs first, then hips and actuators
        w = {0: side.walk, 1: side.walk - 1, 2: 1}.get(len(gone), 0)
        for _ in range(hips if w > 0 else 0):
            w = math.ceil(w / 2) if rules.hip_mp_rounding == "ceil" else w // 2
        walk = w - acts if w > 0 else w
    elif len(gone) == 2:
        walk = 0
    elif len(gone) == 1:
        walk = 1
    elif hips == 2:
        walk = 0 - acts
    elif hips == 1:
        w = side.walk
        walk = (math.ceil(w / 2) if rules.hip_mp_rounding == "ceil" else w // 2) - acts
    else:
        walk = side.walk - acts
    walk = max(0, walk - m.heat // 5)
    runs = len(gone) <= 1 if _quad(m) else not gone
    run = max(math.ceil(1.5 * walk) - ER.run_mp_loss(side.mech.armor_type), 0) if runs else walk
    jets = 0
    for loc in range(8):
        for s in range(12):
            if (int(side.jet_masks[loc]) >> s) & 1 and (m.IS[loc] == 0 or s in m.hit[loc]):
                jets += 1
    jump = max(0, side.jump - jets - (m.heat // 5 if rules.heat_reduces_jump else 0))
    return walk, run, jump


def _move(r: random.Random, m: Mech, mode: str, mover: bool, scn: DuelScenario,
          fs: FireScenario) -> tuple[int, int, bool, int]:
    """(hexes, attacker modifier, jumped, movement heat) with the MP the 'Mech has now
    (reference-classic-combat.md 13.1, 14.3), and the movement PSR (15)."""
    if not mover or mode == "stand":
        return 0, 0, False, 0
    rules = scn.physical_rules
    side = m.side
    gone = [leg for leg in (LL, RL) if m.IS[leg] == 0]
    walk, run, jump = _mp(m, scn)
    if mode == "walk":
        hexes, mod = walk, 1 if walk > 0 else 0
    elif mode == "run":
        hexes = run
        mod = 0 if run == 0 else (2 if run > walk else 1)
    else:
        hexes, mod = jump, 3 if jump > 0 else 0
    jumped = mode == "jump" and hexes > 0
    heat = {0: 0, 1: 1, 2: 2, 3: 0}[mod]
    if jumped:
        heat = max(3, side.jump if fs.rules.jump_heat == "rating" else hexes)
    if rules.move_damage_psr and not m.prone and m.alive():
        gyro = _gyro_loud(m) > 0
        hip = any(m.IS[leg] > 0 and m.act_hit(leg, "hip") for leg in _legs(m))
        need = False
        if mode == "run" and mod == 2:
            need = gyro or hip
        elif jumped:
            need = gyro or _leg_events(m) > 0 or bool(gone)
        tn = side.piloting + _pre(m)
        if need and _roll(r) < tn:
            _fall(r, m, tn)
    return hexes, mod, jumped, heat


def _fail(m: Mech, mod: int) -> float:
    if (m.shut or m.uncon) and m.side.classic.immobile_psr == "auto-fail":
        return 1.0
    return 1.0 - _p(m.side.piloting + _pre(m) + mod)


def _gun_mean(gun: Any, s: int) -> float:
    tot = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            k = int(gun.hits[s][a + b])
            tot += sum(gun.groups[s][k]) / 36
    return tot


def _attacks(m: Mech, y: Mech, mv: tuple[int, int, bool, int], tmv: tuple[int, int, bool, int],
             fired: set[int], can: bool, scn: DuelScenario, stage: str, declared: str,
             e_fire: float) -> tuple[str, dict[str, Any]]:
    """The chosen physical attack and every attack's (tn, damage) (reference.md 1-4), by the
    'best' rule of :mod:`sim.classic.duel.physical` written out per duel."""
    side, tside = m.side, y.side
    rules = scn.physical_rules
    allk = rules.duel_attacks == "all"
    info: dict[str, Any] = {"punch": [(13, 0), (13, 0)], "kick": (13, 0), "hatchet": (13, 0),
                            "push": (13, 0), "charge": (13, 0), "dfa": (13, 0)}
    if not can or m.prone or not y.alive() or side.physical == "none":
        return "none", info
    cr = side.classic
    W, T = side.tons, tside.tons
    per5 = W // 5 if cr.per_5_tons_rounding == "floor" else -(-W // 5)     # D6
    table = scn.a.fire[next(iter(scn.a.fire))].rules.fire_tmm_table
    common = ((tmm(tmv[0], tmv[2], table) if tmv[0] > 0 else 0) - 2 * y.prone
              - 4 * (y.shut or y.uncon))
    base = side.piloting + mv[1] + common
    no_arms = (cr.quirks and "no_arms" in side.mech.quirks) or _quad(m)    # D21; quads
    for j, arm in enumerate((LA, RA)):
        ok = (m.IS[arm] > 0 and m.has_act(arm, "shoulder") and not m.act_hit(arm, "shoulder")
              and arm not in fired and not y.prone and not no_arms)
        ua = m.act_hit(arm, "upper_arm")
        la = m.act_hit(arm, "lower_arm") or not m.has_act(arm, "lower_arm")
        hand = m.act_hit(arm, "hand") or not m.has_act(arm, "hand")
        if not m.has_act(arm, "lower_arm") and not m.has_act(arm, "hand"):
            mod = 2 * ua + cr.hand_and_lower_arm_missing_mod                  # D4
        else:
            mod = 2 * ua + 2 * la + hand
        tn = base + mod if ok else 13
        info["punch"][j] = (tn, max(cr.punch_min_damage, math.ceil(W / 10) >> (ua + la)))
    if all(m.IS[leg] > 0 and not m.act_hit(leg, "hip") for leg in _legs(m)):
        for leg in ((LA, RA) if _quad(m) else (LL, RL)):     # a quad kicks with a front leg
            if leg in fired:
                continue
            ul, ll = m.act_hit(leg, "upper_leg"), m.act_hit(leg, "lower_leg")
            tn = base - 2 + 2 * ul + 2 * ll + m.act_hit(leg, "foot")
            if tn < info["kick"][0]:
                info["kick"] = (tn, per5 >> (ul + ll))
    if allk and side.hatchet[0] >= 0:
        item, arm = side.hatchet
        if (not y.prone and arm not in fired and m.IS[arm] > 0 and not m.item_lost(item)
                and m.has_act(arm, "shoulder") and not m.act_hit(arm, "shoulder")
                and m.has_act(arm, "hand") and not m.act_hit(arm, "hand")):
            tn = base - 1 + 2 * m.act_hit(arm, "upper_arm") + 2 * m.act_hit(arm, "lower_arm")
            if cr.club_table != "standard":     # D11: aimed at the punch or kick table
                tn += cr.club_aimed_mod
            info["hatchet"] = (tn, per5)
    if allk and not y.prone and not _quad(m) and all(
            m.IS[a] > 0 and a not in fired and m.has_act(a, "shoulder") for a in (LA, RA)):
        info["push"] = (base - 1 + 2 * sum(m.act_hit(a, "shoulder") for a in (LA, RA)), 0)
    diff = side.piloting - tside.piloting
    if allk and not y.prone and mv[0] > 0 and not mv[2] and (
            stage == "declare" or declared == "charge"):
        # hexes moved not counting the target's hex (reference.md 2)
        info["charge"] = (base + diff, math.ceil(W * max(mv[0] - 1, 0) / 10))
    if allk and mv[2] and (stage == "declare" or declared == "dfa"):
        if cr.dfa_rounding == "ceil-product":       # D18
            dfa = math.ceil(3 * W / 10)
        elif cr.dfa_rounding == "ceil-then-times-3":
            dfa = 3 * math.ceil(W / 10)
        else:
            dfa = 3 * (W // 10)
        info["dfa"] = (side.piloting + common + diff + 3, dfa)
    knock = 0.0
    if rules.knockdown_value != "none":
        knock = math.ceil(T / 10) + (per5 if rules.knockdown_value == "fall-and-prone" else 0)
    if y.prone:         # a prone target cannot be knocked down again
        knock = 0
    own_fall = math.ceil(W / 10)
    val = {"punch": sum(_p(tn) * d for tn, d in info["punch"])}
    tn, d = info["kick"]
    val["kick"] = (_p(tn) * (d + _fail(y, 0) * knock)
                   - (1 - _p(tn)) * _fail(m, 0) * own_fall)
    tn, d = info["hatchet"]
    val["hatchet"] = _p(tn) * d
    val["push"] = _p(info["push"][0]) * _fail(y, 0) * knock
    tn, d = info["charge"]
    val["charge"] = (_p(tn) * (d + _fail(y, 2) * knock)
                     - _p(tn) * (math.ceil(T / 10) + own_fall * _fail(m, 2)))
    tn, d = info["dfa"]
    val["dfa"] = (_p(tn) * (d + _fail(y, 2) * knock)
                  - _p(tn) * (math.ceil(W / 5) + own_fall * _fail(m, 4))
                  - (1 - _p(tn)) * 3 * own_fall)
    legal = {"punch": any(tn <= 12 for tn, _ in info["punch"]),
             **{k: info[k][0] <= 12 for k in ("kick", "hatchet", "push", "charge", "dfa")}}
    best, best_v = "none", 0.0
    for k in ("punch", "kick", "hatchet", "push"):
        if legal[k] and val[k] > best_v:
            best, best_v = k, val[k]
    if stage == "declare":
        info["best_melee"] = best_v
        info["val"] = val
        best_v += e_fire
        best = "none"
        for k in ("charge", "dfa"):
            if legal[k] and val[k] > best_v:
                best, best_v = k, val[k]
        return best, info
    if declared in ("charge", "dfa"):
        return (declared if legal[declared] else "none"), info
    return best, info


def _punch_table(m: Mech) -> dict[int, int]:
    return QUAD_PUNCH if _quad(m) else PUNCH


def _kick_table(m: Mech) -> dict[int, int]:
    return QUAD_KICK if _quad(m) else KICK


def _groups(r: random.Random, m: Mech, total: int, column: str,
            table: dict[int, int] | None = None) -> None:
    while total > 0:
        d = min(5, total)
        total -= d
        if table is None:
            m.group(r, column, d)
        else:
            m.damage(r, table[r.randint(1, 6)], False, d, False)


def _strike(r: random.Random, m: Mech, y: Mech, kind: str, info: dict[str, Any],
            taken: list[int], trig: list[list[int]], i: int, j: int | None = None) -> None:
    """Resolve unit ``i``'s attack ``kind`` on unit ``j`` (default: the duel's other one)
    (reference.md 2-4); the PSRs it forces go to ``trig`` (per unit, each roll's
    situational modifier)."""
    j = 1 - i if j is None else j
    W, T = m.side.tons, y.side.tons
    if kind == "punch":
        for tn, d in info["punch"]:
            if tn <= 12 and _roll(r) >= tn and d > 0:
                y.damage(r, _punch_table(y)[r.randint(1, 6)], False, d, False)
                taken[j] += d
    elif kind == "kick":
        tn, d = info["kick"]
        if _roll(r) >= tn:
            if d > 0:
                if y.prone:
                    y.group(r, "front", d)
                else:
                    y.damage(r, _kick_table(y)[r.randint(1, 6)], False, d, False)
                taken[j] += d
            trig[j].append(0)       # kicked
        else:
            trig[i].append(0)           # missed a kick
    elif kind == "hatchet":
        tn, d = info["hatchet"]
        if _roll(r) >= tn:
            aim = m.side.classic.club_table
            if aim == "standard":
                y.group(r, "front", d)
            else:
                y.damage(r, (_punch_table(y) if aim == "punch" else _kick_table(y))[
                    r.randint(1, 6)], False, d, False)
            taken[j] += d
    elif kind == "push":
        if _roll(r) >= info["push"][0]:
            trig[j].append(0)       # pushed
    elif kind in ("charge", "dfa"):
        tn, d = info[kind]
        if _roll(r) >= tn:
            if kind == "charge":
                _groups(r, y, d, "front")
                own = math.ceil(T / 10)
                _groups(r, m, own, "front")
            else:
                if y.prone:
                    _groups(r, y, d, "rear")
                else:
                    _groups(r, y, d, "front", _punch_table(y))
                own = math.ceil(W / 5)
                _groups(r, m, own, "front", _kick_table(m))
            taken[j] += d
            taken[i] += own
            trig[j].append(2)       # charged / hit by a DFA
            trig[i].append(2 if kind == "charge" else 4)
        elif kind == "dfa" and m.alive():
            m.prone = m.fell = True
            _groups(r, m, 3 * math.ceil(W / 10), "rear")
            # D10: a 2-level fall: + 2 (TW); MegaMek: pre-existing + 1
            extra = 2 if m.side.classic.fall_pilot_damage == "tw" else 1
            _pilot_hurt(r, m, m.side.piloting + _pre(m) + extra)


def _restarts(m: Mech, row: int, roll: int) -> bool:
    """A shut-down 'Mech restarts at heat ``row`` (13.4 step 3; C12 unconscious pilot)."""
    if m.uncon:
        return row < 14 and m.side_rules.unconscious_restart == "megamek"
    return row < 14 or (row < 30 and roll >= _avoid(row))


def _heat(r: random.Random, m: Mech, fs: FireScenario, build_: int) -> None:
    m.shut_now = False
    if not m.alive():
        return
    side = m.side
    rules = m.side_rules
    if not m.shut or rules.engine_heat_while_shutdown:
        build_ += 5 * min(m.engine_hits(), 2)
    build_ += ER.external_heat(m.ext)
    m.ext = 0
    lost = sum(1 for it in side.sink_items if m.item_lost(it))
    diss = max(fs.dissipation - side.sink_per * lost, 0)
    h = m.heat + build_
    # a coolant pod (issue 19; MegaMek's heat phase): the first one neither spent nor
    # destroyed, when option coolant_pod says so, sinks one point per working heat sink
    free = [p for p in m.pods if p not in m.pods_spent and not m.item_lost(p)]
    sinks = side.mech.heat_sinks - lost
    safe = ER.coolant_safe_heat(any(b.munition == "inferno" for b in side.mech.ammo_bins))
    if free and rules.coolant_pod != "never" and ER.coolant_pod_used(
            sinks, h - diss, rules.coolant_pod, safe):
        m.pods_spent.add(free[0])
        diss += max(sinks, 0)
    h -= min(h, diss)
    m.heat = h
    row = min(h, 30)
    roll = _roll(r)
    if m.shut:
        if rules.restart_phase == "heat" and _restarts(m, row, roll):
            m.shut = False
    elif row >= 14:
        avoid = _avoid(row)
        if fs.rules.tacops_shutdown and 0 < avoid < 13:
            avoid = avoid - 5 + (-2, -2, -1, -1, 0, 0, 1, 1, 1)[side.piloting]
        if row >= 30 or m.uncon or roll < avoid:
            tn = side.piloting + _pre(m) + 3
            helpless = m.uncon and m.side.classic.immobile_psr == "auto-fail"   # D22
            psr_fail = not m.prone and (helpless or _roll(r) < tn)
            m.shut = m.shut_ever = m.shut_now = True
            if psr_fail:
                _fall(r, m, tn)
    if m.L.bins and m.alive() and (fs.rules.explosion_while_shutdown or not m.shut):
        avoid = 0 if row < 19 else 4 + 2 * (row >= 23) + 2 * (row >= 28)
        if _roll(r) < avoid:
            best, key = -1, (-1, -1)
            for b, (loc, _, per, expl) in enumerate(m.L.bins):
                shots = m.ammo[b] if m.IS[loc] > 0 else 0
                if shots > 0 and expl and per > 0 and (per, shots) > key:
                    best, key = b, (per, shots)
            if best >= 0:
                m.explode_now(r, best)
    if m.alive() and m.kind_hits(lay.LIFE) > 0:
        one, two = LIFE_SUPPORT_STEPS[rules.life_support_heat]
        m.pilot += ER.life_support_pilot_damage(row, one, two, m.torso)
    _settle(m)
    if rules.consciousness_rolls == "each_point":
        _conscious(r, m)


def _avoid(row: int) -> int:
    return 13 if row >= 30 else 4 + 2 * ((row - 14) // 4)


def _conscious(r: random.Random, m: Mech) -> None:
    """Consciousness rolls for damage since the last check (reference.md 4.5): one per
    point at that point's number (``each_point``), or one at the total (``once_per_turn``)."""
    if m.pilot > m.pilot_seen and m.alive() and not m.uncon:
        if m.side_rules.consciousness_rolls == "each_point":
            for k in range(m.pilot_seen + 1, min(m.pilot, 5) + 1):
                if _roll(r) < _consc(k):
                    m.uncon = True
                    break
        elif _roll(r) < _consc(m.pilot):
            m.uncon = True
    m.pilot_seen = m.pilot


def _unarmed(m: Mech, fs: FireScenario) -> bool:
    """No weapon could fire (lost, no ammunition, jammed; both sensors hit); a 'Mech built
    without weapons is never judged unarmed (C21)."""
    if not fs.guns:
        return False
    if m.kind_hits(lay.SENSORS) >= m.blind:
        return True
    ammo = [0] * len(fs.unit.pools)
    for b, p in enumerate(m.side.bin_pool):
        if p >= 0 and m.IS[m.L.bins[b][0]] > 0:
            ammo[p] += m.ammo[b]
    for g, gun in enumerate(fs.guns):
        if g in m.jam or m.gun_lost(g, gun.kind):
            continue
        if gun.pool >= 0 and ammo[gun.pool] <= 0:
            continue
        return False
    return True


def _out(m: Mech, fs: FireScenario) -> str:
    """The C21 reason this living 'Mech is out of the fight ('' if it is not)."""
    how = m.side_rules.out_of_fight
    if how == "destroyed" or not m.alive():
        return ""
    if how == "unconscious":
        return how if m.uncon else ""
    gyro, eng = m.kind_hits(lay.GYRO), m.engine_hits()
    if how == "immobile_unarmed":
        if _quad(m):
            stuck = _gyro_dead(m) or _gone(m) >= 3
        else:
            stuck = (_gyro_dead(m) or (m.IS[LL] == 0 and m.IS[RL] == 0)
                     or (m.act_hit(LL, "hip") and m.act_hit(RL, "hip")))
        return how if stuck and _unarmed(m, fs) else ""
    crippled = (m.pilot >= 4 or m.kind_hits(lay.SENSORS) >= m.blind or (gyro >= 1 and eng >= 1)
                or eng >= 2 or _unarmed(m, fs))
    return how if crippled else ""


def _durability(m: Mech) -> int:
    """Armor (front and rear) and internal structure left (the targeting policies'
    durability, :mod:`sim.classic.duel.forces`)."""
    return sum(m.armor) + sum(m.IS)


def _threat(m: Mech, fs: FireScenario, can: bool) -> float:
    """Expected damage of ``m``'s usable weapons this turn (:mod:`sim.classic.duel.forces`):
    P(hit) at the base number for the situation and heat times the mean damage at full
    rate, over the weapons not lost, jammed or dry; 0 when it cannot act."""
    if not can or m.kind_hits(lay.SENSORS) >= m.blind:
        return 0.0
    side = m.side
    h = min(m.heat, 29)
    ammo = [0] * len(fs.unit.pools)
    for b, p in enumerate(side.bin_pool):
        if p >= 0 and m.IS[side.layout.bins[b][0]] > 0:
            ammo[p] += m.ammo[b]
    out = 0.0
    for g, gun in enumerate(fs.guns):
        if g in m.jam or m.gun_lost(g, gun.kind) or (gun.pool >= 0 and ammo[gun.pool] <= 0):
            continue
        tn = int(gun.tn_uncapped[0, h])
        if tn <= 12:
            out += _p(tn) * _gun_mean(gun, gun.rate)
    return out


def _targets(scn: DuelScenario, ms: list[Mech], fss: list[FireScenario], can: list[bool],
             dead: list[int], tg: list[int]) -> None:
    """Each living unit's target by its side's policy (:mod:`sim.classic.duel.forces`, its
    docstring states them; ties to the lowest index), in place in ``tg``."""
    sides = scn.unit_sides
    U = len(ms)
    for i in range(U):
        if dead[i]:
            continue
        foes = [j for j in range(U) if sides[j] != sides[i] and not dead[j]]
        if len(foes) <= 1:
            if foes:
                tg[i] = foes[0]
            continue
        pol = scn.targeting[sides[i]]
        if pol == "spread":
            tg[i] = foes[sides[:i].count(sides[i]) % len(foes)]
        elif pol == "focus-weakest":
            tg[i] = min(foes, key=lambda j: (_durability(ms[j]), j))
        else:
            pool = foes
            if pol == "finish":
                reach = sum(_threat(ms[v], fss[v], can[v]) for v in range(U)
                            if sides[v] == sides[i] and not dead[v])
                pool = [j for j in foes if _durability(ms[j]) <= reach] or foes
            best, top = -1, -1.0
            for j in pool:
                w = _threat(ms[j], fss[j], can[j])
                if w > top:
                    best, top = j, w
            tg[i] = best


def _stand_up(r: random.Random, m: Mech, tries: bool, rules: Any) -> None:
    """The attempt to stand of a prone 'Mech that may try (PSR; a quad on four legs stands
    without one, MegaMek; a failure falls again under ``failed_stand=fall``)."""
    stand_tn = m.side.piloting + _pre(m)
    if tries and _quad(m) and _gone(m) == 0:
        m.prone = False
    elif tries and _roll(r) >= stand_tn:
        m.prone = False
    elif tries and rules.failed_stand == "fall":
        _fall(r, m, stand_tn)


def duel(scn: DuelScenario, r: random.Random, decs: list[dict[int, Decider]],
         ranges: list[int] | None = None, dealt: list[int] | None = None,
         fell: list[bool] | None = None, planner: Any = None,
         struck: list[int] | None = None) -> tuple[list[int], list[str], list[str]]:
    """One duel or force engagement (``scn.units``, N 'Mechs a side: issue 21): (turn each
    unit was destroyed or out of the fight (0 = never), causes, C21 reasons ('' = not out)).
    It ends when every unit of a side is down; a unit down takes no further part; each
    living unit picks its target at the start of the weapon attack phase (:func:`_targets`).
    Under closing with ``closing_mp=current`` the duel keeps its own range: both run while it
    is above 1 at the start of the turn (then their ``moved`` modes), and it drops by the
    hexes both really moved, to 1 at least. ``ranges``: a list the range of each turn played
    is appended to; ``dealt``: per unit, the weapon damage it deals is added to; ``struck``:
    per unit, the damage of its physical attacks is added to; ``fell``:
    per unit, whether it fell at least once. With movement chosen by the tactics
    (``scn.free``, issue 22; one 'Mech a side) the duel rolls initiative each turn and the
    tactics move it (``planner``: the scenario's :class:`sim.classic.duel.tactics.Planner`,
    whose decisions are data; the dice are rolled here)."""
    rules = scn.duel_rules
    if scn.free and planner is None:
        planner = _planner(scn)
    if not scn.free:
        planner = None
    each = rules.consciousness_rolls == "each_point"
    units = scn.units
    sides = scn.unit_sides
    U = len(units)
    ms = [Mech(s, rules) for s in units]
    dead = [0] * U
    tg = [next(j for j in range(U) if sides[j] != sides[i]) for i in range(U)]
    # closing with closing_mp=current: this duel's own range, closed by the hexes run
    own_range = scn.closing_from > 0 and rules.closing_mp == "current"
    cur = scn.start_distance if planner is not None else scn.closing_from
    for t in range(scn.turns):
        if any(all(dead[i] for i in range(U) if sides[i] == s) for s in (0, 1)):
            break
        live = [i for i in range(U) if not dead[i]]
        if own_range:
            modes = ("run", "run") if cur > 1 else (scn.a.moved, scn.b.moved)
        else:
            modes = scn.moves[t]
        # the rules the movement reads (jump heat) are the same in every situation
        fss = [s.fire[(scn.ranges[t], scn.moves[t][0], scn.moves[t][1])] for s in units]
        can, tried = [False] * U, [False] * U
        mvs: list[tuple[int, int, bool, int]] = [(0, 0, False, 0)] * U
        was_out = [m.uncon for m in ms]     # knocked out before this turn
        start_prone = [False] * U
        for i in live:
            m = ms[i]
            c = m.alive() and not m.shut and not m.uncon
            tries = c and m.prone and not _gyro_dead(m) and _gone(m) < (3 if _quad(m) else 2)
            start_prone[i] = m.prone
            if planner is None:
                _stand_up(r, m, tries, rules)
                mvs[i] = _move(r, m, modes[sides[i]], c and not start_prone[i], scn, fss[i])
            can[i] = c
            tried[i] = tries
        if planner is not None:
            # issue 22: initiative (2D6 a side, ties re-rolled; the loser moves first), both
            # stand-up attempts, then the tactics' moves in initiative order
            rule = rules.duel_initiative
            first_a = (rule == "b") if rule != "roll" else TC.roll_off(lambda: r.randint(1, 6))
            for i, m in enumerate(ms):
                _stand_up(r, m, tried[i], rules)
            states = []
            for i, m in enumerate(ms):
                mover = can[i] and not start_prone[i]
                w, rn, j = _mp(m, scn) if mover else (0, 0, 0)
                states.append({"act": int(can[i]), "mover": int(mover), "prone": int(m.prone),
                               "heat": m.heat, "walk": w, "run": rn, "jump": j,
                               "guns": _classes_left(m, fss[i], planner.gclass[i])})
            mode = list(TC.unpack_value(planner.decide(TC.make_key(cur, first_a, *states))))
            d1, d2 = mode[2], mode[3]
            f = 0 if first_a else 1
            mv: list[Any] = [None, None]
            for i in (f, 1 - f):
                mv[i] = _move(r, ms[i], TC.MODES[mode[i]], can[i] and not start_prone[i], scn,
                              fss[i])
                hexes = mv[i][0]
                target = d1 if i == f else d2
                cur = min(max(target, cur - hexes, 1), cur + hexes, scn.start_distance)
            mvs = mv
            rng_ = cur
            eff = [TC.MODES[mode[i]] if mvs[i][0] > 0 else "stand" for i in range(2)]
            modes = (eff[0], eff[1])
        elif own_range:
            cur = max(1, cur - sum(mvs[i][0] for i in live))
            rng_ = cur
        else:
            rng_ = scn.ranges[t]
        fss = [s.fire[(rng_, modes[0], modes[1])] for s in units]
        if ranges is not None:
            ranges.append(rng_)
        _targets(scn, ms, fss, can, dead, tg)
        snaps = [_snap(m) for m in ms]
        decs_i = [decs[i].setdefault(id(fss[i]), Decider(fss[i])) for i in range(U)]
        stand = rules.stand_heat_points
        # a unit's stealth armor is on when it hampers a living enemy's weapons
        stealth = [any(_stealth_on(ms[i], ms[j], rng_) for j in live if sides[j] != sides[i])
                   if i in live else False for i in range(U)]
        for m in ms:        # a beacon that stuck last turn marks its 'Mech from now on
            m.narced = m.narced or m.narc_hit
        plans: list[list[tuple[int, int, int]]] = [[] for _ in range(U)]
        for i in live:
            j = tg[i]
            plans[i] = _fire_list(scn, ms[i], ms[j], fss[i], decs_i[i], mvs[i], mvs[j], rng_,
                                  can[i])
        declared = ["none"] * U
        if rng_ == 1 and scn.physical_rules.duel_attacks == "all":
            for i in live:
                j = tg[i]
                fire_i = plans[i]
                e_fire = sum(_p(tn) * _gun_mean(fss[i].guns[g], s) for g, tn, s in fire_i)
                locs = {lay.LOC_INDEX.get(fss[i].guns[g].location, -1) for g, _, _ in fire_i}
                kind, info = _attacks(ms[i], ms[j], mvs[i], mvs[j], locs, can[i],
                                      scn, "declare", "none", e_fire)
                if ms[i].side.physical == "best" and locs & {LA, RA} and "val" in info:
                    # hold the weapons of one arm or both for a punch, hatchet or push?
                    best_v, best_plan = e_fire + info["best_melee"], fire_i
                    for arms in ({LA}, {RA}, {LA, RA}):
                        if not locs & arms:
                            continue
                        kept = [x for x in fire_i
                                if lay.LOC_INDEX.get(fss[i].guns[x[0]].location, -1)
                                not in arms]
                        e_kept = sum(_p(tn) * _gun_mean(fss[i].guns[g], s)
                                     for g, tn, s in kept)
                        _, info_b = _attacks(ms[i], ms[j], mvs[i], mvs[j],
                                             locs - arms, can[i], scn, "declare", "none",
                                             e_kept)
                        v_b = e_kept + info_b["best_melee"]
                        if v_b > best_v:
                            best_v, best_plan = v_b, kept
                    if kind != "none" and not info["val"][kind] > best_v:
                        kind = "none"
                    if kind == "none":
                        plans[i] = best_plan
                declared[i] = kind
            # two units charging / DFA-ing each other: one of them, by a 1D2
            for i in live:
                j = tg[i]
                if j > i and tg[j] == i and declared[i] != "none" and declared[j] != "none":
                    declared[(j, i)[r.randint(0, 1)]] = "none"
            for i in live:
                if declared[i] != "none":
                    plans[i] = []
        builds = [mvs[i][3] + stand * int(tried[i]) + ER.STEALTH_HEAT * stealth[i]
                  for i in range(U)]
        taken = [0] * U
        fired: list[set[int]] = [set() for _ in range(U)]
        for m in ms:
            m.ams_spent = 0
        for i in live:
            j = tg[i]
            d, h, locs, ams_heat = _resolve_fire(r, ms[i], ms[j], fss[i], plans[i])
            if dealt is not None:
                dealt[i] += d
            taken[j] += d
            builds[i] += h
            builds[j] += ams_heat
            fired[i] = locs
        for i in live:
            _settle(ms[i])
            _psrs(r, ms[i], snaps[i], taken[i])
            if each:
                _conscious(r, ms[i])
        if rng_ == 1:
            snaps = [_snap(m) for m in ms]
            choice = {i: _attacks(ms[i], ms[tg[i]], mvs[i], mvs[tg[i]], fired[i],
                                  ms[i].alive() and not ms[i].shut and not ms[i].uncon
                                  and declared[tg[i]] != "dfa", scn,
                                  "physical", declared[i], 0.0) for i in live}
            taken = [0] * U
            trig: list[list[int]] = [[] for _ in range(U)]
            for i in live:
                kind, info = choice[i]
                before = taken[tg[i]]
                _strike(r, ms[i], ms[tg[i]], kind, info, taken, trig, i, tg[i])
                if struck is not None:
                    struck[i] += taken[tg[i]] - before
            for i in live:
                _settle(ms[i])
                _psrs(r, ms[i], snaps[i], taken[i], trig[i])
                if each:
                    _conscious(r, ms[i])
        for i in live:
            _heat(r, ms[i], fss[i], builds[i])
        for i in live:
            m = ms[i]
            _settle(m)
            _conscious(r, m)
            may_wake = rules.wake_roll == "same_turn" or was_out[i]
            if m.uncon and may_wake and m.alive() and _roll(r) >= _consc(m.pilot):
                m.uncon = False
            if (rules.restart_phase == "end" and m.alive() and m.shut and not m.shut_now
                    and _restarts(m, min(m.heat, 30), _roll(r))):
                m.shut = False
            if not dead[i]:
                m.out = _out(m, fss[i])
                if not m.alive() or m.out:
                    dead[i] = t + 1
    if fell is not None:
        fell[:] = [m.fell for m in ms]
    return dead, [m.cause for m in ms], [m.out for m in ms]


def _classes_left(m: Mech, fs: FireScenario, gclass: np.ndarray) -> int:
    """The weapon classes of the tactics' key with a weapon left: not destroyed, with
    ammunition (in a standing location), not jammed."""
    side = m.side
    ammo = [0] * len(fs.unit.pools)
    for b, p in enumerate(side.bin_pool):
        if p >= 0 and m.IS[side.layout.bins[b][0]] > 0:
            ammo[p] += m.ammo[b]
    out = 0
    for g, gun in enumerate(fs.guns):
        c = int(gclass[g])
        if c < 0 or g in m.jam or m.gun_lost(g, gun.kind):
            continue
        if gun.pool >= 0 and ammo[gun.pool] <= 0:
            continue
        out |= 1 << c
    return out


def _planner(scn: DuelScenario) -> Any:
    """The tactics' decisions of ``scn`` (issue 22): the same data the engine looks up."""
    keys = sorted(scn.a.fire)
    return TC.Planner(scn, {}, {k: i for i, k in enumerate(keys)})


def scalar(params: Mapping[str, Any], rng: np.random.Generator, n: int) -> dict[str, Any]:
    """``n`` duels one at a time: ``dead_turn`` (U, n), ``cause`` (U, n), ``out`` (U, n,
    the C21 reason or ''), ``range`` (turns, n: the range of each turn played, 0 after the
    end), ``weapon_damage`` (U, n: weapon-fire damage each unit dealt), ``damage`` (U, n: all
    the damage it dealt, weapons and physical attacks: the engine's ``dealt`` summed over the
    turns) and ``fell`` (U, n:
    the unit fell at least once) arrays, one row per unit (the duel: A, B; ``classic-force``
    parameters (``unit_a`` a force): side A's units, then side B's)."""
    scn = scenario_of(params)
    U = len(scn.units)
    r = random.Random(int(rng.integers(2**63)))
    decs: list[dict[int, Decider]] = [{} for _ in range(U)]
    planner = _planner(scn) if scn.free else None
    dead = np.zeros((U, n), np.int64)
    causes = np.empty((U, n), dtype=object)
    outs = np.empty((U, n), dtype=object)
    played = np.zeros((scn.turns, n), np.int64)
    fire = np.zeros((U, n), np.int64)
    total = np.zeros((U, n), np.int64)
    falls = np.zeros((U, n), bool)
    for j in range(n):
        rl: list[int] = []
        wd = [0] * U
        fl = [False] * U
        ph_ = [0] * U
        d, c, o = duel(scn, r, decs, rl, wd, fl, planner, ph_)
        falls[:, j] = fl
        fire[:, j] = wd
        total[:, j] = np.add(wd, ph_)
        dead[:, j] = d
        causes[:, j] = c
        outs[:, j] = o
        played[:len(rl), j] = rl
    return {"dead_turn": dead, "cause": causes, "out": outs, "range": played,
            "weapon_damage": fire, "damage": total, "fell": falls}


def scenario_of(params: Mapping[str, Any]) -> DuelScenario:
    """The duel's scenario, or a force engagement's (``targeting_*`` given, or a side in the
    force syntax: :func:`sim.classic.duel.forces.build_force`)."""
    force = any(k.startswith("targeting_") for k in params) or any(
        isinstance(params.get(f"unit_{s}"), str) and ("," in params[f"unit_{s}"]
                                                      or "@" in params[f"unit_{s}"])
        or isinstance(params.get(f"unit_{s}"), list) for s in "ab")
    if force:
        from sim.classic.duel.forces import build_force

        return build_force(params)
    return build(params)
