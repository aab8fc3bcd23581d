"""Sub-streams of a chunk generator, one per (roll kind, index), for paired comparisons.

Paired scenarios share their chunk generators (:func:`sim.engine.chunk_rng`), but a kernel
that draws from one stream in state order lets their dice fall out of step as soon as their
states part (one scenario rolls a crit, the other does not, and every later roll moves).
A kernel that takes each roll kind from its own sub-stream, indexed by unit (or, for
count-based kernels, by the roll's place in the count), keeps them in step: the same unit,
the same event, the same die. Used by the Alpha Strike heat kernel and the Classic attack
kernel.
"""

from __future__ import annotations

import numpy as np

__all__ = ["JUMP", "Streams"]

#: NumPy's PCG64 jump size (``PCG64.jumped``): (golden ratio - 1) * 2**128, rounded odd.
JUMP = 0x9E3779B97F4A7C15F39CC0605CEDC835
_MASK128 = (1 << 128) - 1


class Streams:
    """Sub-streams of a chunk generator, one per (roll kind, index), so that each roll kind
    consumes its own state-independent block of randomness (issue 12, pairing).

    ``streams(kind, index)`` returns the chunk's generator repositioned at
    ``base + j * JUMP mod 2**128`` draws of its bit generator (``advance``), with
    ``j = (kind << 32) + index + 1`` and ``base`` the state the chunk started from: the
    ``j``-th of NumPy's own ``jumped`` streams (``JUMP = (phi - 1) * 2**128``, odd), never a
    power-of-two distance (PCG states 2**k draws apart share their low bits, and their
    outputs are correlated). The same sub-stream every time it is asked for. A bit
    generator without ``advance`` (MT19937, SFC64) is used as one stream (a valid sample;
    only the alignment between paired scenarios is lost). A few microseconds per call."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.bit = rng.bit_generator
        self.base = self.bit.state if hasattr(self.bit, "advance") else None

    def __call__(self, kind: int, index: int) -> np.random.Generator:
        if self.base is not None:
            self.bit.state = self.base
            jump = (((kind << 32) + index + 1) * JUMP) & _MASK128
            self.bit.advance(jump)  # type: ignore[attr-defined]
        return self.rng
