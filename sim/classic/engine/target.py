"""Sides and targets of the compiled engine's units (numba; issue 21, N 'Mechs a side).

A unit is *down* once its end phase found it destroyed or out of the fight (``X_DEAD``, the
turn it went down); a down unit takes no further part (the turn loop skips it) and is nobody's
target. The engagement is over when every unit of a side is down (:func:`over`; the duel: one
of its two).

Targets (:func:`retarget`, at the start of every weapon attack phase): each unit's side's
policy ``UP[u, P_TARGETING]``, the codes of :data:`sim.classic.duel.forces.TARGETING` (its
docstring states each policy, the *durability* and the *threat* they read). With one living
enemy every policy picks it, so the duel's targets are fixed and no policy draws a die.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3, a4, b2
from sim.classic.engine.dice import below
from sim.classic.engine.fire import gun_lost, pool_ammo
from sim.classic.engine.physical import p_hit

IS0, SENSORS, N_ARMOR = st.IS0, st.SENSORS, st.N_ARMOR
#: policy codes (:data:`sim.classic.duel.forces.TARGETING` order)
FOCUS_WEAKEST, FOCUS_THREAT, SPREAD, FINISH = 0, 1, 2, 3


@njit(cache=True, inline="always")
def down(X: np.ndarray, u: int) -> bool:
    """``u`` went down (destroyed or out of the fight) in an earlier end phase."""
    return X[u, L.X_DEAD] != 0


@njit(cache=True, inline="always")
def over(X: np.ndarray, M: tuple) -> bool:
    """Every unit of some side is down."""
    left0 = 0
    left1 = 0
    for u in range(X.shape[0]):
        if not down(X, u):
            if a2(M, L.M_UP, u, C.P_SIDE) == 0:
                left0 += 1
            else:
                left1 += 1
    return left0 == 0 or left1 == 0


@njit(cache=True)
def first_enemy(M: tuple, u: int, U: int) -> int:
    """The lowest-index unit of the other side."""
    for y in range(U):
        if a2(M, L.M_UP, y, C.P_SIDE) != a2(M, L.M_UP, u, C.P_SIDE):
            return y
    return u


@njit(cache=True)
def durability(S: np.ndarray) -> int:
    """Armor (front and rear) and internal structure left, every location."""
    tot = 0
    for c in range(N_ARMOR):
        tot += S[c]
    for loc in range(8):
        tot += S[IS0 + loc]
    return tot


@njit(cache=True)
def threat(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, sit: int) -> float:
    """Expected damage of ``u``'s usable weapons this turn: P(hit) at each weapon's base
    number for the situation ``sit`` and ``u``'s heat, times its mean damage, over the
    weapons not destroyed, jammed or out of ammunition; 0 when ``u`` cannot act."""
    S = SS[u]
    if not X[u, L.X_ACT] or S[SENSORS] >= 2 + a2(M, L.M_UP, u, C.P_TORSO_CP):
        return 0.0
    hact = min(X[u, L.X_HEAT], a1(M, L.M_HEAT_CONST, 3) - 1)
    out = 0.0
    for g in range(a2(M, L.M_UP, u, C.P_NGUN)):
        if (X[u, L.X_JAM] >> g) & 1 or gun_lost(S, M, u, g):
            continue
        pool = a3(M, L.M_GI, u, g, C.G_POOL)
        if pool >= 0 and pool_ammo(S, M, u, pool) <= 0:
            continue
        tn = a4(M, L.M_TN, u, sit, g, hact)
        if tn <= 12:
            out += p_hit(M, tn) * b2(M, L.M_GVAL, u, g)
    return out


@njit(cache=True)
def retarget(SS: np.ndarray, X: np.ndarray, M: tuple, sit: int) -> None:
    """``X_TARGET`` of every unit not down, by its side's policy (module docstring), from
    the state at the start of the weapon attack phase."""
    U = X.shape[0]
    for u in range(U):
        if down(X, u):
            continue
        side = a2(M, L.M_UP, u, C.P_SIDE)
        k = 0
        only = -1
        for y in range(U):
            if a2(M, L.M_UP, y, C.P_SIDE) != side and not down(X, y):
                k += 1
                only = y
        if k <= 1:
            if only >= 0:
                X[u, L.X_TARGET] = only
            continue
        pol = a2(M, L.M_UP, u, C.P_TARGETING)
        best = -1
        if pol == SPREAD:
            want = a2(M, L.M_UP, u, C.P_RANK) % k
            i = 0
            for y in range(U):
                if a2(M, L.M_UP, y, C.P_SIDE) != side and not down(X, y):
                    if i == want:
                        best = y
                    i += 1
        elif pol == FOCUS_WEAKEST:
            low = 1 << 60
            for y in range(U):
                if a2(M, L.M_UP, y, C.P_SIDE) != side and not down(X, y):
                    d = durability(SS[y])
                    if d < low:
                        low = d
                        best = y
        else:
            reach = 1e300
            if pol == FINISH:
                reach = 0.0
                for v in range(U):
                    if a2(M, L.M_UP, v, C.P_SIDE) == side and not down(X, v):
                        reach += threat(SS, X, M, v, sit)
            for pass_ in range(2):
                top = -1.0
                for y in range(U):
                    if a2(M, L.M_UP, y, C.P_SIDE) != side and not down(X, y):
                        if pass_ == 0 and durability(SS[y]) > reach:
                            continue
                        w = threat(SS, X, M, y, sit)
                        if w > top:
                            top = w
                            best = y
                if best >= 0:
                    break
                reach = 1e300
        X[u, L.X_TARGET] = best


@njit(cache=True)
def initiative(X: np.ndarray, D: np.ndarray) -> None:
    """Two units that declared a charge or DFA at each other (reference.md 4: they cannot
    both): a 1D2 (roll kind ``K_INIT``) keeps one, for each such pair in unit order."""
    U = X.shape[0]
    for u in range(U):
        y = X[u, L.X_TARGET]
        if y > u and X[y, L.X_TARGET] == u and X[u, L.X_DECL] > 0 and X[y, L.X_DECL] > 0 \
                and not down(X, u) and not down(X, y):
            if below(D, L.K_INIT, 2) == 0:
                X[y, L.X_DECL] = 0
            else:
                X[u, L.X_DECL] = 0

