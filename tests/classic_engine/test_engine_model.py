"""The ``classic-duel`` model on the compiled engine (issue 21): numba stays out of ``import
sim`` and the CLI start, and what the engine does not compile runs on the NumPy kernel with
a note saying so (nothing refused silently)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from sim.models import get_model

LIGHT = {"unit_a": "Locust LCT-1V", "unit_b": "Commando COM-2D", "range": 3, "turns": 4}


def test_numba_is_not_imported_by_sim_or_a_scenario() -> None:
    code = ("import sys, sim, sim.cli; from sim.models import get_model; "
            "m = get_model('classic-duel'); m.notes(m.scenario({'unit_a': 'Locust LCT-1V', "
            "'unit_b': 'Commando COM-2D'})); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout.strip()
    assert out == "False"


def test_named_firing_policies_run_on_the_engine() -> None:
    model = get_model("classic-duel")
    for pol in ("neutral", "below:9", "max-expected"):
        scn = model.scenario({**LIGHT, "policy_a": pol})
        assert not any("NumPy duel kernel" in n for n in model.notes(scn)), pol


def test_uncompiled_policies_fall_back_to_the_numpy_kernel_with_a_note() -> None:
    model = get_model("classic-duel")
    compiled = model.scenario(LIGHT)
    assert not any("NumPy duel kernel" in n for n in model.notes(compiled))
    for extra in ({"policy_a": lambda heat, turn, state: state["avail"]},
                  {"physical_b": lambda info: 0}):
        scn = model.scenario({**LIGHT, **extra})
        assert any("sampled by the NumPy duel kernel" in n for n in model.notes(scn))
        agg = model.sample(scn, np.random.default_rng(1), 64)
        assert agg.n == 64
