"""Dice: exact draws from a :class:`numpy.random.Generator` and exact distributions. The one
dice convention of btsim (every kernel, both games, draws through this module).

**Bytes.** Every draw is exact (no modulo bias) and comes back as ``uint8``. A raw byte ``b``
of the generator's 64-bit output is *accepted* when ``b < 252 = 7 * 36 = 42 * 6`` and
rejected otherwise (the rare rejected positions, 4 in 256, are redrawn: loops run over
rejections, never over trials). Accepted bytes map **monotonically** to outcomes:

* 1D6: face ``b // 42 + 1`` (:data:`FACE_1D6`);
* 2D6: the 36 ordered outcomes of two dice sorted by total, 7 bytes each:
  ``SORTED_2D6[b]``. So "2D6 >= TN" is the single comparison ``b >= THR_2D6[TN]``, and a
  roll succeeds on exactly ``SUCCESS_BYTES[TN] = 252 - THR_2D6[TN]`` accepted bytes;
* any uniform choice among ``k <= 255`` outcomes: ``values[b // (256 // k)]`` for
  ``b < k * (256 // k)`` (:func:`make_lut` / :func:`draw_lut`); 1D6 and 2D6 are its
  ``k = 6`` and ``k = 36`` cases, so the tables agree with the thresholds above.

**Target numbers.** One clamp, :func:`clip_tn`: every TN is clipped into 0..14 before a
table lookup; TN <= 2 always succeeds and TN >= 13 never does (rules reference, section 0,
"Dice conventions").

**Words.** A 16-bit word ``w`` is a joint uniform choice among ``K <= 65536`` outcomes (e.g.
the to-hit 2D6, the location die and a PSR 2D6 of one trial, ``36 * 6 * 36 = 7776``): words
below ``65536 // K * K`` map to outcome ``w % K`` through a per-plan table
(:func:`word_table`), the rest are rejected.

* ``d6(rng, n)``, ``two_d6(rng, n)``: rolls as values; ``die_bytes`` accepted raw bytes;
* ``roll_2d6_at_least(rng, success_bytes)``: one pass/fail 2D6 roll per row;
* ``count_below`` / ``range_counts``: counts of byte rolls without keeping them;
* ``PMF_1D6`` / ``PMF_2D6``: exact probabilities as ``fractions.Fraction`` (index = face);
* ``p_2d6_at_least(tn)``: P(2D6 >= TN).
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
    uint8 below 255). Bytes ``b < k * (256 // k)`` map to ``values[b // (256 // k)]`` (the
    module's monotone convention); the rest are rejected (marked :data:`REJECT`)."""
    v = np.asarray(values, dtype=np.int64)
    k = v.size
    if not 1 <= k <= 255 or v.min() < 0 or v.max() >= 255:
        raise ValueError("make_lut needs 1..255 outcomes with values in 0..254")
    lut = np.full(256, REJECT, dtype=np.uint8)
    accepted = k * (256 // k)
    lut[:accepted] = v[np.arange(accepted) // (256 // k)]
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


#: The 36 ordered 2D6 outcomes sorted by total (the byte order of every 2D6 roll).
SORTED_OUTCOMES = np.sort(TWO_D6_OUTCOMES).astype(np.uint8)
#: Byte tables for 1D6 and 2D6 (252 accepted bytes each).
LUT_1D6 = make_lut(np.arange(1, 7))
LUT_2D6 = make_lut(SORTED_OUTCOMES)
#: Monotone accepted byte -> 2D6 total (each ordered outcome 7 times, sorted by total).
SORTED_2D6 = LUT_2D6[:ACCEPT].copy()
#: Monotone accepted byte -> 1D6 face.
FACE_1D6 = LUT_1D6[:ACCEPT].copy()


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


#: The range every target number is clipped into before a table lookup (below 3 every roll
#: succeeds, above 12 none does, so 0 and 14 stand for "always" and "never").
TN_MIN, TN_MAX = 0, 14


def clip_tn(tn: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The one target-number clamp: any integer TN (or array) into ``TN_MIN..TN_MAX``, an
    index into :data:`P_2D6_AT_LEAST`, :data:`AT_LEAST_36`, :data:`THR_2D6` and
    :data:`SUCCESS_BYTES`."""
    return np.clip(np.asarray(tn, dtype=np.int64), TN_MIN, TN_MAX)


#: P(2D6 >= TN) for TN = 0..14 (index with :func:`clip_tn`).
P_2D6_AT_LEAST = np.array([float(p_2d6_at_least_exact(t)) for t in range(TN_MAX + 1)])
#: Ordered outcomes (of 36) of 2D6 with a total >= TN, for TN = 0..14.
AT_LEAST_36 = np.array([int(p_2d6_at_least_exact(t) * 36) for t in range(TN_MAX + 1)],
                       dtype=np.int64)
#: ``THR_2D6[t]``: an accepted byte ``b`` rolls 2D6 >= t iff ``b >= THR_2D6[t]``.
THR_2D6 = np.array([int(np.searchsorted(SORTED_2D6, t)) for t in range(TN_MAX + 1)],
                   dtype=np.int64)
#: Accepted bytes that roll 2D6 >= t (``252 - THR_2D6[t] = 7 * AT_LEAST_36[t]``), as uint8.
SUCCESS_BYTES = (ACCEPT - THR_2D6).astype(np.uint8)


def p_2d6_at_least(tn: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Vectorized P(2D6 >= tn) as float64; any integer tn is allowed."""
    return P_2D6_AT_LEAST[clip_tn(tn)]


def thr_2d6(tn: int) -> int:
    """Byte threshold of one 2D6 target number (any integer TN)."""
    return int(THR_2D6[clip_tn(tn)])


def success_bytes(tn: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Accepted bytes on which 2D6 >= ``tn`` (vectorized; 0 = never, 252 = always)."""
    return SUCCESS_BYTES[clip_tn(tn)]


def roll_2d6_at_least(rng: np.random.Generator,
                      n_success: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """One 2D6 roll per row, returned as pass/fail: exact. Row ``i`` passes on the top
    ``n_success[i]`` accepted bytes (:func:`success_bytes` of its TN; 0 never passes), i.e.
    ``b >= 252 - n_success[i]``; rejected bytes are redrawn (a loop over the rare
    rejections, not over rows)."""
    thr = np.uint8(ACCEPT) - n_success
    b = raw_bytes(rng, n_success.shape[0])
    hit = b >= thr
    bad = np.flatnonzero(b >= ACCEPT)
    while bad.size:
        nb = raw_bytes(rng, bad.size)
        hit[bad] = nb >= thr[bad]
        bad = bad[nb >= ACCEPT]
    return hit


def succeeds(roll: npt.NDArray[np.integer], tn: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Did a 2D6 roll meet the target number? Applies the TN <= 2 / TN >= 13 conventions.

    ``roll >= tn`` alone already gives both conventions for rolls in 2..12, except that a
    TN of 13+ must fail even on 12 (it does: 12 < 13) and TN <= 2 must succeed (it does:
    every roll is >= 2). So the plain comparison is exact; this function exists to make
    the rule explicit at call sites and to accept TNs of any integer dtype.
    """
    return roll.astype(np.int16) >= np.asarray(tn, dtype=np.int16)


# -- raw bytes and words for the fast kernels ------------------------------------------------
def raw_words(rng: np.random.Generator, n: int) -> npt.NDArray[np.uint16]:
    """``n`` raw uniform 16-bit words (uint16)."""
    return rng.bit_generator.random_raw((n + 3) // 4).view(np.uint16)[:n]


def die_bytes(rng: np.random.Generator, shape: int | tuple[int, ...]) -> np.ndarray:
    """Accepted bytes (all below 252), uniform on 0..251, exact: rejected positions are
    redrawn in place (a few in 256; the loop runs over rejections, never over trials)."""
    shape = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
    n = int(np.prod(shape, dtype=np.int64))
    b = raw_bytes(rng, n)  # a fresh, writable buffer
    bad = np.flatnonzero(b >= ACCEPT)
    while bad.size:
        b[bad] = raw_bytes(rng, bad.size)
        bad = bad[b[bad] >= ACCEPT]
    return b.reshape(shape)


def count_below(rng: np.random.Generator, n: int, thr: int) -> int:
    """Number of successes among ``n`` independent accepted bytes, success = byte < ``thr``
    (e.g. a failed PSR: ``thr = thr_2d6(TN)``). Exact: rejected bytes are redrawn by count."""
    if n <= 0 or thr <= 0:
        return 0
    if thr >= ACCEPT:
        return n
    total = 0
    while n:
        b = raw_bytes(rng, n)
        total += int(np.count_nonzero(b < thr))
        n = int(np.count_nonzero(b >= ACCEPT))
    return total


def word_table(radix_sizes: list[int], digit_maps: list[np.ndarray], weights: list[int],
               sentinel: int, dtype: type = np.uint16) -> tuple[np.ndarray, int]:
    """A 65536-entry table mapping a raw 16-bit word to ``sum_i digit_maps[i][raw_i] *
    weights[i]``, where ``raw_i`` are the mixed-radix digits (sizes ``radix_sizes``, first
    most significant) of ``w % K``, ``K = prod(radix_sizes)``; rejected words map to
    ``sentinel``. Returns (table, accepted words)."""
    k = int(np.prod(radix_sizes, dtype=np.int64))
    if not 1 <= k <= 65536:
        raise ValueError("a word holds at most 65536 joint outcomes")
    accept = (65536 // k) * k
    idx = np.arange(65536, dtype=np.int64) % k
    val = np.zeros(65536, dtype=np.int64)
    rest = idx
    for size, dm, wt in zip(reversed(radix_sizes), reversed(digit_maps), reversed(weights),
                            strict=True):
        val += np.asarray(dm, dtype=np.int64)[rest % size] * wt
        rest = rest // size
    val[accept:] = sentinel
    return val.astype(dtype), accept


def range_counts(rng: np.random.Generator, n: int, edges: np.ndarray) -> np.ndarray:
    """Counts of ``n`` independent accepted bytes falling in ``[edges[i], edges[i+1])``
    (``edges`` increasing from 0 to 252). Exact: rejected bytes are redrawn by count."""
    e = np.asarray(edges, dtype=np.int64)
    out = np.zeros(e.size - 1, dtype=np.int64)
    if e.size <= 8:
        inner = [int(x) for x in e[1:-1]]
        while n:
            b = raw_bytes(rng, n)
            below = [int(np.count_nonzero(b < x)) for x in inner]
            rej = int(np.count_nonzero(b >= ACCEPT))
            cum = np.array([0] + below + [n - rej], dtype=np.int64)
            out += np.diff(cum)
            n = rej
        return out
    while n:
        h = np.bincount(raw_bytes(rng, n), minlength=256)
        c = np.concatenate([[0], np.cumsum(h[:ACCEPT])])
        out += c[e[1:]] - c[e[:-1]]
        n = int(h[ACCEPT:].sum())
    return out
