"""``sim.hit`` is part of the public API (a :class:`sim.Result` whose ``to_dict()`` is the
``btsim hit --json`` document), and Monte Carlo ``hit`` gives every estimate a standard error
(``<field>_se``, nested like the field) that matches the spread of the exact distribution;
``--trials`` alone implies ``--method mc`` and is an error with ``--method exact``."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import sim
from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state.apply import DamageModel
from sim.classic.damage_state.choose import ExactChooser
from sim.classic.damage_state.outcome import summarize
from sim.classic.damage_state.state import canonical, fresh
from sim.classic.hit_api import _squares, run_groups
from sim.units.catalog import get_classic

LOCUST = "Locust LCT-1V"
N = 4_000


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", "hit", *args], capture_output=True,
                          text=True, check=False)


def test_sim_hit_is_exported_and_is_the_cli_document() -> None:
    assert "hit" in sim.__all__ and "hit" in sim.api.__all__ and "hit" in sim.api.API
    res = sim.hit(LOCUST, damage=20, side="front")
    assert isinstance(res, sim.Result) and res.metadata["mode"] == "exact"
    assert list(res.frame["location"]) == list(lay.LOCS)
    p = _cli(LOCUST, "--damage", "20", "--side", "front", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    doc.pop("seconds")
    mine = res.to_dict()
    mine.pop("seconds")
    assert mine == doc
    assert res["p_destroyed"] == doc["p_destroyed"]


@pytest.fixture(scope="module")
def mc() -> dict:
    return sim.hit(LOCUST, damage=20, side="front", method="mc", trials=N, seed=5).to_dict()


def test_every_mc_estimate_has_a_standard_error(mc: dict) -> None:
    for k in ("p_location_destroyed", "expected_armor_left", "expected_structure_left",
              "p_critical", "p_slot_hit", "p_blown_off", "p_destroyed_by"):
        assert set(mc[f"{k}_se"]) == set(mc[k]), k
    for k in ("p_destroyed", "p_ammo_explosion", "p_any_critical", "expected_pilot_damage",
              "expected_engine_hits"):
        assert f"{k}_se" in mc, k
    p = mc["p_destroyed"]
    assert mc["p_destroyed_se"] == pytest.approx(np.sqrt(p * (1 - p) / N))
    ex = sim.hit(LOCUST, damage=20, side="front").to_dict()
    assert not any(k.endswith("_se") for k in ex)


def test_mean_standard_errors_match_the_exact_spread(mc: dict) -> None:
    """The sample SE of E[armor/structure left] agrees with sqrt(Var/N) of the exact
    distribution (within 15%), and the MC means lie within 4 SE of the exact means."""
    mech = get_classic(LOCUST)
    layout = lay.build_layout(mech)
    dm = DamageModel.build(layout, DamageRules())
    S, w = run_groups(dm, (20,), None, False, "front", fresh(layout, 1), np.ones(1),
                      ExactChooser(lambda s: canonical(s, layout)), True)
    mean, sq = summarize(S, w, layout), _squares(S, w, layout)
    for k in ("expected_armor_left", "expected_structure_left"):
        for loc, m in mean[k].items():
            sd = np.sqrt(max(sq[k][loc] - m * m, 0.0))
            se = mc[f"{k}_se"][loc]
            assert abs(mc[k][loc] - m) <= 4 * se + 1e-9, (k, loc)
            assert se == pytest.approx(sd / np.sqrt(N), rel=0.15, abs=1e-9), (k, loc)
    for k in ("expected_pilot_damage", "expected_engine_hits"):
        sd = np.sqrt(max(sq[k] - mean[k] ** 2, 0.0))
        assert mc[f"{k}_se"] == pytest.approx(sd / np.sqrt(N), rel=0.25, abs=1e-9), k


def test_cli_trials_implies_mc_and_text_shows_se() -> None:
    p = _cli(LOCUST, "--damage", "20", "--side", "front", "--trials", "500", "--seed", "2",
             "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["params"]["method"] == "mc" and doc["params"]["trials"] == 500
    assert "p_destroyed_se" in doc
    p = _cli(LOCUST, "--damage", "20", "--side", "front", "--trials", "500")
    assert p.returncode == 0 and "mc, 500 trials" in p.stdout
    assert "(95% interval)" in p.stdout and "±" not in p.stdout and "–" in p.stdout


@pytest.mark.parametrize("extra", [["--trials", "1000"], ["--seed", "3"]])
def test_cli_trials_or_seed_with_exact_exit_2(extra: list[str]) -> None:
    p = _cli(LOCUST, "--damage", "20", "--side", "front", "--method", "exact", *extra)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "--method mc" in p.stderr


def test_mc_goes_through_the_engine_same_bits_as_sim_run() -> None:
    """Issue 21: ``sim.hit`` Monte Carlo and ``sim.run`` on the ``hit`` model give the same
    bits for the same seed and trials (both draw the engine's chunk streams)."""
    kw = {"unit": "Hunchback HBK-4G", "damage": 20, "side": "front"}
    a = sim.hit(kw["unit"], damage=20, side="front", method="mc", trials=3_000, seed=4)
    r = sim.run({"model": "hit", "fixed": kw}, trials=3_000, seed=4, progress=False,
                cache=False).frame.iloc[0]
    for k in ("p_destroyed", "p_ammo_explosion", "p_any_critical", "expected_pilot_damage",
              "expected_engine_hits"):
        assert a[k] == r[k] and a[f"{k}_se"] == r[f"{k}_se"], k
    assert a["p_destroyed_by"]["head"] == r["p_destroyed_by_head"]
