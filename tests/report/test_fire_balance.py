"""Derived balance metrics of Classic weapon fire (:mod:`sim.classic.fire.balance`), read by
the ``weapon-fire`` and ``fire-profiles`` report sections."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.classic.fire import balance as FB
from sim.classic.fire import heat as H


def test_policies_go_from_coolest_to_hottest():
    got = FB.ordered_policies(["all", "max-expected", "below:20", "neutral", "below:4", "all"])
    assert got == ["neutral", "below:4", "below:20", "max-expected", "all"]
    assert FB.ordered_policies(["my_fn", "all"]) == ["all", "my_fn"]


def test_ranks_share_the_best_rank_on_ties_and_leave_nan_unranked():
    r = FB.rank_desc(pd.Series([10.0, 30.0, 10.0, np.nan, 5.0]))
    assert r.tolist()[:3] == [2.0, 1.0, 2.0] and np.isnan(r.iloc[3]) and r.iloc[4] == 4.0


def test_closest_range():
    assert FB.closest_range([1, 2, 6, 9]) == FB.RANK_RANGE == 6
    assert FB.closest_range([1, 2, 3, 4]) == 4
    assert FB.closest_range([5, 7]) == 5  # ties: the lower
    with pytest.raises(ValueError):
        FB.closest_range([])


def test_heat_bands_follow_the_heat_scale():
    """Each level lands in its band of 13.1: 4 no effect, 13 penalties, 14 shutdown rolls,
    19 ammunition rolls too, 30 and the top bin automatic shutdown."""
    hist = np.zeros((6, 46))
    for i, lvl in enumerate((4, 13, 14, 19, H.AUTO_SHUTDOWN, 45)):
        hist[i, lvl] = 1.0
    bands = FB.heat_bands(hist)
    assert bands.argmax(axis=1).tolist() == [0, 1, 2, 3, 4, 4]
    assert bands.sum(axis=1) == pytest.approx(np.ones(6))
    assert [b[1] for b in FB.HEAT_BANDS] == [0, 5, H.AUTO_RESTART_BELOW, H.AMMO_CHECK_FROM,
                                             H.AUTO_SHUTDOWN]


def test_profile_at_reads_exact_values_and_scores_out_of_range_units_zero():
    f = pd.DataFrame({
        "unit": ["A", "A", "A", "A", "B"], "policy": ["all", "neutral", "all", "neutral", "all"],
        "range": [6, 6, 7, 7, 3],
        "max_damage": [10.0, 10.0, 8.0, 8.0, 5.0], "max_damage_exact": [10.0] * 4 + [5.0],
        "hit_weighted": [7.0, 7.0, 5.0, 5.0, 3.0],
        "sustained": [5.1, 6.1, 4.0, 4.0, 2.0], "sustained_exact": [5.0, 6.0, 4.0, 4.0, 2.0],
        "sustained_ci_low": [4.9, 5.9, 3.9, 3.9, 1.9],
        "sustained_ci_high": [5.3, 6.3, 4.1, 4.1, 2.1]})
    p = FB.profile_at(f, 6, ["A", "B"], ["all", "neutral"])
    assert p.loc["A", "max_damage"] == 10.0 and p.loc["A", "hit_weighted"] == 7.0
    assert p.loc["A", "sustained|all"] == 5.0 and p.loc["A", "sustained|neutral"] == 6.0
    assert p.loc["A", "sustained_ci_low|all"] == 4.9
    assert p.loc["B", "sustained|all"] == 0.0 and np.isnan(p.loc["B", "sustained_ci_low|all"])


def test_hist_rows_prefer_exact_cells():
    f = pd.DataFrame({"h": [np.array([1.0, 0.0]), np.array([0.0, 1.0])],
                      "h_exact": [np.array([0.5, 0.5]), np.array([0.0, 1.0])]})
    assert FB.hist_rows(f, "h").tolist() == [[0.5, 0.5], [0.0, 1.0]]
    assert FB.hist_rows(f, "missing") is None
