"""Issue 12 follow-ups: the model version keys the cache; ``--json`` shows what a target-error
run used."""

from __future__ import annotations

import json

import pytest

from sim.cli import main as cli
from sim.experiment import run
from sim.models import get_model


def test_model_version_is_in_the_cache_key(tmp_path, capsys, monkeypatch) -> None:
    exp = {"name": "v", "model": "punch-demo", "trials": 2000, "seed": 1}
    model = get_model("punch-demo")
    assert model.version == "1"
    assert get_model("heat").version == "2"   # new draw structure (per-kind sub-streams)
    run(exp, out=tmp_path, chunk_size=500, progress=False)
    info: dict = {}
    run(exp, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["chunks_computed"] == 0
    capsys.readouterr()
    monkeypatch.setattr(model, "version", "1b")
    info = {}
    run(exp, out=tmp_path, chunk_size=500, progress=False, info=info)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalidated" in err[0] and "model_version" in err[0]
    assert info["chunks_cached"] == 0 and info["chunks_computed"] == 4


@pytest.mark.parametrize("command", [
    ["attack", "punch", "--tons", "70", "--target-metric", "p_hit"],
    ["heat", "--ov", "2", "--turns", "2", "--incoming", "tn=7,dmg=2,ht=2",
     "--target-metric", "mean_heat"],
])
def test_json_shows_trials_used_and_target_reached(capsys, command) -> None:
    args = [*command, "--chunk-size", "256", "--seed", "3", "--json"]
    assert cli([*args, "--target-error", "0.05"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["target_reached"] is True and doc["target_error"] == 0.05
    assert doc["trials_used"] == doc["trials"] and doc["trials"] % 256 == 0
    assert cli([*args, "--target-error", "0.0001", "--max-trials", "512"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["target_reached"] is False and doc["trials_used"] == 512
    assert cli([*command[:-2], "--trials", "300", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "trials_used" not in doc and "target_reached" not in doc and doc["trials"] == 300


def test_cache_log_drops_a_torn_record(tmp_path) -> None:
    """A crash mid-write leaves a record cut short: it is dropped (the log truncated to its
    good part) and only its task is recomputed; the result is unchanged."""
    exp = {"name": "t", "model": "punch-demo", "trials": 8000, "seed": 2}
    first = run(exp, out=tmp_path, chunk_size=500, progress=False)
    (log,) = (tmp_path / "t" / ".cache").rglob("chunks.agg")
    whole = log.read_bytes()
    assert whole.count(b"BTSIMREC") >= 2       # one record per task, appended
    log.write_bytes(whole + whole[:40])       # a torn record after the good ones
    described = tmp_path / "t" / ".cache" / "scenarios.rec"
    described.unlink()   # else the finished scenario is read from there, not its log
    info: dict = {}
    assert run(exp, out=tmp_path, chunk_size=500, progress=False, info=info).equals(first)
    assert info["chunks_computed"] == 0 and log.read_bytes() == whole
    last = whole.rindex(b"BTSIMREC")
    log.write_bytes(whole[:-7])               # the last record cut short
    described.unlink()
    info = {}
    assert run(exp, out=tmp_path, chunk_size=500, progress=False, info=info).equals(first)
    from sim.cache import read_log

    lost = len(read_log(whole[last:])[0])
    assert info["chunks_computed"] == lost and info["chunks_cached"] == 16 - lost
