"""Monte Carlo kernel against the exact Markov chain: every metric within 4 standard errors
(rules reference 6; the chain and the kernel share the rule functions but not the dice)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from as_helpers import LOKI, card

from sim import engine, testing
from sim.alphastrike.model import MODEL


def odd_turn_overheat(heat: np.ndarray, turn: int, state: dict[str, np.ndarray]) -> np.ndarray:
    """A turn-dependent policy: OV 2 on odd turns while heat < 2, hold fire on even turns
    when hot, otherwise fire without OV."""
    if turn % 2:
        return np.where(heat < 2, 2, 0)
    return np.where(heat >= 3, -1, 0)


SCENARIOS: list[dict[str, Any]] = [
    {"ov": 2, "policy": "max", "turns": 6},
    {"unit": LOKI, "policy": "max", "turns": 8, "incoming": ["tn=7,dmg=2,ht=1"]},
    {"ov": 3, "policy": "below:2", "turns": 6, "water": True, "rules": "seed",
     "incoming": ["skill=4,dmg=3,ht=2"]},
    {"unit": card(specials="ENE", armor=6, structure=5), "policy": "fixed:1", "turns": 6,
     "water": True, "water_depth": 1, "incoming": ["tn=6,dmg=1,ht=2", "tn=9,dmg=2,ht=1"]},
    {"unit": card(specials="MEL,CASE", armor=3, structure=6), "policy": "hold",
     "physical": "melee", "range": "short", "turns": 5, "incoming": ["tn=5,dmg=2"]},
    {"unit": card(damage=(2, 1, 0, 0), minimal=(False, False, True, False), armor=2,
                  structure=6, ov=1), "policy": "never", "range": "medium", "turns": 6,
     "incoming": ["tn=4,dmg=1", "tn=8,dmg=1", "tn=10,dmg=1"]},
    {"ov": 3, "policy": odd_turn_overheat, "turns": 6, "incoming": ["tn=8,dmg=2,ht=2"]},
    {"unit": card(type="CV", armor=5, structure=4, ov=0), "policy": "never", "turns": 5,
     "incoming": ["tn=7,dmg=1,ht=2"]},
    {"unit": card(jump=6, specials="CASEII"), "movement": "jump", "policy": "below:3",
     "turns": 6, "incoming": ["skill=3,dmg=2,ht=1"], "mp_hit_tmm": "minus1"},
]


@pytest.mark.parametrize("params", SCENARIOS, ids=range(len(SCENARIOS)))
def test_mc_matches_exact(params: dict[str, Any]) -> None:
    frame = engine.simulate(MODEL, [params], trials=120_000, seed=7, backend="sequential")
    table = testing.assert_mc_matches_exact(frame)
    assert len(table) > 10


def test_per_turn_frame_layout() -> None:
    frame = engine.exact_frame(MODEL, [SCENARIOS[1]])
    assert frame["turn"].tolist() == list(range(1, 9))
    heat = frame[[f"p_heat_{k}" for k in range(5)]].sum(axis=1)
    np.testing.assert_allclose(heat + frame["p_destroyed_by"], 1.0)
    np.testing.assert_allclose(frame["p_shutdown"], frame["p_heat_4"])
    np.testing.assert_allclose(frame["expected_cumulative_damage"],
                               frame["expected_damage"].cumsum())
    assert (np.diff(frame["p_shutdown_by"]) >= -1e-12).all()
    assert frame["expected_first_shutdown_turn"].nunique() == 1
