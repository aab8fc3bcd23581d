"""Fast exact dice for the classic kernel: raw generator bytes and 16-bit words.

Every draw is an exact uniform choice made by rejection (no modulo bias), as in
:mod:`sim.dice`, but laid out for speed:

* A *byte* ``b`` below 252 is a die roll. Bytes are mapped **monotonically**: 1D6 face
  ``b // 42 + 1``; 2D6 total ``SORTED_2D6[b]`` (the 36 ordered outcomes of two dice, 7 bytes
  each, sorted by total). So "2D6 >= TN" is the single comparison ``b >= THR_2D6[TN]`` and
  needs no table lookup (rules reference section 0: TN <= 2 always succeeds, 13+ never).
* A 16-bit *word* ``w`` is a joint uniform choice among ``K <= 65536`` outcomes (e.g. the
  to-hit 2D6, the location die and a PSR 2D6 of one trial, ``36 * 6 * 36 = 7776``): words
  below ``65536 // K * K`` map to outcome ``w % K`` (through a per-plan table), the rest are
  rejected.
* ``count_below`` counts successes of ``n`` independent byte rolls without keeping them (the
  rejected bytes are simply redrawn by count: only the count is needed).
"""

from __future__ import annotations

import numpy as np

from sim.dice import ACCEPT, raw_bytes
from sim.dice import TWO_D6_OUTCOMES as TWO

#: Monotone byte -> 2D6 total (each ordered outcome 7 times, sorted by total).
SORTED_2D6 = np.sort(np.repeat(TWO, ACCEPT // 36)).astype(np.uint8)
#: Monotone byte -> 1D6 face.
FACE_1D6 = (np.arange(ACCEPT) // (ACCEPT // 6) + 1).astype(np.uint8)
#: ``THR_2D6[t]``: a byte ``b`` (below 252) rolls 2D6 >= t iff ``b >= THR_2D6[t]`` (t = 0..14).
THR_2D6 = np.array([int(np.searchsorted(SORTED_2D6, t)) for t in range(15)], dtype=np.int64)


def thr_2d6(tn: int) -> int:
    """Byte threshold of a 2D6 target number (any integer TN; clipped to 0..14)."""
    return int(THR_2D6[max(0, min(14, tn))])


def raw_words(rng: np.random.Generator, n: int) -> np.ndarray:
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
