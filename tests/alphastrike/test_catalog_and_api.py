"""Integration with the unit catalog (issue 5) and the ``sim.heat`` Python API."""

from __future__ import annotations

import numpy as np
import pytest

import sim


def test_loki_prime_from_catalog() -> None:
    from sim.units import catalog

    loki = catalog.get_alphastrike("Loki (Hellbringer) Prime")
    assert loki.ov == 3 and loki.has("CASE")
    frame = sim.heat("Loki (Hellbringer) Prime", policy="fixed:2", turns=3)
    np.testing.assert_allclose(frame["p_heat_2"], [1, 0, 0])
    np.testing.assert_allclose(frame["p_heat_4"], [0, 1, 0])
    assert frame["usable_ov"].iloc[0] == 3


def test_unknown_unit_is_a_user_error() -> None:
    from sim.errors import UserError

    with pytest.raises(UserError):
        sim.heat("No Such Mech XYZ-1", turns=2)


def test_api_exact_and_monte_carlo() -> None:
    ex = sim.heat(ov=2, policy="max", turns=4, incoming=["tn=8,dmg=2"])
    assert list(ex["turn"]) == [1, 2, 3, 4] and "p_heat_4" in ex
    mc = sim.heat(ov=2, policy="max", turns=4, incoming=["tn=8,dmg=2"], trials=20_000, seed=1)
    assert {"p_heat_4_se", "p_heat_4_exact"} <= set(mc.columns)
    from sim.testing import assert_mc_matches_exact

    assert_mc_matches_exact(mc)
    water = sim.heat(ov=2, policy="never", start_heat=3, water=True, turns=2,
                     water_depth=1, rules="seed")
    np.testing.assert_allclose(water["p_heat_3"], [1, 1])   # seed: 1" is too shallow
