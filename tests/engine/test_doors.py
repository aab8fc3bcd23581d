"""One Monte Carlo door (issue 9): ``sim.attack``, ``sim.heat``, ``sim.run``, ``btsim attack``,
``btsim heat`` and ``btsim run`` all go through the engine, so the same seed, trials and chunk
size give the same bits by every door; every Python call returns a :class:`sim.Result`."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import sim
from sim import engine, results
from sim.cli import main
from sim.models import get_model
from sim.result import Result

TRIALS, SEED, CHUNK = 5000, 3, 1024  # five chunks, the last one short


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def _run_door(tmp_path, model: str, params: dict, jobs: int = 1) -> pd.DataFrame:
    exp = {"name": "door", "model": model, "fixed": params, "trials": TRIALS, "seed": SEED}
    return sim.run(exp, chunk_size=CHUNK, n_jobs=jobs, progress="never").frame


def test_attack_same_bits_by_every_door(tmp_path, capsys):
    res = sim.attack("kick", tons=70, trials=TRIALS, seed=SEED, chunk_size=CHUNK)
    assert isinstance(res, Result)
    frame = _run_door(tmp_path, "attack", {"attack": "kick", "tons": 70})
    both = sim.attack("kick", tons=70, trials=TRIALS, seed=SEED, chunk_size=CHUNK, n_jobs=2)
    doc = _cli_json(capsys, "attack", "kick", "--tons", "70", "--trials", str(TRIALS),
                    "--seed", str(SEED), "--chunk-size", str(CHUNK), "--json")
    metrics = [m.name for m in get_model("attack").metrics if m.kind != "hist"]
    for m in metrics:
        for col in (m, m + "_se"):
            a, b = res.frame[col].to_numpy(), frame[col].to_numpy()
            np.testing.assert_array_equal(a, b, err_msg=col)
            np.testing.assert_array_equal(a, both.frame[col].to_numpy(), err_msg=col)
    assert doc == res.to_dict()
    assert doc["p_hit"] == res.frame["p_hit"].iloc[0]
    assert res.frame["damage_dist"].iloc[0] == frame["damage_dist"].iloc[0]
    # btsim run writes the same numbers
    path = tmp_path / "door.toml"
    path.write_text(f'model = "attack"\ntrials = {TRIALS}\nseed = {SEED}\n'
                    '[fixed]\nattack = "kick"\ntons = 70\n')
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet",
                 "--chunk-size", str(CHUNK)]) == 0
    saved, _ = results.read(tmp_path / "out" / "door")
    np.testing.assert_array_equal(saved["p_hit"].to_numpy(), res.frame["p_hit"].to_numpy())


def test_the_issue_example_agrees():
    """``sim.attack("kick", tons=70, trials=300000, seed=3)`` used to give 0.971927 while
    ``sim.run`` gave 0.97226: now both are the engine's answer."""
    res = sim.attack("kick", tons=70, trials=300_000, seed=3)
    frame = sim.run({"name": "x", "model": "attack", "fixed": {"attack": "kick", "tons": 70},
                     "trials": 300_000, "seed": 3}, progress="never").frame
    assert res["p_hit"] == frame["p_hit"].iloc[0]


def test_heat_same_bits_by_every_door(tmp_path, capsys):
    params = {"ov": 2, "policy": "max", "turns": 4, "incoming": ["tn=8,dmg=2,ht=1"]}
    res = sim.heat(**params, trials=TRIALS, seed=SEED, chunk_size=CHUNK)
    assert isinstance(res, Result)
    frame = _run_door(tmp_path, "heat", params, jobs=2)
    doc = _cli_json(capsys, "heat", "--ov", "2", "--turns", "4", "--incoming",
                    "tn=8,dmg=2,ht=1", "--trials", str(TRIALS), "--seed", str(SEED),
                    "--chunk-size", str(CHUNK), "--json")
    for m in get_model("heat").metrics:
        for col in (m.name, m.name + "_se"):
            np.testing.assert_array_equal(res.frame[col].to_numpy(), frame[col].to_numpy(),
                                          err_msg=col)
    assert doc == res.to_dict()
    assert [t["p_shutdown"] for t in doc["turns"]] == res.frame["p_shutdown"].tolist()


def test_exact_door_matches_exact_frame():
    res = sim.heat(ov=2, turns=3)
    ex = engine.exact_frame(get_model("heat"), [{"ov": 2, "turns": 3}])
    pd.testing.assert_frame_equal(res.frame, ex)
    assert res.metadata["mode"] == "exact" and res.metadata["trials"] is None


def test_result_shape_and_compatibility():
    res = sim.attack("punch", tons=70, damaged=["upper-arm"], terrain="light-woods")
    assert res["target_number"] == 8 and res.frame["target_number"].iloc[0] == 8
    meta = res.metadata
    for key in ("model", "params", "options", "mode", "trials", "seed", "chunk_size",
                "btsim_version", "notes"):
        assert key in meta, key
    assert meta["model"] == "attack" and meta["options"]  # every effective option
    assert "Result(model attack, exact" in repr(res)
    assert "<table" in res._repr_html_()
    json.dumps(res.to_dict())  # strict JSON
    curves = sim.heat(unit="Loki (Hellbringer) Prime", policy="max", turns=3)
    assert list(curves["turn"]) == [1, 2, 3] and len(curves) == 3
    assert curves.iloc[0]["turn"] == 1  # DataFrame methods reach the frame
    run = sim.run({"name": "x", "model": "punch-demo", "grid": {"tons": [50, 70]}},
                  exact_only=True)
    assert run.to_dict()["metadata"]["model"] == "punch-demo" and len(run.to_dict()["rows"]) == 2


def test_public_api_has_real_signatures():
    import inspect

    for fn in (sim.attack, sim.heat, sim.run):
        sig = inspect.signature(fn)
        assert not any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()), fn
        assert "trials" in sig.parameters and fn.__doc__
        assert sig.return_annotation in ("Result", Result)


def test_heat_notes_reach_json_result_and_metadata(capsys, tmp_path):
    """The "specials not simulated" note the text output prints is in the JSON too."""
    doc = _cli_json(capsys, "heat", "--unit", "Loki (Hellbringer) Prime", "--turns", "2",
                    "--json")
    assert any(n.startswith("specials not simulated: ") for n in doc["notes"])
    res = sim.heat("Loki (Hellbringer) Prime", turns=2)
    assert res.notes == doc["notes"] == res.metadata["notes"]
    assert main(["heat", "--unit", "Loki (Hellbringer) Prime", "--turns", "2"]) == 0
    text = capsys.readouterr().out
    for note in res.notes:
        assert note in text


def test_heat_exact_chain_holds_nine_big_attackers(capsys):
    """Nine ``tn=2,dmg=30`` attackers pend 270 damage in a turn: the chain's key widens."""
    argv = ["heat", "--ov", "2", "--turns", "3"] + ["--incoming", "tn=2,dmg=30"] * 9
    doc = _cli_json(capsys, *argv, "--json")
    assert doc["mode"] == "exact"
    assert doc["turns"][0]["p_destroyed_by"] == pytest.approx(1.0)


def test_heat_exact_too_large_is_a_user_error(capsys, monkeypatch):
    """A state that cannot fit the chain's key is known up front: exit 2, one line naming
    --trials."""
    from sim.alphastrike import markov

    monkeypatch.setattr(markov, "_KEY_BITS", 40)
    assert main(["heat", "--ov", "2", "--turns", "2", "--incoming", "tn=8,dmg=3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--trials" in err[0]
    assert main(["heat", "--ov", "2", "--turns", "2", "--incoming", "tn=8,dmg=3",
                 "--trials", "500"]) == 0


def test_run_records_notes_and_every_effective_option(tmp_path):
    """A heat run with an override keeps the note and every effective option (defaults
    included) in its Result and in the saved summary's attributes."""
    exp = {"name": "h", "model": "heat", "trials": 200,
           "fixed": {"unit": "Loki (Hellbringer) Prime", "turns": 2, "heat_tmm_threshold": 3}}
    res = sim.run(exp, out=tmp_path, progress="never")
    (opts,) = res.metadata["options"]
    assert opts["heat_tmm_threshold"] == 3 and "ht_cap" in opts
    assert any(n.startswith("specials not simulated") for n in res.notes)
    saved, meta = results.read(tmp_path / "h")
    assert saved.attrs["notes"] == res.notes
    assert meta["scenario_options"][0]["heat_tmm_threshold"] == 3  # not in the frame's attrs


def test_heat_kernel_refuses_pending_damage_it_cannot_hold():
    from sim.errors import ConfigError

    with pytest.raises(ConfigError, match="'incoming'"):
        sim.heat(ov=2, turns=1, incoming=["tn=2,dmg=30"] * 1100, trials=10)
