"""Movement phase of one unit (numba; reference-classic-combat.md 13.1, 14.3, 15): the
attempt to stand up, the MP the 'Mech has now (legs, hips, heat, jump jets), hexes moved,
attacker modifier and heat in its mode, and the PSR for running or jumping damaged (the
rules of :mod:`sim.classic.duel.physical`'s ``walk_mp`` / ``run_mp`` / ``jump_mp`` /
``move_of`` and of the duel kernel's ``_movement``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3, dim
from sim.classic.engine.damage import hits_of, item_lost
from sim.classic.engine.dice import two_d6
from sim.classic.engine.psr import (
    LEGS,
    alive,
    fall,
    gyro_dead,
    gyro_trigger_hits,
    hips_hit,
    leg_events,
    legs_gone,
    n_legs,
    pre_psr,
)

LL, RL = lay.LL, lay.RL
IS0, GYRO, HIT0 = st.IS0, st.GYRO, st.HIT0
#: movement modes (scenario.MOVES order)
STAND, WALK, RUN, JUMP = 0, 1, 2, 3


@njit(cache=True, inline="always")
def tsm_acting(X: np.ndarray, M: tuple, u: int) -> bool:
    """Triple-strength myomer acts at the unit's heat now (issue 19; ``P_TSM_HEAT`` from
    :func:`sim.classic.equipment_rules.tsm_active`'s threshold, never without TSM)."""
    return X[u, L.X_HEAT] >= a2(M, L.M_UP, u, C.P_TSM_HEAT)


@njit(cache=True, inline="always")
def tsm_mp(X: np.ndarray, M: tuple, u: int) -> int:
    """Walking MP that TSM adds now (:func:`sim.classic.equipment_rules.tsm_walk_bonus`;
    the heat scale's MP loss still applies after it)."""
    return a2(M, L.M_UP, u, C.P_TSM_MP) if tsm_acting(X, M, u) else 0


@njit(cache=True)
def current_mp(S: np.ndarray, X: np.ndarray, M: tuple, u: int) -> tuple:
    """(walk, run, jump) MP now (14.3, 13.1; TSM's walking MP in its heat window). A quad
    (:func:`sim.classic.quad.walk_mp`, :func:`~sim.classic.quad.run_mp`): its legs destroyed
    first (``QUAD_MP``), then each destroyed hip halves the MP left and each other leg
    actuator costs 1; it runs with at most one leg destroyed."""
    gone = legs_gone(S, M, u)
    quad = a2(M, L.M_UP, u, C.P_QUAD) != 0
    hips = 0
    acts = 0
    for i in range(n_legs(M, u)):
        leg = LEGS[i]
        ok = S[IS0 + leg] > 0
        hip = ok and hits_of(S, leg, a3(M, L.M_ACT, u, C.A_HIP, leg), M) > 0
        if hip:
            hips += 1
        other = hits_of(S, leg, a3(M, L.M_ACT, u, C.A_UPPER_LEG, leg) | a3(M, L.M_ACT, u, C.A_LOWER_LEG, leg)
                        | a3(M, L.M_ACT, u, C.A_FOOT, leg), M)
        if ok and not hip:
            acts += other
    walk = a2(M, L.M_UP, u, C.P_WALK) + tsm_mp(X, M, u)
    ceil = a1(M, L.M_RI, C.R_HIP_CEIL) != 0
    if quad:
        g = min(gone, dim(M, L.M_QUAD_MP, 1) - 1)
        k = a2(M, L.M_QUAD_MP, 0, g)
        mp = k if a2(M, L.M_QUAD_MP, 1, g) else walk - k
        if mp > 0:
            for _ in range(hips):
                mp = (mp + 1) // 2 if ceil else mp // 2
            mp -= acts
    else:
        half = (walk + 1) // 2 if ceil else walk // 2
        mp = 0 if hips >= 2 else (half if hips == 1 else walk)
        mp -= acts
        if gone >= 2:
            mp = 0
        elif gone == 1:
            mp = 1
    loss = a1(M, L.M_MP_LOSS, min(X[u, L.X_HEAT], a1(M, L.M_HEAT_CONST, 0)))
    w = max(mp - loss, 0)
    runs = gone <= a2(M, L.M_QUAD_MP, 2, 0) if quad else gone == 0
    # hardened armor costs a running MP (equipment_rules.run_mp_loss: MegaMek Mek.getRunMP)
    r = max((3 * w + 1) // 2 - a2(M, L.M_UP, u, C.P_RUN_LESS), 0) if runs else w
    jets = 0
    for loc in range(8):
        m = a2(M, L.M_JET, u, loc)
        if m:
            jets += a1(M, L.M_POP, m) if S[IS0 + loc] == 0 else hits_of(S, loc, m, M)
    j = a2(M, L.M_UP, u, C.P_JUMP) - jets - (loss if a1(M, L.M_RI, C.R_HEAT_JUMP) else 0)
    return w, r, max(j, 0)


@njit(cache=True)
def stand_up(S: np.ndarray, X: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """A prone 'Mech that can act tries to stand (PSR; a failure falls again under
    ``failed_stand=fall``); ``X_TRIES`` counts the attempt for its heat (C14). Never with
    its gyro destroyed or its legs gone (a biped both, a quad three); a quad with all four
    legs stands without a PSR (:func:`sim.classic.quad.stand`)."""
    X[u, L.X_TRIES] = 0
    quad = a2(M, L.M_UP, u, C.P_QUAD) != 0
    gone = legs_gone(S, M, u)
    top = a2(M, L.M_QUAD_MP, 2, 1) if quad else 2
    if not (X[u, L.X_ACT] and X[u, L.X_PRONE] and not gyro_dead(S, M, u) and gone < top):
        return
    X[u, L.X_TRIES] = 1
    if quad and gone == 0:
        X[u, L.X_PRONE] = 0
        return
    tn = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u)
    if two_d6(D, L.K_PSR) >= tn:
        X[u, L.X_PRONE] = 0
    elif a1(M, L.M_RI, C.R_FAILED_FALL):
        fall(S, X, M, u, tn, D)


@njit(cache=True)
def masc_run(S: np.ndarray, X: np.ndarray, M: tuple, u: int, w: int, r: int,
             D: np.ndarray) -> int:
    """Hexes a running 'Mech moves with its MASC / supercharger under ``masc=sprint``
    (issue 19; the option's reading in sim/classic/duel/rules.py): engaged when the sprint
    MP (``SPRINT``, from ``equipment_rules.sprint_mp``) beat ``r``; the failure roll against
    ``MASC_T`` (2D6 below the target of ``X_MASC_LEVEL`` fails: the systems and both hips
    destroyed, returns -1); the level rises with a use and falls without. ``r`` when not
    engaged."""
    used = False
    out = r
    if a1(M, L.M_RI, C.R_MASC) and X[u, L.X_MASC_GONE] == 0:
        mi = a2(M, L.M_UP, u, C.P_MASC_ITEM)
        si = a2(M, L.M_UP, u, C.P_SC_ITEM)
        col = (1 if mi >= 0 and not item_lost(S, M, u, mi, 1) else 0) + (
            2 if si >= 0 and not item_lost(S, M, u, si, 1) else 0)
        if col > 0 and legs_gone(S, M, u) == 0:
            sprint = a3(M, L.M_SPRINT, u, col, min(w, dim(M, L.M_SPRINT, 2) - 1))
            if sprint > r:
                used = True
                lv = X[u, L.X_MASC_LEVEL]
                if two_d6(D, L.K_PSR) < a2(M, L.M_MASC_T, 0, lv):
                    X[u, L.X_MASC_GONE] = 1
                    for i in range(n_legs(M, u)):
                        S[HIT0 + LEGS[i]] |= a3(M, L.M_ACT, u, C.A_HIP, LEGS[i])
                    out = -1
                else:
                    out = sprint
    X[u, L.X_MASC_LEVEL] = a2(M, L.M_MASC_T, 2 if used else 1, X[u, L.X_MASC_LEVEL])
    return out


@njit(cache=True)
def move(S: np.ndarray, X: np.ndarray, M: tuple, u: int, mode: int, mover: bool,
         D: np.ndarray) -> None:
    """Move in ``mode`` with the MP the 'Mech has now: ``X_HEX``, ``X_MOD``, ``X_JUMPED``,
    ``X_MHEAT`` (13.2, C13); the PSR for running with a damaged gyro or hip or jumping with
    a damaged gyro or leg (``move_damage_psr``)."""
    X[u, L.X_HEX] = 0
    X[u, L.X_MOD] = 0
    X[u, L.X_JUMPED] = 0
    X[u, L.X_MHEAT] = 0
    if mode == STAND or not mover:
        return
    w, r, j = current_mp(S, X, M, u)
    hexes, mod, jumped = 0, 0, 0
    if mode == JUMP:
        hexes = j
        if hexes > 0:
            mod, jumped = 3, 1
    elif mode == RUN:
        hexes = masc_run(S, X, M, u, w, r, D)
        if hexes < r:         # MASC failed: its hips are gone, run with what is left
            w, r, j = current_mp(S, X, M, u)
            hexes = r
        if hexes > 0:
            mod = 2 if hexes > w else 1
    else:
        hexes = w
        if hexes > 0:
            mod = 1
    if jumped:
        jh = a2(M, L.M_UP, u, C.P_JUMP) if a1(M, L.M_RI, C.R_JUMP_RATING) else hexes
        heat = max(a1(M, L.M_JUMP_HEAT_MIN, 0), jh)
    else:
        heat = a1(M, L.M_MOVE_HEAT, mod)
    X[u, L.X_HEX] = hexes
    X[u, L.X_MOD] = mod
    X[u, L.X_JUMPED] = jumped
    X[u, L.X_MHEAT] = heat
    if a1(M, L.M_RI, C.R_MOVE_PSR) and (mode == RUN or mode == JUMP):
        gyro = gyro_trigger_hits(S, M, u) > 0
        if mode == RUN:
            hip = hips_hit(S, M, u) > 0
            need = mod == 2 and (gyro or hip)
        else:
            need = jumped == 1 and (gyro or leg_events(S, M, u) > 0 or legs_gone(S, M, u) > 0)
        if need and X[u, L.X_PRONE] == 0 and alive(S):
            tn = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u)
            if two_d6(D, L.K_PSR) < tn:
                fall(S, X, M, u, tn, D)


@njit(cache=True, inline="always")
def tmm_of(X: np.ndarray, M: tuple, u: int) -> int:
    """Target movement modifier of unit ``u`` from what it moved (reference.md 1.2.2)."""
    return a1(M, L.M_TMM, min(X[u, L.X_HEX], 99)) + X[u, L.X_JUMPED]
