"""Monte Carlo kernel against the exact chain over synthetic 'Mechs and every policy: every
metric (per-turn means, probabilities and every bin of the heat and damage distributions)
within 4 standard errors (fixed seeds, small samples)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fire_helpers import hbk, hot_missiles, timber_wolf

from sim import engine, testing
from sim.classic.fire.model import MODEL


def odd_all_even_energy(heat: np.ndarray, turn: int, state: dict[str, np.ndarray]
                        ) -> np.ndarray:
    """Callable policy: everything on odd turns; on even turns nothing when hot."""
    n, w = state["avail"].shape
    if turn % 2:
        return np.ones((n, w), dtype=bool)
    return np.broadcast_to((heat < 6)[:, None], (n, w))


SCENARIOS: list[dict[str, Any]] = [
    {"unit": hbk(), "range": 3, "moved": "run", "policy": "all", "turns": 7},
    {"unit": hbk(), "range": 5, "moved": "walk", "policy": "neutral", "turns": 4},
    {"unit": hbk(), "range": 2, "policy": "below:10", "turns": 5, "start_heat": 12},
    {"unit": hbk(), "range": 3, "moved": "run", "policy": "max-expected", "turns": 5},
    {"unit": timber_wolf(), "ranges": "8,5", "policy": "all", "turns": 5},
    {"unit": timber_wolf(), "range": 7, "policy": "max-expected", "turns": 4,
     "water": True},
    {"unit": hot_missiles(), "range": 4, "moved": "jump", "policy": "all", "turns": 6,
     "start_heat": 10},
    {"unit": hot_missiles(), "range": 5, "policy": "neutral", "turns": 5,
     "lbx_ammo": "cluster", "tacops_shutdown": True},
    {"unit": hot_missiles(), "range": 3, "policy": odd_all_even_energy, "turns": 5,
     "uac_jam": "never", "explosion_while_shutdown": False},
]


@pytest.mark.parametrize("params", SCENARIOS, ids=range(len(SCENARIOS)))
def test_mc_matches_exact(params: dict[str, Any]) -> None:
    n = 20_000
    frame = engine.simulate(MODEL, [params], trials=n, seed=3, backend="sequential")
    scalars = [m.name for m in MODEL.metrics if m.kind != "hist"]
    table = testing.assert_mc_matches_exact(frame, metrics=scalars)
    assert len(table) >= len(scalars) * len(frame)
    # distributions bin by bin; a bin whose exact mass is far below 1/n can still show one
    # event, so the bound adds 3/n to the binomial 4 SE
    for name in ("heat_hist", "damage_hist"):
        for i in range(len(frame)):
            mc = np.asarray(frame[name].iloc[i])
            ex = np.asarray(frame[name + "_exact"].iloc[i])
            w = max(mc.size, ex.size)
            mc, ex = np.pad(mc, (0, w - mc.size)), np.pad(ex, (0, w - ex.size))
            se = np.sqrt(np.clip(ex * (1 - ex), 0, None) / n)
            assert np.all(np.abs(mc - ex) <= 4 * se + 3 / n), (name, i)


def monster():
    """Over 255 damage in one turn (16-bit location lanes) and 13 ammunition-fed guns (the
    decision table falls back to distinct keys)."""
    from sim.classic.fire.synthetic import synthetic_unit

    return synthetic_unit([("IS AC/20", "RT")] * 11 + [("IS LRM 20", "LT")] * 2,
                          [("IS Ammo AC/20", "RT", 200), ("IS Ammo LRM-20", "LT", 60)],
                          sinks=60, double=True, walk=3, name="Monster")


def test_wide_lanes_and_many_variable_guns() -> None:
    import sim.classic.fire.kernel as K

    params = {"unit": monster(), "range": 5, "policy": "neutral", "turns": 3}
    scn = MODEL.scenario(params)
    assert scn.damage_bins > 256 and sum(g.pool >= 0 for g in scn.guns) == 13
    assert K.ACTIVE_HEATS << 13 > K.MAX_TABLE
    frame = engine.simulate(MODEL, [params], trials=3000, seed=4, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=[m.name for m in MODEL.metrics
                                                    if m.kind != "hist"])


def test_frame_consistency() -> None:
    ex = engine.exact_frame(MODEL, [SCENARIOS[6]])
    np.testing.assert_allclose(ex["expected_cumulative_damage"],
                               ex["expected_damage"].cumsum())
    locs = ex[[c for c in ex.columns if c.startswith("expected_damage_")]].sum(axis=1)
    np.testing.assert_allclose(locs, ex["expected_damage"])
    for col in ("heat_hist", "damage_hist"):
        np.testing.assert_allclose([sum(v) for v in ex[col]], 1.0)
    assert (np.diff(ex["p_shutdown_by"]) >= -1e-12).all()
    assert (np.diff(ex["p_ammo_explosion_by"]) >= -1e-12).all()
    assert ex["p_shutdown_by"].iloc[-1] > 0.05 and ex["p_ammo_explosion_by"].iloc[-1] > 0


def test_rear_mounts_never_fire() -> None:
    from sim.classic.fire.synthetic import synthetic_unit

    unit = synthetic_unit([("IS Medium Laser", "CT", True), ("IS Medium Laser", "CT", True)],
                          sinks=0)
    ex = engine.exact_frame(MODEL, [{"unit": unit, "range": 3, "turns": 2}])
    assert ex["expected_damage"].sum() == 0 and ex["mean_heat"].sum() == 0
