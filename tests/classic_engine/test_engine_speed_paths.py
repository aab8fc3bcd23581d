"""The speed paths of the compiled Classic engine (issue 21) compute what the general code
computes: the block summary (:func:`sim.classic.engine.sampler.summarize_block`) against
the duel kernel's :func:`~sim.classic.duel.kernel.summarize`, and the per-unit side cache
(:func:`sim.classic.duel.scenario._per_unit`) against a side built afresh."""

from __future__ import annotations

import numpy as np
import pytest

from sim.classic.duel import kernel as nk
from sim.classic.duel import scenario as sc
from sim.classic.engine import sampler

CASES = (
    {"unit_a": "Atlas AS7-D", "unit_b": "Hunchback HBK-4G", "range": 1, "turns": 8},
    {"unit_a": "Locust LCT-1V", "unit_b": "Wolverine WVR-6R", "range": 12, "closing": True,
     "turns": 6},
    {"unit_a": "Catapult CPLT-C1", "unit_b": "Awesome AWS-8Q", "range": 9, "turns": 12,
     "physical_a": "none", "physical_b": "none", "moved_a": "walk"},
)


@pytest.mark.parametrize("params", CASES)
def test_block_summary_is_the_kernel_summary(params: dict) -> None:
    scn = sc.build(params)
    out = sampler.run(scn, np.random.default_rng(5), 300)
    T = scn.turns
    ints = np.stack([out[k].T for k in ("dead_turn", "cause", "out", "fell_turn",
                                        "shut_turn")], axis=2)
    fast = sampler.summarize_block(T, ints, out["dealt"].transpose(2, 0, 1),
                                   out["range"].T)
    ref = nk.summarize(scn, out)
    assert fast is not None and fast.n == ref.n
    assert list(fast.stats) == list(ref.stats)
    for k, v in ref.stats.items():
        assert fast.stats[k].dtype == v.dtype and np.array_equal(fast.stats[k], v), k
    assert list(fast.hists) == list(ref.hists)
    for k, v in ref.hists.items():
        assert fast.hists[k].dtype == v.dtype and np.array_equal(fast.hists[k], v), k


def test_a_cached_side_is_the_side_built_afresh() -> None:
    from sim.classic.engine import compile as cc

    # stand-and-fire: under the tactics a side's fire tables also cover the opponent's moves
    params = {"unit_a": "Hunchback HBK-4G", "unit_b": "Commando COM-2D", "range": 3,
              "gunnery_a": 3, "tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}
    first = sc.build(params)
    again = sc.build({**params, "unit_b": "Locust LCT-1V"})
    assert again.a is first.a                       # the same unit, skills and situations
    assert sc.build({**params, "gunnery_a": 2}).a is not first.a
    assert sc.build({**params, "range": 4}).a is not first.a
    packed = cc.compile_scenario(first).parts
    sc._SIDES.clear()
    sc._FIRE.clear()
    cc._UNITS.clear()
    fresh = sc.build(params)
    assert fresh.a is not first.a and fresh.notes == first.notes
    for x, y in zip(cc.compile_scenario(fresh).parts, packed, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
