"""Dice: exact draws from a :class:`numpy.random.Generator` and exact distributions.

Every draw is exact (no modulo bias) and comes back as ``uint8``, the smallest dtype that
holds it. Draws use *byte rejection*: the generator's raw 64-bit output is split into bytes;
a byte ``b`` below ``252 = 7 * 36 = 42 * 6`` is accepted and mapped through a 256-entry
lookup table (``b // 42 + 1`` for 1D6, the 2D6 total of ordered outcome ``b % 36`` for 2D6),
and the rare rejected positions (4 in 256) are redrawn. Each accepted byte is uniform on
0..251, so the faces are exactly uniform (1D6) or exactly triangular (2D6). One byte per
roll makes 2D6 as cheap as 1D6 and about as fast as NumPy can produce bits.

* ``d6(rng, n)``: 1D6, values 1..6.
* ``two_d6(rng, n)``: 2D6, values 2..12.
* ``make_lut(values)`` / ``draw_lut(rng, lut, n)``: any uniform choice among ``k <= 255``
  outcomes (e.g. a joint 2D6-and-1D6 roll, ``k = 216``), exact by the same rejection.
* ``PMF_1D6`` / ``PMF_2D6``: exact probabilities as ``fractions.Fraction`` (index = face).
* ``p_2d6_at_least(tn)``: P(2D6 >= TN), with TN <= 2 always succeeding and TN >= 13 never
  (rules reference, section 0, "Dice conventions").
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

#: Sum of two dice for each of the 36 ordered outcomes (index = 6*(a-1) + (b-1)).
TWO_D6_OUTCOMES = (np.add.outer(np.arange(1, 7), np.arange(1, 7))).ravel().astype(np.uint8)

#: Exact 1D6 distribution, index = face (0 unused).
PMF_1D6: tuple[Fraction, ...] = (Fraction(0),) + (Fraction(1, 6),) * 6
#: Exact 2D6 distribution, index = total (0 and 1 unused).
PMF_2D6: tuple[Fraction, ...] = tuple(
    Fraction(int(np.count_nonzero(TWO_D6_OUTCOMES == t)), 36) for t in range(13)
)
#: Float versions for vectorized exact computations.
P1D6 = np.array([float(p) for p in PMF_1D6])
P2D6 = np.array([float(p) for p in PMF_2D6])


#: Marker for a rejected byte in a lookup table.
REJECT = np.uint8(255)


def make_lut(values: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """A 256-entry byte table choosing uniformly among ``values`` (k <= 255 outcomes, each a
    uint8 below 255). Bytes ``b < k * (256 // k)`` map to ``values[b % k]``; the rest are
    rejected (marked :data:`REJECT`)."""
    v = np.asarray(values, dtype=np.int64)
    k = v.size
    if not 1 <= k <= 255 or v.min() < 0 or v.max() >= 255:
        raise ValueError("make_lut needs 1..255 outcomes with values in 0..254")
    lut = np.full(256, REJECT, dtype=np.uint8)
    accepted = k * (256 // k)
    lut[:accepted] = v[np.arange(accepted) % k]
    return lut


#: Bytes below this are accepted by the 1D6/2D6 tables (252 = 7 x 36 = 42 x 6).
ACCEPT = 252


def raw_bytes(rng: np.random.Generator, n: int) -> npt.NDArray[np.uint8]:
    """``n`` raw uniform bytes (uint8) straight from the generator's bit stream (a fresh,
    writable array)."""
    return rng.bit_generator.random_raw((n + 7) // 8).view(np.uint8)[:n]


def draw_lut(rng: np.random.Generator, lut: npt.NDArray[np.uint8],
             size: int | tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Draw ``size`` outcomes through a :func:`make_lut` table, exactly (byte rejection)."""
    shape = (size,) if isinstance(size, int | np.integer) else tuple(size)
    n = int(np.prod(shape, dtype=np.int64))
    out = lut.take(raw_bytes(rng, n))
    bad = np.flatnonzero(out == REJECT)
    while bad.size:  # loop over the rare rejections (a few per 256), never over trials
        out[bad] = lut.take(raw_bytes(rng, bad.size))
        bad = bad[out[bad] == REJECT]
    return out.reshape(shape)


#: Byte tables for 1D6 and 2D6 (252 accepted bytes each).
LUT_1D6 = make_lut(np.arange(1, 7))
LUT_2D6 = make_lut(TWO_D6_OUTCOMES)


def d6(rng: np.random.Generator, size: int | tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Roll 1D6 ``size`` times: uint8 values in 1..6, exact."""
    return draw_lut(rng, LUT_1D6, size)


def two_d6(rng: np.random.Generator, size: int | tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Roll 2D6 ``size`` times: uint8 values in 2..12 with the exact triangular law."""
    return draw_lut(rng, LUT_2D6, size)


def p_2d6_at_least_exact(tn: int) -> Fraction:
    """P(2D6 >= tn) as a Fraction. tn <= 2 gives 1; tn >= 13 gives 0."""
    if tn <= 2:
        return Fraction(1)
    if tn >= 13:
        return Fraction(0)
    return sum(PMF_2D6[tn:], Fraction(0))


#: P(2D6 >= TN) for TN = 0..14 (clip TN into this range before indexing).
P_2D6_AT_LEAST = np.array([float(p_2d6_at_least_exact(t)) for t in range(15)])
#: Ordered outcomes (of 36) of 2D6 with a total >= TN, for TN = 0..14.
AT_LEAST_36 = np.array([int(p_2d6_at_least_exact(t) * 36) for t in range(15)], dtype=np.int64)


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
