"""A memo bounded by what it holds, not only by how many entries (issue 21: memory bounded
by the chunk, never by the number of scenarios a worker has seen).

The Classic duel keeps the sides and the engine arrays it has built, so that a round-robin
builds each unit once per worker. Under the tactics a side holds a fire situation for every
(distance, mode, mode) it can reach, so its size grows with the start distance; a memo
bounded only by its entry count then grew a joblib worker past loky's 300 MB leak guard,
which restarts the worker mid-run (its warning "A worker stopped while some jobs were given
to the executor") and throws its caches away. :class:`WeightedLRU` evicts the least recently
used entries once either bound is passed."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class WeightedLRU(Generic[K, V]):
    """A least-recently-used memo of at most ``max_items`` entries and ``max_weight`` total
    weight (each entry's weight is given when it is put: a size proxy such as its number of
    fire situations). An entry heavier than ``max_weight`` is not kept. Thread-safe."""

    def __init__(self, max_items: int, max_weight: int) -> None:
        if max_items < 1 or max_weight < 1:
            raise ValueError("WeightedLRU: max_items and max_weight must be at least 1")
        self.max_items = max_items
        self.max_weight = max_weight
        self._data: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or None."""
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key: K, value: V, weight: int = 1) -> None:
        """Keep ``value`` under ``key`` with ``weight``, evicting the oldest entries past
        either bound."""
        weight = max(int(weight), 1)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            if weight > self.max_weight:
                return
            self._data[key] = (value, weight)
            self._weight += weight
            while len(self._data) > self.max_items or self._weight > self.max_weight:
                _, (_, w) = self._data.popitem(last=False)
                self._weight -= w

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._weight = 0

    @property
    def weight(self) -> int:
        """The total weight held."""
        return self._weight

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data


__all__ = ["WeightedLRU"]
