"""The ``hit`` model under the engine: exact and Monte Carlo agree; bad parameters fail."""

from __future__ import annotations

import numpy as np
import pytest

import sim.engine as E
from sim.errors import ConfigError
from sim.models import get_model

PARAMS = [{"unit": "Hunchback HBK-4G", "damage": 21, "location": "LT"},
          {"unit": "Locust LCT-1V", "groups": "6,6", "side": "rear"}]


def test_engine_mc_within_4_se_of_exact() -> None:
    m = get_model("hit")
    frame = E.simulate(m, PARAMS, trials=20_000, seed=3)
    for metric in ("p_destroyed", "p_ammo_explosion", "expected_pilot_damage"):
        mc = frame[metric].to_numpy(float)
        ex = frame[f"{metric}_exact"].to_numpy(float)
        se = np.maximum(frame[f"{metric}_se"].to_numpy(float), 1e-3)
        assert np.all(np.abs(mc - ex) <= 4 * se), metric


@pytest.mark.parametrize("bad", [
    {"unit": "Nope", "damage": 5, "location": "CT"},
    {"unit": "Locust LCT-1V", "damage": 5},
    {"unit": "Locust LCT-1V", "damage": 5, "location": "CT", "speed": 3},
    {"unit": "Locust LCT-1V", "damage": 5, "location": "CT", "explosion_transfer": "x"},
])
def test_bad_parameters(bad: dict) -> None:
    with pytest.raises(ConfigError):
        get_model("hit").scenario(bad)
