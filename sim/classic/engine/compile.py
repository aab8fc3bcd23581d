"""Flatten a validated :class:`~sim.classic.duel.scenario.DuelScenario` into the plain NumPy
arrays the compiled engine reads (no numba here: importing this module is cheap).

Every rule number comes from its one declaration, evaluated here into a table: hit tables
(:mod:`sim.classic.tables`), heat tables (:mod:`sim.classic.fire.heat`), attack bases and PSR
modifiers (:mod:`sim.classic.attacks` through :mod:`sim.classic.duel.physical`), damage
formulas (:mod:`sim.classic.damage` under the duel's ``ClassicRules``), the slot layout and
damage model (:mod:`sim.classic.damage_state`), and the weapons' base target numbers by heat,
cluster and group tables (the fire model's ``FireScenario`` per situation). The kernel holds
no rule constant of its own; an option is an int in :data:`RULES`' order.

Units sit on an axis (``u``): ``DuelScenario.units``, side A's then side B's (the duel has
two; a force engagement up to 4 a side, :mod:`sim.classic.duel.forces`), each with its side
``P_SIDE``, its place in the side ``P_RANK`` and the side's targeting policy
``P_TARGETING``. Arrays that differ in size between units (guns, bins, items) are padded to
the largest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.classic import damage as D
from sim.classic import equipment_rules as ER
from sim.classic import physical_weapons as PW
from sim.classic import quad as Q
from sim.classic import tables as CT
from sim.classic.damage_state import apply as AP
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import NTH_BIT
from sim.classic.duel import physical as ph
from sim.classic.duel.rules import AUTOCANNON_FAMILIES, LIFE_SUPPORT_STEPS, OUT_REASONS
from sim.classic.duel.scenario import MOVES, DuelScenario, Side
from sim.classic.fire import heat as H
from sim.classic.fire import to_hit as TH
from sim.classic.fire.scenario import ACTIVE_HEATS
from sim.classic.tables import CONSCIOUSNESS
from sim.classic.weapons import EQUIPMENT, lookup_equipment
from sim.memo import WeightedLRU

# -- per-unit integer parameters: UP[u, P_*] ---------------------------------------------------
(P_SIDE, P_TONS, P_WALK, P_JUMP, P_PILOT, P_NGUN, P_NBIN, P_NEXPL, P_FALL, P_SINKPER, P_DISS,
 P_HATCH_ITEM, P_HATCH_ARM, P_AMS_POOL, P_AMS_HEAT, P_NAMS_ORDER, P_NSINK, P_NAMS_ITEMS, P_PHYS,
 P_NOPUNCH, P_HATCH_DMG, P_DFA_DMG, P_CHARGE_SELF, P_DFA_SELF, P_KNOCK_FALL, P_KNOCK_KICK,
 P_DFA_MISS, P_NCMORE, P_NSIDE_ENG, P_NPOOL, P_NCOL, P_POLICY, P_MOVED, P_TSM_HEAT,
 P_TSM_MP, P_HATCH_DMG_TSM, P_MASC_ITEM, P_SC_ITEM, P_CLUB_MOD, P_COCKPIT_PSR, P_QUAD,
 P_GYRO_DEAD, P_GYRO_QUIET, P_ECM_ITEM, P_STEALTH_HEAT, P_TARGETING, P_RANK,
 P_TORSO_CP, P_RUN_LESS, P_NPOD, P_POD_SINKS, P_POD_SAFE, P_HARD_TAC,
 P_CLAW_LA, P_CLAW_RA, P_STRUCTURE, P_LAMELLOR) = range(57)
N_UP = 57
#: ``P_TSM_HEAT`` of a unit without triple-strength myomer (a heat it never reaches)
NO_TSM_HEAT = 1 << 30
#: firing policies the compiled engine decides itself (the ``Decider`` slot of a unit):
#: 0 ``all`` (every weapon in reach by the trial's own numbers); 1 a named policy read from
#: the decision table (:class:`DecisionTable`: ``neutral``, ``below:H``, ``max-expected``)
POLICY_ALL, POLICY_TABLE = 0, 1
#: header of the decision table ``M[2]`` (:class:`DecisionTable`): capacity (a power of two),
#: its log2, offsets of the keys and values, misses recorded by the kernel, their capacity,
#: situations, heat levels and the key's shift (bits of the availability mask); the misses
#: start at ``D_MISS0``
(D_CAP, D_BITS, D_KEYS, D_VALS, D_NMISS, D_MISSCAP, D_NSIT, D_NH, D_SHIFT) = range(9)
D_MISS0 = 16
MISS_CAP = 1024
#: heat levels seeded at full availability (the first turn's; the rest are decided when met)
SEED_HEATS = 1
#: physical policies: 0 none, 1 best
PHYS_NONE, PHYS_BEST = 0, 1

# -- per-gun integer fields: GI[u, g, G_*] ----------------------------------------------------
(G_POOL, G_RATE, G_HPS, G_STREAK, G_LOC, G_ITEM, G_SECOND, G_AMS_TARGET, G_PLASMA, G_NARC,
 G_NARC_BONUS) = range(11)
N_GI = 11

#: actuator kinds of ACT[u, k, loc] (slot masks), in this order
ACT_NAMES = ("shoulder", "upper_arm", "lower_arm", "hand", "hip", "upper_leg", "lower_leg",
             "foot")
A_SHOULDER, A_UPPER_ARM, A_LOWER_ARM, A_HAND, A_HIP, A_UPPER_LEG, A_LOWER_LEG, A_FOOT = range(8)

# -- rule options as ints: RI[R_*] ------------------------------------------------------------
(R_TAC_TWO, R_CRIT_DESTROYING, R_EXPL_STRUCTURE, R_CASE2_ONE, R_EXPL_CORE, R_ADV_CRIT,
 R_FLOATING, R_TAC_ON, R_LS_ONE, R_LS_TWO, R_RESTART_END, R_AC_DAMAGED, R_UNCON_NEVER,
 R_STAND_HEAT, R_OUT_CODE, R_ENG_HEAT_SHUT, R_EACH_POINT, R_FAILED_FALL, R_WAKE_SAME,
 R_PRONE_ONE_ARM, R_CLOSING_CURRENT, R_ATTACKS_ALL, R_KNOCK_MODE, R_HIP_CEIL, R_HEAT_JUMP,
 R_MOVE_PSR, R_FALL_MEGAMEK, R_PILOT_DAMAGE, R_PSR_OWN, R_AUTO_FAIL, R_PAIR_MOD, R_AIM_MOD,
 R_AIMED, R_JUMP_RATING, R_AMS_DECLARED, R_EXPL_SHUT, R_PER_TRIAL, R_TURNS, R_CLOSING_FROM,
 R_MAX_RANGE, R_MASC, R_TACTICS, R_START, R_INITIATIVE, R_COOLANT) = range(45)
N_RI = 45
#: the PSR modifier of a 'Mech that shuts down (13.4; the duel kernel's heat phase)
SHUTDOWN_PSR = 3
KNOCK_MODES = ("none", "fall", "fall-and-prone")
#: the most gyro hits the ``GYRO_PSR`` table covers (a location's 12 slots)
GYRO_TOP = 12


@dataclass(frozen=True)
class Compiled:
    """The flat arrays of one scenario (see the module docstring); ``M`` is the
    ``(MI, MF, DT)`` triple the kernel takes: ``(MI, MF)`` the packed tables (:mod:`.arrays`),
    numbered by the ``M_*`` constants of :mod:`.layout`, ``DT`` the decision table of the
    named firing policies (:class:`DecisionTable`; a bare header under ``all``)."""

    parts: tuple[np.ndarray, np.ndarray]
    units: int
    turns: int
    table: DecisionTable

    @property
    def M(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (self.parts[0], self.parts[1], self.table.arr)


def new_table(cap: int, nsit: int, shift: int) -> np.ndarray:
    """An empty decision hash table of ``cap`` slots (a power of two, 0 for none)."""
    arr = np.zeros(D_MISS0 + (MISS_CAP if cap else 0) + 2 * cap, np.int64)
    arr[D_CAP] = cap
    arr[D_BITS] = cap.bit_length() - 1 if cap else 0
    arr[D_KEYS] = D_MISS0 + (MISS_CAP if cap else 0)
    arr[D_VALS] = arr[D_KEYS] + cap
    arr[D_MISSCAP] = MISS_CAP if cap else 0
    arr[D_NSIT], arr[D_NH], arr[D_SHIFT] = nsit, ACTIVE_HEATS, shift
    arr[arr[D_KEYS]:arr[D_VALS]] = -1
    return arr


class DecisionTable:
    """The named firing policies compiled (issue 21): a hash table from the state a unit
    decides on to the :class:`~sim.classic.fire.policies.Decider`'s choice, the rule written
    once. Key: ``(((unit * situations + situation) * ACTIVE_HEATS + heat) << shift) |
    available``: the fire situation (range, movement modes), the heat level (capped at 29)
    and the bit mask of the weapons available this turn by the trial's own numbers (the
    scalar oracle's state, so the compiled policies decide on lost weapons too, where the
    NumPy kernel decides as if only ammunition and jams could take a weapon away).

    Filled lazily: seeded with the first :data:`SEED_HEATS` heat levels at full
    availability in the situations of the turn schedule (``seed_sits``); a key the kernel
    does not find is recorded (``D_NMISS``), its duel abandoned and re-run once
    :meth:`fill` has decided the missing keys (:mod:`.sampler`). Duels roll from their own
    keyed dice, so a re-run is the same duel and results do not depend on the table's
    history."""

    def __init__(self, scn: DuelScenario, keys: list[tuple[int, str, str]],
                 seed_sits: set[int]) -> None:
        from sim.classic.fire.policies import Decider, shared_decider

        self.nsit = len(keys)
        self.shift = max(1, max(len(next(iter(s.fire.values())).guns) for s in scn.units))
        self.deciders: dict[tuple[int, int], Decider] = {}
        pending: list[int] = []
        for u, s in enumerate(scn.units):
            if s.policy.kind == "all":
                continue
            for i, key in enumerate(keys):
                fs = s.fire[key]
                # shared by every scenario whose decisions read the same numbers
                self.deciders[(u, i)] = shared_decider(fs)
                for h in range(SEED_HEATS if i in seed_sits else 0):
                    full = sum(1 << g for g, gun in enumerate(fs.guns)
                               if gun.tn_uncapped[0, h] <= 12)
                    pending.append(self.key(u, i, h, full))
        self.size = 0
        #: issue 22: the tactics' movement decisions share the table (keys with
        #: ``tactics.TAG`` set), decided by state (:class:`sim.classic.duel.tactics.Planner`)
        self.planner = None
        self.tactic_states: set[int] = set()
        if scn.free:
            from sim.classic.duel import tactics as TC

            self.planner = TC.Planner(scn, self.deciders, {k: i for i, k in enumerate(keys)})
            pending.extend(self._state_keys(TC.split_key(start_key(scn))[2]))
        self.pending = pending
        self.arr = new_table(256 if self.deciders or scn.free else 0, self.nsit, self.shift)

    def _state_keys(self, state: int) -> list[int]:
        """Every tactic key of a state (each distance, both initiative orders), once."""
        from sim.classic.duel import tactics as TC

        if state in self.tactic_states:
            return []
        self.tactic_states.add(state)
        base = TC.TAG | (state << TC.STATE_SHIFT)
        assert self.planner is not None
        return [base | (f << TC.D_BITS) | d for f in (0, 1)
                for d in range(1, self.planner.R + 1)]

    def key(self, u: int, sit: int, h: int, avail: int) -> int:
        return (((u * self.nsit + sit) * ACTIVE_HEATS + h) << self.shift) | avail

    def value(self, key: int) -> int:
        """The Decider's bit mask of the guns fired for ``key`` (a tactic key: the packed
        movement decision, :meth:`sim.classic.duel.tactics.Planner.decide`)."""
        from sim.classic.duel.tactics import TAG

        if key & TAG:
            assert self.planner is not None
            return int(self.planner.decide(key))
        avail = key & ((1 << self.shift) - 1)
        rest = key >> self.shift
        h, rest = rest % ACTIVE_HEATS, rest // ACTIVE_HEATS
        return self.deciders[(rest // self.nsit, rest % self.nsit)].mask(0, h, avail)

    def fill(self, put: Any) -> int:
        """Decide the pending keys and those the kernel missed, insert them with ``put``
        (the compiled insertion, :func:`sim.classic.engine.fire.put`); returns how many."""
        arr = self.arr
        n = int(min(arr[D_NMISS], arr[D_MISSCAP]))
        missed = arr[D_MISS0:D_MISS0 + n]
        if self.planner is not None:
            from sim.classic.duel import tactics as TC

            for k in missed.tolist():       # a new state: all its keys at once
                if k & TC.TAG:
                    self.pending.extend(self._state_keys(TC.split_key(k)[2]))
        keys = np.unique(np.concatenate([np.asarray(self.pending, np.int64), missed]))
        self.pending = []
        arr[D_NMISS] = 0
        if keys.size == 0:
            return 0
        vals = np.zeros(keys.size, np.int64)
        tag = np.zeros(keys.size, bool)
        if self.planner is not None:        # tactic keys: a state's decisions at once
            from sim.classic.duel import tactics as TC

            tag = (keys & TC.TAG) != 0
            rest = keys[tag] & (TC.TAG - 1)
            states, inv = np.unique(rest >> TC.STATE_SHIFT, return_inverse=True)
            d = rest & ((1 << TC.D_BITS) - 1)
            first = (rest >> TC.D_BITS) & 1
            got = np.zeros(rest.size, np.int64)
            inv = inv.reshape(-1)
            for j, state in enumerate(states.tolist()):
                sel = inv == j
                got[sel] = self.planner.table(state)[first[sel], d[sel]]
            vals[tag] = got
        vals[~tag] = [self.value(int(k)) for k in keys[~tag].tolist()]
        if 2 * (self.size + keys.size) > arr[D_CAP]:
            cap = int(arr[D_CAP])
            while 2 * (self.size + keys.size) > cap:
                cap *= 2
            old_k = arr[arr[D_KEYS]:arr[D_VALS]]
            old_v = arr[arr[D_VALS]:arr[D_VALS] + arr[D_CAP]]
            live = old_k >= 0
            self.arr = new_table(cap, self.nsit, self.shift)
            put(self.arr, old_k[live].copy(), old_v[live].copy())
        put(self.arr, keys, vals)
        self.size += int(keys.size)
        return int(keys.size)


def start_key(scn: DuelScenario) -> int:
    """The tactic decision key of a duel's first turn (undamaged, heat 0, at the start
    distance, A moving first): its state is decided before the first duel runs."""
    from sim.classic.duel import tactics as TC

    st_ = []
    for s in scn.sides:
        st_.append({"act": 1, "mover": 1, "prone": 0, "heat": 0, "walk": s.walk,
                    "run": (3 * s.walk + 1) // 2, "jump": s.jump,
                    "guns": TC.all_classes(TC.weapon_classes(s))})
    return TC.make_key(scn.start_distance, True, st_[0], st_[1])


def _pad(rows: list[np.ndarray], shape: tuple[int, ...], fill: int | float = 0,
         dtype: Any = np.int64) -> np.ndarray:
    out = np.full((len(rows), *shape), fill, dtype=dtype)
    for i, r in enumerate(rows):
        r = np.asarray(r)
        idx: tuple[Any, ...] = (i, *(slice(0, k) for k in r.shape))
        out[idx] = r
    return out


def supported(scn: DuelScenario) -> tuple[bool, str]:
    """Whether the compiled engine covers ``scn``; else why (the NumPy kernel runs it)."""
    sides = scn.unit_sides
    for u, s in enumerate(scn.units):
        foes = [t for t, side in zip(scn.units, sides, strict=True) if side != sides[u]]
        looks = {(t.layout.config, ER.has_stealth(t.mech.armor_type)) for t in foes}
        if len(looks) > 1 or (len(foes) > 1 and ER.has_stealth(s.mech.armor_type)):
            return False, ("enemies that differ in quad/biped build or stealth armor, or a "
                           "'Mech with stealth armor facing more than one enemy (its tables "
                           "are built against one target)")
        if s.policy.kind == "callable":
            return False, "a callable firing policy"
        if callable(s.physical):
            return False, "a callable physical policy"
    shift = max(len(next(iter(s.fire.values())).guns) for s in scn.units)
    if (len(scn.units) * len(scn.a.fire) * ACTIVE_HEATS) << max(shift, 1) >= 1 << 62:
        return False, f"{shift} weapons: the decision key does not fit 62 bits"
    return True, ""


def engine_only_equipment(mech: Any) -> list[str]:
    """Equipment of ``mech`` that the compiled engine simulates and the NumPy duel kernel
    (the fallback) does not (issue 19): named in the fallback's notes."""
    out = ["triple-strength myomer"] if mech.tsm else []
    names = {n for n, _ in mech.physical_weapons}
    if "claws" in names:
        out.append("the claws' punch")
    if "hatchet" not in names:
        if "sword" in names:
            out.append("the sword")
        elif "retractable_blade" in names:
            out.append("the retractable blade")
    if ER.has_stealth(mech.armor_type):
        out.append("stealth armor")
    if any(w.weapon in ER.PLASMA_HEAT_DICE for w in mech.weapon_mounts):
        out.append("a plasma weapon's heat on its target")
    if any(w.weapon and "Narc" in w.weapon for w in mech.weapon_mounts):
        out.append("the Narc beacon's +2")
    if ER.run_mp_loss(mech.armor_type):
        out.append("hardened armor's running MP -1")
    if ER.torso_cockpit(mech.cockpit):
        out.append("the torso-mounted cockpit (head hits, sensors, life support)")
    kinds = {EQUIPMENT[k].kind for k, _ in mech.equipment if k in EQUIPMENT}
    return out + [n for k, n in (("masc", "MASC"), ("supercharger", "supercharger"),
                                 ("coolant_pod", "coolant pods")) if k in kinds]


def narc_capable(s: Side, gun: Any) -> bool:
    """Whether every bin feeding ``gun`` holds Narc-capable rounds (issue 19)."""
    from sim.classic.weapons import AMMO

    if gun.pool < 0:
        return False
    key = next(iter(s.fire.values())).unit.pools[gun.pool].key
    fed = [b.munition for b in s.mech.ammo_bins
           if (a := AMMO.get(b.ammo or "")) is not None and a.weapon_family_key == key]
    return bool(fed) and all(m == "narc" for m in fed)


def club_name(s: Side) -> str:
    """The :data:`sim.classic.physical_weapons.PHYSICAL_WEAPONS` name of ``s.sword``'s item
    (``sword`` or ``retractable_blade``)."""
    return lay._strip(s.layout.items[s.sword[0]].name)[0].lower().replace(" ", "_")


def pod_items(s: Side) -> list[int]:
    """Layout items of the unit's coolant pods (issue 19), in layout order."""
    return [i for i, it in enumerate(s.layout.items)
            if (eq := lookup_equipment(lay._strip(it.name)[0], s.mech.tech_base)) is not None
            and eq.kind == "coolant_pod"]


def pod_table(scn: DuelScenario) -> np.ndarray:
    """``PODS[u, i]``: layout item of unit u's coolant pod i (-1 padding; issue 19)."""
    rows = [pod_items(s) for s in scn.units]
    out = np.full((len(rows), max(max((len(r) for r in rows), default=0), 1)), -1, np.int64)
    for u, r in enumerate(rows):
        out[u, :len(r)] = r
    return out


def masc_items(s: Side) -> tuple[int, int]:
    """Layout items of the unit's MASC and supercharger (-1 without; issue 19)."""
    found = {"masc": -1, "supercharger": -1}
    for i, it in enumerate(s.layout.items):
        # an OmniMech's pod-mounted item is named "... (OMNIPOD)" in its file
        eq = lookup_equipment(lay._strip(it.name)[0], s.mech.tech_base)
        if eq is not None and eq.kind in found and found[eq.kind] < 0:
            found[eq.kind] = i
    return found["masc"], found["supercharger"]


def sprint_table(scn: DuelScenario) -> np.ndarray:
    """``SPRINT[u, w]``: running MP with the unit's MASC / supercharger engaged at walking
    MP ``w`` now (:func:`sim.classic.equipment_rules.sprint_mp`, by which systems still
    work: column 0 neither, 1 MASC, 2 supercharger, 3 both)."""
    top = max(max(s.walk for s in scn.units) + 3, 1)  # TSM adds 2
    out = np.zeros((len(scn.units), 4, top + 1), np.int64)
    for u in range(len(scn.units)):
        less = ER.run_mp_loss(scn.units[u].mech.armor_type)   # hardened armor: -1 (MegaMek)
        for c in range(4):
            out[u, c] = [max(ER.sprint_mp(w, bool(c & 1), bool(c & 2)) - less, 0)
                         for w in range(top + 1)]
    return out


def masc_table(scn: DuelScenario) -> np.ndarray:
    """``MASC_T[0, level]``: failure target at ``level`` turns of use in a row
    (:func:`sim.classic.equipment_rules.masc_failure_target`); ``MASC_T[1 + used, level]``:
    the level after the turn (:func:`~sim.classic.equipment_rules.next_masc_level`), for
    every level a duel of ``scn.turns`` turns reaches."""
    n = scn.turns + 2
    out = np.zeros((3, n), np.int64)
    for lv in range(n):
        out[0, lv] = ER.masc_failure_target(lv)
        out[1, lv] = min(ER.next_masc_level(lv, False), n - 1)
        out[2, lv] = min(ER.next_masc_level(lv, True), n - 1)
    return out


def situations(scn: DuelScenario) -> tuple[list[tuple[int, str, str]], np.ndarray,
                                           np.ndarray, int]:
    """The fire situations, the situation of each turn (fixed or scripted ranges, closing on
    one schedule) and, under closing with ``closing_mp=current``, the situation of a duel
    that runs in at range r (``run_sit[r]``) and of one already adjacent (``adj``)."""
    keys = sorted(scn.a.fire)
    index = {k: i for i, k in enumerate(keys)}
    turn_sit = np.array([index[(scn.ranges[t], scn.moves[t][0], scn.moves[t][1])]
                         for t in range(scn.turns)], np.int64)
    top = max(scn.closing_from, 1)
    run_sit = np.full(top + 1, -1, np.int64)
    adj = -1
    if scn.per_trial_range:
        for r in range(1, top + 1):
            run_sit[r] = index[(r, "run", "run")]
        adj = index[(1, scn.a.moved, scn.b.moved)]
    return keys, turn_sit, run_sit, adj


#: per-unit arrays built so far (:func:`_per_side`), the oldest dropped first: at most this
#: many, and this many situation keys in all (a unit's weight; :mod:`sim.memo`)
UNIT_CACHE_SIZE = 512
UNIT_CACHE_SITUATIONS = 2048
_UNITS: WeightedLRU[Any, tuple[Side, dict[str, Any]]] = WeightedLRU(UNIT_CACHE_SIZE,
                                                                    UNIT_CACHE_SITUATIONS)


def _per_side(build: Any) -> Any:
    """Memoize :func:`_unit` on the side (shared between the scenarios of a round-robin,
    :func:`sim.classic.duel.scenario._per_unit`: by its token, which a pickled copy in a
    worker keeps, else by identity), the situation keys, the unit's axis index and the duel
    rules (the only part of the scenario it reads), its side, rank and targeting policy; the arrays are
    read-only (:func:`compile_scenario` copies them into the padded tables). Whatever else
    :func:`_unit` comes to read (another unit, more of the scenario) must join the key, or
    be read in :func:`compile_scenario`, which runs per pairing."""
    def cached(s: Side, other: Side, scn: DuelScenario, keys: list[tuple[int, str, str]],
               side_no: int, rank: int, targeting: int) -> dict[str, Any]:
        token = getattr(s, "_btsim_token", None)
        # of the nominal target it reads its configuration (quad hatchet aim), its stealth
        # armor, and (for a unit with stealth armor) its guns
        seen = (other.layout.config, ER.has_stealth(other.mech.armor_type),
                (getattr(other, "_btsim_token", None) or id(other))
                if ER.has_stealth(s.mech.armor_type) else None)
        try:
            key = (token or id(s), tuple(keys), side_no, rank, targeting, scn.duel_rules, seen)
            hash(key)
        except TypeError:
            return build(s, other, scn, keys, side_no, rank, targeting)
        hit = _UNITS.get(key)
        if hit is not None and (hit[0] is s or token is not None):
            return hit[1]
        out = build(s, other, scn, keys, side_no, rank, targeting)
        _UNITS.put(key, (s, out), len(keys))
        return out

    cached.__doc__ = build.__doc__
    return cached


@_per_side
def _unit(s: Side, other: Side, scn: DuelScenario, keys: list[tuple[int, str, str]],
          side_no: int, rank: int, targeting: int) -> dict[str, Any]:
    fs0 = s.fire[keys[0]]
    guns = fs0.guns
    L = s.layout
    dm = s.dm
    cr = s.classic
    rules = scn.duel_rules
    up = np.zeros(N_UP, np.int64)
    nb = len(L.bins)
    up[P_SIDE] = side_no
    up[P_RANK] = rank
    up[P_TARGETING] = targeting
    up[P_TONS] = s.tons
    up[P_WALK] = s.walk
    up[P_JUMP] = s.jump
    up[P_PILOT] = s.piloting
    up[P_NGUN] = len(guns)
    up[P_NBIN] = nb
    up[P_NEXPL] = len(dm.expl_loc)
    up[P_FALL] = D.fall(s.tons, 0)
    up[P_SINKPER] = s.sink_per
    up[P_DISS] = fs0.dissipation
    up[P_HATCH_ITEM], up[P_HATCH_ARM] = s.hatchet
    up[P_AMS_POOL] = s.ams_pool
    up[P_AMS_HEAT] = s.ams_heat
    up[P_NSINK] = len(s.sink_items)
    up[P_NAMS_ITEMS] = len(s.ams_items)
    up[P_PHYS] = PHYS_NONE if s.physical == "none" else PHYS_BEST
    # a quad (issue 19): four legs (LA/RA its front legs), kicks with its front legs, never
    # punches or pushes (reference.md 1.3 "not quads"; MegaMek QuadMek, KickAttackAction)
    quad = s.layout.config == "Quad"
    up[P_QUAD] = int(quad)
    up[P_NOPUNCH] = int(ph.barred(ph.PUNCH, s.mech.quirks, cr) or quad)
    # the gyro (issue 19; sim.classic.equipment_rules): hits that destroy it (a heavy-duty
    # gyro 3, else 2) and hits that call for no PSR of their own (a heavy-duty gyro's first)
    up[P_GYRO_DEAD] = s.layout.gyro_destroyed_at
    up[P_GYRO_QUIET] = ER.gyro_quiet_hits(s.mech.gyro)
    # stealth armor (issue 19): its ECM suite (it works only while that does) and its heat
    up[P_ECM_ITEM] = ecm_item(s)
    up[P_STEALTH_HEAT] = ER.stealth_heat(True, True) if ER.has_stealth(s.mech.armor_type) else 0
    up[P_HATCH_DMG] = ph.hatchet_damage(s.tons, cr)
    up[P_DFA_DMG] = ph.dfa_damage(s.tons, cr)
    up[P_CHARGE_SELF] = D.charge_self(s.tons)     # what a 'Mech charging this one takes
    up[P_DFA_SELF] = D.dfa_self(s.tons)
    up[P_KNOCK_FALL] = D.fall(s.tons, 0)          # this one's fall, as a knock-down value
    up[P_KNOCK_KICK] = D.kick(s.tons, 0, False, cr)
    up[P_DFA_MISS] = ph.fall_damage(s.tons, ph.DFA_MISS_LEVELS)
    up[P_NCMORE] = len(dm.count_more)
    up[P_NSIDE_ENG] = len(dm.side_engine)
    up[P_NPOOL] = len(fs0.unit.pools)
    up[P_NCOL] = st.n_columns(L)
    up[P_POLICY] = POLICY_ALL if s.policy.kind == "all" else POLICY_TABLE
    up[P_MOVED] = MOVES.index(s.moved)
    # triple-strength myomer (issue 19; sim.classic.equipment_rules): from the heat where it
    # acts, +MP and doubled punch / kick / hatchet damage (the *_DMG tables' second half)
    tsm = bool(s.mech.tsm)
    up[P_TSM_HEAT] = ER.TSM_HEAT if tsm else NO_TSM_HEAT
    up[P_TSM_MP] = ER.tsm_walk_bonus(ER.TSM_HEAT) if tsm else 0
    up[P_HATCH_DMG_TSM] = D.club(s.tons, tsm and ER.tsm_damage_factor(ER.TSM_HEAT) == 2, cr)
    up[P_MASC_ITEM], up[P_SC_ITEM] = masc_items(s)
    # the unit's own PSR modifier (MegaMek Mek.addEntityBonuses): a small cockpit +1,
    # hardened armor +1 (issue 19)
    up[P_COCKPIT_PSR] = ER.unit_psr_mod(s.mech.cockpit, s.mech.armor_type)
    # a torso-mounted cockpit (issue 19): no pilot damage from head hits, the head not
    # vital, sensors blind at 3 hits (+4 at 2), +1 life-support heat damage
    up[P_TORSO_CP] = int(ER.torso_cockpit(s.mech.cockpit))
    up[P_RUN_LESS] = ER.run_mp_loss(s.mech.armor_type)   # hardened armor: running MP -1
    # coolant pods (issue 19; sim.classic.equipment_rules.coolant_pod_sinking): how many,
    # the heat sinks the 'Mech has (each pod sinks one point per working sink), and the
    # heat above which the "safe" reading uses one (9 with Inferno rounds aboard)
    # hardened armor's -2 on the TAC of a group it stopped whole (issue 19)
    up[P_HARD_TAC] = ER.hardened_tac_mod(s.mech.armor_type, True, True)
    up[P_STRUCTURE] = L.structure_kind        # ER.structure_take's kind
    up[P_LAMELLOR] = int(L.lamellor)          # ER.lamellor_damage
    up[P_NPOD] = len(pod_items(s))
    up[P_POD_SINKS] = s.mech.heat_sinks
    up[P_POD_SAFE] = ER.coolant_safe_heat(any(b.munition == "inferno"
                                              for b in s.mech.ammo_bins))
    # claws (issue 19): the layout item in each arm (-1 none); that arm punches with them
    up[P_CLAW_LA], up[P_CLAW_RA] = s.claws
    if s.hatchet[0] < 0 and s.sword[0] >= 0:
        # a sword or retractable blade swings in the hatchet's place (issue 19): its own
        # to-hit modifier (as a difference from the hatchet's base, which the BASE table
        # holds) and damage
        name = club_name(s)
        sw = PW.PHYSICAL_WEAPONS[name]
        up[P_HATCH_ITEM], up[P_HATCH_ARM] = s.sword
        up[P_CLUB_MOD] = sw.base_mod - ph.BASE[ph.HATCHET]
        up[P_HATCH_DMG] = PW.physical_weapon_damage(name, s.tons, False)
        up[P_HATCH_DMG_TSM] = PW.physical_weapon_damage(name, s.tons, tsm)
    second = [rules.ac_first_crit == "damaged" and g.kind in AUTOCANNON_FAMILIES for g in guns]
    gi = np.zeros((max(len(guns), 1), N_GI), np.int64)
    rate = max([g.rate for g in guns] + [1])
    kmax = max([max(len(x) for x in g.groups) - 1 for g in guns] + [0])
    jmax = max([max(1, max(len(t) for x in g.groups for t in x)) for g in guns] + [1])
    grp = np.zeros((max(len(guns), 1), rate + 1, kmax + 1, jmax), np.int64)
    hits = np.zeros((max(len(guns), 1), rate + 1, 13), np.int64)
    hits_ams = np.zeros_like(hits)
    jam = np.zeros((max(len(guns), 1), rate + 1), np.int64)
    mean = np.zeros((max(len(guns), 1), rate + 1))
    gval = np.zeros(max(len(guns), 1))
    for g, gun in enumerate(guns):
        gi[g] = (gun.pool, gun.rate, gun.heat_per_shot, int(gun.streak),
                 lay.LOC_INDEX.get(gun.location, -1), s.gun_item[g], int(second[g]),
                 int(gun.ams_target), ER.PLASMA_HEAT_DICE.get(gun.weapon.key, 0),
                 int(gun.weapon.family == "narc"),
                 ER.narc_cluster_bonus(True, narc_capable(s, gun),
                                       int(bool(gun.artemis)) + gun.weapon.cluster_bonus))
        for sh in range(1, gun.rate + 1):
            for k, t in enumerate(gun.groups[sh]):
                grp[g, sh, k, :len(t)] = t
        h = np.array([np.asarray(x) for x in gun.hits], np.int64)
        hits[g, :h.shape[0], :h.shape[1]] = h
        ha = (np.array([np.asarray(x) for x in gun.hits_ams], np.int64) if gun.ams_target
              else h)
        hits_ams[g, :ha.shape[0], :ha.shape[1]] = ha
        jam[g, :len(gun.jam_le)] = gun.jam_le
        m = ph.mean_gun_damage(h, grp[g, :gun.rate + 1])
        mean[g, :m.size] = m
        gval[g] = float(m[gun.rate])
    ams_order = [g for g in sorted((g for g, gun in enumerate(guns) if gun.ams_target),
                                   key=lambda g: (-guns[g].ams_priority, g))]
    up[P_NAMS_ORDER] = len(ams_order)
    tn = np.full((len(keys), max(len(guns), 1), ACTIVE_HEATS), 99, np.int64)
    move_mod = np.zeros((len(keys), ACTIVE_HEATS), np.int64)
    tmm_nom = np.zeros(len(keys), np.int64)
    for i, key in enumerate(keys):
        fs = s.fire[key]
        for g, gun in enumerate(fs.guns):
            tn[i, g] = gun.tn_uncapped[0]
        move_mod[i] = fs.move_mod
        tmm_nom[i] = TH.target_movement_mod(fs.target_hexes, fs.target_jumped,
                                            fs.rules.fire_tmm_table)
    act = np.zeros((len(ACT_NAMES), 8), np.int64)
    for j, name in enumerate(ACT_NAMES):
        act[j] = np.asarray(s.act[name], np.int64) & 0xFFF
    per = np.array([b[2] if b[3] else 0 for b in L.bins], np.int64)
    tsm_on = tsm and ER.tsm_damage_factor(ER.TSM_HEAT) == 2
    hatch_table = ph.hatchet_aim(cr, other.layout.config)[0]
    return {
        "UP": up, "ACT": act,
        "JET": np.array(s.jet_masks if s.jet_masks else (0,) * 8, np.int64) & 0xFFF,
        "GI": gi, "TN": tn, "HITS": hits, "HITS_AMS": hits_ams, "GRP": grp, "JAM": jam,
        "MEAN": mean, "GVAL": gval, "AMS_ORDER": np.array(ams_order or [0], np.int64),
        "BIN_POOL": np.array(list(s.bin_pool) or [-1], np.int64),
        "BIN_LOC": np.array([b[0] for b in L.bins] or [0], np.int64),
        "BIN_PER": per if per.size else np.zeros(1, np.int64),
        "S0": st.fresh(L, 1)[0],
        "ITEM_MASK": (np.asarray(L.item_masks, np.int64) & 0xFFF) if len(L.items)
        else np.zeros((1, 8), np.int64),
        "SINKS": np.array(s.sink_items or (0,), np.int64),
        "AMS_ITEMS": np.array(s.ams_items or (0,), np.int64),
        "HITTABLE": np.asarray(dm.hittable, np.int64) & 0xFFF,
        "EXPL_LOC": np.array(list(dm.expl_loc) or [0], np.int64),
        "EXPL_PER": np.array(list(dm.expl_per) or [0], np.int64),
        "EXPL_IS_BIN": np.array(list(dm.expl_is_bin) or [0], np.int64),
        "COUNT_LOC": np.asarray(dm.count_loc, np.int64),
        "COUNT_MASK": np.asarray(dm.count_mask, np.int64) & 0xFFF,
        "COUNT_MORE": np.array(dm.count_more or ((0, 0, 0),), np.int64),
        "SIDE_ENG": np.array(dm.side_engine or ((0, 0),), np.int64),
        "GAUSS_SLOT": np.asarray(dm.gauss_slot, np.int64),
        "BOOM_BIN": np.asarray(dm.boom_bin, np.int64),
        "CONTAINED": np.asarray(dm.contained, np.int64),
        "CASE": np.asarray(L.case, np.int64), "CASE2": np.asarray(L.case2, np.int64),
        "ITEM": np.asarray(L.item, np.int64),
        "MOVE_MOD": move_mod, "TMM_NOM": tmm_nom,
        # by halvings 0..2, then the same with TSM acting (3..5; equal without TSM); 6..11
        # the same for a punch with claws (D.claw_punch, issue 19)
        "PUNCH_DMG": np.array([f(s.tons, h, act, cr) for f in (D.punch, D.claw_punch)
                               for act in (False, tsm_on) for h in range(3)], np.int64),
        "KICK_DMG": np.array([D.kick(s.tons, h, act, cr) for act in (False, tsm_on)
                              for h in range(3)], np.int64),
        "SHUT_GO": np.array([int(H.shutdown_avoid(r, fs0.rules.tacops_shutdown, s.piloting))
                             for r in range(H.HEAT_TOP + 1)], np.int64),
        "HATCH_TABLE": np.asarray(hatch_table if hatch_table is not None
                                  else np.zeros(7), np.int64),
        # pre-existing PSR modifier of the gyro by its hits (equipment_rules.gyro_psr_mod;
        # destroyed: the duel kernel's GYRO_PSR, MegaMek +6)
        "GYRO_PSR": np.array([gyro_psr(s.mech.gyro, h) for h in range(GYRO_TOP + 1)],
                             np.int64),
        # what the target's stealth armor adds to each gun of this unit by situation, and
        # whether this unit's own stealth armor is on in the situation
        "STEALTH": stealth_mods(s, other, keys),
        "STEALTH_ON": (stealth_mods(other, s, keys).max(axis=1) > 0).astype(np.int64)
        if ER.has_stealth(s.mech.armor_type) else np.zeros(len(keys), np.int64),
    }


def stealth_mods(s: Side, target: Side, keys: list[tuple[int, str, str]]) -> np.ndarray:
    """``[situation, gun]``: the to-hit modifier stealth armor on ``target`` adds to gun
    ``g`` of ``s`` at the situation's range (its range bracket:
    :func:`sim.classic.equipment_rules.stealth_to_hit`), all 0 without stealth armor."""
    out = np.zeros((len(keys), max(len(next(iter(s.fire.values())).guns), 1)), np.int64)
    if ER.has_stealth(target.mech.armor_type):
        for i, key in enumerate(keys):
            for g, gun in enumerate(s.fire[key].guns):
                b = TH.bracket(gun.weapon, key[0])
                out[i, g] = ER.stealth_to_hit(b, True, True) if b is not None else 0
    return out


def ecm_item(s: Side) -> int:
    """Layout item of the unit's first ECM suite (-1 without; pod-mounted ones too)."""
    for i, it in enumerate(s.layout.items):
        eq = lookup_equipment(lay._strip(it.name)[0], s.mech.tech_base)
        if eq is not None and eq.kind == "ecm":
            return i
    return -1


def gyro_psr(gyro: str, hits: int) -> int:
    """The PSR modifier of a gyro of type ``gyro`` with ``hits`` (its destroyed value from
    the duel kernel's declaration)."""
    from sim.classic.duel import kernel as nk

    mod = ER.gyro_psr_mod(gyro, hits)
    return int(nk.GYRO_PSR[-1]) if mod is None else mod


#: names of the per-unit arrays, in the order they sit in ``M`` (after the global tables)
UNIT_KEYS = ("UP", "ACT", "JET", "GI", "TN", "HITS", "HITS_AMS", "GRP", "JAM", "MEAN", "GVAL",
             "AMS_ORDER", "BIN_POOL", "BIN_LOC", "BIN_PER", "S0", "ITEM_MASK", "SINKS",
             "AMS_ITEMS", "HITTABLE", "EXPL_LOC", "EXPL_PER", "EXPL_IS_BIN", "COUNT_LOC",
             "COUNT_MASK", "COUNT_MORE", "SIDE_ENG", "GAUSS_SLOT", "BOOM_BIN", "CONTAINED",
             "CASE", "CASE2", "ITEM", "MOVE_MOD", "TMM_NOM", "PUNCH_DMG", "KICK_DMG",
             "SHUT_GO", "HATCH_TABLE", "GYRO_PSR", "STEALTH", "STEALTH_ON")
FLOAT_KEYS = {"MEAN", "GVAL"}


def global_tables(scn: DuelScenario) -> dict[str, np.ndarray]:
    """Rule tables shared by every unit, from their declarations."""
    std_loc = np.zeros((4, 13), np.int64)
    std_rear = np.zeros((4, 13), np.int64)
    for c, name in enumerate(CT.SIDES):
        for r in range(2, 13):
            code = int(CT.STANDARD[CT.SIDE[name], r])
            std_loc[c, r] = {8: 1, 9: 2, 10: 3}.get(code, code)
            std_rear[c, r] = int(code >= 8)
    fs0 = next(iter(scn.a.fire.values()))
    table = fs0.rules.fire_tmm_table
    charge_top = max(max(s.run, s.walk) for s in scn.units) + 2
    psr_t = np.zeros(7, np.int64)
    psr_s = np.zeros(7, np.int64)
    for k, v in ph.PSR_ON_TARGET.items():
        psr_t[k] = v
    for k, v in ph.PSR_ON_SELF_HIT.items():
        psr_s[k] = v
    base = np.zeros(7, np.int64)
    for k, v in ph.BASE.items():
        base[k] = v
    from sim.classic.duel import kernel as nk  # the pre-existing PSR modifiers' declaration
    return {
        "STD_LOC": std_loc, "STD_REAR": std_rear,
        # the front column of the 1D6 punch and kick tables by the target's configuration
        # (row 0 a biped, 1 a quad: sim.classic.tables.HIT_TABLES)
        "PUNCH_FRONT": np.stack([ph.front_column(c, CT.TABLE_PUNCH) for c in ph.CONFIGS]),
        "KICK_FRONT": np.stack([ph.front_column(c, CT.TABLE_KICK) for c in ph.CONFIGS]),
        "FALL_COL": CT.FALL_COLUMN.astype(np.int64),
        "CONSC": np.asarray(CONSCIOUSNESS, np.int64),
        "SHUT_AVOID": np.asarray(H.SHUTDOWN_AVOID, np.int64),
        "AMMO_AVOID": np.asarray(H.AMMO_AVOID, np.int64),
        "MP_LOSS": np.asarray(H.MP_LOSS, np.int64),
        "TMM": np.array([TH.target_movement_mod(h, False, table) for h in range(100)],
                        np.int64),
        "DETERMINING": np.asarray(AP.DETERMINING, np.int64),
        "POP": np.asarray(st.POP, np.int64), "NTH": np.asarray(NTH_BIT, np.int64),
        "TRANSFER": np.asarray(lay.TRANSFER, np.int64),
        "BLOWABLE": np.asarray(lay.BLOWABLE, np.int64),
        "ARMOR_COL": np.asarray(st.ARMOR_COL, np.int64),
        "ARMOR_LOC": np.asarray(st.ARMOR_LOC, np.int64),
        "P_AT_LEAST": np.asarray(ph.P_AT_LEAST, np.float64),
        "CHARGE_DMG": np.array([[D.charge(s.tons, h) for h in range(charge_top)]
                                for s in scn.units], np.int64),
        "BASE": base, "PSR_T": psr_t, "PSR_S": psr_s,
        "MOVE_HEAT": np.array([H.MOVE_HEAT["stand"], H.MOVE_HEAT["walk"], H.MOVE_HEAT["run"]],
                              np.int64),
        "JUMP_HEAT_MIN": np.array([H.movement_heat("jump")], np.int64),
        "CORE_IS_CAP": np.asarray(AP.CORE_IS_CAP, np.int64),
        "CORE_ARMOR_CAP": np.array([AP.CORE_CASE_ARMOR_CAP], np.int64),
        # a quad's walking MP by legs destroyed (row 0 the number, row 1 whether it sets
        # the MP, else it is subtracted), row 2: legs destroyed up to which it still runs,
        # and from which it has no MP and cannot stand (sim.classic.quad)
        "QUAD_MP": np.array([[Q.LEGS_GONE_MP.get(g, ("minus", 0))[1] for g in range(5)],
                             [int(Q.LEGS_GONE_MP.get(g, ("minus", 0))[0] == "set")
                              for g in range(5)],
                             [Q.RUN_MAX_LEGS_GONE, Q.LEGS_GONE_FATAL, 0, 0, 0]], np.int64),
        # leg destroyed, hip, other leg actuator; a quad's bonus with all four legs and its
        # modifier with two legs gone (sim.classic.quad)
        "LEG_PSR": np.array([nk.LEG_GONE_PSR, nk.HIP_PSR, nk.LEG_ACTUATOR_PSR,
                             Q.ALL_LEGS_PSR, Q.TWO_LEGS_GONE_PSR, Q.LEGS_GONE_FAIL_PSR],
                            np.int64),
        "HEAT_CONST": np.array([H.HEAT_TOP, H.AUTO_SHUTDOWN, H.AUTO_RESTART_BELOW,
                                ACTIVE_HEATS, st.PILOT_DEAD, st.ENGINE_DEAD,
                                ph.DFA_MISS_LEVELS, ph.P.MISSED_KICK, SHUTDOWN_PSR,
                                ER.EXTERNAL_HEAT_CAP],
                               np.int64),
    }


GLOBAL_KEYS = ("STD_LOC", "STD_REAR", "PUNCH_FRONT", "KICK_FRONT", "FALL_COL", "CONSC",
               "SHUT_AVOID", "AMMO_AVOID", "MP_LOSS", "TMM", "DETERMINING", "POP", "NTH",
               "TRANSFER", "BLOWABLE", "ARMOR_COL", "ARMOR_LOC", "P_AT_LEAST", "CHARGE_DMG",
               "BASE", "PSR_T", "PSR_S", "MOVE_HEAT", "JUMP_HEAT_MIN", "CORE_IS_CAP",
               "CORE_ARMOR_CAP", "QUAD_MP", "LEG_PSR", "HEAT_CONST")
#: the rest of ``M`` after the unit arrays
TAIL_KEYS = ("RI", "TURN_SIT", "RUN_SIT", "ADJ", "RANGES", "MODES", "SPRINT", "MASC_T",
             "TAC_SIT", "GCLASS", "PODS")
M_KEYS = GLOBAL_KEYS + UNIT_KEYS + TAIL_KEYS


def rule_ints(scn: DuelScenario) -> np.ndarray:
    """Every rule option the kernel reads, as ints (:data:`R_*` order)."""
    dr, ur, pr = scn.damage_rules, scn.duel_rules, scn.physical_rules
    cr = scn.a.classic
    fr = next(iter(scn.a.fire.values())).rules
    ri = np.zeros(N_RI, np.int64)
    one, two = LIFE_SUPPORT_STEPS[ur.life_support_heat]
    aimed = ph.hatchet_aim(cr)
    vals = {
        R_TAC_TWO: dr.tac_with_structure_damage == "two",
        R_CRIT_DESTROYING: dr.crit_on_destroying_group,
        R_EXPL_STRUCTURE: dr.explosion_transfer == "structure",
        R_CASE2_ONE: dr.case2_explosion == "one-point",
        R_EXPL_CORE: dr.explosion_size == "core",
        R_ADV_CRIT: dr.advanced_criticals,
        R_FLOATING: dr.location_roll_two == "floating",
        R_TAC_ON: cr.tac,
        R_LS_ONE: one, R_LS_TWO: two,
        R_RESTART_END: ur.restart_phase == "end",
        R_AC_DAMAGED: ur.ac_first_crit == "damaged",
        R_UNCON_NEVER: ur.unconscious_restart == "never",
        R_STAND_HEAT: ur.stand_heat_points,
        R_OUT_CODE: ur.out_code,
        R_ENG_HEAT_SHUT: ur.engine_heat_while_shutdown,
        R_EACH_POINT: ur.consciousness_rolls == "each_point",
        R_FAILED_FALL: ur.failed_stand == "fall",
        R_WAKE_SAME: ur.wake_roll == "same_turn",
        R_PRONE_ONE_ARM: ur.prone_fire == "one-arm",
        R_CLOSING_CURRENT: scn.per_trial_range,
        R_ATTACKS_ALL: pr.duel_attacks == "all",
        R_KNOCK_MODE: KNOCK_MODES.index(pr.knockdown_value),
        R_HIP_CEIL: pr.hip_mp_rounding == "ceil",
        R_HEAT_JUMP: pr.heat_reduces_jump,
        R_MOVE_PSR: pr.move_damage_psr,
        R_FALL_MEGAMEK: cr.fall_pilot_damage == "megamek",
        R_PILOT_DAMAGE: cr.pilot_damage,
        R_PSR_OWN: cr.psr_modifiers != "cumulative",
        R_AUTO_FAIL: cr.immobile_psr == "auto-fail",
        R_PAIR_MOD: cr.hand_and_lower_arm_missing_mod,
        R_AIM_MOD: aimed[1],
        R_AIMED: aimed[0] is not None,
        R_JUMP_RATING: fr.jump_heat == "rating",
        R_AMS_DECLARED: fr.ams_engages == "declared",
        R_EXPL_SHUT: fr.explosion_while_shutdown,
        R_PER_TRIAL: scn.per_trial_range,
        R_TURNS: scn.turns,
        R_CLOSING_FROM: scn.closing_from,
        R_MAX_RANGE: max(scn.ranges) if scn.ranges else 1,
        R_MASC: ur.masc == "sprint",
        # issue 22: movement chosen per turn by the tactics (sim.classic.duel.tactics)
        R_TACTICS: scn.free,
        R_START: scn.start_distance,
        R_INITIATIVE: ("roll", "a", "b").index(ur.duel_initiative),
        # issue 19: when a coolant pod is used (sim.classic.equipment_rules.COOLANT_USE)
        R_COOLANT: ER.COOLANT_USE.index(ur.coolant_pod),
    }
    for k, v in vals.items():
        ri[k] = int(v)
    assert OUT_REASONS[0] == "none"
    return ri


def compile_scenario(scn: DuelScenario) -> Compiled:
    """The flat arrays of ``scn`` (every unit of :attr:`DuelScenario.units`), ready for the
    kernel."""
    from sim.classic.duel.forces import targeting_code

    keys, turn_sit, run_sit, adj = situations(scn)
    sides = scn.unit_sides
    # ``other``: the unit's nominal target, the other side's first 'Mech (the fire tables'
    # target; :func:`supported` refuses a force whose targets differ in what is read of it)
    units = [_unit(s, scn.units[sides.index(1 - sides[u])], scn, keys, sides[u],
                   sides[:u].count(sides[u]), targeting_code(scn.targeting[sides[u]]))
             for u, s in enumerate(scn.units)]
    glob = global_tables(scn)
    parts: list[Any] = [glob[k] for k in GLOBAL_KEYS]
    for k in UNIT_KEYS:
        rows = [u[k] for u in units]
        shape = tuple(max(r.shape[d] for r in rows) for d in range(rows[0].ndim))
        fill: int | float = -1 if k in ("GAUSS_SLOT", "BOOM_BIN", "ITEM", "BIN_POOL") else 0
        if k == "TN":
            fill = 99
        parts.append(_pad(rows, shape, fill, np.float64 if k in FLOAT_KEYS else np.int64))
    parts += [rule_ints(scn), turn_sit, run_sit, np.array([adj], np.int64),
              np.asarray(scn.ranges, np.int64),
              np.array([[MOVES.index(m) for m in mv] for mv in scn.moves], np.int64),
              sprint_table(scn), masc_table(scn), tactic_situations(scn, keys),
              gun_class_table(scn), pod_table(scn)]
    from sim.classic.engine.arrays import pack

    return Compiled(pack(parts), len(units), scn.turns, DecisionTable(scn, keys, set(turn_sit.tolist())))


def gun_class_table(scn: DuelScenario) -> np.ndarray:
    """``GCLASS[u, g]``: the weapon-class bit of gun g in unit u's half of the tactics'
    decision key (:func:`sim.classic.duel.tactics.weapon_classes`; -1 none or padding)."""
    from sim.classic.duel import tactics as TC

    rows = [TC.weapon_classes(s) for s in scn.sides]
    out = np.full((len(rows), max(max(r.size for r in rows), 1)), -1, np.int64)
    for u, r in enumerate(rows):
        out[u, :r.size] = r
    return out


def tactic_situations(scn: DuelScenario, keys: list[tuple[int, str, str]]) -> np.ndarray:
    """``TAC_SIT[r, mode_a, mode_b]``: the fire situation of a turn whose moves end at
    distance r in those modes (issue 22; -1 where none; one dummy row without tactics)."""
    if not scn.free:
        return np.full((1, 4, 4), -1, np.int64)
    out = np.full((scn.start_distance + 1, 4, 4), -1, np.int64)
    for i, (r, ma, mb) in enumerate(keys):
        if r <= scn.start_distance:
            out[r, MOVES.index(ma), MOVES.index(mb)] = i
    return out
