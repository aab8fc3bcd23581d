"""Heat phase of one unit (numba; reference-classic-combat.md 13.4): build-up with engine
hits (C22), dissipation less destroyed sinks, restart (C2, C12) and shutdown with its +3
PSR, the ammunition explosion check (C8 bin choice, C27 while shut down), life-support pilot
damage (C1); coolant pods (issue 19, option ``coolant_pod``). The rules of the duel kernel's ``_heat_phase`` and ``_can_restart``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2
from sim.classic.engine.damage import explode, item_lost, settle_pilot, usable_ammo
from sim.classic.engine.dice import two_d6
from sim.classic.engine.psr import alive, fall, phase_consciousness, pre_psr

ENGINE, LIFE, PILOT = st.ENGINE, st.LIFE, st.PILOT


@njit(cache=True)
def can_restart(X: np.ndarray, M: tuple, u: int, row: int, roll: int) -> bool:
    """A shut-down 'Mech at heat ``row`` restarts (13.4 step 3): below 14 automatically,
    below 30 on ``roll`` >= the avoid number; C12 for an unconscious pilot."""
    if not X[u, L.X_SHUT]:
        return False
    auto = row < a1(M, L.M_HEAT_CONST, 2)
    rolled = row < a1(M, L.M_HEAT_CONST, 1) and roll >= a1(M, L.M_SHUT_AVOID, row)
    uncon = X[u, L.X_UNCON] != 0
    if a1(M, L.M_RI, C.R_UNCON_NEVER):
        return not uncon and (auto or rolled)
    return auto or (not uncon and rolled)


@njit(cache=True)
def coolant_pod(S: np.ndarray, X: np.ndarray, M: tuple, u: int, after: int,
                sinks: int) -> int:
    """Heat a coolant pod of ``u`` sinks this heat phase (issue 19; the rule of
    :func:`sim.classic.equipment_rules.coolant_pod_used` / ``coolant_pod_sinking``, option
    ``coolant_pod`` as ``R_COOLANT``: 0 safe, 1 efficient, 2 dump, 3 never): ``after`` the
    heat after the ordinary dissipation, ``sinks`` the working heat sinks. The first pod
    neither spent nor destroyed is spent (``X_PODS`` bits); one a turn."""
    npod = a2(M, L.M_UP, u, C.P_NPOD)
    mode = a1(M, L.M_RI, C.R_COOLANT)
    if npod == 0 or mode == 3:
        return 0
    if not (mode == 2 or (mode == 0 and after > a2(M, L.M_UP, u, C.P_POD_SAFE))
            or (mode == 1 and after >= sinks)):
        return 0
    for i in range(npod):
        if (X[u, L.X_PODS] >> i) & 1 == 0 and not item_lost(S, M, u, a2(M, L.M_PODS, u, i), 1):
            X[u, L.X_PODS] |= 1 << i
            return max(sinks, 0)
    return 0


@njit(cache=True)
def heat_phase(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, D: np.ndarray) -> None:
    """13.4 for unit ``u`` of a running duel (``X_BUILD`` holds the turn's build-up)."""
    S = SS[u]
    X[u, L.X_SHUT_NOW] = 0
    if alive(S):
        eng = 5 * min(S[ENGINE], 2)
        if not a1(M, L.M_RI, C.R_ENG_HEAT_SHUT) and X[u, L.X_SHUT]:
            eng = 0
        build = X[u, L.X_BUILD] + eng
        if X[u, L.X_STEALTH]:       # stealth armor on this turn (issue 19)
            build += a2(M, L.M_UP, u, C.P_STEALTH_HEAT)
        # external heat of the turn (plasma hits), at most EXTERNAL_HEAT_CAP (issue 19)
        build += min(X[u, L.X_EXT], a1(M, L.M_HEAT_CONST, 9))
        X[u, L.X_EXT] = 0
        lost = 0
        for i in range(a2(M, L.M_UP, u, C.P_NSINK)):
            if item_lost(S, M, u, a2(M, L.M_SINKS, u, i), 1):
                lost += 1
        diss = max(a2(M, L.M_UP, u, C.P_DISS) - a2(M, L.M_UP, u, C.P_SINKPER) * lost, 0)
        h = X[u, L.X_HEAT] + build
        diss += coolant_pod(S, X, M, u, h - diss, a2(M, L.M_UP, u, C.P_POD_SINKS) - lost)
        h -= min(h, diss)
        X[u, L.X_HEAT] = h
        row = min(h, a1(M, L.M_HEAT_CONST, 0))
        roll = two_d6(D, L.K_HEAT)
        restart = (not a1(M, L.M_RI, C.R_RESTART_END)) and can_restart(X, M, u, row, roll)
        uncon = X[u, L.X_UNCON] != 0
        goes = (not X[u, L.X_SHUT]) and row >= a1(M, L.M_HEAT_CONST, 2) and (
            row >= a1(M, L.M_HEAT_CONST, 1) or uncon or roll < a2(M, L.M_SHUT_GO, u, row))
        tn = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u) + a1(M, L.M_HEAT_CONST, 8)
        falls = False
        if goes and not X[u, L.X_PRONE]:
            helpless = uncon and a1(M, L.M_RI, C.R_AUTO_FAIL) != 0
            falls = helpless or two_d6(D, L.K_PSR) < tn
        if restart:
            X[u, L.X_SHUT] = 0
        if goes:
            X[u, L.X_SHUT] = 1
            X[u, L.X_SHUT_EVER] = 1
            X[u, L.X_SHUT_NOW] = 1
        if falls:
            fall(S, X, M, u, tn, D)
        nb = a2(M, L.M_UP, u, C.P_NBIN)
        if nb > 0 and alive(S):
            boom = two_d6(D, L.K_HEAT) < a1(M, L.M_AMMO_AVOID, row)
            if not a1(M, L.M_RI, C.R_EXPL_SHUT) and X[u, L.X_SHUT]:
                boom = False
            if boom:
                which = -1
                best = -1
                for b in range(nb):
                    us = usable_ammo(S, M, u, b)
                    per = a2(M, L.M_BIN_PER, u, b)
                    if us > 0 and per > 0:
                        score = per * 100000 + us
                        if score > best:
                            best = score
                            which = b
                if which >= 0:
                    explode(S, M, u, which, D)
        if alive(S) and S[LIFE] > 0:
            S[PILOT] += (1 if row >= a1(M, L.M_RI, C.R_LS_ONE) else 0) + (1 if row >= a1(M, L.M_RI, C.R_LS_TWO)
                                                               else 0)
            if a2(M, L.M_UP, u, C.P_TORSO_CP) and row > 0:   # a torso cockpit: +1 (rules)
                S[PILOT] += 1
    settle_pilot(S)
    phase_consciousness(S, X, M, u, D)
