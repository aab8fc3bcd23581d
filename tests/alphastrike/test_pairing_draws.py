"""Draw structure of the heat kernel (issue 12, pairing): every roll kind has its own
sub-stream and every draw is indexed by unit, so paired scenarios roll the same dice for the
same unit and event although their states part."""

from __future__ import annotations

import numpy as np
import pytest
from as_helpers import card

from sim import engine
from sim.alphastrike.kernel import CritRolls, Streams
from sim.api import compare
from sim.dice import raw_bytes


def test_sub_stream_is_fixed_whatever_was_drawn_before() -> None:
    rng = engine.chunk_rng(5, 0, 0)
    streams = Streams(rng)
    first = raw_bytes(streams(3, 7), 64).copy()
    raw_bytes(streams(0, 0), 1000)          # another kind, another length
    raw_bytes(rng, 17)                       # and the chunk stream itself
    assert np.array_equal(raw_bytes(streams(3, 7), 64), first)
    assert not np.array_equal(raw_bytes(streams(3, 8), 64), first)
    assert not np.array_equal(raw_bytes(streams(4, 7), 64), first)
    # a fresh generator of the same chunk gives the same sub-stream
    assert np.array_equal(raw_bytes(Streams(engine.chunk_rng(5, 0, 0))(3, 7), 64), first)


def test_sub_streams_are_numpys_jumped_streams_and_look_independent() -> None:
    """Sub-stream j is NumPy's ``jumped(j)`` (a golden-ratio distance, never a power of two:
    PCG states 2**k draws apart give correlated outputs, which biased a Classic MC test)."""
    streams = Streams(engine.chunk_rng(9, 1, 2))
    ref = engine.chunk_rng(9, 1, 2).bit_generator
    assert np.array_equal(streams(0, 0).bit_generator.random_raw(8), ref.jumped(1).random_raw(8))
    n = 2**16
    a = raw_bytes(streams(0, 0), n).astype(np.int64)
    b = raw_bytes(streams(1, 0), n).astype(np.int64)
    same = np.count_nonzero(a == b)               # Binomial(n, 1/256) if independent
    assert abs(same - n / 256) < 4 * np.sqrt(n / 256)
    assert abs(np.corrcoef(a, b)[0, 1]) < 4 / np.sqrt(n)


def test_generator_without_advance_is_one_stream() -> None:
    rng = np.random.Generator(np.random.MT19937(1))
    streams = Streams(rng)
    assert streams(2, 0) is rng and streams.base is None


def test_crit_rolls_are_indexed_by_unit_and_roll_number() -> None:
    n = 1000
    a = CritRolls(Streams(engine.chunk_rng(1, 0, 0)), n)
    b = CritRolls(Streams(engine.chunk_rng(1, 0, 0)), n)
    # A rolls for every unit twice; B for the odd units, then for unit 7 and unit 8
    a1, a2 = a.next(np.arange(n)), a.next(np.arange(n))
    b1 = b.next(np.arange(1, n, 2))
    assert np.array_equal(b1, a1[1::2])           # first rolls: same die per unit
    got = b.next(np.array([7, 8]))
    assert got[0] == a2[7] and got[1] == a1[8]    # unit 7's 2nd roll, unit 8's 1st roll
    assert a.levels.shape == (2, n) and b.levels.shape == (2, n)   # one level per roll number
    assert np.array_equal(a.levels[0], a1)


def test_pairing_survives_diverging_crit_rolls() -> None:
    """CASE re-rolls happen in one scenario and not the other (case damage 1 vs 2): with
    per-unit, per-event dice the units that never roll an ammo crit play out identically,
    so the paired standard error of the last turn is several times below the independent
    one (with one shared stream consumed in state order it was about 1.2-1.5x)."""
    unit = card(specials="CASE", armor=2, structure=6)
    frame = compare("heat", {"case_damage": 1}, {"case_damage": 2},
                    {"unit": unit, "policy": "never", "turns": 6,
                     "incoming": ["tn=6,dmg=2"]}, trials=2**13, chunk_size=256, seed=3)
    last = frame[frame.turn == 6].set_index("metric")
    for metric in ("expected_damage", "p_destroyed_by"):
        ratio = last.loc[metric, "independent_se"] / last.loc[metric, "diff_se"]
        assert ratio > 3.0, (metric, ratio)


@pytest.mark.parametrize("seed", [0, 1])
def test_same_scenario_twice_is_identical(seed: int) -> None:
    frame = compare("heat", {"policy": "max"}, {"policy": "max"},
                    {"turns": 4, "incoming": ["tn=6,dmg=3,ht=1"]}, trials=2**10,
                    chunk_size=256, seed=seed)
    assert (frame["diff"] == 0).all()
