"""Dice: exact draws from a :class:`numpy.random.Generator` and exact distributions.

Every draw is unbiased: NumPy's bounded integer generator uses rejection sampling
(Lemire's method), so there is no modulo bias. Rolls come back as ``uint8``, the smallest
dtype that holds them.

* ``d6(rng, n)``: 1D6, values 1..6.
* ``two_d6(rng, n)``: 2D6, values 2..12, drawn as *one* uniform index over the 36 ordered
  outcomes and mapped through a lookup table (one draw per roll instead of two).
* ``PMF_1D6`` / ``PMF_2D6``: exact probabilities as ``fractions.Fraction`` (index = face).
* ``p_2d6_at_least(tn)``: P(2D6 >= TN), with TN <= 2 always succeeding and TN >= 13 never
  (rules reference, section 0, "Dice conventions").
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

#: Sum of two dice for each of the 36 ordered outcomes (index = 6*(a-1) + (b-1)).
_TWO_D6_TABLE = (np.add.outer(np.arange(1, 7), np.arange(1, 7))).ravel().astype(np.uint8)

#: Exact 1D6 distribution, index = face (0 unused).
PMF_1D6: tuple[Fraction, ...] = (Fraction(0),) + (Fraction(1, 6),) * 6
#: Exact 2D6 distribution, index = total (0 and 1 unused).
PMF_2D6: tuple[Fraction, ...] = tuple(
    Fraction(int(np.count_nonzero(_TWO_D6_TABLE == t)), 36) for t in range(13)
)
#: Float versions for vectorized exact computations.
P1D6 = np.array([float(p) for p in PMF_1D6])
P2D6 = np.array([float(p) for p in PMF_2D6])
#: Faces as arrays, handy for enumerating outcomes.
FACES_1D6 = np.arange(1, 7, dtype=np.uint8)
FACES_2D6 = np.arange(2, 13, dtype=np.uint8)


def d6(rng: np.random.Generator, size: int | tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Roll 1D6 ``size`` times: uint8 values in 1..6, exact."""
    return rng.integers(1, 7, size=size, dtype=np.uint8)


def two_d6(rng: np.random.Generator, size: int | tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Roll 2D6 ``size`` times: uint8 values in 2..12 with the exact triangular law."""
    return _TWO_D6_TABLE[rng.integers(0, 36, size=size, dtype=np.uint8)]


def p_2d6_at_least_exact(tn: int) -> Fraction:
    """P(2D6 >= tn) as a Fraction. tn <= 2 gives 1; tn >= 13 gives 0."""
    if tn <= 2:
        return Fraction(1)
    if tn >= 13:
        return Fraction(0)
    return sum(PMF_2D6[tn:], Fraction(0))


#: P(2D6 >= TN) for TN = 0..14 (clip TN into this range before indexing).
P_2D6_AT_LEAST = np.array([float(p_2d6_at_least_exact(t)) for t in range(15)])


def p_2d6_at_least(tn: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Vectorized P(2D6 >= tn) as float64; any integer tn is allowed."""
    t = np.clip(np.asarray(tn, dtype=np.int64), 0, 14)
    return P_2D6_AT_LEAST[t]


def succeeds(roll: npt.NDArray[np.integer], tn: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Did a 2D6 roll meet the target number? Applies the TN <= 2 / TN >= 13 conventions.

    ``roll >= tn`` alone already gives both conventions for rolls in 2..12, except that a
    TN of 13+ must fail even on 12 (it does: 12 < 13) and TN <= 2 must succeed (it does:
    every roll is >= 2). So the plain comparison is exact; this function exists to make
    the rule explicit at call sites and to accept TNs of any integer dtype.
    """
    return roll.astype(np.int16) >= np.asarray(tn, dtype=np.int16)
