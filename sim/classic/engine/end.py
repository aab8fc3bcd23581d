"""End phase of one unit (numba; reference.md 4.5, reference-classic-combat.md 14.5, 15
step 6): consciousness rolls still due, the wake-up roll (``wake_roll``), a restart under
C2 ``end``, and the end of the duel for the unit: destroyed (14.5) or out of the fight
(C21). The rules of the duel kernel's ``_end_phase`` and ``out_of_fight``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3
from sim.classic.engine.damage import hits_of, settle_pilot
from sim.classic.engine.dice import two_d6
from sim.classic.engine.fire import gun_lost, pool_ammo
from sim.classic.engine.heat import can_restart
from sim.classic.engine.psr import alive, consciousness, gyro_dead, legs_gone

LL, RL = lay.LL, lay.RL
IS0, GYRO, ENGINE, SENSORS, PILOT = st.IS0, st.GYRO, st.ENGINE, st.SENSORS, st.PILOT
#: C21 codes (rules.OUT_REASONS order)
OUT_UNCONSCIOUS, OUT_IMMOBILE, OUT_CRIPPLED = 1, 2, 3


@njit(cache=True)
def no_weapon(S: np.ndarray, X: np.ndarray, M: tuple, u: int) -> bool:
    """No weapon could fire (each lost per C7, out of ammunition or jammed, or both sensors
    hit); False for a 'Mech built without weapons."""
    ng = a2(M, L.M_UP, u, C.P_NGUN)
    if ng == 0:
        return False
    ok = False
    for g in range(ng):
        usable = not (X[u, L.X_JAM] >> g) & 1 and not gun_lost(S, M, u, g)
        pool = a3(M, L.M_GI, u, g, C.G_POOL)
        if pool >= 0:
            usable = usable and pool_ammo(S, M, u, pool) > 0
        ok = ok or usable
    return (not ok) or S[SENSORS] >= 2 + a2(M, L.M_UP, u, C.P_TORSO_CP)  # blind (torso cp: 3)


@njit(cache=True)
def out_of_fight(S: np.ndarray, X: np.ndarray, M: tuple, u: int) -> int:
    """C21 reason code of a living unit out of the fight, 0 otherwise."""
    code = a1(M, L.M_RI, C.R_OUT_CODE)
    if code == 0 or not alive(S):
        return 0
    if code == OUT_UNCONSCIOUS:
        out = X[u, L.X_UNCON] != 0
    elif code == OUT_IMMOBILE:
        if a2(M, L.M_UP, u, C.P_QUAD):   # a quad has no MP with three legs gone
            stuck = legs_gone(S, M, u) >= a2(M, L.M_QUAD_MP, 2, 1)
        else:
            legs = S[IS0 + LL] == 0 and S[IS0 + RL] == 0
            hips = (1 if hits_of(S, LL, a3(M, L.M_ACT, u, C.A_HIP, LL), M) > 0 else 0) + (
                1 if hits_of(S, RL, a3(M, L.M_ACT, u, C.A_HIP, RL), M) > 0 else 0)
            stuck = legs or hips == 2
        out = (gyro_dead(S, M, u) or stuck) and no_weapon(S, X, M, u)
    else:
        eng, gyro = S[ENGINE], S[GYRO]
        out = (S[PILOT] >= 4 or S[SENSORS] >= 2 + a2(M, L.M_UP, u, C.P_TORSO_CP)
               or (gyro >= 1 and eng >= 1) or eng >= 2
               or no_weapon(S, X, M, u))
    return code if out else 0


@njit(cache=True)
def end_phase(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, t: int, D: np.ndarray
              ) -> None:
    """Step 6 of 15 for unit ``u`` of a running duel in turn ``t`` (0-based)."""
    S = SS[u]
    settle_pilot(S)
    consciousness(S, X, M, u, a1(M, L.M_RI, C.R_EACH_POINT) != 0, D)
    p = S[PILOT]
    may = X[u, L.X_UNCON] != 0 and (a1(M, L.M_RI, C.R_WAKE_SAME) != 0 or X[u, L.X_WAS_OUT] != 0)
    if may and alive(S):
        if two_d6(D, L.K_CONSC) >= a1(M, L.M_CONSC, min(p, 12)):
            X[u, L.X_UNCON] = 0
    if a1(M, L.M_RI, C.R_RESTART_END) and alive(S) and not X[u, L.X_SHUT_NOW]:
        row = min(X[u, L.X_HEAT], a1(M, L.M_HEAT_CONST, 0))
        if X[u, L.X_SHUT] and can_restart(X, M, u, row, two_d6(D, L.K_HEAT)):
            X[u, L.X_SHUT] = 0
    if X[u, L.X_DEAD] == 0:
        out = out_of_fight(S, X, M, u)
        if out > 0:
            X[u, L.X_OUT] = out
        if not alive(S) or out > 0:
            X[u, L.X_DEAD] = t + 1
