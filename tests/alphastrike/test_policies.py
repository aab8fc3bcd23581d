"""Overheat policies (issue 4: hold, never, max, fixed:K, below:H, callables; ref 6.2)."""

from __future__ import annotations

import numpy as np
import pytest
from as_helpers import card, exact

from sim.alphastrike.policies import parse_policy
from sim.errors import ConfigError

HEAT = np.arange(5, dtype=np.uint8)


@pytest.mark.parametrize("text,want", [
    ("hold", [-1] * 5), ("never", [0] * 5), ("max", [3] * 5), ("fixed:2", [2] * 5),
    ("fixed:4", [3] * 5), ("below:2", [3, 3, 0, 0, 0]), ("below:0", [0] * 5),
])
def test_requests(text, want) -> None:
    req = parse_policy(text).request(HEAT, 1, {}, 3)
    np.testing.assert_array_equal(np.broadcast_to(req, (5,)), want)


@pytest.mark.parametrize("bad", ["foo", "fixed:", "fixed:5", "below:-1", "below:x", "max:1",
                                 "", 3, None])
def test_bad_policies(bad) -> None:
    with pytest.raises(ConfigError):
        parse_policy(bad)


def test_policy_curves_side_by_side() -> None:
    """Generic OV 2 'Mech, 4 turns, no incoming fire: damage against shutdown risk."""
    unit = card(ov=2)
    hold = exact(unit=unit, policy="hold", turns=4)
    never = exact(unit=unit, policy="never", turns=4)
    mx = exact(unit=unit, policy="max", turns=4)
    fixed1 = exact(unit=unit, policy="fixed:1", turns=4)
    below = exact(unit=unit, policy="below:1", turns=4)
    assert hold["expected_cumulative_damage"][-1] == 0 and hold["p_heat_0"].min() == 1
    np.testing.assert_allclose(never["expected_damage"], 15 / 36 * 4)
    np.testing.assert_allclose(never["p_ever_shutdown"], 0)
    # max: 0 -> 2 -> 4 (S) -> 0 -> 2
    np.testing.assert_allclose(mx["mean_heat"], [2, 4, 0, 2])
    np.testing.assert_allclose(mx["expected_first_shutdown_turn"], 2)
    # fixed:1: 1, 2, 3, 4
    np.testing.assert_allclose(fixed1["mean_heat"], [1, 2, 3, 4])
    np.testing.assert_allclose(fixed1["expected_first_shutdown_turn"], 4)
    # below:1: OV 2 at heat 0, then holds heat 2 firing without OV
    np.testing.assert_allclose(below["mean_heat"], [2, 2, 2, 2])
    np.testing.assert_allclose(below["p_ever_shutdown"], 0)
    assert np.isclose(never["expected_first_shutdown_turn"][0], 5)   # T + 1: never
    # damage gained against shutdown risk
    assert mx["expected_damage"][0] > never["expected_damage"][0]


def test_callable_policy_may_depend_on_turn() -> None:
    def alternate(heat, turn, state):
        return np.full(heat.shape, 2 if turn == 1 else -1)

    ex = exact(unit=card(ov=2), policy=alternate, turns=3)
    np.testing.assert_allclose(ex["mean_heat"], [2, 0, 0])
    assert ex["expected_damage"][1] == 0.0


def test_callable_sees_state() -> None:
    seen = {}

    def spy(heat, turn, state):
        seen.update(state)
        return np.zeros(heat.shape, np.int8)

    exact(unit=card(), policy=spy, turns=1)
    assert set(seen) == {"eng", "fc", "wh", "mp", "dmg", "alive"}
