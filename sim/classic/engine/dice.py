"""Counter-based dice of the compiled engine (numba).

Each chunk's generator (the engine's SeedSequence-spawned stream, :func:`sim.engine.
chunk_rng`) gives one 64-bit key per roll kind (:data:`.layout.K_LOCATION` ...), each from
its own sub-stream (:class:`sim.streams.Streams`), so adding a roll kind never moves another.
A duel's rolls of one kind are the SplitMix64 sequence seeded with ``mix(key ^ (duel + 1) x
golden)``: the i-th roll of that kind in that duel is ``mix(seed + (i + 1) x golden)``, a
pure function of (chunk, kind, duel index in the chunk, i). Results therefore do not depend on
the block size, the thread count, ``--jobs`` or the backend, and a roll kind's dice stay in
step between paired scenarios until that kind's own count differs.

A 1D6 is exactly uniform: a 64-bit draw at or above the largest multiple of 6 is rejected
and drawn again (odds 2^-62). Tape mode (``D[D_MODE] = 1``) replays a recorded sequence
instead (the damage parity test): a 1D6 is ``1 + v % 6``, a 2D6 ``2 + v % 6 + (v // 6) % 6``,
a pick among n ``v % n``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from sim.classic.engine.layout import D_CTR, D_MODE, D_POS, D_SEED, D_TAPE, N_KINDS

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
ONE = np.uint64(1)
SIX = np.uint64(6)
#: largest multiple of 6 below 2^64: draws at or above it are rejected
LIMIT6 = np.uint64((2**64 // 6) * 6)


@njit(cache=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output function."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit(cache=True)
def start_duel(D: np.ndarray, keys: np.ndarray, duel: int) -> None:
    """Seed the per-kind streams of duel ``duel`` (its index in the chunk)."""
    d = uint64(duel) + ONE
    for k in range(N_KINDS):
        D[D_SEED + k] = mix(keys[k] ^ (d * GOLDEN))
        D[D_CTR + k] = uint64(0)


@njit(cache=True, inline="always")
def draw(D: np.ndarray, kind: int) -> np.uint64:
    """The next 64-bit value of roll kind ``kind`` (or of the tape)."""
    if D[D_MODE] != 0:
        p = D[D_POS]
        D[D_POS] = p + ONE
        return D[D_TAPE + np.int64(p)]
    c = D[D_CTR + kind] + ONE
    D[D_CTR + kind] = c
    return mix(D[D_SEED + kind] + c * GOLDEN)


@njit(cache=True, inline="always")
def below(D: np.ndarray, kind: int, n: int) -> int:
    """Uniform in 0..n-1 (exact: rejection below the largest multiple of n)."""
    nn = uint64(n)
    if D[D_MODE] != 0:
        return int(draw(D, kind) % nn)
    lim = (np.uint64(0xFFFFFFFFFFFFFFFF) // nn) * nn
    v = draw(D, kind)
    while v >= lim:
        v = draw(D, kind)
    return int(v % nn)


@njit(cache=True, inline="always")
def d6(D: np.ndarray, kind: int) -> int:
    """1D6."""
    if D[D_MODE] != 0:
        return int(draw(D, kind) % SIX) + 1
    v = draw(D, kind)
    while v >= LIMIT6:
        v = draw(D, kind)
    return int(v % SIX) + 1


@njit(cache=True, inline="always")
def two_d6(D: np.ndarray, kind: int) -> int:
    """2D6 (two dice; one tape value in tape mode)."""
    if D[D_MODE] != 0:
        v = draw(D, kind)
        return 2 + int(v % SIX) + int((v // SIX) % SIX)
    return d6(D, kind) + d6(D, kind)


def chunk_keys(rng: np.random.Generator) -> np.ndarray:
    """(N_KINDS,) uint64: one key per roll kind, each from its own sub-stream of the chunk's
    generator (:class:`sim.streams.Streams`)."""
    from sim.streams import Streams

    streams = Streams(rng)
    out = np.empty(N_KINDS, np.uint64)
    for k in range(N_KINDS):
        out[k] = streams(STREAM_KIND, k).integers(0, 2**64, dtype=np.uint64)
    return out


#: the ``Streams`` kind this engine's keys come from (index = roll kind)
STREAM_KIND = 21


def dice_array(tape: np.ndarray | None = None) -> np.ndarray:
    """A dice array: counter mode, or tape mode replaying ``tape``."""
    t = np.zeros(0, np.uint64) if tape is None else np.asarray(tape, np.uint64)
    D = np.zeros(D_TAPE + t.size, np.uint64)
    if tape is not None:
        D[D_MODE] = 1
        D[D_TAPE:] = t
    return D
