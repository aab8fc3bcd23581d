"""Sufficient statistics of a batch of Monte Carlo trials.

A chunk of trials never returns per-trial arrays: it returns an :class:`Aggregate`, a few
small arrays of counts, sums and sums of squares per metric (and histograms), whose size
depends on the metric shapes only. Aggregates merge by addition, so memory is bounded by
the chunk size and not by the number of trials.

Shapes: every metric has ``k`` rows (``k = 1`` for a single-row scenario, ``k = T`` for a
per-turn curve). ``stats[name]`` has shape ``(k, 3)`` holding ``count, sum, sumsq``;
``hists[name]`` has shape ``(k, bins)`` holding integer counts. Sums are float64: for the
integer-valued metrics of this project every partial sum is an exact integer below 2**53,
so merging is exact and independent of the order (the engine still merges in chunk order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt


def _as_2d(values: npt.ArrayLike) -> np.ndarray:
    a = np.asarray(values)
    return a[None, :] if a.ndim == 1 else a


@dataclass
class Aggregate:
    """Counts, sums and sums of squares per metric, plus integer histograms."""

    n: int
    stats: dict[str, np.ndarray] = field(default_factory=dict)
    hists: dict[str, np.ndarray] = field(default_factory=dict)

    # -- adding observations ------------------------------------------------------------
    def add_mean(self, name: str, values: npt.ArrayLike, where: npt.ArrayLike | None = None) -> None:
        """Record observations of a mean-type metric.

        ``values`` has shape ``(n,)`` (one row) or ``(k, n)`` (k rows, e.g. turns). With
        ``where`` (a boolean array of the same shape) only those trials count: the metric is
        then a conditional mean, e.g. damage *given a hit*.
        """
        v = _as_2d(values)
        if v.dtype == np.bool_:
            if where is None:
                c = np.full(v.shape[0], v.shape[1], dtype=np.float64)
                s = np.count_nonzero(v, axis=1).astype(np.float64)
            else:
                w = _as_2d(where)
                c = np.count_nonzero(w, axis=1).astype(np.float64)
                s = np.count_nonzero(v & w, axis=1).astype(np.float64)
            self.add_counts(name, c, s, s)
            return
        if np.issubdtype(v.dtype, np.integer):
            v = v.astype(np.int64)
        else:
            v = v.astype(np.float64)
        if where is None:
            c = np.full(v.shape[0], v.shape[1], dtype=np.float64)
        else:
            w = _as_2d(where)
            c = np.count_nonzero(w, axis=1).astype(np.float64)
            v = np.where(w, v, 0)
        s = v.sum(axis=1).astype(np.float64)
        q = (v * v).sum(axis=1).astype(np.float64)
        self.add_counts(name, c, s, q)

    def add_counts(self, name: str, count: npt.ArrayLike, total: npt.ArrayLike,
                   total_sq: npt.ArrayLike) -> None:
        """Record precomputed count, sum and sum of squares (each shape ``(k,)`` or scalar)."""
        if np.ndim(count) == 0 and np.ndim(total) == 0 and np.ndim(total_sq) == 0:
            row = np.array([[count, total, total_sq]], dtype=np.float64)  # fast path
        else:
            row = np.stack(np.broadcast_arrays(
                np.atleast_1d(np.asarray(count, np.float64)),
                np.atleast_1d(np.asarray(total, np.float64)),
                np.atleast_1d(np.asarray(total_sq, np.float64))), axis=1)
        cur = self.stats.get(name)
        if cur is None:
            self.stats[name] = row
        elif cur.shape == row.shape:
            cur += row
        else:
            self.stats[name] = cur + row

    def add_hist(self, name: str, values: npt.ArrayLike, bins: int,
                 where: npt.ArrayLike | None = None) -> None:
        """Record a histogram of integer values in ``[0, bins)`` (shape ``(n,)`` or ``(k, n)``)."""
        v = _as_2d(values)
        w = None if where is None else _as_2d(where)
        out = np.zeros((v.shape[0], bins), dtype=np.int64)
        for r in range(v.shape[0]):  # loop over rows (turns), never over trials
            vr = v[r] if w is None else v[r][w[r]]
            out[r] = np.bincount(vr.astype(np.intp, copy=False), minlength=bins)[:bins]
        self.add_hist_counts(name, out)

    def add_hist_counts(self, name: str, counts: npt.ArrayLike) -> None:
        """Record precomputed histogram counts, shape ``(bins,)`` or ``(k, bins)``."""
        c = _as_2d(np.asarray(counts, dtype=np.int64))
        if name in self.hists:
            old = self.hists[name]
            if old.shape[1] != c.shape[1]:  # widen to the larger support
                width = max(old.shape[1], c.shape[1])
                old = np.pad(old, ((0, 0), (0, width - old.shape[1])))
                c = np.pad(c, ((0, 0), (0, width - c.shape[1])))
            self.hists[name] = old + c
        else:
            self.hists[name] = c

    # -- merging --------------------------------------------------------------------------
    def merge(self, other: Aggregate) -> Aggregate:
        """Add ``other`` into this aggregate (in place) and return self."""
        self.n += other.n
        for k, v in other.stats.items():
            cur = self.stats.get(k)
            if cur is None:
                self.stats[k] = v.copy()
            elif cur.shape == v.shape:
                cur += v
            else:
                self.stats[k] = cur + v
        for k, v in other.hists.items():
            self.add_hist_counts(k, v)
        return self

    @classmethod
    def merge_all(cls, parts: list[Aggregate]) -> Aggregate:
        """Merge a list of aggregates, summing each metric over the parts in list order.

        One stacked reduction per metric instead of one addition per part: cheap even for
        the fastest kernels, whose chunks take well under a millisecond.
        """
        out = cls(sum(p.n for p in parts))
        if not parts:
            return out
        first = parts[0].stats
        shapes = [a.shape for a in first.values()]
        if all(list(p.stats) == list(first) and [a.shape for a in p.stats.values()] == shapes
               for p in parts):
            # the usual case (every chunk of a scenario has the same metrics): one
            # concatenation per part, one reduction, one split
            flat = np.add.reduce(np.stack([np.concatenate(list(p.stats.values()))
                                           for p in parts]), axis=0)
            rows = np.cumsum([s[0] for s in shapes])[:-1]
            out.stats = dict(zip(first, np.split(flat, rows), strict=True))
        else:
            for k in dict.fromkeys(k for p in parts for k in p.stats):
                for p in parts:
                    if k in p.stats:
                        a = p.stats[k]
                        out.add_counts(k, a[:, 0], a[:, 1], a[:, 2])
        for k in dict.fromkeys(k for p in parts for k in p.hists):
            for p in parts:
                if k in p.hists:
                    out.add_hist_counts(k, p.hists[k])
        return out

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.stats.values()) + sum(a.nbytes for a in self.hists.values())


def _unpack_chunks(ns: list[int], stats: dict[str, np.ndarray],
                   hists: dict[str, np.ndarray]) -> ChunkAggregates:
    return ChunkAggregates(
        Aggregate(n, {k: v[i] for k, v in stats.items()}, {k: v[i] for k, v in hists.items()})
        for i, n in enumerate(ns))


class ChunkAggregates(list[Aggregate]):
    """The per-chunk aggregates of one task, in chunk order (a plain list of
    :class:`Aggregate`). Pickled (a worker's answer to the driver) as one stacked array per
    metric when every chunk has the same metrics and shapes, instead of dozens of tiny arrays
    per chunk: for the fastest kernels that pickling, not the kernel, bounded the parallel
    rate. Unpickled, each chunk's arrays are views into the stacked ones; values are bit-equal.
    """

    def __reduce__(self) -> Any:
        parts = list(self)
        if parts:
            first = parts[0]
            same = all(p.stats.keys() == first.stats.keys()
                       and p.hists.keys() == first.hists.keys()
                       and all(p.stats[k].shape == v.shape for k, v in first.stats.items())
                       and all(p.hists[k].shape == v.shape for k, v in first.hists.items())
                       for p in parts)
            if same:
                return (_unpack_chunks, ([p.n for p in parts],
                                         {k: np.stack([p.stats[k] for p in parts])
                                          for k in first.stats},
                                         {k: np.stack([p.hists[k] for p in parts])
                                          for k in first.hists}))
        return (ChunkAggregates, (parts,))
