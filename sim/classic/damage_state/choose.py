"""Where the damage kernel's dice come from: one interface, two implementations.

The kernel never rolls dice itself. At each random step it hands a (n, m) matrix of outcome
probabilities to a chooser and gets back, for every row, the outcome index. The
:class:`SampleChooser` draws it from a ``numpy.random.Generator`` (Monte Carlo); the
:class:`ExactChooser` splits every row into one child row per possible outcome and multiplies
the row weights by the outcome probabilities (exact enumeration). Both return ``rows``, the
parent index of every output row, so the caller can carry its temporaries along.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from sim.classic.damage_state.state import POP


class Chooser(Protocol):
    """Resolve one random step for every row."""

    def pick(self, S: np.ndarray, w: np.ndarray, P: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Return ``(S', w', outcome, rows)`` for probabilities ``P`` (rows sum to 1)."""
        ...

    def pick_table(self, S: np.ndarray, w: np.ndarray, table: np.ndarray, k: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`pick` with row ``i``'s probabilities ``table[k[i]]`` (a few distinct rows,
        e.g. a dice table by modifier): the same outcomes and draws as ``pick(S, w,
        table[k])``."""
        ...

    def settle(self, S: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Called when every row's facts are in ``S``: the exact chooser merges equal
        states here (rows may be reordered); the sampler leaves them alone."""
        ...

    def pick_bit(self, S: np.ndarray, w: np.ndarray, masks: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One set bit of each row's 12-bit ``masks``, uniformly (outcome 12 where the mask
        is empty): the critical-slot pick of 14.2. Same return as :meth:`pick`."""
        ...


def bit_probs(masks: np.ndarray) -> np.ndarray:
    """(n, 13) outcome probabilities of a uniform pick among the set bits of ``masks``
    (column 12: the mask is empty)."""
    n = len(masks)
    bits = ((masks[:, None] >> np.arange(12)) & 1).astype(float)
    cnt = bits.sum(axis=1)
    P = np.zeros((n, 13))
    some = cnt > 0
    P[some, :12] = bits[some] / cnt[some, None]
    P[~some, 12] = 1.0
    return P


def _nth_bit_table() -> np.ndarray:
    """NTH[m, k]: position of the k-th set bit of the 12-bit mask m (12 past the last)."""
    t = np.full((1 << 12, 13), 12, dtype=np.int64)
    for m in range(1 << 12):
        pos = [b for b in range(12) if m >> b & 1]
        t[m, :len(pos)] = pos
    return t


NTH_BIT = _nth_bit_table()


class SampleChooser:
    """Draw each row's outcome from ``rng`` (rows and weights unchanged)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def pick(self, S: np.ndarray, w: np.ndarray, P: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.pick_table(S, w, P, np.arange(len(P)))

    def pick_table(self, S: np.ndarray, w: np.ndarray, table: np.ndarray, k: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Row ``i`` draws its outcome with the probabilities ``table[k[i]]`` (``pick``: one
        row of ``P`` per row)."""
        cum = np.cumsum(table, axis=1)[k]
        m = table.shape[1]
        u = np.asarray(self.rng.random(len(k)))[:, None] * cum[:, -1:]
        j = np.minimum((u >= cum).sum(axis=1), m - 1)
        # never land on a zero-probability outcome through rounding
        bad = table[k, j] <= 0
        if bad.any():
            j[bad] = np.argmax(table[k[bad]] > 0, axis=1)
        return S, w, j, np.arange(len(k))

    def pick_bit(self, S: np.ndarray, w: np.ndarray, masks: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        m = masks & 0xFFF
        k = (self.rng.random(len(m)) * POP[m]).astype(np.int64)
        return S, w, NTH_BIT[m, k], np.arange(len(m))

    def settle(self, S: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return S, w


class ExactChooser:
    """Branch every row into its possible outcomes (weights multiplied by their odds);
    :meth:`settle` packs interchangeable slots (``canonical``) and merges equal rows."""

    def __init__(self, canonical: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.canonical = canonical
        self.branched = True

    def settle(self, S: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(S) <= 1 or not self.branched:
            return S, w
        self.branched = False
        if self.canonical is not None:
            S = self.canonical(S)
        return merge_rows(S, w)

    def pick(self, S: np.ndarray, w: np.ndarray, P: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        pos = P > 0
        if pos.sum() == len(P):  # no row branches: keep the arrays as they are
            j = np.argmax(pos, axis=1)
            return S, w, j, np.arange(len(P))
        self.branched = True
        rows, j = np.nonzero(pos)
        return S[rows], w[rows] * P[rows, j], j, rows

    def pick_table(self, S: np.ndarray, w: np.ndarray, table: np.ndarray, k: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.pick(S, w, table[k])

    def pick_bit(self, S: np.ndarray, w: np.ndarray, masks: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.pick(S, w, bit_probs(masks))


_MULT = np.random.default_rng(20261130).integers(1, 2**62, size=256, dtype=np.int64) | 1


def merge_rows(S: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge identical rows of ``S`` (summing ``w``). Rows are grouped by a 64-bit hash and
    the grouping is verified row by row; a hash collision falls back to a full sort, so the
    result is always exact."""
    if len(S) <= 1:
        return S, w
    mult = _MULT[: S.shape[1]] if S.shape[1] <= len(_MULT) else None
    if mult is not None:
        with np.errstate(over="ignore"):
            key = S @ mult          # wraps around like (S * mult).sum(axis=1), no temporary
        uk, first, inv = np.unique(key, return_index=True, return_inverse=True)
        U = S[first]
        step = 32768                # verified in blocks: memory of a block, not of S
        if all(np.array_equal(U[inv[lo:lo + step]], S[lo:lo + step])
               for lo in range(0, len(S), step)):
            return U, np.bincount(inv, weights=w, minlength=len(uk))
    u, inv = np.unique(S, axis=0, return_inverse=True)
    return u, np.bincount(inv.ravel(), weights=w, minlength=len(u))
