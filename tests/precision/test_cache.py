"""Resume and extend (issue 12): a run killed with SIGKILL resumes to the same bytes; a
finished run recomputes nothing; more trials compute only the new chunks; a change of seed
or chunk size invalidates the cache with one line; `btsim cache clean` removes it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import cache as cache_mod
from sim import engine
from sim.cli import main as cli
from sim.experiment import run

ROOT = Path(__file__).resolve().parents[2]
EXP = """name = "resume"
model = "punch-demo"
trials = 6000
seed = 4
[grid]
tons = [20, 50, 80]
"""


def _btsim(args: list[str], env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0")
    env.pop("BTSIM_TEST_KILL_AFTER_TASKS", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300, check=False)


def _meta(folder: Path) -> dict:
    return json.loads((folder / "metadata.json").read_text())


@pytest.fixture
def exp_file(tmp_path: Path) -> Path:
    path = tmp_path / "resume.toml"
    path.write_text(EXP)
    return path


@pytest.mark.parametrize(("jobs", "backend"), [("1", "sequential"), ("2", "threading")])
def test_sigkill_then_resume_is_byte_identical(tmp_path, exp_file, jobs, backend):
    """Threads, not loky processes, for two workers: a SIGKILLed driver's orphaned worker
    processes would hold the test's pipes open."""
    fresh = tmp_path / "fresh"
    killed = tmp_path / "killed"
    args = ["run", str(exp_file), "--chunk-size", "500", "--quiet", "--jobs", jobs,
            "--backend", backend]
    ok = _btsim([*args, "--out", str(fresh), "--no-cache"])
    assert ok.returncode == 0, ok.stderr
    dead = _btsim([*args, "--out", str(killed)], {"BTSIM_TEST_KILL_AFTER_TASKS": "5"})
    assert dead.returncode == -9  # killed mid-run: no summary, a cache of finished tasks
    assert not (killed / "resume" / "summary.parquet").exists()
    assert (killed / "resume" / ".cache" / "manifest.json").is_file()
    # the exact values were stored with the first chunk: the resume does not recompute them
    assert (killed / "resume" / ".cache" / cache_mod.EXACT_NAME).is_file()
    again = _btsim([*args, "--out", str(killed)])
    assert again.returncode == 0, again.stderr
    a = (fresh / "resume" / "summary.parquet").read_bytes()
    b = (killed / "resume" / "summary.parquet").read_bytes()
    assert a == b
    stats = _meta(killed / "resume")["cache"]
    assert stats["chunks_computed"] + stats["chunks_cached"] == 36  # 3 scenarios x 12 chunks
    # the 5 tasks folded before the kill were kept, so only the tasks in flight (at most one
    # per worker) and those not started are recomputed
    sizes = [t.last_chunk - t.first_chunk for t in _cached_cut(36, int(jobs))]
    assert len(sizes) > 5
    assert stats["chunks_cached"] >= 5 * min(sizes)
    if jobs == "1":
        assert stats["chunks_cached"] == sum(sizes[:5])


def _count_exact(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the calls of model ``name``'s exact path."""
    from sim.models import get_model

    model = get_model(name)
    calls = [0]
    real = type(model).exact

    def counted(self, scn):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(self, scn)

    monkeypatch.setattr(type(model), "exact", counted)
    return calls


def test_resume_reads_exact_values_from_the_cache(tmp_path, monkeypatch):
    """Issue 18: a resume costs the unfinished share of the work, so the exact values of
    the scenarios come from the cache (``exact.rec``), to the same bytes; a damaged or
    foreign ``exact.rec`` is a miss, recomputed."""
    exp = {"name": "ex", "model": "attack", "trials": 3000, "seed": 2, "exact": True,
           "fixed": {"attack": "kick"}, "grid": {"tons": [20, 50, 80], "piloting": [4, 5]}}
    run(exp, out=tmp_path / "fresh", chunk_size=1000, progress=False, cache=False)
    want = (tmp_path / "fresh" / "ex" / "summary.parquet").read_bytes()
    calls = _count_exact(monkeypatch, "attack")
    run(exp, out=tmp_path, chunk_size=1000, progress=False)
    assert calls[0] == 6
    cache = tmp_path / "ex" / ".cache"
    keys = sorted(p for p in cache.iterdir() if p.is_dir())
    for gone in keys[:2]:       # an interrupted run: two scenarios' chunks never written
        (gone / cache_mod.LOG_NAME).unlink()
    (cache / cache_mod.SCENARIOS_NAME).unlink()   # nor the finished ones described
    (tmp_path / "ex" / "summary.parquet").unlink()
    calls[0] = 0
    info: dict = {}
    run(exp, out=tmp_path, chunk_size=1000, progress=False, info=info)
    assert calls[0] == 0 and info["chunks_computed"] == 2 * 3
    assert (tmp_path / "ex" / "summary.parquet").read_bytes() == want
    rec = cache / cache_mod.EXACT_NAME
    rec.write_bytes(rec.read_bytes()[:-9] + b"\x00" * 9)   # a torn record
    (keys[0] / cache_mod.LOG_NAME).unlink()
    run(exp, out=tmp_path, chunk_size=1000, progress=False)
    assert calls[0] == 6
    assert (tmp_path / "ex" / "summary.parquet").read_bytes() == want


def _cached_cut(n_chunks: int, jobs: int) -> list:
    """The task cut of a cached run of the 3 scenarios x 12 chunks of EXP (sim.engine)."""
    floor = max(1, min(engine.CACHE_TASK_CHUNKS, n_chunks // (4 * jobs)))
    return engine._cut({s: list(range(12)) for s in range(3)}, dict.fromkeys(range(3), 6000),
                       500, min_chunks=floor)


def test_finished_run_recomputes_nothing_and_extends(tmp_path, exp_file):
    info: dict = {}
    first = run(exp_file, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["chunks_computed"] == 36 and info["chunks_cached"] == 0
    assert info["tasks_computed"] == len(_cached_cut(36, 1))  # larger tasks when caching
    assert info["tasks_computed"] < 36 / 4
    parquet = (tmp_path / "resume" / "summary.parquet").read_bytes()
    info = {}
    second = run(exp_file, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["chunks_computed"] == 0 and info["tasks_computed"] == 0
    assert (tmp_path / "resume" / "summary.parquet").read_bytes() == parquet
    assert second.equals(first)
    # 6000 -> 7250 trials: chunks 12, 13 and a partial 14 are new
    info = {}
    run(exp_file, out=tmp_path, chunk_size=500, progress=False, trials=7250, info=info)
    assert info["chunks_computed"] == 3 * 3 and info["chunks_cached"] == 3 * 12
    run(exp_file, out=tmp_path / "fresh", chunk_size=500, progress=False, trials=7250,
        cache=False)
    assert ((tmp_path / "resume" / "summary.parquet").read_bytes()
            == (tmp_path / "fresh" / "resume" / "summary.parquet").read_bytes())
    # 7250 -> 7500: the partial chunk 14 (250 trials) is replaced by a full one
    info = {}
    run(exp_file, out=tmp_path, chunk_size=500, progress=False, trials=7500, info=info)
    assert info["chunks_computed"] == 3


def test_target_error_run_extends_from_cache(tmp_path, exp_file):
    info: dict = {}
    run(exp_file, out=tmp_path, chunk_size=256, progress=False, target_error=0.03, info=info)
    first = info["chunks_computed"]
    info = {}
    tight = run(exp_file, out=tmp_path, chunk_size=256, progress=False, target_error=0.01,
                info=info)
    assert info["chunks_cached"] == first
    fresh = run(exp_file, chunk_size=256, progress=False, target_error=0.01)
    assert tight.equals(fresh)


@pytest.mark.parametrize(("change", "word"), [({"seed": 5}, "seed"),
                                              ({"chunk_size": 400}, "chunk_size")])
def test_changes_invalidate_with_one_line(tmp_path, exp_file, capsys, change, word):
    run(exp_file, out=tmp_path, chunk_size=500, progress=False)
    capsys.readouterr()
    info: dict = {}
    kwargs = {"chunk_size": 500, **change}
    run(exp_file, out=tmp_path, progress=False, info=info, **kwargs)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalidated" in err[0] and word in err[0]
    assert info["chunks_cached"] == 0


def test_changed_scenario_is_recomputed(tmp_path, exp_file, capsys):
    run(exp_file, out=tmp_path, chunk_size=500, progress=False)
    exp_file.write_text(EXP.replace("[20, 50, 80]", "[20, 50, 85]"))
    capsys.readouterr()
    info: dict = {}
    run(exp_file, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["chunks_computed"] == 12 and info["chunks_cached"] == 24
    assert "1 scenario(s) changed" in capsys.readouterr().err


def test_rule_override_changes_the_key(tmp_path):
    exp = {"name": "r", "model": "attack", "trials": 2000, "seed": 1,
           "fixed": {"attack": "punch", "tons": 50}}
    info: dict = {}
    run(exp, out=tmp_path, chunk_size=1000, progress=False, info=info)
    assert info["chunks_computed"] == 2
    run(exp, out=tmp_path, chunk_size=1000, progress=False, info=info)
    assert info["chunks_computed"] == 0
    run(exp, out=tmp_path, chunk_size=1000, progress=False, info=info,
        rule_overrides={"punch_min_damage": 0})
    assert info["chunks_computed"] == 2 and info["chunks_cached"] == 0


def test_cache_holds_aggregates_only(tmp_path, exp_file):
    run(exp_file, out=tmp_path, chunk_size=500, progress=False)
    small = cache_mod.ChunkCache(tmp_path / "resume" / ".cache").nbytes()
    run(exp_file, out=tmp_path / "big", chunk_size=500, trials=60_000, progress=False)
    big = cache_mod.ChunkCache(tmp_path / "big" / "resume" / ".cache").nbytes()
    # per chunk, not per trial: 10x the trials is 10x the chunks, each a few hundred bytes
    assert big < 12 * small and big / (3 * 120) < 4096


def test_cache_clean_cli(tmp_path, exp_file, capsys):
    run(exp_file, out=tmp_path, chunk_size=500, progress=False)
    assert (tmp_path / "resume" / ".cache").is_dir()
    assert cli(["cache", "clean", str(tmp_path)]) == 0
    assert not (tmp_path / "resume" / ".cache").exists()
    assert (tmp_path / "resume" / "summary.parquet").is_file()
    assert "removed" in capsys.readouterr().out
    assert cli(["cache", "clean", str(tmp_path / "nope")]) == 2


def test_no_cache_flag(tmp_path, exp_file):
    assert cli(["run", str(exp_file), "--out", str(tmp_path), "--quiet", "--no-cache",
                "--trials", "1000"]) == 0
    assert not (tmp_path / "resume" / ".cache").exists()
