"""Dice: exact distributions (as fractions) and sampled frequencies (chi-square).

Rules reference section 0, "Dice conventions": P(2D6 >= TN) table, TN <= 2 always succeeds,
TN >= 13 never does. Chi-square tests use a fixed seed and significance level 0.001.
"""

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from sim import dice

ALPHA = 0.001  # stated significance of every goodness-of-fit test here


def test_pmf_1d6_is_uniform_fractions():
    assert dice.PMF_1D6[1:] == (Fraction(1, 6),) * 6
    assert sum(dice.PMF_1D6) == 1


def test_pmf_2d6_triangular_fractions():
    expected = [Fraction(k, 36) for k in (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)]
    assert list(dice.PMF_2D6[2:]) == expected
    assert dice.PMF_2D6[0] == dice.PMF_2D6[1] == 0
    assert sum(dice.PMF_2D6) == 1


@pytest.mark.parametrize(
    ("tn", "p"),
    [(-3, 1), (0, 1), (2, 1), (3, Fraction(35, 36)), (4, Fraction(33, 36)),
     (5, Fraction(30, 36)), (6, Fraction(26, 36)), (7, Fraction(21, 36)),
     (8, Fraction(15, 36)), (9, Fraction(10, 36)), (10, Fraction(6, 36)),
     (11, Fraction(3, 36)), (12, Fraction(1, 36)), (13, 0), (14, 0), (40, 0)],
)
def test_p_2d6_at_least_reference_table(tn, p):
    """Reference section 0: the P(2D6 >= TN) table, with TN <= 2 sure and TN >= 13 impossible."""
    assert dice.p_2d6_at_least_exact(tn) == p
    assert dice.p_2d6_at_least(tn) == pytest.approx(float(p), abs=1e-15)


def test_succeeds_applies_conventions():
    rolls = np.array([2, 12, 12, 7], dtype=np.uint8)
    assert dice.succeeds(rolls, np.array([2, 12, 13, 8])).tolist() == [True, True, False, False]


def test_dtypes_and_shapes():
    rng = np.random.default_rng(0)
    assert dice.d6(rng, 10).dtype == np.uint8
    assert dice.two_d6(rng, (3, 4)).shape == (3, 4)
    x = dice.two_d6(rng, 10_000)
    assert x.min() >= 2 and x.max() <= 12
    y = dice.d6(rng, 10_000)
    assert y.min() == 1 and y.max() == 6


def _chi2_pvalue(sample: np.ndarray, faces: range, pmf: list[float]) -> float:
    counts = np.bincount(sample, minlength=max(faces) + 1)[list(faces)]
    expected = np.array(pmf) * sample.size
    return stats.chisquare(counts, expected).pvalue


def test_d6_chi_square():
    rng = np.random.Generator(np.random.PCG64DXSM(20261130))
    p = _chi2_pvalue(dice.d6(rng, 2_000_000), range(1, 7), [1 / 6] * 6)
    assert p > ALPHA


def test_two_d6_chi_square():
    rng = np.random.Generator(np.random.PCG64DXSM(20261130))
    p = _chi2_pvalue(dice.two_d6(rng, 2_000_000), range(2, 13),
                     [float(dice.PMF_2D6[t]) for t in range(2, 13)])
    assert p > ALPHA


def test_joint_lut_216_outcomes_chi_square():
    """A joint 2D6-and-1D6 draw through make_lut/draw_lut (216 outcomes, 16% rejection)."""
    lut = dice.make_lut(np.arange(216))
    assert (lut[:216] == np.arange(216)).all() and (lut[216:] == dice.REJECT).all()
    rng = np.random.Generator(np.random.PCG64DXSM(7))
    x = dice.draw_lut(rng, lut, 2_160_000)
    assert x.max() < 216
    p = stats.chisquare(np.bincount(x, minlength=216)).pvalue
    assert p > ALPHA


def test_draws_are_reproducible_per_seed():
    a = dice.two_d6(np.random.Generator(np.random.PCG64DXSM(5)), 1000)
    b = dice.two_d6(np.random.Generator(np.random.PCG64DXSM(5)), 1000)
    assert (a == b).all()


def test_make_lut_validates():
    with pytest.raises(ValueError):
        dice.make_lut(np.arange(256))
    with pytest.raises(ValueError):
        dice.make_lut([255])


def test_one_byte_convention_for_every_draw():
    """One convention (issue 9): accepted bytes map monotonically to faces and sorted 2D6
    outcomes, so value draws, raw byte draws and threshold tests agree roll for roll."""
    assert (dice.SORTED_2D6 == np.repeat(np.sort(dice.TWO_D6_OUTCOMES), 7)).all()
    assert (dice.FACE_1D6 == np.arange(252) // 42 + 1).all()
    assert (dice.LUT_2D6[:252] == dice.SORTED_2D6).all()
    assert (dice.LUT_1D6[:252] == dice.FACE_1D6).all()
    assert (dice.THR_2D6 == 252 - dice.SUCCESS_BYTES).all()
    assert (dice.SUCCESS_BYTES == 7 * dice.AT_LEAST_36).all()
    for t in range(15):  # b >= THR_2D6[t] is exactly "the roll's total >= t"
        assert ((dice.SORTED_2D6 >= t) == (np.arange(252) >= dice.THR_2D6[t])).all()
    a = dice.two_d6(np.random.Generator(np.random.PCG64DXSM(3)), 5000)
    b = dice.die_bytes(np.random.Generator(np.random.PCG64DXSM(3)), 5000)
    assert (a == dice.SORTED_2D6[b]).all()
    c = dice.d6(np.random.Generator(np.random.PCG64DXSM(3)), 5000)
    assert (c == dice.FACE_1D6[b]).all()


def test_one_clamp_for_target_numbers():
    assert dice.clip_tn([-5, 0, 2, 7, 13, 14, 99]).tolist() == [0, 0, 2, 7, 13, 14, 14]
    assert dice.thr_2d6(-3) == dice.thr_2d6(2) == 0 and dice.thr_2d6(40) == 252
    assert dice.success_bytes(np.array([1, 7, 13])).tolist() == [252, 7 * 21, 0]


def test_roll_2d6_at_least_is_exact():
    rng = np.random.Generator(np.random.PCG64DXSM(11))
    n = 400_000
    for tn in (2, 5, 8, 12, 13):
        hits = dice.roll_2d6_at_least(rng, np.full(n, dice.success_bytes(tn), dtype=np.uint8))
        p = float(dice.p_2d6_at_least_exact(tn))
        assert stats.binomtest(int(hits.sum()), n, p).pvalue > ALPHA if 0 < p < 1 else (
            hits.mean() == p)


def test_fastdice_is_the_same_convention():
    from sim.classic import fastdice

    assert fastdice.SORTED_2D6 is dice.SORTED_2D6 and fastdice.thr_2d6 is dice.thr_2d6
