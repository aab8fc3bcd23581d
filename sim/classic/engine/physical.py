"""Physical attack phase of one unit (numba; reference.md 1.3, 2-4): the legal attacks at
range 1 with their target numbers, damage and ``best`` values, the declaration before weapon
fire (hold an arm's weapons, or declare a charge / DFA and fire nothing), and the resolution
with self-damage, PSR triggers and a missed DFA's fall. The rules of
:mod:`sim.classic.duel.physical` (its docstring states the ``best`` value) and of the duel
kernel's ``_choose_physical``, ``_declare_physical`` and ``_resolve_physical``; every base,
formula and modifier comes in as a compiled table (:mod:`.compile`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.duel import physical as ph
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3, b1, b3, dim
from sim.classic.engine.damage import apply_group, group_on_column, hits_of, item_lost
from sim.classic.engine.dice import d6, two_d6
from sim.classic.engine.fire import P_SHOTS, P_TN
from sim.classic.engine.move import tmm_of, tsm_acting
from sim.classic.engine.psr import LEGS, alive, n_legs, pilot_roll, pre_psr

LA, RA, LL, RL = lay.LA, lay.RA, lay.LL, lay.RL
IS0 = st.IS0
NONE, PUNCH, KICK, HATCHET, PUSH, CHARGE, DFA = (ph.NONE, ph.PUNCH, ph.KICK, ph.HATCHET,
                                                 ph.PUSH, ph.CHARGE, ph.DFA)
#: PH[u, *]: target number by kind (0..6), punch TN per arm, punch damage per arm, damage by
#: kind, legal by kind, the choice
H_TN, H_PTN, H_PDMG, H_DMG, H_LEGAL, H_KIND = 0, 7, 9, 11, 18, 25
N_H = 26
#: arms whose weapons ``best`` may hold for a physical attack, in tie-break order (bit masks
#: of locations): left, right, both
ARM_SETS = np.array([1 << LA, 1 << RA, (1 << LA) | (1 << RA)], np.int64)


@njit(cache=True, inline="always")
def cfg(M: tuple, u: int) -> int:
    """Row of ``u``'s configuration in the punch / kick tables (0 biped, 1 quad)."""
    return 1 if a2(M, L.M_UP, u, C.P_QUAD) else 0


@njit(cache=True, inline="always")
def p_hit(M: tuple, tn: int) -> float:
    """P(2D6 >= tn), 0 above 12."""
    if tn > 12:
        return 0.0
    return b1(M, L.M_P_AT_LEAST, min(max(tn, 0), 13))


@njit(cache=True)
def psr_fail(X: np.ndarray, M: tuple, v: int, pre: int, mod: int) -> float:
    """P(``v`` fails a PSR at +``mod``); 1 when shut down or unconscious under D22
    ``auto-fail``."""
    if a1(M, L.M_RI, C.R_AUTO_FAIL) and (X[v, L.X_SHUT] or X[v, L.X_UNCON]):
        return 1.0
    return 1.0 - p_hit(M, a2(M, L.M_UP, v, C.P_PILOT) + pre + mod)


@njit(cache=True)
def choose(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, can: bool, fired: int,
           declare: bool, declared: int, e_fire: float, PH: np.ndarray, PV: np.ndarray
           ) -> int:
    """Legal physical attacks of ``u`` on its target with their numbers, damage and values
    (``PH[u]``, ``PV[u]``), and the policy's choice. ``declare``: the movement-phase stage
    (only charge / DFA, against the weapon fire ``e_fire`` they cost); otherwise the melee
    attacks and the ``declared`` charge / DFA."""
    S = SS[u]
    y = X[u, L.X_TARGET]
    Y = SS[y]
    allk = a1(M, L.M_RI, C.R_ATTACKS_ALL) != 0
    can = can and X[u, L.X_PRONE] == 0 and alive(Y)
    immobile = X[y, L.X_SHUT] != 0 or X[y, L.X_UNCON] != 0
    common = tmm_of(X, M, y) - 2 * X[y, L.X_PRONE] - (4 if immobile else 0)
    pil = a2(M, L.M_UP, u, C.P_PILOT)
    base = pil + X[u, L.X_MOD] + common
    standing_t = X[y, L.X_PRONE] == 0
    for k in range(N_H):
        PH[u, k] = 0
    for k in range(7):
        PH[u, H_TN + k] = 13
    # TSM acting (issue 19): the damage tables' TSM half (compile.py, sim.classic.damage)
    tsm3 = 3 if tsm_acting(X, M, u) else 0
    # punches (reference.md 1.3; D4 pair modifier, D5 minimum in the damage table)
    for j in range(2):
        arm = LA if j == 0 else RA
        present = S[IS0 + arm] > 0
        sh_gone = hits_of(S, arm, a3(M, L.M_ACT, u, C.A_SHOULDER, arm), M) > 0
        has_sh = a3(M, L.M_ACT, u, C.A_SHOULDER, arm) != 0
        ua = 1 if hits_of(S, arm, a3(M, L.M_ACT, u, C.A_UPPER_ARM, arm), M) > 0 else 0
        la_missing = a3(M, L.M_ACT, u, C.A_LOWER_ARM, arm) == 0
        hand_missing = a3(M, L.M_ACT, u, C.A_HAND, arm) == 0
        la = 1 if (hits_of(S, arm, a3(M, L.M_ACT, u, C.A_LOWER_ARM, arm), M) > 0 or la_missing) else 0
        hand = 1 if (hits_of(S, arm, a3(M, L.M_ACT, u, C.A_HAND, arm), M) > 0 or hand_missing) else 0
        mod = 2 * ua + (a1(M, L.M_RI, C.R_PAIR_MOD) if (la_missing and hand_missing) else 2 * la + hand)
        # claws (issue 19; MegaMek PunchAttackAction): +1 in the hand's place, ceil(W/7)
        # (PUNCH_DMG 6..11); destroyed claws punch as a hand-less arm
        claw = a2(M, L.M_UP, u, C.P_CLAW_LA + j)
        clawed = claw >= 0 and not item_lost(S, M, u, claw, 1)
        if clawed:
            mod = 2 * ua + 2 * la + 1
        ok = (present and not sh_gone and has_sh and can and not (fired >> arm) & 1
              and standing_t and a2(M, L.M_UP, u, C.P_NOPUNCH) == 0)
        PH[u, H_PTN + j] = base + a1(M, L.M_BASE, PUNCH) + mod if ok else 13
        PH[u, H_PDMG + j] = a2(M, L.M_PUNCH_DMG, u, (6 if clawed else 0) + min(ua + la, 2) + tsm3)
    # kick: every leg present and every hip intact; a biped kicks with a leg, a quad with a
    # front leg (LA/RA; MegaMek KickAttackAction, sim.classic.quad)
    quad = a2(M, L.M_UP, u, C.P_QUAD) != 0
    kick_ok = can
    for i in range(n_legs(M, u)):
        leg = LEGS[i]
        kick_ok = kick_ok and S[IS0 + leg] > 0 and hits_of(S, leg, a3(M, L.M_ACT, u, C.A_HIP, leg), M) == 0
    ktn = 13
    kdmg = 0
    for j in range(2):
        leg = (LA if j == 0 else RA) if quad else (LL if j == 0 else RL)
        ul = 1 if hits_of(S, leg, a3(M, L.M_ACT, u, C.A_UPPER_LEG, leg), M) > 0 else 0
        ll = 1 if hits_of(S, leg, a3(M, L.M_ACT, u, C.A_LOWER_LEG, leg), M) > 0 else 0
        ft = 1 if hits_of(S, leg, a3(M, L.M_ACT, u, C.A_FOOT, leg), M) > 0 else 0
        tn = base + a1(M, L.M_BASE, KICK) + 2 * ul + 2 * ll + ft if (
            kick_ok and not (fired >> leg) & 1) else 13
        if tn < ktn:
            ktn = tn
            kdmg = a2(M, L.M_KICK_DMG, u, min(ul + ll, 2) + tsm3)
    PH[u, H_TN + KICK] = ktn
    PH[u, H_DMG + KICK] = kdmg
    # physical weapon (hatchet, or a sword in its place: P_CLUB_MOD): its arm's shoulder and
    # hand intact
    item = a2(M, L.M_UP, u, C.P_HATCH_ITEM)
    if allk and item >= 0:
        arm = a2(M, L.M_UP, u, C.P_HATCH_ARM)
        ok = (can and standing_t and not (fired >> arm) & 1 and S[IS0 + arm] > 0
              and not item_lost(S, M, u, item, 1))
        for a in (C.A_SHOULDER, C.A_HAND):
            m = a3(M, L.M_ACT, u, a, arm)
            ok = ok and m != 0 and hits_of(S, arm, m, M) == 0
        ua = 1 if hits_of(S, arm, a3(M, L.M_ACT, u, C.A_UPPER_ARM, arm), M) > 0 else 0
        la = 1 if hits_of(S, arm, a3(M, L.M_ACT, u, C.A_LOWER_ARM, arm), M) > 0 else 0
        if ok:
            PH[u, H_TN + HATCHET] = (base + a1(M, L.M_BASE, HATCHET) + a2(M, L.M_UP, u, C.P_CLUB_MOD)
                                     + 2 * ua + 2 * la + a1(M, L.M_RI, C.R_AIM_MOD))
    PH[u, H_DMG + HATCHET] = a2(M, L.M_UP, u, C.P_HATCH_DMG_TSM if tsm3 else C.P_HATCH_DMG)
    # push: both arms present with shoulders (a destroyed one +2), none fired; not a quad
    push_ok = can and standing_t and allk and not quad
    sh_mod = 0
    for arm in (LA, RA):
        m = a3(M, L.M_ACT, u, C.A_SHOULDER, arm)
        push_ok = push_ok and S[IS0 + arm] > 0 and not (fired >> arm) & 1 and m != 0
        if hits_of(S, arm, m, M) > 0:
            sh_mod += 2
    if push_ok:
        PH[u, H_TN + PUSH] = base + a1(M, L.M_BASE, PUSH) + sh_mod
    # charge (moved on the ground) and DFA (jumped)
    diff = pil - a2(M, L.M_UP, y, C.P_PILOT)
    cok = can and standing_t and X[u, L.X_HEX] > 0 and X[u, L.X_JUMPED] == 0 and allk
    dok = can and X[u, L.X_JUMPED] != 0 and allk
    if not declare:
        cok = cok and declared == CHARGE
        dok = dok and declared == DFA
    if cok:
        PH[u, H_TN + CHARGE] = base + diff + a1(M, L.M_BASE, CHARGE)
    PH[u, H_DMG + CHARGE] = a2(M, L.M_CHARGE_DMG, u, min(max(X[u, L.X_HEX] - 1, 0), dim(M, L.M_CHARGE_DMG, 1) - 1))
    if dok:
        PH[u, H_TN + DFA] = pil + common + diff + a1(M, L.M_BASE, DFA)
    PH[u, H_DMG + DFA] = a2(M, L.M_UP, u, C.P_DFA_DMG)
    # values (module docstring of sim.classic.duel.physical)
    mode = a1(M, L.M_RI, C.R_KNOCK_MODE)
    knock = 0.0
    if standing_t and mode > 0:
        knock = float(a2(M, L.M_UP, y, C.P_KNOCK_FALL))
        if mode == 2:
            knock += float(a2(M, L.M_UP, u, C.P_KNOCK_KICK))
    pre_s = pre_psr(S, M, u)
    pre_t = pre_psr(Y, M, y)
    own_fall = float(a2(M, L.M_UP, u, C.P_FALL))
    for k in range(8):
        PV[u, k] = 0.0
    PV[u, PUNCH] = (p_hit(M, PH[u, H_PTN]) * PH[u, H_PDMG]
                    + p_hit(M, PH[u, H_PTN + 1]) * PH[u, H_PDMG + 1])
    pk = p_hit(M, ktn)
    PV[u, KICK] = pk * (kdmg + psr_fail(X, M, y, pre_t, a1(M, L.M_PSR_T, KICK)) * knock) - (
        (1.0 - pk) * psr_fail(X, M, u, pre_s, a1(M, L.M_HEAT_CONST, 7)) * own_fall)
    PV[u, HATCHET] = p_hit(M, PH[u, H_TN + HATCHET]) * PH[u, H_DMG + HATCHET]
    PV[u, PUSH] = p_hit(M, PH[u, H_TN + PUSH]) * (psr_fail(X, M, y, pre_t, a1(M, L.M_PSR_T, PUSH)) * knock)
    pc = p_hit(M, PH[u, H_TN + CHARGE])
    PV[u, CHARGE] = pc * (PH[u, H_DMG + CHARGE] + psr_fail(X, M, y, pre_t, a1(M, L.M_PSR_T, CHARGE))
                          * knock) - pc * (a2(M, L.M_UP, y, C.P_CHARGE_SELF) + own_fall * psr_fail(
                              X, M, u, pre_s, a1(M, L.M_PSR_S, CHARGE)))
    pd = p_hit(M, PH[u, H_TN + DFA])
    PV[u, DFA] = pd * (PH[u, H_DMG + DFA] + psr_fail(X, M, y, pre_t, a1(M, L.M_PSR_T, DFA)) * knock) - (
        pd * (a2(M, L.M_UP, u, C.P_DFA_SELF) + own_fall * psr_fail(X, M, u, pre_s, a1(M, L.M_PSR_S, DFA)))
        + (1.0 - pd) * a2(M, L.M_UP, u, C.P_DFA_MISS))
    PH[u, H_LEGAL + PUNCH] = 1 if (PH[u, H_PTN] <= 12 or PH[u, H_PTN + 1] <= 12) else 0
    for k in range(KICK, DFA + 1):
        PH[u, H_LEGAL + k] = 1 if PH[u, H_TN + k] <= 12 else 0
    kind = NONE
    if a2(M, L.M_UP, u, C.P_PHYS) != C.PHYS_NONE:
        best_v = 0.0
        for k in range(PUNCH, PUSH + 1):
            if PH[u, H_LEGAL + k] and PV[u, k] > best_v:
                kind = k
                best_v = PV[u, k]
        if declare:
            best_v = e_fire + best_v
            kind = NONE
            for k in (CHARGE, DFA):
                if PH[u, H_LEGAL + k] and PV[u, k] > best_v:
                    kind = k
                    best_v = PV[u, k]
    if declare:
        if kind != CHARGE and kind != DFA:
            kind = NONE
    else:
        if kind == CHARGE or kind == DFA:
            kind = NONE
        if declared == CHARGE or declared == DFA:
            kind = declared
    if kind != NONE and not PH[u, H_LEGAL + kind]:
        kind = NONE
    PH[u, H_KIND] = kind
    return kind


@njit(cache=True)
def best_melee(PH: np.ndarray, PV: np.ndarray, u: int) -> float:
    """Value of the best legal punch / kick / hatchet / push (0 when none)."""
    best = 0.0
    for k in range(PUNCH, PUSH + 1):
        if PH[u, H_LEGAL + k] and PV[u, k] > best:
            best = PV[u, k]
    return best


@njit(cache=True)
def guns_in(M: tuple, u: int, locs: int) -> int:
    """Bit mask of the guns of ``u`` mounted in the locations ``locs`` (a location mask)."""
    out = 0
    for g in range(a2(M, L.M_UP, u, C.P_NGUN)):
        loc = a3(M, L.M_GI, u, g, C.G_LOC)
        if loc >= 0 and (locs >> loc) & 1:
            out |= 1 << g
    return out


@njit(cache=True)
def planned_locations(M: tuple, u: int, fire: int) -> int:
    out = 0
    for g in range(a2(M, L.M_UP, u, C.P_NGUN)):
        if (fire >> g) & 1 and a3(M, L.M_GI, u, g, C.G_LOC) >= 0:
            out |= 1 << a3(M, L.M_GI, u, g, C.G_LOC)
    return out


@njit(cache=True)
def expected_fire(M: tuple, P: np.ndarray, u: int, fire: int) -> float:
    """Expected weapon damage of a fire plan: P(hit) x mean damage given a hit."""
    out = 0.0
    for g in range(a2(M, L.M_UP, u, C.P_NGUN)):
        if (fire >> g) & 1:
            out += p_hit(M, P[u, P_TN, g]) * b3(M, L.M_MEAN, u, g, P[u, P_SHOTS, g])
    return out


@njit(cache=True)
def declare_unit(SS: np.ndarray, X: np.ndarray, P: np.ndarray, M: tuple, u: int, can: bool,
                 PH: np.ndarray, PV: np.ndarray) -> None:
    """What ``u`` commits to at range 1 before weapon fire (``X_DECL``, ``X_HOLD``): the best
    of firing as planned then the best melee attack with the limbs that did not fire,
    (``best`` only) holding one arm's or both arms' weapons for one, or a charge / DFA that
    fires nothing; the first strictly larger value wins."""
    fire = X[u, L.X_FIRE]
    planned = planned_locations(M, u, fire)
    e_all = expected_fire(M, P, u, fire)
    kind = choose(SS, X, M, u, can, planned, True, NONE, e_all, PH, PV)
    hold = -1
    arms = (1 << LA) | (1 << RA)
    if a2(M, L.M_UP, u, C.P_PHYS) == C.PHYS_BEST and planned & arms:
        cd = PV[u, kind] if kind > 0 else -np.inf
        best = e_all + best_melee(PH, PV, u)
        for j in range(3):
            a = ARM_SETS[j]
            if not planned & a:
                continue
            kept = fire & ~guns_in(M, u, a)
            e_kept = expected_fire(M, P, u, kept)
            choose(SS, X, M, u, can, planned & ~a, True, NONE, e_kept, PH, PV)
            v_b = e_kept + best_melee(PH, PV, u)
            if v_b > best:
                hold = j
            best = max(best, v_b)
        if not (kind > 0 and cd > best):
            kind = NONE
        if kind != NONE:
            hold = -1
    X[u, L.X_DECL] = kind
    X[u, L.X_HOLD] = hold


@njit(cache=True)
def commit(X: np.ndarray, M: tuple, u: int) -> None:
    """Apply ``u``'s declaration to its fire plan: a charge / DFA fires nothing, a hold
    clears those arms' guns."""
    if X[u, L.X_DECL] > 0:
        X[u, L.X_FIRE] = 0
    elif X[u, L.X_HOLD] >= 0:
        X[u, L.X_FIRE] &= ~guns_in(M, u, ARM_SETS[X[u, L.X_HOLD]])


@njit(cache=True)
def _groups_to(S: np.ndarray, M: tuple, u: int, total: int, column: int, table: int,
               D: np.ndarray) -> None:
    """``total`` in 5-point groups (reference.md 2.1), each on the standard column
    ``column`` or, with ``table`` 1 (punch) / 2 (kick), on that 1D6 table."""
    left = total
    while left > 0:
        g = min(5, left)
        left -= g
        if table == 1:
            apply_group(S, M, u, a2(M, L.M_PUNCH_FRONT, cfg(M, u), d6(D, L.K_PHYS_LOC)), 0, g, 0, D)
        elif table == 2:
            apply_group(S, M, u, a2(M, L.M_KICK_FRONT, cfg(M, u), d6(D, L.K_PHYS_LOC)), 0, g, 0, D)
        else:
            group_on_column(S, M, u, column, g, D)


@njit(cache=True)
def add_trigger(X: np.ndarray, v: int, cnt: int, mod: int) -> None:
    """Append a PSR trigger (count, situational modifier) to ``v``'s list for the phase. An
    entry holds ``count`` rolls and the sum of their modifiers (:func:`.psr.psr_phase`: each
    roll at the entry's mean modifier under D19 ``own``). With more attackers (N 'Mechs a
    side) a later trigger takes an empty entry or joins one whose rolls have its modifier;
    a third distinct modifier in one phase (a DFA, a charge and a kick on one unit) joins
    the last entry (its rolls then at their mean modifier under ``own``)."""
    n = X[v, L.X_NTRIG]
    if n == 0:
        X[v, L.X_TRIG0_C] = cnt
        X[v, L.X_TRIG0_M] = mod
    elif n == 1:
        X[v, L.X_TRIG1_C] = cnt
        X[v, L.X_TRIG1_M] = mod
    elif cnt > 0:
        c0, c1 = X[v, L.X_TRIG0_C], X[v, L.X_TRIG1_C]
        if c1 == 0 or X[v, L.X_TRIG1_M] * cnt == mod * c1:
            X[v, L.X_TRIG1_C] += cnt
            X[v, L.X_TRIG1_M] += mod
        elif c0 == 0 or X[v, L.X_TRIG0_M] * cnt == mod * c0:
            X[v, L.X_TRIG0_C] += cnt
            X[v, L.X_TRIG0_M] += mod
        else:
            X[v, L.X_TRIG1_C] += cnt
            X[v, L.X_TRIG1_M] += mod
    X[v, L.X_NTRIG] = n + 1


@njit(cache=True)
def resolve(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, PH: np.ndarray, D: np.ndarray
            ) -> None:
    """Roll ``u``'s chosen attack and apply its damage (reference.md 2-4)."""
    S = SS[u]
    y = X[u, L.X_TARGET]
    Y = SS[y]
    kind = PH[u, H_KIND]
    dmg = 0
    own = 0
    t_psr, t_mod, s_psr, s_mod = 0, 0, 0, 0
    if kind == PUNCH:
        for j in range(2):
            tn = PH[u, H_PTN + j]
            if tn <= 12 and two_d6(D, L.K_PHYS) >= tn:
                loc = a2(M, L.M_PUNCH_FRONT, cfg(M, y), d6(D, L.K_PHYS_LOC))
                d = PH[u, H_PDMG + j]
                if d > 0:
                    apply_group(Y, M, y, loc, 0, d, 0, D)
                    dmg += d
    elif kind == KICK:
        if two_d6(D, L.K_PHYS) >= PH[u, H_TN + KICK]:
            t_psr += 1
            d = PH[u, H_DMG + KICK]
            if d > 0:
                if X[y, L.X_PRONE]:
                    group_on_column(Y, M, y, 0, d, D)
                else:
                    apply_group(Y, M, y, a2(M, L.M_KICK_FRONT, cfg(M, y), d6(D, L.K_PHYS_LOC)), 0, d, 0, D)
                dmg += d
        else:
            s_psr += 1
    elif kind != NONE:
        hit = two_d6(D, L.K_PHYS) >= PH[u, H_TN + kind]
        if kind == HATCHET and hit:
            d = PH[u, H_DMG + HATCHET]
            if a1(M, L.M_RI, C.R_AIMED):
                apply_group(Y, M, y, a2(M, L.M_HATCH_TABLE, u, d6(D, L.K_PHYS_LOC)), 0, d, 0, D)
            else:
                group_on_column(Y, M, y, 0, d, D)
            dmg += d
        elif kind == PUSH and hit:
            t_psr += 1
        elif hit:       # charge or DFA
            t_psr += 1
            t_mod += a1(M, L.M_PSR_T, kind)
            s_psr += 1
            s_mod += a1(M, L.M_PSR_S, kind)
            dmg += PH[u, H_DMG + kind]
            if kind == CHARGE:
                _groups_to(Y, M, y, PH[u, H_DMG + CHARGE], 0, 0, D)
                own = a2(M, L.M_UP, y, C.P_CHARGE_SELF)
                _groups_to(S, M, u, own, 0, 0, D)
            else:
                if X[y, L.X_PRONE]:
                    _groups_to(Y, M, y, PH[u, H_DMG + DFA], 3, 0, D)
                else:
                    _groups_to(Y, M, y, PH[u, H_DMG + DFA], 0, 1, D)
                own = a2(M, L.M_UP, u, C.P_DFA_SELF)
                _groups_to(S, M, u, own, 0, 2, D)
        if kind == DFA and not hit and alive(S):
            dfa_miss_fall(S, X, M, u, D)
    X[y, L.X_PDMG] += dmg
    X[u, L.X_PDMG] += own
    X[u, L.X_DEALT] += dmg
    add_trigger(X, y, t_psr, t_mod)
    add_trigger(X, u, s_psr, s_mod)


@njit(cache=True)
def dfa_miss_fall(S: np.ndarray, X: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """A missed DFA (reference.md 4.3): an automatic 2-level fall onto the rear column; the
    pilot avoids 1 damage at Piloting + pre-existing + 2 (D10 ``tw``) or + 1 (``megamek``)."""
    X[u, L.X_PRONE] = 1
    X[u, L.X_FELL] = 1
    _groups_to(S, M, u, a2(M, L.M_UP, u, C.P_DFA_MISS), 3, 0, D)
    levels = a1(M, L.M_HEAT_CONST, 6)
    tn = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u) + (
        1 if a1(M, L.M_RI, C.R_FALL_MEGAMEK) else levels)
    if alive(S):
        pilot_roll(S, X, M, u, tn, D)
