"""Compatibility name: the fast byte and word dice now live in :mod:`sim.dice`, the one dice
convention of btsim (see its docstring). Import from there."""

from __future__ import annotations

from sim.dice import (
    ACCEPT,
    FACE_1D6,
    SORTED_2D6,
    THR_2D6,
    count_below,
    die_bytes,
    range_counts,
    raw_bytes,
    raw_words,
    thr_2d6,
    word_table,
)
from sim.dice import TWO_D6_OUTCOMES as TWO

__all__ = ["ACCEPT", "FACE_1D6", "SORTED_2D6", "THR_2D6", "TWO", "count_below", "die_bytes",
           "range_counts", "raw_bytes", "raw_words", "thr_2d6", "word_table"]
