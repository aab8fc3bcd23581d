"""Damage to one unit's state row (numba): armor, structure, transfer, through-armor
criticals, critical hits and their effects, ammunition and Gauss explosions with CASE,
destruction (reference-classic-combat.md 14.1-14.5; reference.md 3.2, 5.2-5.5).

The same rules, order and state row as :mod:`sim.classic.damage_state.apply` (its docstring
states them), one group of one unit at a time: ``S`` is that unit's row of the
:mod:`sim.classic.damage_state.state` layout, ``M`` the compiled scenario (its damage model
arrays for unit ``u``), ``D`` the dice (:mod:`.dice`). The test
``tests/classic_engine/test_damage_parity.py`` feeds both the same locations, damage and dice
and compares the states exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic import equipment_rules as ER
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3
from sim.classic.engine.dice import below, two_d6

HD, CT, LT, RT, LA, RA = lay.HD, lay.CT, lay.LT, lay.RT, lay.LA, lay.RA
IS0, HIT0, AMMO0 = st.IS0, st.HIT0, st.AMMO0
PILOT, ENGINE, GYRO, SENSORS, LIFE, COCKPIT, CAUSE = (st.PILOT, st.ENGINE, st.GYRO, st.SENSORS,
                                                      st.LIFE, st.COCKPIT, st.CAUSE)
EXPLOSIONS, BLOWN, CRIT, PEND = st.EXPLOSIONS, st.BLOWN, st.CRIT, st.PEND
W_LOC, W_DMG, W_REAR, W_EXPL, W_TAC = st.W_LOC, st.W_DMG, st.W_REAR, st.W_EXPL, st.W_TAC
SUS_LOC, SUS_DMG, SUS_REAR, CLOC, NCRIT, NDET = (st.SUS_LOC, st.SUS_DMG, st.SUS_REAR, st.CLOC,
                                                 st.NCRIT, st.NDET)
CMOD, SUS_CMOD = st.CMOD, st.SUS_CMOD
N_ARMOR = st.N_ARMOR
C_NONE, C_HEAD, C_CT, C_ENGINE, C_PILOT, C_AMMO = (st.C_NONE, st.C_HEAD, st.C_CT, st.C_ENGINE,
                                                   st.C_PILOT, st.C_AMMO)
N_COUNTED = 5
IDLE_ROW = st.IDLE_ROW.copy()
N_SCRATCH = len(st.SCRATCH)

#: the rules of :mod:`sim.classic.equipment_rules`, compiled as written (one coding)
structure_take = njit(cache=True, inline="always")(ER.structure_take)
lamellor_damage = njit(cache=True, inline="always")(ER.lamellor_damage)


@njit(cache=True, inline="always")
def crit_mod(d: int) -> int:
    """C15 TacOps advanced criticals: + min((damage - 1) // 5, 4), at least 0."""
    return min(max((d - 1) // 5, 0), 4)


@njit(cache=True)
def apply_group(S: np.ndarray, M: tuple, u: int, loc: int, rear: int, dmg: int, tac: int,
                D: np.ndarray) -> None:
    """One damage group (14.1) at ``loc`` (rear armor ``rear``), ``tac`` a through-armor
    critical chance; a destroyed 'Mech takes nothing."""
    if S[CAUSE] != C_NONE:
        return
    # fast path (the duel kernel's ``_apply_at``): a group the location's armor absorbs,
    # with no critical chance, only lowers that armor (and hurts the MechWarrior on the head)
    col = a2(M, L.M_ARMOR_COL, loc, rear)
    if tac == 0 and 0 < dmg <= S[col] and S[IS0 + loc] > 0 and a2(M, L.M_UP, u, C.P_LAMELLOR) == 0:
        S[col] -= dmg
        if loc == HD and a2(M, L.M_UP, u, C.P_TORSO_CP) == 0:   # torso cockpit: no pilot hit
            S[PILOT] += 1
            settle_pilot(S)
        return
    S[W_LOC] = loc
    S[W_DMG] = dmg
    S[W_REAR] = rear
    S[W_TAC] = tac
    S[W_EXPL] = 0
    if a1(M, L.M_RI, C.R_ADV_CRIT):
        S[CMOD] = crit_mod(dmg)
    resolve(S, M, u, D)


@njit(cache=True)
def explode(S: np.ndarray, M: tuple, u: int, index: int, D: np.ndarray) -> None:
    """Explode explosive item ``index`` (a bin, or ``nbins + g`` for Gauss weapon g)."""
    if S[CAUSE] == C_NONE:
        S[PEND] |= 1 << index
    resolve(S, M, u, D)


@njit(cache=True)
def resolve(S: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """Run the pending work (current damage, explosions, suspended damage) to the end."""
    for _ in range(1000):
        live = S[CAUSE] == C_NONE
        if live and (S[PEND] != 0 or S[SUS_LOC] >= 0):
            _explosions(S, M, u)
        if not (live and S[W_LOC] >= 0):
            break
        _step(S, M, u, D)
    for j in range(N_SCRATCH):
        S[W_LOC + j] = IDLE_ROW[j]
    S[PEND] = 0


@njit(cache=True)
def _explosions(S: np.ndarray, M: tuple, u: int) -> None:
    pend = S[PEND] != 0
    if pend and S[W_LOC] >= 0 and S[W_EXPL] == 0 and S[SUS_LOC] < 0:
        S[SUS_LOC] = S[W_LOC]
        S[SUS_DMG] = S[W_DMG]
        S[SUS_REAR] = S[W_REAR]
        S[SUS_CMOD] = S[CMOD]
        S[W_LOC] = -1
    if pend and S[W_LOC] < 0:
        _start_explosion(S, M, u)
    if S[W_LOC] < 0 and S[PEND] == 0 and S[SUS_LOC] >= 0:
        S[W_LOC] = S[SUS_LOC]
        S[W_DMG] = S[SUS_DMG]
        S[W_REAR] = S[SUS_REAR]
        S[CMOD] = S[SUS_CMOD]
        S[W_EXPL] = 0
        S[W_TAC] = 0
        S[SUS_LOC] = -1


@njit(cache=True)
def _start_explosion(S: np.ndarray, M: tuple, u: int) -> None:
    """The lowest pending explosion (14.4): shots x damage per shot (Gauss: its damage) to
    the location's structure; the pilot takes 2 for ammunition."""
    p = S[PEND]
    e = 0
    while not (p >> e) & 1:
        e += 1
    S[PEND] = p & ~(1 << e)
    is_bin = a2(M, L.M_EXPL_IS_BIN, u, e) != 0
    loc = a2(M, L.M_EXPL_LOC, u, e)
    shots = S[AMMO0 + e] if is_bin else 1
    dmg = shots * a2(M, L.M_EXPL_PER, u, e)
    if is_bin:
        S[AMMO0 + e] = 0
    if a1(M, L.M_RI, C.R_CASE2_ONE) and a2(M, L.M_CASE2, u, loc):
        dmg = min(dmg, 1)
    if a1(M, L.M_RI, C.R_EXPL_CORE):
        prot = 2 if a2(M, L.M_CASE2, u, loc) else (1 if a2(M, L.M_CASE, u, loc) else 0)
        to_is = min(dmg, a1(M, L.M_CORE_IS_CAP, prot)) if is_bin else dmg
        rest = dmg - to_is if is_bin else 0
        if prot > 0:
            rest = min(rest, a1(M, L.M_CORE_ARMOR_CAP, 0))
        col = a2(M, L.M_ARMOR_COL, loc, 1)
        S[col] -= min(S[col], rest)
        dmg = to_is
    if dmg > 0:
        S[EXPLOSIONS] += 1
        if is_bin:
            S[PILOT] += 2
        S[W_LOC] = loc
    else:
        S[W_LOC] = -1
    S[W_DMG] = dmg
    if a1(M, L.M_RI, C.R_ADV_CRIT):
        S[CMOD] = crit_mod(dmg)
    S[W_EXPL] = 1
    S[W_REAR] = 0
    S[W_TAC] = 0


@njit(cache=True)
def _step(S: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """One location's worth of damage (14.1 steps 1-5)."""
    loc = S[W_LOC]
    d = S[W_DMG]
    expl = S[W_EXPL] == 1
    tac = S[W_TAC] == 1
    before = S[IS0 + loc]
    gone_before = before == 0
    acol = a2(M, L.M_ARMOR_COL, loc, S[W_REAR])
    armor = S[acol]
    void = False
    if a2(M, L.M_UP, u, C.P_LAMELLOR) and not expl and not gone_before and armor > 0:
        d = lamellor_damage(d, armor)    # ferro-lamellor armor
        void = d == 0                    # cut to nothing: no through-armor critical
    take = 0 if (expl or gone_before) else min(armor, d)
    S[acol] = armor - take
    d -= take
    isd, d = structure_take(a2(M, L.M_UP, u, C.P_STRUCTURE), before, d)
    S[IS0 + loc] = before - isd
    torso = a2(M, L.M_UP, u, C.P_TORSO_CP) != 0   # torso-mounted cockpit (equipment_rules)
    if loc == HD and take + isd > 0 and not expl and not torso:
        S[PILOT] += 1
    now = isd > 0 and before == isd
    ndet = 1 if isd > 0 else 0
    if not a1(M, L.M_RI, C.R_CRIT_DESTROYING) and now:
        ndet = 0
    t = 1 if (tac and not gone_before and not void) else 0
    ndet = ndet + t if a1(M, L.M_RI, C.R_TAC_TWO) else max(ndet, t)
    stop = expl and a2(M, L.M_CONTAINED, u, loc) != 0
    nxt = a1(M, L.M_TRANSFER, loc)
    go = (gone_before or now) and d > 0 and not stop and nxt >= 0
    S[W_LOC] = nxt if go else -1
    S[W_DMG] = d if go else 0
    S[W_TAC] = 0
    S[W_EXPL] = 1 if (go and expl and a1(M, L.M_RI, C.R_EXPL_STRUCTURE)) else 0
    if expl and (now or (gone_before and d > 0)) and ((loc == HD and not torso) or loc == CT) \
            and S[CAUSE] == 0:
        S[CAUSE] = C_AMMO
    S[CLOC] = loc
    S[NDET] = ndet
    # hardened armor that stopped the whole group: its TAC is rolled at -2 (issue 19;
    # P_HARD_TAC from sim.classic.equipment_rules.hardened_tac_mod)
    hard = a2(M, L.M_UP, u, C.P_HARD_TAC) if (t == 1 and take > 0 and d == 0
                                              and isd == 0) else 0
    S[CMOD] += hard
    if ndet > 0:
        _criticals(S, M, u, D)
    S[CMOD] -= hard
    effects(S, M, u)


@njit(cache=True)
def _criticals(S: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    for _ in range(3):
        if not (S[NDET] > 0 and S[CAUSE] == C_NONE):
            break
        _determination(S, M, u, D)
    S[NDET] = 0


@njit(cache=True)
def _determination(S: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """One roll on the Determining Critical Hits table (reference.md 5.4) and its slots."""
    r = two_d6(D, L.K_CRIT)
    j = a1(M, L.M_DETERMINING, min(r + S[CMOD], 12))
    loc = max(S[CLOC], 0)
    S[NDET] -= 1
    blown = j == 3 and a1(M, L.M_BLOWABLE, loc) != 0
    if blown:
        S[IS0 + loc] = 0
        S[BLOWN] |= 1 << loc
        S[CRIT] |= 1 << loc
        S[NCRIT] = 0
    else:
        S[NCRIT] = j
    for _ in range(3):
        if S[NCRIT] <= 0:
            break
        _slot(S, M, u, D)
    S[NCRIT] = 0


@njit(cache=True)
def _slot(S: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """One critical hit: a uniform pick among the location's hittable slots not yet hit
    (14.2), then its effect (14.3); an ammunition bin with shots and a Gauss weapon's first
    hit explode (14.4)."""
    loc = max(S[CLOC], 0)
    avail = a2(M, L.M_HITTABLE, u, loc) & ~S[HIT0 + loc] & 0xFFF
    if avail == 0:
        S[NCRIT] = 0
        return
    k = below(D, L.K_SLOT, a1(M, L.M_POP, avail))
    slot = a2(M, L.M_NTH, avail, k)
    S[NCRIT] -= 1
    g = a3(M, L.M_GAUSS_SLOT, u, loc, slot)
    if g >= 0:
        it = a3(M, L.M_ITEM, u, loc, slot)
        first = True
        for lc in range(8):
            if S[HIT0 + lc] & a3(M, L.M_ITEM_MASK, u, it, lc):
                first = False
        if first:
            S[PEND] |= 1 << g
    S[HIT0 + loc] |= 1 << slot
    S[CRIT] |= 1 << loc
    b = a3(M, L.M_BOOM_BIN, u, loc, slot)
    if b >= 0 and S[AMMO0 + b] > 0:
        S[PEND] |= 1 << b


@njit(cache=True)
def effects(S: np.ndarray, M: tuple, u: int) -> None:
    """Consequences of destroyed locations and critical slots (14.3, 14.5)."""
    if S[IS0 + LT] == 0:
        S[IS0 + LA] = 0
    if S[IS0 + RT] == 0:
        S[IS0 + RA] = 0
    for c in range(N_ARMOR):
        if S[IS0 + a1(M, L.M_ARMOR_LOC, c)] == 0:
            S[c] = 0
    for c in range(N_COUNTED):
        S[ENGINE + c] = a1(M, L.M_POP, S[HIT0 + a2(M, L.M_COUNT_LOC, u, c)] & a2(M, L.M_COUNT_MASK, u, c) & 0xFFF)
    for i in range(a2(M, L.M_UP, u, C.P_NCMORE)):
        S[ENGINE + a3(M, L.M_COUNT_MORE, u, i, 0)] += a1(M, L.M_POP, S[HIT0 + a3(M, L.M_COUNT_MORE, u, i, 1)] & a3(M, L.M_COUNT_MORE, u, i, 2) & 0xFFF)
    for i in range(a2(M, L.M_UP, u, C.P_NSIDE_ENG)):
        t = a3(M, L.M_SIDE_ENG, u, i, 0)
        if S[IS0 + t] == 0:
            S[ENGINE] += a1(M, L.M_POP, a3(M, L.M_SIDE_ENG, u, i, 1) & ~S[HIT0 + t] & 0xFFF)
    first = C_NONE
    if S[COCKPIT] > 0:
        first = C_PILOT
    elif S[IS0 + HD] == 0 and a2(M, L.M_UP, u, C.P_TORSO_CP) == 0:  # a torso cockpit: not vital
        first = C_HEAD
    elif S[IS0 + CT] == 0:
        first = C_CT
    elif S[ENGINE] >= st.ENGINE_DEAD:
        first = C_ENGINE
    elif S[PILOT] >= st.PILOT_DEAD:
        first = C_PILOT
    if S[PEND] != 0:
        first = C_NONE
    if S[CAUSE] == C_NONE:
        S[CAUSE] = first


@njit(cache=True)
def roll_location(M: tuple, column: int, D: np.ndarray) -> tuple:
    """One standard hit-location roll on ``column`` (0 front, 1 left, 2 right, 3 rear;
    reference.md 3.2): (location, rear, TAC); a 2 is a TAC at the listed location, with C28
    ``floating`` at a location rolled again; with ``tac`` off a plain hit."""
    r = two_d6(D, L.K_LOCATION)
    tac = 1 if (r == 2 and a1(M, L.M_RI, C.R_TAC_ON)) else 0
    if tac and a1(M, L.M_RI, C.R_FLOATING):
        r = two_d6(D, L.K_LOCATION)
    return a2(M, L.M_STD_LOC, column, r), a2(M, L.M_STD_REAR, column, r), tac


@njit(cache=True)
def group_on_column(S: np.ndarray, M: tuple, u: int, column: int, dmg: int,
                    D: np.ndarray) -> None:
    """One damage group rolled on a standard-table column (a living 'Mech only)."""
    if S[CAUSE] != C_NONE:
        return
    loc, rear, tac = roll_location(M, column, D)
    apply_group(S, M, u, loc, rear, dmg, tac, D)


@njit(cache=True, inline="always")
def settle_pilot(S: np.ndarray) -> None:
    """A sixth point of pilot damage kills the MechWarrior: destroyed (14.5)."""
    if S[PILOT] >= st.PILOT_DEAD and S[CAUSE] == C_NONE:
        S[CAUSE] = C_PILOT


@njit(cache=True, inline="always")
def usable_ammo(S: np.ndarray, M: tuple, u: int, b: int) -> int:
    """Shots left in bin ``b`` if its location stands."""
    if S[IS0 + a2(M, L.M_BIN_LOC, u, b)] == 0:
        return 0
    return S[AMMO0 + b]


@njit(cache=True, inline="always")
def hits_of(S: np.ndarray, loc: int, mask: int, M: tuple) -> int:
    """Critical hits among the slots ``mask`` of ``loc``."""
    return a1(M, L.M_POP, S[HIT0 + loc] & mask & 0xFFF)


@njit(cache=True)
def item_lost(S: np.ndarray, M: tuple, u: int, it: int, need: int) -> bool:
    """Item ``it`` destroyed: ``need`` critical hits on its slots (1; C7 ``damaged``
    autocannons 2), or every location holding it destroyed (14.3)."""
    if it < 0:
        return False
    hits = 0
    gone = True
    for loc in range(8):
        m = a3(M, L.M_ITEM_MASK, u, it, loc)
        if m != 0:
            hits += a1(M, L.M_POP, S[HIT0 + loc] & m & 0xFFF)
            if S[IS0 + loc] != 0:
                gone = False
    return hits >= need or gone
