"""One Monte Carlo door for the fire models (issue 9 / 11): ``sim.fire``, ``btsim fire`` and
``sim.run`` / ``btsim run`` of a ``fire`` experiment give the same bits for the same seed,
trials and chunk size; ``sim.fire``/``sim.profile`` return a :class:`sim.Result` whose
``to_dict()`` is the CLI's ``--json`` document; rule options go through the registry."""

from __future__ import annotations

import json

import numpy as np
import pytest

import sim
from sim import options
from sim.cli import main
from sim.errors import ConfigError
from sim.models import get_model
from sim.result import Result

TRIALS, SEED, CHUNK = 3000, 5, 1024
HBK = "Hunchback HBK-4G"


def test_fire_same_bits_by_every_door(tmp_path, capsys) -> None:
    res = sim.fire(HBK, range=3, moved="walk", turns=4, policy="neutral", trials=TRIALS,
                   seed=SEED, chunk_size=CHUNK, uac_jam="never")
    assert isinstance(res, Result) and res.mode == "monte-carlo"
    exp = {"name": "door", "model": "fire", "trials": TRIALS, "seed": SEED,
           "fixed": {"unit": HBK, "range": 3, "moved": "walk", "turns": 4,
                     "policy": "neutral"}}
    frame = sim.run(exp, chunk_size=CHUNK, progress="never",
                    rule_overrides={"uac_jam": "never"}).frame
    assert main(["fire", HBK, "--range", "3", "--moved", "walk", "--turns", "4", "--policy",
                 "neutral", "--trials", str(TRIALS), "--seed", str(SEED), "--chunk-size",
                 str(CHUNK), "--rule", "uac_jam=never", "--progress", "never", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for m in get_model("fire").metrics:
        if m.kind == "hist":
            continue
        for col in (m.name, m.name + "_se"):
            np.testing.assert_array_equal(res.frame[col].to_numpy(), frame[col].to_numpy(),
                                          err_msg=col)
    assert doc == res.to_dict()
    assert [t["mean_heat"] for t in doc["turns"]] == res.frame["mean_heat"].tolist()
    assert doc["params"]["rule_options"]["uac_jam"] == "never"
    assert res.metadata["options"]["uac_jam"] == "never"


def test_fire_exact_result_and_notes() -> None:
    res = sim.fire("Atlas AS7-D", range=3, turns=2)
    doc = res.to_dict()
    assert doc["mode"] == "exact" and doc["notes"] == res.notes == res.metadata["notes"]
    assert any("not simulated" in n for n in res.notes)
    rear = [w for w in doc["weapons"] if w["rear"]]
    assert len(rear) == 2 and all("rear" in w["reason"] for w in rear)


def test_profile_result_matches_cli(capsys) -> None:
    res = sim.profile("Commando COM-2D", turns=3)
    assert main(["profile", "Commando COM-2D", "--turns", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == res.to_dict()
    assert res.to_dict()["ranges"][0]["range"] == 1


def test_fire_rules_are_registered() -> None:
    assert set(options.model_names("fire")) >= {"uac_jam", "rac_jam", "fire_tmm_table",
                                                 "tacops_shutdown", "rotary_shots"}
    assert options.model_names("profile") == options.model_names("fire")
    assert options.game_of_model("fire") == "classic"
    with pytest.raises(ConfigError, match="uac_jam"):
        options.check_overrides("fire", {"uac_jam": "sometimes"})
    with pytest.raises(ConfigError, match="punch_min_damage"):   # an attack-model option
        options.check_overrides("fire", {"punch_min_damage": 1})
    on = sim.fire(HBK, range=3, moved="run", turns=6, tacops_shutdown=True, piloting=3)
    off = sim.fire(HBK, range=3, moved="run", turns=6)
    assert on.frame["p_shutdown"].iloc[4] == 0 < off.frame["p_shutdown"].iloc[4]
