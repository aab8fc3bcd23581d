"""``below:H`` is strict in both games (issue 18): the Classic fire policy keeps heat after
the heat phase below H (heat < H), as Alpha Strike fires full OV while heat < H."""

from __future__ import annotations

import pytest
from fire_helpers import hbk

from sim.classic.fire import markov
from sim.classic.fire.scenario import build_scenario
from sim.errors import ConfigError


def test_below_keeps_heat_strictly_under_h() -> None:
    """HBK-4G-like (13 sinks, 4 heat above them in the coolest hot mix): from heat 0,
    below:H lets heat reach at most H - 1 after every heat phase (H - 1 itself for H <= 5;
    at "at or under H" it would reach H)."""
    for h in (2, 3, 5):
        ex = markov.curves(build_scenario({"unit": hbk(), "range": 3, "policy": f"below:{h}",
                                           "turns": 4}))
        hist = ex["heat_hist"]
        assert hist[:, h:].sum() == 0, h           # never at H or above
        assert hist[:, h - 1].sum() > 0, h         # and H - 1 is reached


def test_below_range() -> None:
    build_scenario({"unit": hbk(), "policy": "below:61"})
    with pytest.raises(ConfigError, match="below:H"):
        build_scenario({"unit": hbk(), "policy": "below:0"})


def test_alpha_strike_below_is_strict_too() -> None:
    """Alpha Strike ``below:H``: full OV while heat < H (so at heat H no OV)."""
    import numpy as np

    from sim.alphastrike.policies import parse_policy

    pol = parse_policy("below:2")
    ov = np.asarray(pol.request(np.array([0, 1, 2, 3]), 1, {}, 2))
    assert ov.tolist() == [2, 2, 0, 0]
