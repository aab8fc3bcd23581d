"""Results folders are safe (issue 18): no link is ever followed out of them, a foreign or
mangled cache record is a miss, trials are capped with no per-chunk list growing with them,
a killed write is cleaned up, two writers take turns, figures survive a rerun, and a
finished rerun only reads its result back."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sim import cache as cache_mod
from sim import engine
from sim.cli import main as cli
from sim.demo import MODEL as DEMO
from sim.errors import ConfigError, UserError
from sim.experiment import run

ROOT = Path(__file__).resolve().parents[2]
EXP = {"name": "t", "model": "punch-demo", "trials": 2000, "seed": 3,
       "grid": {"tons": [20, 50]}}


def _btsim(args: list[str], cwd: Path, **kw) -> subprocess.Popen | subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0")
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300, check=False, **kw)


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    (victim / "a").mkdir(parents=True)
    (victim / "a" / "keep.txt").write_text("mine")
    (victim / "0123456789abcdef01234567").mkdir()  # looks like a cache key folder
    return victim


def _untouched(victim: Path) -> bool:
    names = {p.name for p in victim.iterdir()} - {"manifest.json"}
    return (names == {"0123456789abcdef01234567", "a"}
            and (victim / "a" / "keep.txt").read_text() == "mine")


# -- links ------------------------------------------------------------------------------------
def test_a_cache_link_is_refused_and_nothing_outside_is_touched(tmp_path, capsys):
    victim = _victim(tmp_path)
    out = tmp_path / "results"
    run(EXP, out=out, chunk_size=500, progress="never")
    cache = out / "t" / ".cache"
    cache_mod.clean(out / "t")
    cache.symlink_to(os.path.relpath(victim, cache.parent))
    (victim / "manifest.json").write_text(json.dumps({"format": cache_mod.FORMAT}))
    for _ in range(2):  # the repro: a second run deleted the victim's sub-folders
        with pytest.raises(UserError, match="symbolic link"):
            run(EXP, out=out, chunk_size=500, progress="never", trials=3000)
    assert _untouched(victim)
    assert cli(["cache", "clean", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "symbolic link" in err[0] and "Traceback" not in err[0]
    assert cli(["cache", "clean", str(cache)]) == 2
    assert _untouched(victim) and cache.is_symlink()
    (tmp_path / "a-file").write_text("x")
    assert cli(["cache", "clean", str(tmp_path / "a-file")]) == 2  # a file: not a folder
    assert "not a folder" in capsys.readouterr().err


def test_a_results_folder_link_and_links_inside_the_cache_are_refused(tmp_path):
    victim = _victim(tmp_path)
    out = tmp_path / "results"
    out.mkdir()
    (out / "t").symlink_to(victim)
    with pytest.raises(UserError, match="symbolic link"):
        run(EXP, out=out, chunk_size=500, progress="never")
    with pytest.raises(UserError, match="symbolic link"):
        run(EXP, out=out, exact_only=True, progress="never")
    assert _untouched(victim)
    (out / "t").unlink()
    run(EXP, out=out, chunk_size=500, progress="never")
    key = next(p for p in (out / "t" / ".cache").iterdir() if p.is_dir())
    log = key / cache_mod.LOG_NAME
    outside = tmp_path / "outside.agg"
    outside.write_bytes(log.read_bytes())
    log.unlink()
    log.symlink_to(outside)  # a log that is a link is never read, truncated or appended to
    before = outside.read_bytes()
    with pytest.raises(UserError, match="symbolic link"):
        run(EXP, out=out, chunk_size=500, progress="never", trials=2500)
    assert outside.read_bytes() == before
    # a stale scenario folder that is a link is not followed when stale folders are removed
    log.unlink()
    (out / "t" / ".cache" / "0123456789abcdef01234567").symlink_to(victim)
    run(EXP, out=out, chunk_size=500, progress="never", trials=2500)
    assert _untouched(victim)
    # cache clean walks without following links
    (out / "elsewhere").symlink_to(victim)
    assert [p.name for p in cache_mod.clean(out)] == [".cache"]
    assert _untouched(victim)


def test_a_hard_linked_log_is_refused(tmp_path):
    out = tmp_path / "r"
    run(EXP, out=out, chunk_size=500, progress="never")
    log = sorted((out / "t" / ".cache").rglob(cache_mod.LOG_NAME))[0]
    os.link(log, tmp_path / "other")
    with pytest.raises(UserError, match="hard link"):
        run(EXP, out=out, chunk_size=500, progress="never", trials=2500)


# -- the cache's trust boundary ---------------------------------------------------------------
def test_foreign_and_mangled_records_are_misses_not_tracebacks(tmp_path, capsys):
    out = tmp_path / "r"
    first = run(EXP, out=out, chunk_size=500, progress="never")
    logs = sorted((out / "t" / ".cache").rglob(cache_mod.LOG_NAME))
    described = out / "t" / ".cache" / cache_mod.SCENARIOS_NAME
    a, b = (p.read_bytes() for p in logs)
    # scenario B's records copied into A's file: valid CRCs, another key
    logs[0].write_bytes(b)
    fresh_meta = out / "t" / "metadata.json"
    fresh_meta.write_text(fresh_meta.read_text().replace('"run_key"', '"old_key"'))
    described.unlink(missing_ok=True)  # else the finished scenarios are read from there
    info: dict = {}
    again = run(EXP, out=out, chunk_size=500, progress="never", info=info)
    assert again.equals(first) and info["chunks_computed"] == 4
    assert "did not match their file" in capsys.readouterr().err
    # a record of the right key whose layout is not the model's (a renamed metric)
    chunks = cache_mod.read_log(b)[0]
    bad = chunks[0][1]
    bad.stats = {("x" + k): v for k, v in bad.stats.items()}
    key = logs[1].parent.name
    logs[1].write_bytes(cache_mod.frame_record(cache_mod.dump_chunks([chunks[0]], key)))
    info = {}
    fresh_meta.write_text(fresh_meta.read_text().replace('"run_key"', '"old_key"'))
    described.unlink(missing_ok=True)  # else the finished scenarios are read from there
    assert run(EXP, out=out, chunk_size=500, progress="never", info=info).equals(first)
    assert info["chunks_computed"] >= 1
    # garbage with a valid frame (CRC) but no valid block inside
    logs[1].write_bytes(cache_mod.frame_record(b"BTSIMCC5" + (10**9).to_bytes(8, "little")))
    fresh_meta.write_text(fresh_meta.read_text().replace('"run_key"', '"old_key"'))
    described.unlink(missing_ok=True)  # else the finished scenarios are read from there
    assert run(EXP, out=out, chunk_size=500, progress="never").equals(first)


# -- trials cap and bounded planning ----------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["attack", "punch", "--tons", "70", "--trials", str(10**30)],
    ["attack", "punch", "--tons", "70", "--target-error", "0.01", "--max-trials",
     str(10**13)],
    ["bench", "--big-trials", str(10**30)],
])
def test_trials_above_the_cap_are_one_line(args, capsys):
    """Refused before any work is planned (a hang would hit the suite's timeout; no wall-clock
    bound here, so the test does not depend on the machine's speed)."""
    assert cli(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.search(r"trials", err[0]) and str(engine.MAX_TRIALS) in err[0]


def test_trials_in_a_toml_above_the_cap(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text('name = "big"\nmodel = "punch-demo"\ntrials = 1e30\n')
    assert tomllib.loads(path.read_text())["trials"] == 1e30
    assert cli(["run", str(path), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'trials'" in err[0]
    assert not (tmp_path / "r" / "big").exists()


def test_the_engine_plans_in_bounded_waves(monkeypatch):
    """No list proportional to the chunk count: waves of WAVE_CHUNKS chunks, tasks of at
    most MAX_TASK_CHUNKS, the same bits as one wave."""
    whole = engine.simulate(DEMO, [{"tons": 70}, {"tons": 20}], 40_000, seed=5,
                            chunk_size=100, backend="sequential")
    seen: list[int] = []
    real_cut = engine._cut

    def spy(todo, *a, **k):
        seen.append(sum(len(v) for v in todo.values()))
        tasks = real_cut(todo, *a, **k)
        assert all(t.last_chunk - t.first_chunk <= engine.MAX_TASK_CHUNKS for t in tasks)
        return tasks

    monkeypatch.setattr(engine, "WAVE_CHUNKS", 64)
    monkeypatch.setattr(engine, "MAX_TASK_CHUNKS", 3)
    monkeypatch.setattr(engine, "_cut", spy)
    waved = engine.simulate(DEMO, [{"tons": 70}, {"tons": 20}], 40_000, seed=5,
                            chunk_size=100, backend="sequential")
    assert max(seen) <= 64 and len(seen) >= 800 // 64
    assert waved.equals(whole)
    with pytest.raises(ConfigError, match="'trials'"):
        engine.validate_run(engine.MAX_TRIALS + 1, 0, 1, "sequential")
    assert engine.validate_run(engine.MAX_TRIALS, 0, 1, "sequential")[0] == engine.MAX_TRIALS


# -- faults -----------------------------------------------------------------------------------
def test_leftovers_of_a_killed_write_are_removed_by_a_rerun(tmp_path):
    out = tmp_path / "r"
    run(EXP, out=out, chunk_size=500, progress="never")
    for junk in (".t.tmp-abc123", ".t.old-4242"):  # what a SIGKILL mid-write leaves
        (out / junk).mkdir()
        (out / junk / "summary.parquet").write_bytes(b"half")
    (out / ".other.tmp-x").mkdir()  # another experiment's: not ours to remove
    victim = _victim(tmp_path)
    (out / ".t.tmp-link").symlink_to(victim)
    run(EXP, out=out, chunk_size=500, progress="never", trials=2500)
    names = sorted(p.name for p in out.iterdir())
    assert names == [".other.tmp-x", ".t.tmp-link", "t"]
    assert _untouched(victim)


def test_a_sigkill_during_the_write_is_cleaned_by_the_rerun(tmp_path):
    """A write killed after its temporary folder is made leaves ``.t.tmp-*``; the rerun
    removes it and publishes a whole result."""
    exp = tmp_path / "t.toml"
    exp.write_text('name = "t"\nmodel = "punch-demo"\ntrials = 2000\nseed = 3\n')
    code = ("import os, signal, sys; from sim import results; real = results.csv_view\n"
            "def die(*a, **k):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
            "results.csv_view = die\nfrom sim.cli import main\n"
            f"main(['run', {str(exp)!r}, '--out', 'r', '--quiet'])\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    dead = subprocess.run([sys.executable, "-c", code.replace("results.csv_view = die",
                          "results.to_parquet = die")], cwd=tmp_path, env=env,
                          capture_output=True, timeout=300, check=False)
    assert dead.returncode == -9
    assert [p.name for p in (tmp_path / "r").glob(".t.tmp-*")]
    again = _btsim(["run", str(exp), "--out", "r", "--quiet"], tmp_path)
    assert again.returncode == 0, again.stderr
    assert not list((tmp_path / "r").glob(".t.tmp-*"))
    assert (tmp_path / "r" / "t" / "summary.parquet").is_file()


def test_two_writers_of_one_folder_take_turns(tmp_path):
    """The second run waits for the lock (saying who holds it) instead of racing."""
    exp = tmp_path / "t.toml"
    exp.write_text('name = "t"\nmodel = "punch-demo"\ntrials = 3000\nseed = 3\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from sim import results\n"
         "with results.lock('r/t'):\n    print('held', flush=True); sys.stdin.readline()\n"],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    second = subprocess.Popen([sys.executable, "-m", "sim", "run", str(exp), "--out", "r",
                               "--quiet"], cwd=tmp_path, env=env, stderr=subprocess.PIPE,
                              text=True)
    assert second.stderr is not None
    line = second.stderr.readline()  # it waits, and says for whom
    assert "is being written by pid" in line and "waiting" in line
    assert not (tmp_path / "r" / "t" / "summary.parquet").exists()
    assert holder.stdin is not None
    holder.stdin.write("go\n")
    holder.stdin.flush()
    holder.wait(timeout=60)
    assert second.wait(timeout=300) == 0, second.stderr.read()
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["t"]


def test_a_rerun_keeps_the_figures(tmp_path, capsys):
    out = tmp_path / "r"
    run(EXP, out=out, chunk_size=500, progress="never")
    for name in ("sensitivity.png", "sensitivity.svg", "damage.png"):
        (out / "t" / name).write_bytes(b"figure")
    run(EXP, out=out, chunk_size=500, progress="never", trials=2500)  # a changed summary
    for name in ("sensitivity.png", "sensitivity.svg", "damage.png"):
        assert (out / "t" / name).read_bytes() == b"figure"
    assert "btsim report` rebuilds them" in capsys.readouterr().err


def test_a_finished_rerun_reads_its_result_back(tmp_path):
    out = tmp_path / "r"
    first = run(EXP, out=out, chunk_size=500, progress="never")
    stamp = json.loads((out / "t" / "metadata.json").read_text())["run_key"]
    info: dict = {}
    again = run(EXP, out=out, chunk_size=500, progress="never", info=info, n_jobs=2)
    assert info["up_to_date"] and info["chunks_computed"] == 0 and info["chunks_cached"] == 8
    assert again.equals(first)
    assert json.loads((out / "t" / "metadata.json").read_text())["run_key"] == stamp
    info = {}  # another seed, or a changed cache, is a real run
    run(EXP, out=out, chunk_size=500, progress="never", info=info, seed=4)
    assert "up_to_date" not in info and info["chunks_computed"] == 8


def test_pyarrow_is_pinned_past_cve_2023_47248():
    import pyarrow

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (spec,) = [d for d in deps if d.startswith("pyarrow")]
    floor = tuple(int(x) for x in re.search(r">=\s*([\d.]+)", spec).group(1).split("."))
    assert floor >= (14, 0, 1)
    assert tuple(int(x) for x in pyarrow.__version__.split(".")[:3]) >= (14, 0, 1)
