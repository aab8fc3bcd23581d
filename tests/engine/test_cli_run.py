"""``btsim run`` and ``sim.run``: results folders, atomic writes, user errors (issue 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pandas.testing as pdt
import pytest

import sim
from sim import experiment, results
from sim.cli import main
from sim.errors import ConfigError

EXP = """
name = "demo"
title = "Demo punch"
model = "punch-demo"
trials = 50000
seed = 3
[fixed]
target_hexes = 3
[grid]
tons = [20, 70]
piloting = [4, 5]
[[cases]]
upper_arm_damaged = false
[[cases]]
upper_arm_damaged = true
"""


@pytest.fixture
def exp_file(tmp_path: Path) -> Path:
    p = tmp_path / "demo.toml"
    p.write_text(EXP)
    return p


def test_grid_expansion_order(exp_file):
    exp = experiment.load(exp_file)
    sc = exp.scenarios()
    assert len(sc) == 8
    assert sc[0] == {"target_hexes": 3, "upper_arm_damaged": False, "tons": 20, "piloting": 4}
    assert sc[-1] == {"target_hexes": 3, "upper_arm_damaged": True, "tons": 70, "piloting": 5}


def test_cli_run_writes_results_folder(exp_file, tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["run", str(exp_file), "--out", str(out), "--quiet"]) == 0
    folder = out / "demo"
    assert sorted(p.name for p in folder.iterdir()) == [".cache", "metadata.json",
                                                         "summary.csv", "summary.parquet"]
    meta = json.loads((folder / "metadata.json").read_text())
    for key in ("btsim_version", "git_commit", "seed", "trials", "chunk_size", "backend",
                "jobs", "rule_sets", "wall_time_s", "cores"):
        assert key in meta
    assert meta["seed"] == 3 and meta["trials"] == 50000
    frame, _ = results.read(folder)
    assert len(frame) == 8
    csv = pd.read_csv(folder / "summary.csv")
    assert list(csv.columns) == list(frame.columns)
    assert not list(out.glob(".*"))  # no temporary folders left behind


def test_jobs_1_and_2_identical(exp_file, tmp_path):
    main(["run", str(exp_file), "--out", str(tmp_path / "a"), "--jobs", "1", "--quiet"])
    main(["run", str(exp_file), "--out", str(tmp_path / "b"), "--jobs", "2", "--quiet"])
    a, _ = results.read(tmp_path / "a" / "demo")
    b, _ = results.read(tmp_path / "b" / "demo")
    pdt.assert_frame_equal(a, b, check_exact=True)


def test_python_api_matches_cli(exp_file, tmp_path):
    frame = sim.run(exp_file, trials=50000, seed=3, n_jobs=1).frame
    main(["run", str(exp_file), "--out", str(tmp_path), "--quiet"])
    saved, _ = results.read(tmp_path / "demo")
    pdt.assert_frame_equal(frame.reset_index(drop=True), saved, check_exact=True)


def test_run_from_dict_and_exact_only():
    res = sim.run({"name": "x", "model": "punch-demo", "grid": {"tons": [50]}},
                  exact_only=True)
    assert isinstance(res, sim.Result) and res.metadata["mode"] == "exact"
    frame = res.frame
    assert frame.loc[0, "p_hit"] == pytest.approx(30 / 36)


def test_failed_run_leaves_no_partial_results(exp_file, tmp_path, monkeypatch):
    from sim.demo import MODEL

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(type(MODEL), "sample", boom)
    out = tmp_path / "res"
    assert main(["run", str(exp_file), "--out", str(out), "--quiet"]) == 130
    # no result; at most the chunk cache that lets the same command resume (sim.cache)
    if (out / "demo").exists():
        assert [p.name for p in (out / "demo").iterdir()] == [".cache"]
    assert not list(out.glob(".*")) if out.exists() else True


def test_rerun_replaces_old_result_atomically(exp_file, tmp_path):
    out = tmp_path / "res"
    main(["run", str(exp_file), "--out", str(out), "--quiet", "--seed", "1"])
    main(["run", str(exp_file), "--out", str(out), "--quiet", "--seed", "2"])
    _, meta = results.read(out / "demo")
    assert meta["seed"] == 2
    assert [p.name for p in out.iterdir()] == ["demo"]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [("bogus = 1\n", "'bogus'"), ("", None)],
)
def test_unknown_experiment_key(tmp_path, extra, needle):
    p = tmp_path / "e.toml"
    p.write_text(extra + 'model = "punch-demo"\n')
    if needle is None:
        experiment.load(p)
    else:
        with pytest.raises(ConfigError, match=needle):
            experiment.load(p)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "missing.toml"], "'experiment' file must exist"),
        (["run", "{exp}", "--trials", "-5"], "'trials' parameter must be an integer >= 1; got -5"),
        (["run", "{exp}", "--backend", "mpi"], "'backend'"),
        (["run", "{bad}"], "'tons' parameter must be a multiple of 5"),
        (["run", "{unknown}"], "'colour'"),
        (["run", "{exp}", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "scheduler"),
    ],
)
def test_user_errors_exit_2_with_one_line(tmp_path, exp_file, args, needle):
    bad = tmp_path / "bad.toml"
    bad.write_text('model = "punch-demo"\n[grid]\ntons = [73]\n')
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('model = "punch-demo"\n[fixed]\ncolour = "red"\n')
    args = [a.format(exp=exp_file, bad=bad, unknown=unknown) for a in args]
    res = _cli(*args, "--out", str(tmp_path / "out")) if args[0] == "run" else _cli(*args)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], res.stderr
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_version_and_help():
    res = _cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("btsim ")
    res = _cli("--help")
    assert res.returncode == 0 and "examples:" in res.stdout
    res = _cli("run", "--help")
    assert res.returncode == 0 and "--scheduler" in res.stdout


def test_ctrl_c_stops_workers_and_writes_nothing(tmp_path):
    """SIGINT during a two-worker run: exit 130, no results folder, no temporary folder.

    Deterministic on any machine: the signal is sent once the run has started (the bar of
    ``--progress always`` appears on stderr when the engine begins), and the run is far too
    long to finish first (10**12 trials in chunks of 2**24)."""
    import signal

    exp = tmp_path / "long.toml"
    exp.write_text('name = "long"\nmodel = "punch-demo"\ntrials = 1000000000000\n'
                   '[grid]\ntons = [20, 70]\n')
    out = tmp_path / "res"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", str(exp), "--jobs", "2",
                             "--chunk-size", str(2**24), "--progress", "always",
                             "--out", str(out)], stderr=subprocess.PIPE)
    assert proc.stderr is not None
    seen = b""
    while b"trials" not in seen:  # the bar's first frame: the engine is running
        chunk = proc.stderr.read1(4096)
        assert chunk, "the run ended before it started: " + seen.decode(errors="replace")
        seen += chunk
    proc.send_signal(signal.SIGINT)
    err = seen + proc.stderr.read()
    proc.wait()
    assert proc.returncode == 130, err
    assert b"interrupted" in err
    assert not out.exists() or not any(out.iterdir())


def test_scheduler_with_exact_is_rejected(exp_file, tmp_path):
    res = _cli("run", str(exp_file), "--exact", "--backend", "dask", "--scheduler",
               "tcp://127.0.0.1:9", "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "'scheduler'" in res.stderr


def test_metadata_records_git_state(exp_file, tmp_path):
    main(["run", str(exp_file), "--out", str(tmp_path), "--quiet", "--trials", "100"])
    _, meta = results.read(tmp_path / "demo")
    assert "git_dirty" in meta


def test_progress_always_draws_a_bar_without_a_terminal(exp_file, tmp_path, capsys):
    """``--progress always`` draws the bar at once, terminal or not (no 2 s delay, so the
    test holds on any machine); ``never`` and ``--quiet`` draw none; ``auto`` draws none
    when stderr is not a terminal."""
    out = str(tmp_path / "res")
    assert main(["run", str(exp_file), "--out", out, "--trials", "1000", "--progress",
                 "always"]) == 0
    err = capsys.readouterr().err
    assert "trials/s" in err and "%|" in err
    for flags in (["--progress", "never"], ["--quiet"], ["--progress", "auto"], []):
        assert main(["run", str(exp_file), "--out", out, "--trials", "1000", *flags]) == 0
        assert "%|" not in capsys.readouterr().err, flags


def test_progress_modes_of_the_engine(monkeypatch):
    from sim import engine

    assert engine._progress_bar(10, "never") is None
    assert engine._progress_bar(10, False) is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    bar = engine._progress_bar(10, "auto")
    assert bar is not None and bar.delay == engine.PROGRESS_DELAY
    bar.close()
    bar = engine._progress_bar(10, "always")
    assert bar is not None and bar.delay == 0
    bar.close()
    with pytest.raises(ConfigError, match="'progress'"):
        engine._progress_bar(10, "sometimes")


def test_batch_is_validated_before_anything_runs(exp_file, tmp_path):
    """A bad scenario in the second file, or two files with one name: nothing is written."""
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nmodel = "punch-demo"\n[grid]\ntons = [50, 73]\n')
    out = tmp_path / "res"
    assert main(["run", str(exp_file), str(bad), "--out", str(out), "--quiet"]) == 2
    assert not out.exists() or not any(out.iterdir())
    twin = tmp_path / "twin.toml"
    twin.write_text(EXP)
    assert main(["run", str(exp_file), str(twin), "--out", str(out), "--quiet"]) == 2
    assert not out.exists() or not any(out.iterdir())
