"""``closing`` in the Classic duel with a range per duel (``closing_mp=current``, default)
and the old single schedule (``closing_mp=undamaged``): hand-checkable ranges, the physical
phase only where a duel is adjacent, and the ``expected_range`` metric."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR, unarmed

import sim
from sim import options
from sim.classic.duel import kernel
from sim.classic.duel.scenario import build as _build

LOKI = "Loki (Hellbringer) Prime"
AWESOME = "Awesome AWS-8Q"

#: these tests check the duel with imposed movement (issue 22: the default tactic became
#: competent at a fixed range): both sides pinned to stand-and-fire unless a test says
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def build(params: dict):  # noqa: ANN201 - the scenario builder, stand-and-fire pinned
    return _build({**SAF, **params})


def _run(params: dict, n: int, seed: int = 0) -> tuple[object, dict]:
    scn = build(params)
    return scn, kernel.run_block(scn, None, np.random.default_rng(seed), n)


def test_option_is_registered_with_current_as_default() -> None:
    spec = options.spec("closing_mp")
    assert spec.decl.default == "current" and spec.decl.allowed == ("current", "undamaged")
    assert build({"unit_a": HBK, "unit_b": WVR, "closing": True}).per_trial_range
    assert not build({"unit_a": HBK, "unit_b": WVR, "closing": True,
                      "closing_mp": "undamaged"}).per_trial_range
    assert not build({"unit_a": HBK, "unit_b": WVR, "range": 6}).per_trial_range


def test_a_mech_that_cannot_move_is_closed_on_at_the_other_speed_only() -> None:
    """A has no walking MP: only the unarmed Wolverine runs (8 hexes a turn): 30 -> 22, 14,
    6, then adjacent; identical in every duel (nobody is armed, nobody slows down)."""
    a = replace(unarmed(HBK), walk_mp=0)
    scn, out = _run({"unit_a": a, "unit_b": unarmed(WVR), "closing": True, "range": 30,
                     "turns": 4}, 300)
    assert scn.ranges == (22, 14, 6, 1)
    assert (out["range"] == np.array([22, 14, 6, 1])[:, None]).all()


def test_undamaged_reproduces_the_schedule_in_every_duel() -> None:
    p = {"unit_a": LOKI, "unit_b": AWESOME, "closing": True, "range": 40, "turns": 6,
         "closing_mp": "undamaged"}
    scn, out = _run(p, 800, 3)
    assert scn.ranges == (27, 14, 1, 1, 1, 1)
    r = out["range"]
    for t in range(6):
        running = r[t] > 0
        assert running.any() and (r[t][running] == scn.ranges[t]).all()


def test_a_mech_run_hot_closes_slower_than_the_schedule() -> None:
    """Loki Prime vs an unarmed Awesome from 40: both run 8 + 5 = 13 hexes (27, 14); at 14
    the Loki fires both ER PPCs and its three ER medium lasers, 2 + 30 + 15 = 47 heat less
    26 dissipated: heat 21, so it walks 5 - 4 = 1 and runs 2. Turn 3: 14 - 2 - 5 = 7 when
    it keeps running, 9 when its heat shut it down (it stands still: only the Awesome
    closes); more when the Awesome fell. The schedule says adjacent (1)."""
    p = {"unit_a": LOKI, "unit_b": unarmed(AWESOME), "closing": True, "range": 40,
         "turns": 6}
    scn, out = _run(p, 2000, 1)
    assert scn.ranges[:3] == (27, 14, 1)
    r = out["range"]
    assert (r[0] == 27).all() and (r[1] == 14).all()
    third = r[2][r[2] > 0]
    values, counts = np.unique(third, return_counts=True)
    share = dict(zip(values.tolist(), (counts / third.size).tolist(), strict=True))
    assert set(share) <= {7, 9, 12, 14}
    assert share[7] > 0.5 and share[9] > 0.15
    # no duel is ever closer than the undamaged schedule, and most get there later
    for t in range(6):
        running = r[t] > 0
        assert (r[t][running] >= scn.ranges[t]).all()
    assert (r[3][r[3] > 0] > 1).mean() > 0.5


def test_physical_attacks_only_where_the_duel_is_adjacent() -> None:
    """The unarmed Awesome can only hurt by physical attacks: every point it deals falls in a
    turn where that duel's range is 1, and in turn 4 some duels are adjacent (and hit) while
    others are still closing."""
    p = {"unit_a": LOKI, "unit_b": unarmed(AWESOME), "closing": True, "range": 40,
         "turns": 6, "moved_b": "walk"}
    _, out = _run(p, 2000, 2)
    dealt_b = out["dealt"][1]
    r = out["range"]
    assert (r[dealt_b > 0] == 1).all()
    assert (dealt_b[3] > 0).any() and (r[3] > 1).any()


def test_expected_range_in_the_result() -> None:
    res = sim.classic_duel(LOKI, AWESOME, closing=True, range=40, turns=4, trials=400, seed=2)
    turns = res.to_dict()["turns"]
    assert [t["range"] for t in turns] == [27, 14, 1, 1]          # the nominal schedule
    assert turns[0]["expected_range"] == 27 and turns[0]["expected_range_se"] == 0
    assert turns[2]["expected_range"] > 3 and turns[2]["expected_range_se"] > 0
    fixed = sim.classic_duel(HBK, WVR, range=6, turns=2, trials=100, seed=2,
                             tactic_a="stand-and-fire", tactic_b="stand-and-fire").to_dict()
    assert [t["expected_range"] for t in fixed["turns"]] == [6, 6]


@pytest.mark.parametrize("mp", ["current", "undamaged"])
def test_closing_from_one_is_a_brawl_from_the_start(mp: str) -> None:
    _, out = _run({"unit_a": HBK, "unit_b": WVR, "closing": True, "range": 1, "turns": 3,
                   "closing_mp": mp}, 200)
    r = out["range"]
    assert (r[r > 0] == 1).all()
