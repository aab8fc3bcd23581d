"""Hit locations (reference section 3): vectorized table lookups and exact probabilities."""

from __future__ import annotations

import numpy as np

from sim.classic import tables as T


def p_locations(table: int, side: int) -> np.ndarray:
    """Exact location probabilities of one roll (length N_LOC + 1, MISS = 0)."""
    return _P[table][side]


def p_tac(table: int) -> float:
    """P(a roll on ``table`` is a through-armor-critical 2): 1/36 on the 2D6 table, else 0."""
    return 1.0 / 36.0 if T.TABLE_DICE[table] == 2 else 0.0


def p_fall_locations() -> np.ndarray:
    """Exact location probabilities of one fall group: the facing roll picks the column."""
    return _P_FALL


_P = [[T.location_probabilities(t, s) for s in range(len(T.SIDES))] for t in range(3)]
_P_FALL: np.ndarray = np.sum([_P[T.TABLE_STANDARD][int(T.FALL_COLUMN[f])] for f in range(1, 7)], axis=0) / 6.0
