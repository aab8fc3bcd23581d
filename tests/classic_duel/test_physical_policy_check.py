"""A physical-policy callable must return attack codes in 0..6 (``physical.KINDS``), one per
trial or one for all: anything else is a ConfigError naming ``physical_a``/``physical_b``,
never silently no attack."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR

from sim.classic.duel import physical as ph
from sim.classic.duel.api import classic_duel
from sim.errors import ConfigError


def _duel(policy: Any) -> Any:
    return classic_duel(HBK, WVR, range=1, turns=1, trials=64, seed=1, physical_a=policy,
                        physical_b="none", progress="never")


@pytest.mark.parametrize("bad, words", [
    (lambda info: 7, "7"),
    (lambda info: np.full(len(info["e_kick"]), -1), "-1"),
    (lambda info: np.full(len(info["e_kick"]), 1.5), "integer"),
    (lambda info: np.zeros(3, int), "shape"),
])
def test_out_of_range_codes_are_refused(bad: Any, words: str) -> None:
    with pytest.raises(ConfigError, match="physical_a/physical_b") as exc:
        _duel(bad)
    assert words in str(exc.value) and HBK in str(exc.value)
    assert "\n" not in str(exc.value)


def test_legal_codes_pass_unchanged() -> None:
    assert list(ph.policy_choice(2, 3, "x")) == [2, 2, 2]
    assert list(ph.policy_choice(np.array([0, 6, 1.0]), 3, "x")) == [0, 6, 1]
    kick = _duel(lambda info: np.full(len(info["e_kick"]), ph.KICK))
    none = _duel(lambda info: np.full(len(info["e_kick"]), ph.NONE))
    # the same dice up to the physical phase: the forced kicks knock the Wolverine down more
    assert kick["p_fell_b"] > none["p_fell_b"]
