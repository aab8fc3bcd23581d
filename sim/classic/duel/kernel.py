"""Monte Carlo kernel of the ``classic-duel`` model: two 'Mechs, turn by turn, vectorized
over trials (the Python loops run over turns, the two sides, their weapons and damage groups,
never over trials).

Each turn follows reference-classic-combat.md 15:

1. Movement: a prone 'Mech that can act tries to stand (PSR; +1 heat, C14); the others move
   in their mode with the MP they have now (leg damage, heat, jump jets: per-trial hexes,
   attacker modifier, TMM and heat; shut-down, unconscious or prone 'Mechs stand still),
   with a PSR for running or jumping damaged. At range 1 each side then commits (before
   weapon fire): fire as planned, hold an arm's weapons for a physical attack, or declare a
   charge / DFA and fire nothing (:func:`_declare_physical`).
2. Weapon attacks, declared by both sides from the state at the start of the phase (the
   firing policy of the fire model), then resolved: to-hit with heat, movement, TMM,
   sensors, arm actuators, prone and immobile targets (12.1); cluster, location per group,
   damage with transfer, criticals and explosions (:mod:`sim.classic.damage_state`). A 'Mech
   destroyed in the phase still fires. End of phase: PSRs (14.6), falls.
3. Physical attacks at range 1 (punch, kick, hatchet, push, declared charge or DFA;
   :mod:`.physical`), chosen then resolved; PSRs again (kicked, pushed, charged, DFA, missed
   kick, 20+ damage incl. self-damage, critical hits), falls, a missed DFA's 2-level fall.
4. Heat phase (13.4): build-up incl. engine hits, dissipation less destroyed sinks,
   restart / shutdown (+3 PSR on shutdown), ammunition explosion, life-support pilot damage.
5. End: consciousness and wake-up rolls (reference.md 4.5); destruction (14.5) ends the duel,
   and so does being out of the fight when ``out_of_fight`` (C21) says so.

The rule options of :class:`sim.classic.duel.rules.ClassicDuelRules` act here: C1 life
support and C22 engine heat while shut down (heat phase), C2 restart in the heat or the end
phase, C12 restart with an unconscious pilot, C14 heat per attempt to stand, C7 autocannons
that keep firing after a first critical (gun availability in :func:`_declare`), C21 the end
test, the consciousness rolls (per point at the end of each phase, or once a turn), and
``closing_mp`` (a range per duel under closing: :func:`run_block`).
Those of :class:`sim.classic.rules.ClassicRules` (``Side.classic``, one instance for both
sides) too: D4, D5, D6, D11, D18 and D21 in the physical attacks (:func:`_choose_physical`,
:mod:`.physical`), D19 and D22 in :func:`_psr_phase` (and D22 in the shutdown roll and the
``best`` values), D10 and ``pilot_damage`` in the MechWarrior's roll after a fall
(:func:`_fall`, :func:`_dfa_miss_fall`), ``tac`` in every standard-table location roll.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic import equipment_rules as ER
from sim.classic import tables as CT
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.apply import apply_group, explode
from sim.classic.damage_state.choose import SampleChooser
from sim.classic.duel import physical as ph
from sim.classic.duel.physical_rules import ClassicPhysicalRules
from sim.classic.duel.rules import AUTOCANNON_FAMILIES, OUT_REASONS, ClassicDuelRules
from sim.classic.duel.scenario import DuelScenario, Side
from sim.classic.fire import heat as H
from sim.classic.fire import kernel as fk
from sim.classic.fire import to_hit as TH
from sim.classic.fire.policies import Decider
from sim.classic.fire.scenario import ACTIVE_HEATS, FireScenario
from sim.classic.tables import CONSCIOUSNESS
from sim.classic.tables import SIDE as CT_SIDE
from sim.classic.tables import STANDARD as CT_STANDARD
from sim.dice import d6, two_d6
from sim.errors import ConfigError, UserError

#: Fall column by 1D6 (reference.md 4.4).
SIDE_NAMES = CT.SIDES
FALL_IDX = CT.FALL_COLUMN.astype(np.int64)
LEGS = (lay.LL, lay.RL)
ARMS = (lay.LA, lay.RA)
#: Trials per block: bounds memory (the column-major state is ~55 int64 columns per side,
#: ~7 MB at this size). Every damage group costs a fixed ~1 ms of NumPy calls whatever
#: its row count, so small blocks are overhead-bound; measured on the bench pairing (played
#: duel-turns/s, one core): 4,096 rows 104 k, 16,384 191 k, 65,536 201 k.
BLOCK = 16384
#: Physical choices (:data:`.physical.KINDS`).
NONE, PUNCH, KICK, HATCHET, PUSH, CHARGE, DFA = ph.NONE, ph.PUNCH, ph.KICK, ph.HATCHET, ph.PUSH, ph.CHARGE, ph.DFA


def roll2(rng: np.random.Generator, n: int) -> np.ndarray:
    """n 2D6 totals, exact, from btsim's byte dice (:func:`sim.dice.two_d6`)."""
    return two_d6(rng, n).astype(np.int64)


def hits_of(S: np.ndarray, loc: int, mask: int) -> np.ndarray:
    """(n,) critical hits among the slots ``mask`` of ``loc``."""
    return st.POP[S[:, st.HIT0 + loc] & (mask & 0xFFF)]


@dataclass
class _Compiled:
    """Per-side tables the kernel needs, built once per scenario."""

    side: Side
    deciders: dict[int, Decider] = field(default_factory=dict)
    tables: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]] = field(default_factory=dict)
    grp: list[np.ndarray] = field(default_factory=list)     # (rate+1, kmax+1, gmax)
    hits: list[np.ndarray] = field(default_factory=list)    # (rate+1, 13)
    jam: list[np.ndarray] = field(default_factory=list)     # (rate+1,)
    gun_value: list[float] = field(default_factory=list)    # E[damage | hit], full rate
    pool_bins: list[list[int]] = field(default_factory=list)
    fall_damage: int = 0
    rules: ClassicDuelRules = field(default_factory=ClassicDuelRules)
    #: per gun: lost only at the second critical on its slots (C7 "damaged", autocannons)
    second_crit: tuple[bool, ...] = ()
    #: per gun: hits by shots and cluster roll when the target's AMS engages it (10.3)
    hits_ams: list[np.ndarray] = field(default_factory=list)
    #: the guns an AMS engages, most dangerous first (expected damage given a hit; ties to
    #: the first gun)
    ams_order: tuple[int, ...] = ()

    def decide(self, fs: FireScenario, t: int, hact: np.ndarray, active: np.ndarray,
               avail: np.ndarray, ammo: np.ndarray) -> np.ndarray:
        """Fire decisions (guns, n) of the side's firing policy (the fire model's)."""
        key = id(fs)
        dec = self.deciders.get(key)
        if dec is None:
            dec = self.deciders[key] = Decider(fs)
            self.tables[key] = {}
        variable = [g for g, gun in enumerate(fs.guns) if gun.pool >= 0 or any(gun.jam_le)]
        size = ACTIVE_HEATS << len(variable)
        return fk._decide(fs, dec, self.tables[key], 0, t, hact, active, avail, variable,
                          size, ammo)


def compile_side(side: Side, rules: ClassicDuelRules | None = None) -> _Compiled:
    c = _Compiled(side, rules=rules or ClassicDuelRules())
    fs = next(iter(side.fire.values()))
    c.second_crit = tuple(c.rules.ac_first_crit == "damaged" and g.kind in AUTOCANNON_FAMILIES
                          for g in fs.guns)
    for g in fs.guns:
        kmax = max(len(x) for x in g.groups) - 1
        gmax = max(1, max(len(t) for x in g.groups for t in x))
        grp = np.zeros((g.rate + 1, kmax + 1, gmax), dtype=np.int64)
        for s in range(1, g.rate + 1):
            for k, t in enumerate(g.groups[s]):
                grp[s, k, :len(t)] = t
        c.grp.append(grp)
        c.hits.append(np.array([np.asarray(h) for h in g.hits], dtype=np.int64))
        c.jam.append(np.array(g.jam_le, dtype=np.int64))
        c.gun_value.append(float(ph.mean_gun_damage(c.hits[-1], grp)[g.rate]))
        c.hits_ams.append(np.array([np.asarray(h) for h in g.hits_ams], dtype=np.int64)
                          if g.ams_target else c.hits[-1])
    c.ams_order = tuple(sorted((g for g, gun in enumerate(fs.guns) if gun.ams_target),
                               key=lambda g: (-fs.guns[g].ams_priority, g)))
    c.pool_bins = [[b for b, p in enumerate(side.bin_pool) if p == i]
                   for i in range(len(fs.unit.pools))]
    c.fall_damage = math.ceil(side.tons / 10)
    return c


@dataclass
class _State:
    """Per-trial state of one side."""

    S: np.ndarray
    heat: np.ndarray
    shut: np.ndarray
    prone: np.ndarray
    uncon: np.ndarray
    pilot_seen: np.ndarray
    jam: np.ndarray
    fell: np.ndarray
    shut_ever: np.ndarray
    dead_turn: np.ndarray
    #: C21 reason code (index of ``rules.OUT_REASONS``) of a side out of the fight; 0 none
    out: np.ndarray
    #: shut down in this turn's heat phase (C2 ``end``: no restart before the next turn)
    shut_now: np.ndarray

    @classmethod
    def fresh(cls, side: Side, n: int, ng: int) -> _State:
        z = np.zeros(n, dtype=bool)
        S = np.empty((n, st.n_columns(side.layout)), np.int64, order="F")
        S[:] = st.fresh(side.layout, 1)     # column-major: every column op is contiguous
        return cls(S, np.zeros(n, np.int64), z.copy(), z.copy(), z.copy(),
                   np.zeros(n, np.int64), np.zeros((ng, n), bool), z.copy(), z.copy(),
                   np.zeros(n, np.int64), np.zeros(n, np.int64), z.copy())

    def alive(self) -> np.ndarray:
        return self.S[:, st.CAUSE] == st.C_NONE

    def take(self, keep: np.ndarray) -> _State:
        """The rows ``keep`` only."""
        S = self.S.T.take(keep, axis=1).T     # stays column-major, one copy
        return _State(S, self.heat[keep], self.shut[keep],
                      self.prone[keep], self.uncon[keep], self.pilot_seen[keep],
                      self.jam[:, keep], self.fell[keep], self.shut_ever[keep],
                      self.dead_turn[keep], self.out[keep], self.shut_now[keep])


def items_lost(S: np.ndarray, layout: lay.Layout, items: Sequence[int],
               second: Sequence[bool] = ()) -> np.ndarray:
    """(n, len(items)) bool: each of ``items`` is destroyed (a critical on any of its slots,
    or every location holding it destroyed, 14.3); the same as
    :func:`sim.classic.damage_state.state.items_lost` for those items, one location at a
    time (an item sits in one or two locations). Items flagged in ``second`` (C7 Core
    reading for autocannons) are lost only at the second critical on their slots."""
    out = np.zeros((len(S), len(items)), bool, order="F")   # read by item: column-major
    for j, it in enumerate(items):
        if it < 0:
            continue
        need = 2 if j < len(second) and second[j] else 1
        hits: Any = 0
        gone: Any = True            # held nowhere: nothing left of it
        for loc in np.flatnonzero(layout.item_masks[it]):
            hits = hits + st.POP[S[:, st.HIT0 + loc] & (int(layout.item_masks[it, loc]) & 0xFFF)]
            gone = gone & (S[:, st.IS0 + loc] == 0)
        out[:, j] = (hits >= need) | gone
    return out


#: Pre-existing PSR modifier of the gyro by its critical hits 0, 1, 2+ (reference.md 4.2).
GYRO_PSR = np.array([0, 3, 6], np.int64)
#: ... of a destroyed leg (its actuators then count for nothing), a hit hip (the leg's other
#: actuators ignored), each hit upper leg, lower leg and foot actuator.
LEG_GONE_PSR, HIP_PSR, LEG_ACTUATOR_PSR = 5, 2, 1


@lru_cache(maxsize=256)
def _leg_psr_table(hip: int, others: int) -> np.ndarray:
    """(4096,) pre-existing PSR modifier of a standing leg by its slot-hit bits (4.2), the
    leg's hip slots ``hip`` and upper leg, lower leg and foot slots ``others``."""
    bits = np.arange(1 << 12)
    table = np.where(st.POP[bits & hip] > 0, HIP_PSR,
                     LEG_ACTUATOR_PSR * st.POP[bits & others]).astype(np.int64)
    table.flags.writeable = False       # cached and shared: read only
    return table


@lru_cache(maxsize=64)
def _gyro_psr(gyro: str) -> np.ndarray:
    """(13,) pre-existing PSR modifier of a gyro of type ``gyro`` by its hits
    (:func:`sim.classic.equipment_rules.gyro_psr_mod`: a heavy-duty gyro +1, +3; destroyed
    the last entry of :data:`GYRO_PSR`)."""
    mods = [ER.gyro_psr_mod(gyro, h) for h in range(13)]
    table = np.array([GYRO_PSR[-1] if m is None else m for m in mods], np.int64)
    table.flags.writeable = False
    return table


def _loud_gyro(side: Side, S: np.ndarray) -> np.ndarray:
    """Gyro hits that are PSR triggers (a heavy-duty gyro's first is not)."""
    return np.maximum(S[:, st.GYRO] - ER.gyro_quiet_hits(side.mech.gyro), 0)


def pre_psr(side: Side, S: np.ndarray) -> np.ndarray:
    """Pre-existing PSR modifiers (reference.md 4.2): the gyro by its hits (standard +3,
    destroyed +6; heavy-duty +1, +3, destroyed +6), per leg:
    destroyed +5, else hip +2 (other actuators of that leg ignored), else +1 per destroyed
    upper leg, lower leg and foot actuator; the unit's own modifier (a small cockpit +1,
    hardened armor +1: :func:`sim.classic.equipment_rules.unit_psr_mod`, issue 19)."""
    out = _gyro_psr(side.mech.gyro)[np.minimum(S[:, st.GYRO], 12)] + ER.unit_psr_mod(
        side.mech.cockpit, side.mech.armor_type)
    for leg in LEGS:
        others = side.act["upper_leg"][leg] | side.act["lower_leg"][leg] | side.act["foot"][leg]
        table = _leg_psr_table(int(side.act["hip"][leg]) & 0xFFF, int(others) & 0xFFF)
        out += np.where(S[:, st.IS0 + leg] == 0, LEG_GONE_PSR, table[S[:, st.HIT0 + leg] & 0xFFF])
    return out


def _leg_events(side: Side, S: np.ndarray) -> np.ndarray:
    """(n,) count of leg-actuator critical events that each trigger a PSR (4.2)."""
    out = np.zeros(len(S), np.int64)
    for leg in LEGS:
        for a in ("hip", "upper_leg", "lower_leg", "foot"):
            out += hits_of(S, leg, int(side.act[a][leg]))
    return out


#: Standard hit table by (column, 2D6 total): location index and rear flag (reference.md 3.2).
_STD_LOC = np.zeros((4, 13), np.int64)
_STD_REAR = np.zeros((4, 13), bool)
for _c, _name in enumerate(SIDE_NAMES):
    for _r in range(2, 13):
        _code = int(CT_STANDARD[CT_SIDE[_name], _r])
        _STD_LOC[_c, _r] = {8: 1, 9: 2, 10: 3}.get(_code, _code)
        _STD_REAR[_c, _r] = _code >= 8


def roll_locations(rng: np.random.Generator, column: np.ndarray, floating: bool,
                   tac_on: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Roll one standard hit-location per row on table column ``column`` (0 front, 1 left,
    2 right, 3 rear; reference.md 3.2): ``(location, rear armor, through-armor chance)``.
    A 2 is a TAC at the listed location, or with C28 ``floating`` a TAC at a location rolled
    again (the same distributions as :func:`sim.classic.damage_state.apply.side_outcomes`);
    with ``tac_on`` False (ClassicRules ``tac`` off) a 2 is a plain hit there."""
    roll = roll2(rng, column.size)
    tac = (roll == 2) & tac_on
    if floating and tac.any():
        roll = np.where(tac, roll2(rng, column.size), roll)
    return _STD_LOC[column, roll], _STD_REAR[column, roll], tac


def _apply_rows(S: np.ndarray, side: Side, mask: np.ndarray, dmg: np.ndarray,
                where: str | np.ndarray, ch: SampleChooser) -> None:
    """Apply one damage group to the rows of ``mask``: ``where`` a table column name (the
    location is rolled on the standard table, see :func:`roll_locations`) or an array of
    location indexes (front armor)."""
    idx = np.flatnonzero(mask & (S[:, st.CAUSE] == st.C_NONE))
    if idx.size == 0:
        return
    if isinstance(where, str):
        col = np.full(idx.size, SIDE_NAMES.index(where), np.int64)
        loc, rear, tac = roll_locations(ch.rng, col, _floating(side), side.classic.tac)
    else:
        loc = where[idx]
        rear = np.zeros(idx.size, bool)
        tac = np.zeros(idx.size, bool)
    _apply_at(S, side, idx, dmg[idx], loc, rear, tac, ch)


def _floating(side: Side) -> bool:
    return side.dm.rules.location_roll_two == "floating"


def _apply_at(S: np.ndarray, side: Side, idx: np.ndarray, d: np.ndarray, loc: np.ndarray,
              rear: np.ndarray, tac: np.ndarray, ch: SampleChooser) -> None:
    """One damage group per row ``idx`` (standing 'Mechs) at a known location (14.1).

    Fast path (the same outcome as the damage kernel): a group that the location's armor
    absorbs completely, with no critical chance, only lowers that armor (and costs the
    MechWarrior a point on the head); everything else goes through
    :func:`sim.classic.damage_state.apply.apply_group`."""
    col = st.ARMOR_COL[loc, rear.astype(np.intp)]
    armor = S[idx, col]
    easy = ~tac & (armor >= d) & (d > 0) & (S[idx, st.IS0 + loc] > 0)
    if side.layout.lamellor:   # ferro-lamellor cuts the group first: the damage kernel's path
        easy[:] = False
    if easy.any():
        ie = idx[easy]
        S[ie, col[easy]] = armor[easy] - d[easy]
        head = ie[loc[easy] == lay.HD]
        if head.size and not side.layout.torso_cockpit:   # a torso cockpit: no pilot hit
            S[head, st.PILOT] += 1
            dead = head[(S[head, st.PILOT] >= st.PILOT_DEAD) & (S[head, st.CAUSE] == 0)]
            S[dead, st.CAUSE] = st.C_PILOT
    hard = ~easy
    if hard.any():
        ih = idx[hard]
        sub = S.T.take(ih, axis=1).T        # the rows, column-major like S
        sub, _ = apply_group(sub, np.ones(ih.size), side.dm, loc[hard], rear[hard], d[hard],
                             tac[hard], ch, copy=False)
        _write_back(S, ih, sub)


def _write_back(S: np.ndarray, idx: np.ndarray, sub: np.ndarray) -> None:
    """``S[idx] = sub`` for the rows of a damage state that went through the damage kernel,
    columns PEND and scratch left out: they are idle before and after every group (and a
    scatter into the column-major ``S`` costs per element)."""
    S[idx, :st.PEND] = sub[:, :st.PEND]
    S[idx, st.AMMO0:] = sub[:, st.AMMO0:]


def _settle_pilot(S: np.ndarray) -> None:
    """A sixth point of pilot damage kills the MechWarrior: destroyed (14.5)."""
    m = (S[:, st.PILOT] >= st.PILOT_DEAD) & (S[:, st.CAUSE] == st.C_NONE)
    S[m, st.CAUSE] = st.C_PILOT


def _fall(rng: np.random.Generator, side: Side, c: _Compiled, x: _State, mask: np.ndarray,
          ch: SampleChooser, failed_tn: np.ndarray) -> None:
    """The 'Mech falls (reference.md 4.3-4.4): prone; ceil(tons/10) in 5-point groups, all
    on the column of one 1D6 facing-after-fall roll; then the MechWarrior's roll (0 levels)
    or the pilot takes 1: D10 ``fall_pilot_damage`` ``tw`` Piloting + pre-existing
    modifiers, ``megamek`` ``failed_tn`` (the failed PSR's target number, per row;
    :func:`.physical.fall_pilot_tn`); automatic when unconscious or shut down; none with
    ClassicRules ``pilot_damage`` off."""
    mask = mask & x.alive()
    if not mask.any():
        return
    x.prone |= mask
    x.fell |= mask
    left = c.fall_damage
    idx = np.flatnonzero(mask)
    column = FALL_IDX[d6(rng, idx.size)]   # one facing roll per fall
    while left > 0:
        d = min(5, left)
        left -= d
        live = x.S[idx, st.CAUSE] == st.C_NONE
        idx, column = idx[live], column[live]
        loc, rear, tac = roll_locations(rng, column, _floating(side), side.classic.tac)
        _apply_at(x.S, side, idx, np.full(idx.size, d, np.int64), loc, rear, tac, ch)
    _pilot_roll(rng, side, x, mask, ph.fall_pilot_tn(side.piloting, pre_psr(side, x.S), 0,
                                                     failed_tn, False, side.classic))


def _pilot_roll(rng: np.random.Generator, side: Side, x: _State, mask: np.ndarray,
                tn: np.ndarray) -> None:
    """The MechWarrior's roll after a fall of the rows ``mask`` (reference.md 4.3): 1 damage
    below ``tn``, automatic when unconscious or shut down; nothing with ClassicRules
    ``pilot_damage`` off (the roll is still drawn, so the other dice stay in step)."""
    hurt = mask & (x.uncon | x.shut | (roll2(rng, len(mask)) < tn))
    if side.classic.pilot_damage:
        x.S[:, st.PILOT] += hurt
    _settle_pilot(x.S)


def _psr_phase(rng: np.random.Generator, side: Side, c: _Compiled, x: _State,
               before: np.ndarray, dmg: np.ndarray, live: np.ndarray, ch: SampleChooser,
               attacks: Sequence[tuple[np.ndarray, np.ndarray]] = ()) -> None:
    """End-of-phase PSRs (14.6, reference.md 4.1-4.2): one roll per trigger (20+ damage,
    gyro hit, each leg-actuator critical, then each of ``attacks``: (count, its situational
    modifier) per row, such as kicked +0, charged +2, made a DFA +4), each at Piloting +
    pre-existing damage (which includes the new criticals) + situational modifiers; the
    first failure falls. D19 ``psr_modifiers``: ``cumulative`` every roll adds all the
    phase's situational modifiers (20+ damage +1 and the attacks'), ``own`` each roll only
    its own trigger's, in the order above. A new second gyro hit or a newly destroyed leg is
    an automatic fall; D22 ``immobile_psr`` ``auto-fail``: shut-down or unconscious 'Mechs
    fail every PSR (``roll``: they roll). The failed roll's target number goes to the
    MechWarrior's roll (D10 ``megamek``; for an automatic fall the phase's full target
    number, Piloting + pre-existing + every situational modifier)."""
    S = x.S
    rules = side.classic
    n = len(S)
    standing = live & ~x.prone & x.alive()
    big = dmg >= 20
    gyro_new = _loud_gyro(side, S) > before[:, 0]
    leg_new = _leg_events(side, S) - before[:, 1]
    legs_gone = sum((S[:, st.IS0 + leg] == 0).astype(np.int64) for leg in LEGS)
    auto = (gyro_new & (S[:, st.GYRO] >= side.layout.gyro_destroyed_at)) | (
        legs_gone > before[:, 2])
    extra = sum((cnt for cnt, _ in attacks), np.zeros(n, np.int64))
    situ = sum((mod for _, mod in attacks), np.zeros(n, np.int64))
    k = big.astype(np.int64) + gyro_new + np.maximum(leg_new, 0) + extra
    base = side.piloting + pre_psr(side, S)
    tn = base + big + situ          # every roll's number under ``cumulative`` (4.1)
    fail = auto.copy()
    failed_tn = tn.copy()
    if rules.psr_modifiers == "cumulative":
        kmax = int(k[standing].max()) if standing.any() else 0
        for j in range(kmax):
            fail |= (k > j) & (roll2(rng, len(k)) < tn)
    else:
        # ``own``: the rolls in order, each with its trigger's modifier; the first failure
        # is the fall and its target number the failed one
        groups = [(big.astype(np.int64), np.ones(n, np.int64)),
                  (gyro_new + np.maximum(leg_new, 0), np.zeros(n, np.int64)), *attacks]
        for cnt, mod in groups:
            top = int(cnt[standing].max()) if standing.any() else 0
            tn_j = base + mod
            for j in range(top):
                f = (cnt > j) & (roll2(rng, n) < tn_j)
                failed_tn = np.where(f & ~fail, tn_j, failed_tn)
                fail |= f
    if rules.immobile_psr == "auto-fail":
        fail |= (k > 0) & (x.shut | x.uncon)
    _fall(rng, side, c, x, standing & fail, ch, failed_tn)


def _snapshot(side: Side, S: np.ndarray) -> np.ndarray:
    legs_gone = sum((S[:, st.IS0 + leg] == 0).astype(np.int64) for leg in LEGS)
    return np.stack([_loud_gyro(side, S), _leg_events(side, S), legs_gone], axis=1)


def _consciousness(rng: np.random.Generator, x: _State, each_point: bool = False) -> None:
    """A pilot hurt since the last check rolls to stay conscious (reference.md 4.5).

    ``each_point`` (``consciousness_rolls=each_point``): one roll per new point of damage,
    each at the number of the total that point reaches, in order; the first failure knocks
    the pilot out and ends the rolls. Otherwise one roll at the current total."""
    p = x.S[:, st.PILOT]
    ok = x.alive() & ~x.uncon
    if each_point:
        for k in range(1, st.PILOT_DEAD):
            new = ok & (x.pilot_seen < k) & (p >= k) & ~x.uncon
            if new.any():
                x.uncon |= new & (roll2(rng, len(p)) < CONSCIOUSNESS[k])
    else:
        hurt = (p > x.pilot_seen) & ok
        tn = CONSCIOUSNESS[np.minimum(p, 12)]
        x.uncon |= hurt & (roll2(rng, len(p)) < tn)
    x.pilot_seen = p.copy()


def _phase_consciousness(rng: np.random.Generator, c: _Compiled, x: _State) -> None:
    """End of the weapon, physical or heat phase: the rolls for that phase's pilot damage
    (``consciousness_rolls=each_point``; ``once_per_turn`` waits for the end phase)."""
    if c.rules.consciousness_rolls == "each_point":
        _consciousness(rng, x, True)


def _can_restart(x: _State, row: np.ndarray, roll: np.ndarray, rules: ClassicDuelRules
                 ) -> np.ndarray:
    """(n,) a shut-down 'Mech at heat ``row`` restarts (13.4 step 3): below 14 automatically,
    below 30 on 2D6 ``roll`` >= the avoid number. C12: an unconscious pilot cannot roll
    (``megamek``: still restarts below 14; ``never``: no restart at all)."""
    auto = row < H.AUTO_RESTART_BELOW
    rolled = (row < H.AUTO_SHUTDOWN) & (roll >= H.SHUTDOWN_AVOID[row])
    if rules.unconscious_restart == "never":
        return x.shut & ~x.uncon & (auto | rolled)
    return x.shut & (auto | (~x.uncon & rolled))


def _no_weapon(side: Side, c: _Compiled, x: _State) -> np.ndarray:
    """(n,) no weapon could fire (each lost per C7, without ammunition or jammed, or both
    sensors hit); False for a 'Mech built without weapons (it is judged on the rest)."""
    items = side.gun_item
    if not items:
        return np.zeros(len(x.S), bool)
    lost = items_lost(x.S, side.layout, items, c.second_crit)
    ammo = _pool_ammo(c, x, side)
    fs = next(iter(side.fire.values()))
    ok = np.zeros(len(x.S), bool)
    for g, gun in enumerate(fs.guns):
        usable = ~x.jam[g]
        if items[g] >= 0:
            usable &= ~lost[:, g]
        if gun.pool >= 0:
            usable &= ammo[gun.pool] > 0
        ok |= usable
    return ~ok | (x.S[:, st.SENSORS] >= 2)


def out_of_fight(side: Side, c: _Compiled, x: _State) -> np.ndarray:
    """(n,) C21 reason code (``rules.OUT_REASONS``) of a living side out of the fight under
    the ``out_of_fight`` reading, 0 otherwise (14.5 and the C21 row of section 16)."""
    code = c.rules.out_code
    S = x.S
    n = len(S)
    if code == 0:
        return np.zeros(n, np.int64)
    if c.rules.out_of_fight == "unconscious":
        out = x.uncon.copy()
    elif c.rules.out_of_fight == "immobile_unarmed":
        legs = (S[:, st.IS0 + lay.LL] == 0) & (S[:, st.IS0 + lay.RL] == 0)
        hips = sum((hits_of(S, leg, int(side.act["hip"][leg])) > 0).astype(np.int64)
                   for leg in LEGS) == 2        # two hips: walking MP 0 (14.3)
        out = ((S[:, st.GYRO] >= side.layout.gyro_destroyed_at) | legs | hips) & _no_weapon(
            side, c, x)
    else:  # crippled (TW forced withdrawal as summarised in C21)
        eng, gyro = S[:, st.ENGINE], S[:, st.GYRO]
        out = ((S[:, st.PILOT] >= 4) | (S[:, st.SENSORS] >= 2) | ((gyro >= 1) & (eng >= 1))
               | (eng >= 2) | _no_weapon(side, c, x))
    return np.where(out & x.alive(), code, 0)


def _end_phase(rng: np.random.Generator, side: Side, c: _Compiled, x: _State,
               fight: np.ndarray, t: int, was_out: np.ndarray | None = None) -> None:
    """Step 6 of 15 for one side: consciousness rolls still due, wake-up roll of an
    unconscious pilot (reference.md 4.5; ``wake_roll``: not in the turn of the knockout by
    default, ``was_out`` marking who was out before this turn), restart when ``restart_phase=end`` (C2: a 'Mech
    shut down in an earlier turn's heat phase), then the end of the duel for this side:
    destroyed (14.5) or out of the fight (C21)."""
    _settle_pilot(x.S)
    _consciousness(rng, x, c.rules.consciousness_rolls == "each_point")
    n = len(x.S)
    p = x.S[:, st.PILOT]
    may = x.uncon if was_out is None or c.rules.wake_roll == "same_turn" else x.uncon & was_out
    wake = may & x.alive() & (roll2(rng, n) >= CONSCIOUSNESS[np.minimum(p, 12)])
    x.uncon &= ~wake
    if c.rules.restart_phase == "end":
        row = np.minimum(x.heat, H.HEAT_TOP)
        go = fight & x.alive() & ~x.shut_now & _can_restart(x, row, roll2(rng, n), c.rules)
        x.shut &= ~go
    newly = fight & (x.dead_turn == 0)
    out = np.where(newly, out_of_fight(side, c, x), 0)
    x.out = np.where(out > 0, out, x.out)
    newly &= ~x.alive() | (out > 0)
    x.dead_turn[newly] = t + 1


def refuse_quads(scn: DuelScenario) -> None:
    """This kernel plays bipeds only: a quad's leg rules (:mod:`sim.classic.quad`) are the
    compiled engine's (named policies); UserError naming the unit otherwise."""
    for s in scn.sides:
        if s.layout.config != "Biped":
            raise UserError(f"{s.label}: a {s.layout.config} 'Mech fights in the compiled "
                            "Classic engine only (named firing and physical policies); the "
                            "NumPy duel kernel, which a callable policy needs, plays bipeds")


def simulate(scn: DuelScenario, rng: np.random.Generator, n: int) -> Aggregate:
    """Run ``n`` duels in blocks; return the aggregate of :func:`run_block` outcomes."""
    refuse_quads(scn)
    comp = (compile_side(scn.a, scn.duel_rules), compile_side(scn.b, scn.duel_rules))
    agg = Aggregate(0)
    for start in range(0, n, BLOCK):
        out = run_block(scn, comp, rng, min(BLOCK, n - start))
        agg.merge(summarize(scn, out))
    return agg


def run_block(scn: DuelScenario, comp: tuple[_Compiled, _Compiled] | None,
              rng: np.random.Generator, n: int) -> dict[str, Any]:
    """``n`` duels; returns per-trial outcomes: ``dead_turn`` (2, n) (turn the side was
    destroyed or, C21, out of the fight; 0 = survived), ``cause`` (2, n), ``out`` (2, n) C21
    reason code (0: not out), ``fell`` and ``shut`` (2, n) bool, ``dealt`` (2, T, n) damage
    dealt by each side per turn, ``range`` (T, n) the range of each duel's attacks in the
    turn (0 once the duel is over).

    Under ``closing`` with ``closing_mp=current`` every duel keeps its own range: it runs
    while its range at the start of the turn is above 1 (then uses its ``moved`` modes), the
    range drops by the hexes both sides really moved (never below 1), and weapon fire (to-hit
    tables and firing policy per distinct situation, :func:`_situation_keys`), the prone
    target modifier and the physical phase (rows at range 1 only) read it.

    It plays ``stand-and-fire`` only: a duel whose movement the tactics choose (issue 22) is
    the compiled engine's (ConfigError here)."""
    if scn.free:
        sd = "a" if scn.tactics[0].name != "stand-and-fire" else "b"
        raise ConfigError(f"tactic_{sd}", scn.tactics[0 if sd == "a" else 1].name,
                          "stand-and-fire on the NumPy duel kernel (the compiled engine "
                          "plays the other tactics)")
    refuse_quads(scn)
    if comp is None:
        comp = (compile_side(scn.a, scn.duel_rules), compile_side(scn.b, scn.duel_rules))
    sides = scn.sides
    ch = SampleChooser(rng)
    T = scn.turns
    ngs = [len(next(iter(s.fire.values())).guns) for s in sides]
    xs = [_State.fresh(s, n, ng) for s, ng in zip(sides, ngs, strict=True)]
    dealt_all = np.zeros((2, T, n), np.int64)
    done = {"dead_turn": np.zeros((2, n), np.int64), "cause": np.zeros((2, n), np.int64),
            "out": np.zeros((2, n), np.int64),
            # turn of the first fall / shutdown (0: never), for the per-turn curves
            "fell_turn": np.zeros((2, n), np.int64), "shut_turn": np.zeros((2, n), np.int64)}
    rows = np.arange(n)             # trial index of each local row
    range_all = np.zeros((T, n), np.int64)
    per_trial = scn.per_trial_range
    # each duel's range at the start of the turn (closing with closing_mp=current)
    cur = np.full(n, scn.closing_from, np.int64)
    for t in range(T):
        fight = (xs[0].dead_turn == 0) & (xs[1].dead_turn == 0)
        if not fight.any():
            break
        if fight.sum() < 0.75 * len(fight):
            # finished duels leave the working set: record them, keep only running rows
            _record(done, xs, rows)
            keep = np.flatnonzero(fight)
            xs = [x.take(keep) for x in xs]
            rows = rows[keep]
            fight = fight[keep]
            cur = cur[keep]
            n = len(rows)
        dealt = np.zeros((2, n), np.int64)
        if per_trial:
            closing = cur > 1           # these duels run this turn, the others use `moved`
            modes = [_modes(closing, sides[i].moved) for i in range(2)]
        else:
            closing = None
            modes = [[(scn.moves[t][i], None)] for i in range(2)]
        # range-independent properties (guns, dissipation, rules) from any situation's
        # fire scenario; the weapon to-hit tables per situation below
        base_fs = [sides[i].fire[(scn.ranges[t], scn.moves[t][0], scn.moves[t][1])]
                   for i in range(2)]
        was_out = [x.uncon.copy() for x in xs]     # knocked out before this turn
        # 1 movement
        acts, moved, stood_try, hacts = [], [], [], []
        mvs: list[_Move] = []
        for i in range(2):
            x, s = xs[i], sides[i]
            act = fight & x.alive() & ~x.shut & ~x.uncon
            hact = np.minimum(x.heat, ACTIVE_HEATS - 1)
            tries = act & x.prone & (x.S[:, st.GYRO] < s.layout.gyro_destroyed_at) & (
                sum((x.S[:, st.IS0 + leg] > 0).astype(np.int64) for leg in LEGS) > 0)
            stand_tn = s.piloting + pre_psr(s, x.S)
            ok = tries & (roll2(rng, n) >= stand_tn)
            start_prone = x.prone.copy()
            x.prone &= ~ok
            if comp[i].rules.failed_stand == "fall":   # falls again, from 0 levels
                _fall(rng, s, comp[i], x, tries & ~ok, ch, stand_tn)
            mvi = _move_modes(rng, s, comp[i], x, modes[i], act & ~start_prone,
                              base_fs[i].rules.jump_heat == "rating", scn.physical_rules, ch)
            mvs.append(mvi)
            acts.append(act)
            moved.append(mvi.hexes > 0)
            stood_try.append(tries)
            hacts.append(hact)
        # the range of the turn's attacks, and the fire scenarios of each situation
        situ: list[list[tuple[FireScenario, np.ndarray]]] | None
        r: int | np.ndarray
        if closing is not None:
            cur = np.maximum(cur - mvs[0].hexes - mvs[1].hexes, 1)
            r = cur
            keys = _situation_keys(scn, cur, closing)
            situ = [[(sides[i].fire[k], m) for k, m in keys] for i in range(2)]
            at1 = cur == 1
            any1 = bool(at1.any())
        else:
            r = scn.ranges[t]
            situ = None
            at1 = np.ones(n, bool)
            any1 = r == 1
        fss = base_fs
        range_all[t, rows] = np.where(fight, r, 0)
        # 2 weapon attacks: declare from the state at the start of the phase
        snaps = [_snapshot(sides[i], xs[i].S) for i in range(2)]
        plans = [_declare(sides[i], comp[i], fss[i], xs[i], xs[1 - i], t, acts[i],
                          moved[i], moved[1 - i], hacts[i], r, mvs[i], mvs[1 - i],
                          None if situ is None else situ[i])
                 for i in range(2)]
        declared = [np.zeros(n, np.int64), np.zeros(n, np.int64)]
        if any1 and scn.physical_rules.duel_attacks == "all" and any(
                sides[i].physical != "none" for i in range(2)):
            declared = _declare_physical(rng, scn, comp, xs, fss, plans, mvs, [
                fight & xs[i].alive() & ~xs[i].shut & ~xs[i].uncon & at1 for i in range(2)])
        builds = [mvs[i].heat + comp[i].rules.stand_heat_points * stood_try[i]
                  for i in range(2)]
        phase_dmg = [np.zeros(n, np.int64), np.zeros(n, np.int64)]
        fired_loc = [np.zeros((8, n), bool), np.zeros((8, n), bool)]
        for i in range(2):
            d, heat, floc, ams_heat = _resolve_fire(rng, sides[i], comp[i], fss[i], xs[i],
                                                    sides[1 - i], xs[1 - i], plans[i], ch)
            phase_dmg[1 - i] += d
            dealt[i] += d
            builds[i] = builds[i] + heat
            builds[1 - i] = builds[1 - i] + ams_heat
            fired_loc[i] = floc
        for i in range(2):
            _settle_pilot(xs[i].S)
            _psr_phase(rng, sides[i], comp[i], xs[i], snaps[i], phase_dmg[i], fight, ch)
            _phase_consciousness(rng, comp[i], xs[i])
        # 3 physical attacks (the duels at range 1 only)
        if any1:
            snaps = [_snapshot(sides[i], xs[i].S) for i in range(2)]
            # a 'Mech making a DFA cannot be the target of physical attacks (reference.md 1.3)
            choice = [_choose_physical(sides[i], comp[i], xs[i], sides[1 - i], xs[1 - i],
                                       fight & xs[i].alive() & ~xs[i].shut & ~xs[i].uncon
                                       & (declared[1 - i] != DFA) & at1,
                                       mvs[i], mvs[1 - i], fired_loc[i], fss[i],
                                       scn.physical_rules, "physical", declared[i])
                      for i in range(2)]
            pd = [np.zeros(n, np.int64), np.zeros(n, np.int64)]
            # each side's attack PSR triggers, (count, modifier), in the order the attacks
            # are resolved (side A's, then side B's)
            trig: list[list[tuple[np.ndarray, np.ndarray]]] = [[], []]
            for i in range(2):
                res = _resolve_physical(rng, sides[i], comp[i], xs[i], sides[1 - i],
                                        xs[1 - i], choice[i], ch)
                pd[1 - i] += res["dmg"]
                pd[i] += res["self"]
                dealt[i] += res["dmg"]
                trig[1 - i].append((res["t_psr"], res["t_mod"]))
                trig[i].append((res["s_psr"], res["s_mod"]))
            for i in range(2):
                _settle_pilot(xs[i].S)
                _psr_phase(rng, sides[i], comp[i], xs[i], snaps[i], pd[i], fight & at1, ch,
                           trig[i])
                _phase_consciousness(rng, comp[i], xs[i])
        # 4 heat phase
        for i in range(2):
            _heat_phase(rng, sides[i], comp[i], fss[i], xs[i], builds[i], fight, ch)
        # 5 end phase
        for i in range(2):
            _end_phase(rng, sides[i], comp[i], xs[i], fight, t, was_out[i])
            for key, flag in (("fell_turn", xs[i].fell), ("shut_turn", xs[i].shut_ever)):
                first = flag & (done[key][i, rows] == 0)
                done[key][i, rows[first]] = t + 1
        dealt_all[:, t, rows] = dealt
    _record(done, xs, rows)
    # fell / shut down at least once: the first turn it happened is recorded
    return {**done, "fell": done["fell_turn"] > 0, "shut": done["shut_turn"] > 0,
            "dealt": dealt_all, "range": range_all}


def _record(done: dict[str, np.ndarray], xs: list[_State], rows: np.ndarray) -> None:
    """Write the outcomes of the working rows into the per-trial arrays."""
    for i, x in enumerate(xs):
        done["dead_turn"][i, rows] = x.dead_turn
        done["cause"][i, rows] = x.S[:, st.CAUSE]
        done["out"][i, rows] = x.out


@dataclass
class _Plan:
    fire: np.ndarray      # (ng, n) bool
    tn: np.ndarray        # (ng, n) effective target numbers
    shots: np.ndarray     # (ng, n)


def _pool_ammo(c: _Compiled, x: _State, side: Side) -> np.ndarray:
    usable = st.usable_ammo(x.S, side.layout)
    if not c.pool_bins:
        return np.zeros((0, len(x.S)), np.int64)
    return np.stack([usable[:, b].sum(axis=1) if b else np.zeros(len(x.S), np.int64)
                     for b in c.pool_bins])


def _declare(side: Side, c: _Compiled, fs: FireScenario, x: _State, y: _State, t: int,
             act: np.ndarray, moved: np.ndarray, target_moved: np.ndarray,
             hact: np.ndarray, r: int | np.ndarray, mine: _Move | None = None,
             theirs: _Move | None = None,
             situ: Sequence[tuple[FireScenario, np.ndarray]] | None = None) -> _Plan:
    """Availability, effective target numbers and fire decisions of every gun (12.1).
    ``mine`` / ``theirs``: what both sides did in the movement phase (hexes moved with
    their current MP); the fire model's tables hold the mode's nominal modifiers, replaced
    here per trial. ``r``: the range, one for all rows or one per row; ``situ``: with a
    range per row, (fire scenario, rows) of each distinct situation (range, modes): its
    to-hit tables, nominal modifiers and firing policy serve those rows (``fs`` then only
    gives the guns, the same in every situation); ``None``: ``fs`` serves every row."""
    n = len(act)
    ng = len(fs.guns)
    lost = items_lost(x.S, side.layout, side.gun_item, c.second_crit)
    ammo = _pool_ammo(c, x, side)
    sens = x.S[:, st.SENSORS]
    extra = np.where(sens == 1, 2, 0)
    if situ is None:
        tmm: int | np.ndarray = TH.target_movement_mod(fs.target_hexes, fs.target_jumped,
                                                       fs.rules.fire_tmm_table)
        nominal = fs.move_mod[hact]
    else:
        tmm = np.zeros(n, np.int64)
        nominal = np.zeros(n, np.int64)
        for sfs, m in situ:
            tmm[m] = TH.target_movement_mod(sfs.target_hexes, sfs.target_jumped,
                                            sfs.rules.fire_tmm_table)
            nominal[m] = sfs.move_mod[hact[m]]
    if mine is None or theirs is None:
        extra = extra - np.where(~moved, nominal, 0)
        extra = extra - np.where(target_moved, 0, tmm)
    else:
        extra = extra + mine.mod - nominal
        extra = extra + tmm_of(theirs, fs.rules.fire_tmm_table) - tmm
    extra = extra + np.where(y.prone, np.where(np.asarray(r) <= 1, -2, 1), 0)
    extra = extra - 4 * (y.shut | y.uncon)
    extra = extra + 2 * x.prone
    avail = np.ones((ng, n), bool)
    tn = np.zeros((ng, n), np.int64)
    shots = np.zeros((ng, n), np.int64)
    for g, gun in enumerate(fs.guns):
        it = side.gun_item[g]
        if it >= 0:
            avail[g] &= ~lost[:, g]
        if gun.pool >= 0:
            avail[g] &= ammo[gun.pool] > 0
            shots[g] = np.minimum(ammo[gun.pool], gun.rate)
        else:
            shots[g] = gun.rate
        avail[g] &= ~x.jam[g] & (sens < 2)
        loc = lay.LOC_INDEX.get(gun.location, -1)
        e = extra
        if loc in LEGS:
            avail[g] &= ~x.prone
        if loc in ARMS:
            sh = hits_of(x.S, loc, int(side.act["shoulder"][loc])) > 0
            ul = hits_of(x.S, loc, int(side.act["upper_arm"][loc])) + hits_of(
                x.S, loc, int(side.act["lower_arm"][loc]))
            e = e + np.where(sh, 4, ul)
        # from the uncapped number: the duel's own modifiers may bring a number above 12
        # (nominal movement) back in reach, or push one below 13 out of it
        if situ is None:
            tn[g] = gun.tn_uncapped[0].take(hact) + e
        else:
            for sfs, m in situ:
                tn[g, m] = sfs.guns[g].tn_uncapped[0].take(hact[m])
            tn[g] += e
        avail[g] &= tn[g] <= 12
    if c.rules.prone_fire == "one-arm" and x.prone.any():
        _prop_up(x, c, fs, avail)
    if fs.policy.kind == "all":
        # every weapon in reach fires, by the trial's own numbers (not the nominal tables)
        fire = avail.copy()
    elif situ is None:
        fire = c.decide(fs, t, hact, act, avail, ammo)
    else:
        fire = np.zeros((ng, n), bool)
        for sfs, m in situ:
            idx = np.flatnonzero(m)
            fire[:, idx] = c.decide(sfs, t, hact[idx], act[idx], avail[:, idx], ammo[:, idx])
    fire = fire & avail & act
    return _Plan(fire, tn, shots)


def _prop_up(x: _State, c: _Compiled, fs: FireScenario, avail: np.ndarray) -> None:
    """A prone 'Mech props itself up on one arm (12.1 attacker prone, ``prone_fire``): that
    arm's weapons cannot fire, the one whose available weapons are worth less in expected
    damage per hit (the left arm on a tie); with either arm destroyed it cannot fire at
    all. Changes ``avail`` (guns, n) in place."""
    prone = x.prone
    no_arm = (x.S[:, st.IS0 + lay.LA] == 0) | (x.S[:, st.IS0 + lay.RA] == 0)
    locs = [lay.LOC_INDEX.get(g.location, -1) for g in fs.guns]
    worth = {arm: sum(np.where(avail[g], c.gun_value[g], 0.0) for g in range(len(locs))
                      if locs[g] == arm) for arm in ARMS}
    prop_left = np.asarray(worth[lay.LA] <= worth[lay.RA])
    for g, loc in enumerate(locs):
        if loc == lay.LA:
            avail[g] &= ~(prone & prop_left)
        elif loc == lay.RA:
            avail[g] &= ~(prone & ~prop_left)
    avail &= ~(prone & no_arm)[None, :]


def _ams_free(tside: Side, y: _State) -> np.ndarray | None:
    """(n,) anti-missile systems of the target able to engage this turn (10.3): forward AMS
    mounts not destroyed, at most one per round of AMS ammunition left, none while the
    target is shut down; None when it has no AMS."""
    if not tside.ams_items or tside.ams_pool < 0:
        return None
    working = (~items_lost(y.S, tside.layout, tside.ams_items)).sum(axis=1)
    usable = st.usable_ammo(y.S, tside.layout)
    bins = [b for b, p in enumerate(tside.bin_pool) if p == tside.ams_pool]
    rounds = usable[:, bins].sum(axis=1) if bins else np.zeros(len(y.S), np.int64)
    return np.where(y.shut, 0, np.minimum(working, rounds))


def _use_ams(tside: Side, y: _State, used: np.ndarray) -> None:
    """Take one round of AMS ammunition per engagement from the target's AMS bins, in slot
    order (10.3 ammo feed)."""
    need = used.copy()
    for b, p in enumerate(tside.bin_pool):
        if p != tside.ams_pool:
            continue
        have = np.where(y.S[:, st.IS0 + tside.layout.bins[b][0]] > 0, y.S[:, st.AMMO0 + b], 0)
        take = np.minimum(need, have)
        y.S[:, st.AMMO0 + b] -= take
        need -= take


def _resolve_fire(rng: np.random.Generator, side: Side, c: _Compiled, fs: FireScenario,
                  x: _State, tside: Side, y: _State, plan: _Plan, ch: SampleChooser
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Roll every declared weapon; apply its damage groups to the target. Returns damage
    dealt, weapon heat, the (8, n) locations that fired and the target's AMS heat.

    A target with anti-missile systems (10.3, :func:`_ams_free`) engages, per AMS, one
    missile attack a turn, the most dangerous first (``ams_engages``: of the attacks that
    hit, or of those declared); an engaged attack reads the AMS cluster table (-4, a
    Streak rolls), and each engagement costs the target one round and 1 heat. The to-hit
    rolls are then all drawn before the cluster rolls (without target AMS: in turn)."""
    n = len(x.S)
    dmg = np.zeros(n, np.int64)
    heat = np.zeros(n, np.int64)
    floc = np.zeros((8, n), bool)
    free = _ams_free(tside, y)
    engaged: dict[int, np.ndarray] = {}
    rolls: dict[int, np.ndarray] = {}
    ams_used = np.zeros(n, np.int64)
    if free is not None and c.ams_order:
        for g in range(len(fs.guns)):
            if plan.fire[g].any():
                rolls[g] = roll2(rng, n)
        left = free.copy()
        declared = fs.rules.ams_engages == "declared"
        for g in c.ams_order:
            if g not in rolls:
                continue
            f = plan.fire[g]
            cand = f if declared else f & (rolls[g] >= plan.tn[g])
            eng = cand & (left > 0)
            left -= eng
            engaged[g] = eng
            # ammunition and heat only where it engages an attack that hits
            ams_used += eng & (rolls[g] >= plan.tn[g])
        _use_ams(tside, y, ams_used)
    for g, gun in enumerate(fs.guns):
        f = plan.fire[g]
        if not f.any():
            continue
        loc = lay.LOC_INDEX.get(gun.location, -1)
        if loc >= 0:
            floc[loc] |= f
        s = np.where(f, plan.shots[g], 0)
        roll = rolls[g] if g in rolls else roll2(rng, n)
        hit = f & (roll >= plan.tn[g])
        jam_le = c.jam[g].take(s)
        x.jam[g] |= f & (roll <= jam_le)
        cl = roll2(rng, n)
        k = np.where(hit, c.hits[g][s, cl], 0)
        if g in engaged:
            k = np.where(engaged[g], np.where(hit, c.hits_ams[g][s, cl], 0), k)
        grp = c.grp[g]
        for j in range(grp.shape[2]):
            d = grp[s, k, j]
            m = d > 0
            if m.any():
                _apply_rows(y.S, tside, m, d, "front", ch)
                dmg += d
        used = hit if gun.streak else f
        heat += np.where(used, gun.heat_per_shot * s, 0)
        if gun.pool >= 0:
            need = np.where(used, s, 0)
            for b in c.pool_bins[gun.pool]:
                have = np.where(x.S[:, st.IS0 + side.layout.bins[b][0]] > 0,
                                x.S[:, st.AMMO0 + b], 0)
                take = np.minimum(need, have)
                x.S[:, st.AMMO0 + b] -= take
                need -= take
    return dmg, heat, floc, ams_used * tside.ams_heat


def _arm_punch(side: Side, x: _State, arm: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(usable, TN modifier, halvings) of a punch with ``arm`` (reference.md 1.3; D4 for an
    arm built without lower arm and hand: :func:`.physical.punch_mod`)."""
    S = x.S
    act = side.act
    present = S[:, st.IS0 + arm] > 0
    sh_gone = hits_of(S, arm, int(act["shoulder"][arm])) > 0
    has_sh = int(act["shoulder"][arm]) != 0
    ua = hits_of(S, arm, int(act["upper_arm"][arm])) > 0
    la_missing = int(act["lower_arm"][arm]) == 0
    hand_missing = int(act["hand"][arm]) == 0
    la = (hits_of(S, arm, int(act["lower_arm"][arm])) > 0) | la_missing
    hand = (hits_of(S, arm, int(act["hand"][arm])) > 0) | hand_missing
    usable = present & ~sh_gone & has_sh
    mod = ph.punch_mod(ua, la, hand, la_missing and hand_missing, side.classic)
    halv = ua.astype(np.int64) + la
    return usable, mod, halv


def _leg_kick(side: Side, x: _State, leg: int) -> tuple[np.ndarray, np.ndarray]:
    """(TN modifier, halvings) of a kick with ``leg``."""
    S = x.S
    ul = hits_of(S, leg, int(side.act["upper_leg"][leg])) > 0
    ll = hits_of(S, leg, int(side.act["lower_leg"][leg])) > 0
    foot = hits_of(S, leg, int(side.act["foot"][leg])) > 0
    return (2 * ul + 2 * ll + foot).astype(np.int64), ul.astype(np.int64) + ll


@dataclass
class _Move:
    """What a side did in the movement phase, per trial."""

    hexes: np.ndarray       # hexes moved (0: stood still)
    mod: np.ndarray         # attacker movement modifier (reference.md 1.2.1)
    jumped: np.ndarray      # bool
    heat: np.ndarray        # movement heat (13.2)

    @classmethod
    def still(cls, n: int) -> _Move:
        z = np.zeros(n, np.int64)
        return cls(z, z.copy(), np.zeros(n, bool), z.copy())


def _current_mp(side: Side, x: _State, rules: ClassicPhysicalRules
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Walking, running and jumping MP of every trial from its damage and heat (14.3, 13.1;
    :mod:`.physical`)."""
    S = x.S
    legs_gone = sum((S[:, st.IS0 + leg] == 0).astype(np.int64) for leg in LEGS)
    hips = np.zeros(len(S), np.int64)
    acts = np.zeros(len(S), np.int64)
    for leg in LEGS:
        ok = S[:, st.IS0 + leg] > 0
        hip = ok & (hits_of(S, leg, int(side.act["hip"][leg])) > 0)
        hips += hip
        other = hits_of(S, leg, int(side.act["upper_leg"][leg] | side.act["lower_leg"][leg]
                                    | side.act["foot"][leg]))
        acts += np.where(ok & ~hip, other, 0)
    walk = ph.walk_mp(side.walk, legs_gone, hips, acts, x.heat, rules.hip_mp_rounding)
    run = ph.run_mp(walk, legs_gone)
    jets = np.zeros(len(S), np.int64)
    if side.jump:
        for loc in range(8):
            m = int(side.jet_masks[loc]) if side.jet_masks else 0
            if m:
                jets += np.where(S[:, st.IS0 + loc] == 0, st.POP[m], hits_of(S, loc, m))
    jump = ph.jump_mp(side.jump, jets, x.heat, rules.heat_reduces_jump)
    return walk, run, jump


#: movement heat (13.2) by attacker movement modifier: stood 0, walked 1, ran 2 (a jump's heat
#: is :func:`sim.classic.fire.heat.movement_heat` of its hexes)
_MOVE_HEAT_BY_MOD = np.array([H.MOVE_HEAT["stand"], H.MOVE_HEAT["walk"], H.MOVE_HEAT["run"], 0],
                             np.int64)


def _movement(rng: np.random.Generator, side: Side, c: _Compiled, x: _State, mode: str,
              mover: np.ndarray, jump_rating_heat: bool, rules: ClassicPhysicalRules,
              ch: SampleChooser) -> _Move:
    """Movement of the trials ``mover`` in ``mode`` with the MP they have now (14.3, 13.1),
    its heat (13.2, C13) and the PSR for running with a damaged gyro or hip or jumping with
    a damaged gyro or leg (reference 15; option ``move_damage_psr``)."""
    if mode == "stand" or not mover.any():
        return _Move.still(len(mover))
    walk, run, jump = _current_mp(side, x, rules)
    hexes, mod, jumped = ph.move_of(mode, walk, run, jump)
    hexes = np.where(mover, hexes, 0)
    mod = np.where(mover, mod, 0)
    jumped = jumped & mover & (hexes > 0)
    jh = np.full_like(hexes, side.jump) if jump_rating_heat else hexes
    heat = np.where(jumped, np.maximum(H.movement_heat("jump"), jh),
                    _MOVE_HEAT_BY_MOD[mod]).astype(np.int64)
    if rules.move_damage_psr and mode in ("run", "jump"):
        S = x.S
        gyro = _loud_gyro(side, S) > 0
        hip = sum(hits_of(S, leg, int(side.act["hip"][leg])) for leg in LEGS) > 0
        if mode == "run":
            need = (mod == 2) & (gyro | hip)
        else:
            legs = _leg_events(side, S) > 0
            gone = sum((S[:, st.IS0 + leg] == 0).astype(np.int64) for leg in LEGS) > 0
            need = jumped & (gyro | legs | gone)
        need &= ~x.prone & x.alive()
        if need.any():
            tn = side.piloting + pre_psr(side, S)
            fail = need & (roll2(rng, len(need)) < tn)
            _fall(rng, side, c, x, fail, ch, tn)
    return _Move(hexes.astype(np.int64), mod.astype(np.int64), jumped, heat)


def _modes(closing: np.ndarray, moved: str) -> list[tuple[str, np.ndarray | None]]:
    """Movement mode of one side per row under a per-duel range (closing, ``closing_mp=
    current``): ``run`` where ``closing`` (the duel's range is above 1 at the start of the
    turn), its ``moved`` mode elsewhere; as (mode, rows) groups, ``None`` for all rows."""
    if moved == "run" or closing.all():
        return [("run", None)]
    if not closing.any():
        return [(moved, None)]
    return [("run", closing), (moved, ~closing)]


def _move_modes(rng: np.random.Generator, side: Side, c: _Compiled, x: _State,
                modes: Sequence[tuple[str, np.ndarray | None]], mover: np.ndarray,
                jump_rating_heat: bool, rules: ClassicPhysicalRules,
                ch: SampleChooser) -> _Move:
    """:func:`_movement` of each (mode, rows) group of :func:`_modes` (``None``: all rows;
    one group is one plain call), merged: the groups are disjoint and a row outside its
    group's movers moves 0 hexes with no modifier or heat, so the parts add up."""
    if len(modes) == 1:
        return _movement(rng, side, c, x, modes[0][0], mover, jump_rating_heat, rules, ch)
    out = _Move.still(len(mover))
    for mode, rows in modes:
        part = _movement(rng, side, c, x, mode, mover if rows is None else mover & rows,
                         jump_rating_heat, rules, ch)
        out = _Move(out.hexes + part.hexes, out.mod + part.mod, out.jumped | part.jumped,
                    out.heat + part.heat)
    return out


def _situation_keys(scn: DuelScenario, r: np.ndarray, closing: np.ndarray
                    ) -> list[tuple[tuple[int, str, str], np.ndarray]]:
    """The distinct situations (range, move A, move B) of a turn with a range per duel, and
    their rows: (``r``, run, run) where the duel closed in (``closing``), (1, ``moved_a``,
    ``moved_b``) where it was already adjacent. A handful of keys: the loop is over them."""
    code = np.where(closing, r, 0)
    out: dict[tuple[int, str, str], np.ndarray] = {}
    for k in np.unique(code).tolist():
        key = (k, "run", "run") if k > 0 else (1, scn.a.moved, scn.b.moved)
        m = code == k
        out[key] = out[key] | m if key in out else m
    return list(out.items())


#: TMM by hexes moved 0..99 per table (reference.md 1.2.2, D16).
_TMM = {tb: np.array([TH.target_movement_mod(h, False, tb) for h in range(100)], np.int64)
        for tb in ("tw", "old")}


def tmm_of(m: _Move, table: str) -> np.ndarray:
    """(n,) target movement modifier of a side that moved ``m``."""
    return _TMM[table][np.minimum(m.hexes, 99)] + m.jumped


@dataclass
class _Physical:
    kind: np.ndarray            # NONE .. DFA (physical.KINDS)
    punch_tn: np.ndarray        # (2, n) per arm (13: not used)
    punch_dmg: np.ndarray       # (2, n)
    kick_tn: np.ndarray
    kick_dmg: np.ndarray
    tn: dict[int, np.ndarray] = field(default_factory=dict)    # HATCHET..DFA: (n,)
    dmg: dict[int, np.ndarray] = field(default_factory=dict)
    value: dict[int, np.ndarray] = field(default_factory=dict)


def _psr_fail(side: Side, x: _State, mod: int, pre: np.ndarray) -> np.ndarray:
    """(n,) P(``side`` fails a PSR at +``mod`` now, ``pre`` its pre-existing modifiers); 1
    when it cannot keep its balance (shut down or unconscious, D22 ``auto-fail``)."""
    q = 1.0 - ph.p_hit(side.piloting + pre + mod)
    if side.classic.immobile_psr != "auto-fail":
        return q
    return np.where(x.shut | x.uncon, 1.0, q)


def _choose_physical(side: Side, c: _Compiled, x: _State, tside: Side, y: _State,
                     can: np.ndarray, mine: _Move, theirs: _Move, fired: np.ndarray,
                     fs: FireScenario, rules: ClassicPhysicalRules, stage: str = "physical",
                     declared: np.ndarray | None = None, e_fire: np.ndarray | None = None
                     ) -> _Physical:
    """Legal physical attacks of every trial (reference.md 1.3) with their target numbers,
    damage and ``best`` values (:mod:`.physical`), and the policy's choice.

    ``stage`` "declare" (movement phase, before weapon fire): only charge / DFA can be chosen
    (the declaration; they cost the turn's weapon fire ``e_fire``); "physical": the other
    attacks, and the ``declared`` charge / DFA where still possible."""
    n = len(can)
    allk = rules.duel_attacks == "all"
    can = can & ~x.prone & y.alive()
    immobile = y.shut | y.uncon
    common = tmm_of(theirs, fs.rules.fire_tmm_table) - 2 * y.prone - 4 * immobile
    base = side.piloting + mine.mod + common
    standing_t = ~y.prone
    ptn = np.full((2, n), 13, np.int64)
    pdmg = np.zeros((2, n), np.int64)
    crules = side.classic
    no_punch = ph.barred(PUNCH, side.mech.quirks, crules)     # D21 quirks (no_arms)
    for j, arm in enumerate(ARMS):
        ok, mod, halv = _arm_punch(side, x, arm)
        ok &= can & ~fired[arm] & standing_t & (not no_punch)
        ptn[j] = np.where(ok, base + ph.BASE[PUNCH] + mod, 13)
        pdmg[j] = ph.punch_damage(side.tons, halv, crules)
    hips_ok = sum(hits_of(x.S, leg, int(side.act["hip"][leg])) for leg in LEGS) == 0
    legs_ok = (x.S[:, st.IS0 + lay.LL] > 0) & (x.S[:, st.IS0 + lay.RL] > 0)
    kick_ok = can & hips_ok & legs_ok
    ktn = np.full(n, 13, np.int64)
    kdmg = np.zeros(n, np.int64)
    for leg in LEGS:
        mod, halv = _leg_kick(side, x, leg)
        tn = np.where(kick_ok & ~fired[leg], base + ph.BASE[KICK] + mod, 13)
        better = tn < ktn
        ktn = np.where(better, tn, ktn)
        kdmg = np.where(better, ph.kick_damage(side.tons, halv, crules), kdmg)
    tns: dict[int, np.ndarray] = {}
    dmgs: dict[int, np.ndarray] = {}
    # physical weapon (reference.md 1.3 hatchet): its arm's shoulder and hand intact
    htn = np.full(n, 13, np.int64)
    if allk and side.hatchet[0] >= 0:
        item, arm = side.hatchet
        ok = can & standing_t & ~fired[arm] & (x.S[:, st.IS0 + arm] > 0)
        ok &= ~items_lost(x.S, side.layout, (item,))[:, 0]
        for a in ("shoulder", "hand"):
            m = int(side.act[a][arm])
            ok &= (hits_of(x.S, arm, m) == 0) if m else np.zeros(n, bool)
        ua = hits_of(x.S, arm, int(side.act["upper_arm"][arm])) > 0
        la = hits_of(x.S, arm, int(side.act["lower_arm"][arm])) > 0
        aim = ph.hatchet_aim(crules)[1]                        # D11 aimed swing
        htn = np.where(ok, base + ph.BASE[HATCHET] + 2 * ua + 2 * la + aim, 13)
    tns[HATCHET] = htn
    dmgs[HATCHET] = np.full(n, ph.hatchet_damage(side.tons, crules), np.int64)
    # push: both arms present with shoulders (a destroyed one +2), none fired, target standing
    push_ok = can & standing_t & np.asarray(allk)
    sh_mod = np.zeros(n, np.int64)
    for arm in ARMS:
        m = int(side.act["shoulder"][arm])
        push_ok &= (x.S[:, st.IS0 + arm] > 0) & ~fired[arm] & (m != 0)
        sh_mod += 2 * (hits_of(x.S, arm, m) > 0)
    tns[PUSH] = np.where(push_ok, base + ph.BASE[PUSH] + sh_mod, 13)
    dmgs[PUSH] = np.zeros(n, np.int64)
    # charge (walked or ran into the target) and DFA (jumped onto it)
    diff = side.piloting - tside.piloting
    cok = can & standing_t & (mine.hexes > 0) & ~mine.jumped & np.asarray(allk)
    dok = can & mine.jumped & np.asarray(allk)
    if stage == "physical":
        decl = np.zeros(n, np.int64) if declared is None else declared
        cok &= decl == CHARGE
        dok &= decl == DFA
    tns[CHARGE] = np.where(cok, base + diff + ph.BASE[CHARGE], 13)
    # h = hexes moved not counting the target's hex (reference.md 2): the side moved all
    # its hexes and the last one is the hex it charges into
    dmgs[CHARGE] = ph.charge_damage(side.tons, np.maximum(mine.hexes - 1, 0))
    tns[DFA] = np.where(dok, side.piloting + common + diff + ph.BASE[DFA], 13)
    dmgs[DFA] = np.full(n, ph.dfa_damage(side.tons, crules), np.int64)
    # values (module docstring of .physical)
    if not allk:
        for k in (HATCHET, PUSH, CHARGE, DFA):
            tns[k] = np.full(n, 13, np.int64)
    # a prone target makes no PSR and cannot be knocked down again (reference.md 4.1-4.3)
    knock = np.where(y.prone, 0.0, ph.knock_value(rules.knockdown_value, tside.tons,
                                                  side.tons, crules))
    pre_s, pre_t = pre_psr(side, x.S), pre_psr(tside, y.S)
    own_fall = float(c.fall_damage)
    vals: dict[int, np.ndarray] = {}
    vals[PUNCH] = (ph.p_hit(ptn) * pdmg).sum(axis=0)
    pk = ph.p_hit(ktn)
    vals[KICK] = ph.value(pk, kdmg, _psr_fail(tside, y, ph.PSR_ON_TARGET[KICK], pre_t), knock,
                          ph.kick_fall_risk(pk, 1.0 - _psr_fail(side, x, P_MISSED_KICK, pre_s),
                                            c.fall_damage))
    vals[HATCHET] = ph.p_hit(tns[HATCHET]) * dmgs[HATCHET]
    vals[PUSH] = ph.value(ph.p_hit(tns[PUSH]), 0, _psr_fail(tside, y, ph.PSR_ON_TARGET[PUSH], pre_t),
                          knock)
    pc = ph.p_hit(tns[CHARGE])
    vals[CHARGE] = ph.value(pc, dmgs[CHARGE], _psr_fail(tside, y, ph.PSR_ON_TARGET[CHARGE], pre_t),
                            knock, pc * (ph.D.charge_self(tside.tons) + own_fall * _psr_fail(
                                side, x, ph.PSR_ON_SELF_HIT[CHARGE], pre_s)))
    pd_ = ph.p_hit(tns[DFA])
    vals[DFA] = ph.value(pd_, dmgs[DFA], _psr_fail(tside, y, ph.PSR_ON_TARGET[DFA], pre_t), knock,
                         pd_ * (ph.D.dfa_self(side.tons) + own_fall * _psr_fail(
                             side, x, ph.PSR_ON_SELF_HIT[DFA], pre_s))
                         + (1.0 - pd_) * ph.fall_damage(side.tons, ph.DFA_MISS_LEVELS))
    ef = np.zeros(n) if e_fire is None else e_fire
    legal = {PUNCH: (ptn <= 12).any(axis=0), KICK: ktn <= 12,
             **{k: tns[k] <= 12 for k in (HATCHET, PUSH, CHARGE, DFA)}}
    melee = (PUNCH, KICK, HATCHET, PUSH)
    pol = side.physical
    if pol == "none":
        kind = np.zeros(n, np.int64)
    elif callable(pol):
        info: dict[str, Any] = {"stage": stage, "e_fire": ef, "punch_tn": ptn,
                                "kick_tn": ktn, "declared": declared}
        for k in (PUNCH, KICK, HATCHET, PUSH, CHARGE, DFA):
            info[f"e_{ph.KINDS[k]}"] = np.where(legal[k], vals[k], 0.0)
            if k not in (PUNCH, KICK):
                info[f"{ph.KINDS[k]}_tn"] = tns[k]
        kind = ph.policy_choice(pol(info), n, side.label)
    else:
        best_v = np.zeros(n)
        kind = np.zeros(n, np.int64)
        for k in melee:
            better = legal[k] & (vals[k] > best_v)
            kind = np.where(better, k, kind)
            best_v = np.where(better, vals[k], best_v)
        if stage == "declare":
            alt = ef + best_v
            kind = np.zeros(n, np.int64)
            best_v = alt
            for k in (CHARGE, DFA):
                better = legal[k] & (vals[k] > best_v)
                kind = np.where(better, k, kind)
                best_v = np.where(better, vals[k], best_v)
    if stage == "declare":
        kind = np.where(np.isin(kind, (CHARGE, DFA)), kind, NONE)
    else:
        kind = np.where(np.isin(kind, (CHARGE, DFA)), NONE, kind)
        if declared is not None:
            kind = np.where(np.isin(declared, (CHARGE, DFA)), declared, kind)
    ok = np.zeros(n, bool)
    for k, lg in legal.items():
        ok |= (kind == k) & lg
    kind = np.where(ok, kind, NONE)
    return _Physical(kind, ptn, pdmg, ktn, kdmg, tns, dmgs, vals)


#: Missed-kick PSR modifier (reference.md 4.2).
P_MISSED_KICK = ph.P.MISSED_KICK


def _expected_fire(c: _Compiled, fs: FireScenario, plan: _Plan) -> np.ndarray:
    """(n,) expected weapon damage of a fire plan: P(hit) x mean damage given a hit."""
    out = np.zeros(plan.fire.shape[1])
    got = _MEANS.get(id(c))
    if got is None or got[0] is not c:
        got = _MEANS[id(c)] = (c, [ph.mean_gun_damage(c.hits[g], c.grp[g])
                                   for g in range(len(c.hits))])
    for g, mean in enumerate(got[1]):
        if plan.fire[g].any():
            out += np.where(plan.fire[g], ph.p_hit(plan.tn[g]) * mean[plan.shots[g]], 0.0)
    return out


#: Expected damage given a hit, by shots, of each gun of a compiled side (by id, with the
#: side kept to check identity).
_MEANS: dict[int, tuple[_Compiled, list[np.ndarray]]] = {}


def _planned_locations(fs: FireScenario, plan: _Plan) -> np.ndarray:
    """(8, n) locations with a weapon the plan fires."""
    floc = np.zeros((8, plan.fire.shape[1]), bool)
    for g, gun in enumerate(fs.guns):
        loc = lay.LOC_INDEX.get(gun.location, -1)
        if loc >= 0:
            floc[loc] |= plan.fire[g]
    return floc


def _best_melee(p: _Physical) -> np.ndarray:
    """(n,) value of the best legal punch / kick / hatchet / push (0 when none)."""
    legal = {PUNCH: (p.punch_tn <= 12).any(axis=0), KICK: p.kick_tn <= 12,
             HATCHET: p.tn[HATCHET] <= 12, PUSH: p.tn[PUSH] <= 12}
    best = np.zeros(len(p.kind))
    for k, lg in legal.items():
        best = np.maximum(best, np.where(lg, p.value[k], 0.0))
    return best


def _declare_physical(rng: np.random.Generator, scn: DuelScenario,
                      comp: Sequence[_Compiled], xs: Sequence[_State],
                      fss: Sequence[FireScenario], plans: Sequence[_Plan],
                      mvs: Sequence[_Move], can: Sequence[np.ndarray]) -> list[np.ndarray]:
    """What each side commits to at range 1 before weapon fire (reference.md 1.3; the rule
    for choosing is :mod:`.physical`'s), per trial, the best of:

    A. fire as planned, then the best physical attack with the limbs that did not fire;
    B. (``best`` only) hold the weapons of one arm or both (:data:`ARM_SETS`) for a punch,
       hatchet or push: fire the rest;
    C. declare a charge / DFA and fire nothing.

    Values: expected weapon damage + the physical attack's value; the first strictly larger
    wins. B clears those arms' guns from the plan, C the whole plan. A charging or DFA-ing 'Mech cannot be charged or DFA'd
    itself: if both declare, a 1D2 initiative roll keeps one. Returns the declarations."""
    sides = scn.sides
    rules = scn.physical_rules
    out, holds = [], []
    for i in range(2):
        s, fs, plan = sides[i], fss[i], plans[i]
        planned = _planned_locations(fs, plan)
        e_all = _expected_fire(comp[i], fs, plan)
        p = _choose_physical(s, comp[i], xs[i], sides[1 - i], xs[1 - i], can[i], mvs[i],
                             mvs[1 - i], planned, fs, rules, "declare", None, e_all)
        n = len(e_all)
        hold = np.full(n, -1, np.int64)           # index into ARM_SETS, -1: hold nothing
        if s.physical == "best" and planned[list(ARMS)].any():
            v_a = e_all + _best_melee(p)
            best = v_a.copy()
            for j, arms in enumerate(ARM_SETS):
                if not planned[list(arms)].any():
                    continue
                kept = _Plan(plan.fire.copy(), plan.tn, plan.shots)
                kept.fire[_guns_in(fs, arms)] = False
                loose = planned.copy()
                loose[list(arms)] = False
                e_kept = _expected_fire(comp[i], fs, kept)
                q = _choose_physical(s, comp[i], xs[i], sides[1 - i], xs[1 - i], can[i],
                                     mvs[i], mvs[1 - i], loose, fs, rules, "declare", None,
                                     e_kept)
                v_b = e_kept + _best_melee(q)
                hold = np.where(v_b > best, j, hold)
                best = np.maximum(best, v_b)
            cd = np.where(p.kind > 0, np.choose(np.clip(p.kind - CHARGE, 0, 1),
                                                [p.value[CHARGE], p.value[DFA]]), -np.inf)
            p.kind = np.where((p.kind > 0) & (cd > best), p.kind, NONE)
            hold = np.where(p.kind == NONE, hold, -1)
        out.append(p.kind)
        holds.append(hold)
    both = (out[0] > 0) & (out[1] > 0)
    if both.any():
        first = rng.integers(0, 2, size=len(both)) == 0
        out[0] = np.where(both & ~first, NONE, out[0])
        out[1] = np.where(both & first, NONE, out[1])
    for i in range(2):
        plans[i].fire &= ~(out[i] > 0)[None, :]
        for j, arms in enumerate(ARM_SETS):
            m = holds[i] == j
            if m.any():
                plans[i].fire[_guns_in(fss[i], arms)] &= ~m[None, :]
    return out


#: Arms whose weapons ``best`` may hold for a physical attack, in tie-break order.
ARM_SETS: tuple[tuple[int, ...], ...] = ((lay.LA,), (lay.RA,), (lay.LA, lay.RA))


def _guns_in(fs: FireScenario, locs: tuple[int, ...]) -> list[int]:
    """Guns of ``fs`` mounted in the locations ``locs``."""
    return [g for g, gun in enumerate(fs.guns) if lay.LOC_INDEX.get(gun.location, -1) in locs]


def _groups_to(S: np.ndarray, side: Side, mask: np.ndarray, total: np.ndarray,
               where: str | np.ndarray, ch: SampleChooser, rng: np.random.Generator,
               table: np.ndarray | None = None) -> None:
    """Apply ``total`` in 5-point groups (reference.md 2.1) to the rows ``mask``: each group
    on the standard table column ``where`` or, with ``table`` (a 1D6 table), rolled there."""
    for g in ph.groups(np.where(mask, total, 0)):
        m = mask & (g > 0)
        if not m.any():
            continue
        if table is not None:
            _apply_rows(S, side, m, g, table[d6(rng, len(m))], ch)
        else:
            _apply_rows(S, side, m, g, where, ch)


def _resolve_physical(rng: np.random.Generator, side: Side, c: _Compiled, x: _State,
                      tside: Side, y: _State, p: _Physical, ch: SampleChooser
                      ) -> dict[str, np.ndarray]:
    """Roll the chosen attack and apply its damage (reference.md 2-4): punches (punch table),
    kick (kick table; a prone target: standard table), hatchet (standard), push (no damage),
    charge (5-point groups on the standard table, the charger takes ceil(T/10) the same way),
    DFA (groups on the punch table, a prone target's rear on the standard table; the attacker
    takes ceil(W/5) on its kick table, or falls 2 levels onto its rear on a miss). Returns
    damage dealt ``dmg`` and taken ``self``, PSR triggers and their situational modifiers for
    the target (``t_psr``, ``t_mod``) and the attacker (``s_psr``, ``s_mod``)."""
    n = len(p.kind)
    dmg = np.zeros(n, np.int64)
    zero = np.zeros(n, np.int64)
    out = {"self": zero.copy(), "t_psr": zero.copy(), "t_mod": zero.copy(),
           "s_psr": zero.copy(), "s_mod": zero.copy()}
    for j in range(2):
        hit = (p.kind == PUNCH) & (p.punch_tn[j] <= 12) & (roll2(rng, n) >= p.punch_tn[j])
        loc = ph.PUNCH_FRONT[d6(rng, n)]
        m = hit & (p.punch_dmg[j] > 0)
        _apply_rows(y.S, tside, m, p.punch_dmg[j], loc, ch)
        dmg += np.where(m, p.punch_dmg[j], 0)
    kick = p.kind == KICK
    khit = kick & (roll2(rng, n) >= p.kick_tn)
    loc = ph.KICK_FRONT[d6(rng, n)]
    m = khit & (p.kick_dmg > 0)
    _apply_rows(y.S, tside, m & ~y.prone, p.kick_dmg, loc, ch)
    _apply_rows(y.S, tside, m & y.prone, p.kick_dmg, "front", ch)
    dmg += np.where(m, p.kick_dmg, 0)
    out["t_psr"] += khit
    out["s_psr"] += kick & ~khit
    if p.tn:
        hits = {k: (p.kind == k) & (roll2(rng, n) >= p.tn[k]) for k in (HATCHET, PUSH, CHARGE,
                                                                         DFA)}
        m = hits[HATCHET]
        aimed = ph.hatchet_aim(side.classic)[0]           # D11: the punch or kick table
        _apply_rows(y.S, tside, m, p.dmg[HATCHET], "front" if aimed is None
                    else aimed[d6(rng, n)], ch)
        dmg += np.where(m, p.dmg[HATCHET], 0)
        out["t_psr"] += hits[PUSH]
        for k in (CHARGE, DFA):
            h = hits[k]
            out["t_psr"] += h
            out["t_mod"] += np.where(h, ph.PSR_ON_TARGET[k], 0)
            out["s_psr"] += h
            out["s_mod"] += np.where(h, ph.PSR_ON_SELF_HIT[k], 0)
            dmg += np.where(h, p.dmg[k], 0)
        h = hits[CHARGE]
        if h.any():
            _groups_to(y.S, tside, h, p.dmg[CHARGE], "front", ch, rng)
            own = np.full(n, ph.D.charge_self(tside.tons), np.int64)
            _groups_to(x.S, side, h, own, "front", ch, rng)
            out["self"] += np.where(h, own, 0)
        h = hits[DFA]
        if h.any():
            _groups_to(y.S, tside, h & ~y.prone, p.dmg[DFA], "front", ch, rng,
                       ph.PUNCH_FRONT)
            _groups_to(y.S, tside, h & y.prone, p.dmg[DFA], "rear", ch, rng)
            own = np.full(n, ph.D.dfa_self(side.tons), np.int64)
            _groups_to(x.S, side, h, own, "front", ch, rng, ph.KICK_FRONT)
            out["self"] += np.where(h, own, 0)
        miss = (p.kind == DFA) & ~hits[DFA] & x.alive()
        if miss.any():
            _dfa_miss_fall(rng, side, x, miss, ch)
    out["dmg"] = dmg
    return out


def _dfa_miss_fall(rng: np.random.Generator, side: Side, x: _State, mask: np.ndarray,
                   ch: SampleChooser) -> None:
    """A missed DFA (reference.md 4.3): an automatic fall of 2 levels onto the rear column,
    ceil(W/10) x 3 in 5-point groups; the pilot avoids 1 damage at Piloting + pre-existing +
    2 (D10 ``tw``) or + 1 (``megamek``), automatic when unconscious or shut down."""
    n = len(mask)
    x.prone |= mask
    x.fell |= mask
    total = np.full(n, ph.fall_damage(side.tons, ph.DFA_MISS_LEVELS), np.int64)
    _groups_to(x.S, side, mask, total, "rear", ch, rng)
    tn = ph.fall_pilot_tn(side.piloting, pre_psr(side, x.S), ph.DFA_MISS_LEVELS, None, True,
                          side.classic)
    _pilot_roll(rng, side, x, mask & x.alive(), tn)


def _heat_phase(rng: np.random.Generator, side: Side, c: _Compiled, fs: FireScenario,
                x: _State, build: np.ndarray, fight: np.ndarray, ch: SampleChooser) -> None:
    """13.4 for one side (rows of ``fight`` whose 'Mech is alive)."""
    n = len(build)
    live = fight & x.alive()
    rules = c.rules
    # C22: engine-critical heat only while running (MegaMek) or always
    eng = 5 * np.minimum(x.S[:, st.ENGINE], 2)
    if not rules.engine_heat_while_shutdown:
        eng = np.where(x.shut, 0, eng)
    build = np.where(live, build + eng, 0)
    lost_sinks = np.zeros(n, np.int64)
    if side.sink_items:
        lost_sinks = items_lost(x.S, side.layout, side.sink_items).sum(axis=1)
    diss = np.maximum(fs.dissipation - side.sink_per * lost_sinks, 0)
    h = x.heat + build
    h = np.where(live, h - np.minimum(h, diss), x.heat)
    x.heat = h
    row = np.minimum(h, H.HEAT_TOP)
    roll = roll2(rng, n)
    # C2: restart here (heat) or in the next turn's end phase; C12 unconscious pilot
    restart = live & _can_restart(x, row, roll, rules) & (rules.restart_phase == "heat")
    # C3: the TacOps piloting-based roll applies to avoiding shutdown only, never to restart
    avoid_go = H.shutdown_avoid(row, fs.rules.tacops_shutdown, side.piloting)
    goes = live & ~x.shut & (row >= 14) & ((row >= H.AUTO_SHUTDOWN) | x.uncon
                                           | (roll < avoid_go))
    # the +3 PSR on shutdown is rolled before the 'Mech counts as shut down
    standing = goes & ~x.prone
    tn = side.piloting + pre_psr(side, x.S) + 3
    helpless = x.uncon if side.classic.immobile_psr == "auto-fail" else np.zeros(n, bool)
    falls = standing & (helpless | (roll2(rng, n) < tn))
    x.shut = (x.shut & ~restart) | goes
    x.shut_ever |= goes
    x.shut_now = goes
    _fall(rng, side, c, x, falls, ch, tn)
    # ammunition explosion (C8: most damage per round, then most rounds)
    if side.layout.bins:
        boom = live & x.alive() & (roll2(rng, n) < H.AMMO_AVOID[row])
        if not fs.rules.explosion_while_shutdown:   # C27: no check while shut down
            boom &= ~x.shut
        if boom.any():
            usable = st.usable_ammo(x.S, side.layout)
            per = np.array([b[2] if b[3] else 0 for b in side.layout.bins], np.int64)
            score = np.where((usable > 0) & (per > 0), per * 100000 + usable, -1)
            which = np.argmax(score, axis=1)
            has = score[np.arange(n), which] >= 0
            for b in range(len(side.layout.bins)):
                m = boom & has & (which == b)
                if m.any():
                    idx = np.flatnonzero(m)
                    sub, _ = explode(x.S[idx], np.ones(idx.size), side.dm, b,
                                     np.ones(idx.size, bool), ch)
                    _write_back(x.S, idx, sub)
    # life support (C1: by default 1 from heat 15, 2 from 25)
    ls = live & x.alive() & (x.S[:, st.LIFE] > 0)
    x.S[ls, st.PILOT] += rules.life_support_damage(row[ls])
    _settle_pilot(x.S)
    _phase_consciousness(rng, c, x)


def outcomes(da: np.ndarray, db: np.ndarray, T: int) -> tuple[np.ndarray, ...]:
    """(A wins, B wins, draw, timeout, the turn it ended) from each side's turn of
    destruction or leaving the fight (0 = never): the side down first loses, both in the
    same turn is a draw, neither within ``T`` turns a timeout."""
    a_dead, b_dead = da > 0, db > 0
    draw = a_dead & b_dead & (da == db)
    win_a = b_dead & (~a_dead | (db < da))
    win_b = a_dead & (~b_dead | (da < db))
    timeout = ~a_dead & ~b_dead
    end = np.where(timeout, T, np.where(a_dead & b_dead, np.minimum(da, db),
                                        np.maximum(da, db)))
    return win_a, win_b, draw, timeout, end


def summarize(scn: DuelScenario, out: dict[str, Any]) -> Aggregate:
    """Aggregate of the declared metrics from :func:`run_block` outcomes."""
    T = scn.turns
    dt = out["dead_turn"]
    n = dt.shape[1]
    agg = Aggregate(n)
    da, db = dt[0], dt[1]
    a_dead, b_dead = da > 0, db > 0
    win_a, win_b, draw, timeout, end = outcomes(da, db, T)
    for name, v in (("p_win_a", win_a), ("p_win_b", win_b), ("p_draw", draw),
                    ("p_timeout", timeout), ("p_fell_a", out["fell"][0]),
                    ("p_fell_b", out["fell"][1]), ("p_shutdown_by_a", out["shut"][0]),
                    ("p_shutdown_by_b", out["shut"][1])):
        agg.add_mean(name, v)
    agg.add_mean("expected_turns", end)
    for j, s in enumerate("ab"):
        for ci, cause in enumerate(st.CAUSES[1:], start=1):
            agg.add_mean(f"p_{s}_destroyed_by_{cause}", (out["cause"][j] == ci) & (dt[j] > 0))
        for oi, reason in enumerate(OUT_REASONS[1:], start=1):
            agg.add_mean(f"p_{s}_out_by_{reason}", out["out"][j] == oi)
    turns = np.arange(1, T + 1)[:, None]
    agg.add_mean("p_a_destroyed_by", a_dead[None, :] & (da[None, :] <= turns))
    agg.add_mean("p_b_destroyed_by", b_dead[None, :] & (db[None, :] <= turns))
    for j, s in enumerate("ab"):
        for key, name in (("shut_turn", f"p_{s}_shutdown_by"), ("fell_turn", f"p_{s}_fell_by")):
            first = out[key][j]
            agg.add_mean(name, (first[None, :] > 0) & (first[None, :] <= turns))
    agg.add_mean("expected_damage_a", out["dealt"][0])
    agg.add_mean("expected_damage_b", out["dealt"][1])
    # mean range of the duels still running in each turn (a closing duel's own range)
    agg.add_mean("expected_range", out["range"], where=out["range"] > 0)
    agg.add_mean("expected_damage_total_a", out["dealt"][0].sum(axis=0))
    agg.add_mean("expected_damage_total_b", out["dealt"][1].sum(axis=0))
    agg.add_hist("turns_hist", end, T + 1)
    return agg
