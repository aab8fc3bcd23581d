"""Issue 18: a resume costs the unfinished share of the work plus start-up. A fixed-trials
run describes each scenario as its last chunk lands (``scenarios.rec``, sim.described); a
resume reads the finished ones back, builds none of them and gives the same bytes as an
uninterrupted run. A torn, mangled or stale record is a miss, never a traceback."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim import cache as cache_mod
from sim.aggregate import Aggregate
from sim.described import Described, decode, encode, same
from sim.experiment import run
from sim.models import get_model

ROOT = Path(__file__).resolve().parents[2]
#: per-turn rows (the heat model): row columns, facts and rule options all go through
HEAT = {"name": "h", "model": "heat", "trials": 1500, "seed": 5, "exact": True,
        "fixed": {"turns": 4, "unit": "Atlas AS7-D", "range": "medium"},
        "grid": {"policy": ["never", "max"], "water": [False, True]}}
ATTACK = """name = "a"
model = "attack"
trials = 3000
seed = 2
[fixed]
attack = "kick"
[grid]
tons = [20, 50, 80]
piloting = [4, 5]
"""


def _files(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "summary.parquet").read_bytes(), (folder / "summary.csv").read_bytes()


def _count_builds(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    model = get_model(name)
    calls = [0]
    real = type(model).scenario

    def counted(self, params):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(self, params)

    monkeypatch.setattr(type(model), "scenario", counted)
    return calls


def _forget_result(folder: Path) -> None:
    """What a run killed before its summary leaves: the cache only."""
    for name in ("summary.parquet", "summary.csv", "metadata.json"):
        (folder / name).unlink()


def test_finished_scenarios_are_read_back_not_built(tmp_path, monkeypatch):
    run(HEAT, out=tmp_path / "fresh", chunk_size=500, progress=False, cache=False)
    want = _files(tmp_path / "fresh" / "h")
    run(HEAT, out=tmp_path, chunk_size=500, progress=False)
    folder = tmp_path / "h"
    assert _files(folder) == want
    rec = folder / ".cache" / cache_mod.SCENARIOS_NAME
    assert rec.is_file()
    # two scenarios' descriptions lost (a run killed after their chunks were saved)
    _forget_result(folder)
    data = rec.read_bytes()
    cut = [i for i in range(len(data)) if data.startswith(cache_mod.RECORD, i)]
    rec.write_bytes(data[:cut[2]])
    builds = _count_builds(monkeypatch, "heat")
    info: dict = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert _files(folder) == want
    assert info["scenarios_described"] == 2 and info["chunks_computed"] == 0
    assert builds[0] == 2          # only the two not described were built
    # every scenario described now: a resume with nothing left builds none
    _forget_result(folder)
    builds[0] = 0
    info = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert builds[0] == 0 and info["scenarios_described"] == 4
    assert info["chunks_cached"] == 4 * 3 and _files(folder) == want


def test_torn_mangled_and_stale_records_are_misses(tmp_path, capsys):
    run(HEAT, out=tmp_path / "fresh", chunk_size=500, progress=False, cache=False)
    want = _files(tmp_path / "fresh" / "h")
    run(HEAT, out=tmp_path, chunk_size=500, progress=False)
    folder = tmp_path / "h"
    rec = folder / ".cache" / cache_mod.SCENARIOS_NAME
    good = rec.read_bytes()
    # a torn last record (a crash mid-write) is cut off; its scenario is read from chunks
    _forget_result(folder)
    rec.write_bytes(good[:-7])
    info: dict = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["scenarios_described"] == 3 and _files(folder) == want
    assert rec.read_bytes() == good    # cut, then described again
    # a valid frame with garbage inside: a miss, no traceback
    _forget_result(folder)
    first = good[:20 + int.from_bytes(good[8:16], "little")]
    block = bytearray(first[20:])
    block[40:60] = b"\xff" * 20
    rec.write_bytes(cache_mod.frame_record(bytes(block)) + good[len(first):])
    info = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["scenarios_described"] == 3 and _files(folder) == want
    # other trials: every record is stale (not read back) and removed by the next run
    info = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info, trials=2000)
    assert info["scenarios_described"] == 0 and info["chunks_computed"] == 4
    assert "Traceback" not in capsys.readouterr().err
    _forget_result(folder)
    info = {}
    run(HEAT, out=tmp_path, chunk_size=500, progress=False, info=info, trials=2000)
    assert info["scenarios_described"] == 4
    assert len(rec.read_bytes()) < 1.5 * len(good)   # the 1,500-trial records were dropped


def test_sigkill_then_resume_reads_finished_scenarios(tmp_path):
    exp = tmp_path / "a.toml"
    exp.write_text(ATTACK)
    env = dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0")
    env.pop("BTSIM_TEST_KILL_AFTER_TASKS", None)
    args = [sys.executable, "-m", "sim", "run", str(exp), "--chunk-size", "1000", "--quiet",
            "--jobs", "1"]

    def btsim(out: Path, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([*args, "--out", str(out)], capture_output=True, text=True,
                              env={**env, **extra}, cwd=ROOT, timeout=300, check=False)

    assert btsim(tmp_path / "fresh").returncode == 0
    dead = btsim(tmp_path / "k", BTSIM_TEST_KILL_AFTER_TASKS="4")
    assert dead.returncode == -9
    again = btsim(tmp_path / "k")
    assert again.returncode == 0, again.stderr
    assert _files(tmp_path / "k" / "a") == _files(tmp_path / "fresh" / "a")
    stats = json.loads((tmp_path / "k" / "a" / "metadata.json").read_text())["cache"]
    assert stats["scenarios_described"] == 4 and stats["chunks_computed"] == 2 * 3


def _described(**kw) -> Described:  # type: ignore[no-untyped-def]
    base = {"params": {"a": 1, "b": 2.5, "c": "x", "d": [1, None, True]},
            "rows": {"turn": np.arange(1, 4)}, "row_count": 3,
            "facts": {"impossible": None, "z": -0.0, "nan": float("nan")},
            "notes": ["n"], "options": {"o": False}, "rule_entries": [], "key": "k",
            "total": Aggregate(0)}
    return Described(**{**base, **kw})


def test_a_description_is_stored_only_when_it_reads_back_exactly():
    d = _described()
    doc = encode(d)
    assert doc is not None
    back = decode(json.loads(json.dumps(doc)), d.total)
    for name in ("params", "facts", "notes", "options", "rule_entries"):
        assert same(getattr(back, name), getattr(d, name))
    assert same(back.rows["turn"], d.rows["turn"]) and back.row_count == 3
    assert not same(-0.0, 0.0) and not same(1, 1.0) and not same(True, 1)
    # values JSON would change: a tuple, a NumPy scalar, an int key, an object column
    assert encode(_described(params={"a": (1, 2)})) is None
    assert encode(_described(facts={"x": np.float64(1.5)})) is None
    assert encode(_described(options={1: "x"})) is None
    assert encode(_described(rows={"t": np.array([object(), 1, 2], dtype=object)})) is None
    assert encode(_described(rows={"t": np.array(["a", "b", None], dtype=object)})) \
        is not None
    assert encode(_described(rows={"t": np.arange(2)})) is None   # wrong row count


def test_btsim_run_does_not_validate_finished_scenarios_again(tmp_path, monkeypatch):
    """``btsim run`` validates every scenario before running any, except those its cache
    describes as finished (an earlier run of the same code built them)."""
    from sim.cli import main as cli

    exp = tmp_path / "a.toml"
    exp.write_text(ATTACK)
    args = ["run", str(exp), "--chunk-size", "1000", "--quiet", "--out", str(tmp_path)]
    assert cli(args) == 0
    want = _files(tmp_path / "a")
    _forget_result(tmp_path / "a")
    builds = _count_builds(monkeypatch, "attack")
    assert cli(args) == 0
    assert builds[0] == 0 and _files(tmp_path / "a") == want
