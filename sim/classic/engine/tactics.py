"""Initiative and the tactics' movement of the compiled engine (numba; issue 22): the rules
of :mod:`sim.classic.duel.tactics`, which decides the moves (its ``Planner``) and whose key
layout (``UNIT_FIELDS``, ``TAG``, ``STATE_SHIFT``) :func:`key` packs the same way."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a2, a3
from sim.classic.engine.dice import two_d6
from sim.classic.engine.fire import gun_lost, pool_ammo
from sim.classic.engine.move import current_mp

#: sim.classic.duel.tactics.TAG, D_BITS, UNIT_BITS (checked by a test)
TAG = 1 << 62
D_BITS = 7
UNIT_BITS = 27


@njit(cache=True)
def initiative(D: np.ndarray, rule: int) -> int:
    """The unit that moves first (the initiative's loser): ``rule`` 0 rolls 2D6 a side, ties
    re-rolled (side 0 first when its total is lower); 1: side 0 always wins (side 1 first);
    2: side 1 always wins."""
    if rule == 1:
        return 1
    if rule == 2:
        return 0
    while True:
        a = two_d6(D, L.K_INITIATIVE)
        b = two_d6(D, L.K_INITIATIVE)
        if a != b:
            return 0 if a < b else 1


@njit(cache=True)
def unit_half(S: np.ndarray, X: np.ndarray, M: tuple, u: int, start_prone: int) -> int:
    """One unit's half of the decision key: act, mover, prone, heat (capped 31), walk / run /
    jump MP now (capped 15 / 31 / 15; 0 when it does not move), and the weapon classes with a
    weapon left (``GCLASS``: not destroyed, with ammunition, not jammed)."""
    act = 1 if X[u, L.X_ACT] != 0 else 0
    mover = 1 if act == 1 and start_prone == 0 else 0
    w, r, j = 0, 0, 0
    if mover:
        w, r, j = current_mp(S, X, M, u)
    prone = 1 if X[u, L.X_PRONE] != 0 else 0
    guns = 0
    for g in range(a2(M, L.M_UP, u, C.P_NGUN)):
        c = a2(M, L.M_GCLASS, u, g)
        if c < 0 or (guns >> c) & 1 or (X[u, L.X_JAM] >> g) & 1 or gun_lost(S, M, u, g):
            continue
        pool = a3(M, L.M_GI, u, g, C.G_POOL)
        if pool >= 0 and pool_ammo(S, M, u, pool) <= 0:
            continue
        guns |= 1 << c
    return (act | (mover << 1) | (prone << 2) | (min(X[u, L.X_HEAT], 31) << 3)
            | (min(w, 15) << 8) | (min(r, 31) << 12) | (min(j, 15) << 17) | (guns << 21))


@njit(cache=True)
def key(SS: np.ndarray, X: np.ndarray, M: tuple, d: int, first: int,
        sprone: np.ndarray) -> int:
    """The decision key of the turn (units 0 and 1; ``first`` the unit that moves first)."""
    state = unit_half(SS[0], X, M, 0, sprone[0]) | (
        unit_half(SS[1], X, M, 1, sprone[1]) << UNIT_BITS)
    return TAG | (state << (D_BITS + 1)) | ((1 if first == 0 else 0) << D_BITS) | d


@njit(cache=True, inline="always")
def clip_move(target: int, d: int, hexes: int, top: int) -> int:
    """The distance a move of ``hexes`` from ``d`` reaches nearest ``target``: within
    [d - hexes, d + hexes] and [1, top]."""
    return min(max(target, d - hexes, 1), d + hexes, top)
