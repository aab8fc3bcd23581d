"""Issue 18, bad input and misleading start-up: every reproduced input, by class. Each bad one
exits 2 with exactly one line on stderr naming the option, no traceback, nothing written;
in-process calls of :func:`sim.cli.main` (subprocesses only where a fresh interpreter is the
point)."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ECHO_LIMIT, UserError, os_error_message
from sim.fileio import read_regular_text

ROOT = Path(__file__).resolve().parents[2]
A, B = "Locust LCT-1V", "Wolverine WVR-6R"
TINY = ('name = "tiny"\nmodel = "attack"\ntrials = 200\n[fixed]\nattack = "punch"\n'
        'tons = 50\n')


def _call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def _refused(argv: list[str], *names: str, where: Path | None = None) -> str:
    """Exit 2, one line naming one of ``names``, nothing written under ``where``."""
    before = sorted(where.rglob("*")) if where is not None else None
    code, out, err = _call(argv)
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (argv, code, out, err)
    assert len(lines) == 1 and "Traceback" not in err, (argv, err)
    assert any(n in lines[0] for n in names), (argv, names, lines[0])
    if where is not None:
        assert sorted(where.rglob("*")) == before, "a refused command wrote files"
    return lines[0]


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BTSIM_HOME", str(tmp_path / "home"))
    return tmp_path


# -- environment errors: every OS error is exit 2 with the path and the reason ------------

def test_os_error_message_names_path_and_reason() -> None:
    msg = os_error_message(OSError(errno.EROFS, "Read-only file system", "results/x"))
    assert "'results/x'" in msg and "read-only" in msg
    msg = os_error_message(OSError(errno.ENOSPC, "No space left on device", b"out/\xff"))
    assert "disk full" in msg and "\\xff" in msg


@pytest.mark.parametrize("err", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_results_write_os_errors_exit_2_naming_out(err: int, cwd: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only results folder, a full disk, no permission (simulated: the tests may run
    as root): one line naming --out, the path and the reason."""
    from sim import results

    def fail(folder: Path, *args: object, **kwargs: object) -> None:
        raise OSError(err, os.strerror(err), str(folder / ".tmp"))

    monkeypatch.setattr(results, "write", fail)
    (cwd / "t.toml").write_text(TINY, "utf-8")
    line = _refused(["run", "t.toml", "--out", "out", "--quiet", "--exact"], "--out")
    assert "out/tiny/.tmp" in line and f"[Errno {err}]" in line


def test_out_that_is_a_file_or_unwritable(cwd: Path) -> None:
    (cwd / "t.toml").write_text(TINY, "utf-8")
    (cwd / "afile").write_text("x", "utf-8")
    line = _refused(["run", "t.toml", "--out", "afile", "--quiet"], "--out")
    assert "not a folder" in line
    _refused(["run", "t.toml", "--out", "/proc/btsim-test", "--quiet"], "--out")
    _refused(["run", "t.toml", "--out", "d" * 300, "--quiet"], "--out")
    assert sorted(p.name for p in cwd.iterdir()) == ["afile", "t.toml"]


def test_out_not_utf8(cwd: Path) -> None:
    (cwd / "t.toml").write_text(TINY, "utf-8")
    _refused(["run", "t.toml", "--out", os.fsdecode(b"o\xff"), "--quiet", "--exact"],
             "--out", "UTF-8")


def test_units_import_skipped_at_a_folder(cwd: Path) -> None:
    (cwd / "mtf").mkdir()
    _refused(["units", "import", "mtf", "--skipped", str(cwd)], "--skipped", "DIR")


def test_cache_clean_of_a_file(cwd: Path) -> None:
    (cwd / "afile").write_text("x", "utf-8")
    _refused(["cache", "clean", "afile"], "'dir'")


# -- files that are not regular: refused, never read (a FIFO would block forever) ---------

@pytest.fixture
def fifo(cwd: Path) -> Path:
    path = cwd / "pipe.mtf"
    os.mkfifo(path)
    return path


def test_fifo_and_devices_are_refused_everywhere(fifo: Path, cwd: Path) -> None:
    for exp in (str(fifo), "/dev/zero", str(cwd)):
        assert "not a regular file" in _refused(["run", exp, "--out", "out"],
                                                "experiment", where=cwd)
    for state in (str(fifo), "/dev/zero"):
        _refused(["hit", A, "--damage", "5", "--location", "CT", "--state", state], "--state")
    _refused(["fire", str(fifo)], "UNIT")
    _refused(["attack", "punch", "--tons", "50", "--attacker", str(fifo)], "--attacker")
    _refused(["units", "show", str(fifo)], "NAME|FILE")


def test_read_regular_text_refuses_binary_and_latin1(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(b"model = 1\0")
    (tmp_path / "l").write_bytes('title = "caf\xe9"'.encode("latin-1"))
    with pytest.raises(UserError, match="binary"):
        read_regular_text(tmp_path / "b", "experiment")
    with pytest.raises(UserError, match=r"not UTF-8 text \(byte 0xe9 on line 1\)"):
        read_regular_text(tmp_path / "l", "experiment")
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(UserError, match="more than the 100"):
        read_regular_text(tmp_path / "big", "experiment", limit=100)


# -- experiment files: wrong values refused before anything runs ------------------------

BAD_EXPERIMENTS = {
    "trials-string": ('model = "attack"\ntrials = "100"\n', "'trials'"),
    "trials-inf": ('model = "attack"\ntrials = inf\n', "'trials'"),
    "model-list": ("model = []\n", "'model'"),
    "title-list": ('model = "attack"\ntitle = [1, 2]\n', "'title'"),
    "metrics-empty": ('model = "attack"\nmetrics = []\n', "'metrics'"),
    "metrics-bogus": ('model = "attack"\nmetrics = ["bogus"]\n', "'metrics'"),
    "name-newline": ('model = "attack"\nname = "a\\nb"\n', "'name'"),
    "name-nul": ('model = "attack"\nname = "a\\u0000b"\n', "'name'"),
    "name-long": (f'model = "attack"\nname = "{"n" * 300}"\n', "'name'"),
    "grid-inf": ('model = "attack"\n[fixed]\nattack = "punch"\n[grid]\ntons = [inf]\n',
                 "'tons'"),
    "nested": ('model = "attack"\nx = ' + "[" * 3000 + "]" * 3000 + "\n", "nested"),
    "grid-huge": ('model = "attack"\n[grid]\n' + "".join(
        f"{k} = [{', '.join(map(str, range(100)))}]\n" for k in "abc"), "'grid'"),
}


@pytest.mark.parametrize("case", sorted(BAD_EXPERIMENTS))
def test_bad_experiment_files(case: str, cwd: Path) -> None:
    text, name = BAD_EXPERIMENTS[case]
    (cwd / "e.toml").write_text(text, "utf-8")
    line = _refused(["run", "e.toml", "--out", "out", "--quiet"], name, where=cwd)
    assert len(line) < 600, "a bad value is echoed in full"


@pytest.mark.parametrize("raw", [b'model = "attack"\ntitle = "caf\xe9"\n',
                                 b'model = "attack"\0\n'])
def test_unreadable_experiment_bytes(raw: bytes, cwd: Path) -> None:
    (cwd / "e.toml").write_bytes(raw)
    _refused(["run", "e.toml", "--out", "out"], "experiment", where=cwd)


def test_grid_limit_is_checked_before_building_scenarios(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from sim import experiment

    monkeypatch.setattr(experiment.Experiment, "scenarios",
                        lambda self: pytest.fail("scenarios built before the limit check"))
    grid = {k: list(range(100)) for k in "abc"}
    with pytest.raises(UserError, match="at most 50,000 scenarios"):
        experiment.load({"model": "attack", "grid": grid})


# -- option values: tracebacks and silently accepted values -------------------------------

BAD_OPTIONS = [
    (["compare", "heat", "--set", "ov=inf", "--a", "policy=never", "--b", "policy=max",
      "--trials", "2000"], "--set"),
    (["hit", A, "--damage", str(10**30), "--location", "CT"], "--damage"),
    (["hit", A, "--damage", "5", "--location", "CT", "--seed=-1"], "'seed'"),
    (["attack", "punch", "--tons", "50", "--trials", "10", "--seed=-1"], "'seed'"),
    (["duel", "--game", "classic", A, B, "--trials", "10", "--bv-a", str(10**30)], "bv_a"),
    (["duel", A, "Commando COM-1B", "--range", ""], "--range"),
    (["duel", A, "Commando COM-1B", "--targeting-a", ""], "--targeting-a"),
    (["duel", "--game", "classic", A, B, "--closing", "close", "--start-distance", "0"],
     "start_distance"),
    (["attack", "punch", "--tons", "50", "--attacker", "bogus"], "--attacker"),
    (["attack", "punch", "--tons", "50", "--target", "bogus"], "--target"),
    (["heat", "--unit", "bogus"], "--unit"),
    (["fire", "bogus"], "UNIT"),
    (["profile", "bogus"], "UNIT"),
    (["hit", "bogus", "--damage", "5", "--location", "CT"], "UNIT"),
    (["duel", "bogus", A], "A "),
    (["duel", A, f"{A}@3,bogus"], "B "),
    (["classic-duel", A, "bogus", "--trials", "10"], "B "),
    (["units", "show", "bogus"], "NAME|FILE"),
    (["bench", "--model", "bogus"], "'model'"),
    (["attack", "punch", "--tons", "50", "--rule", ""], "--rule"),
]


@pytest.mark.parametrize("argv,name", BAD_OPTIONS, ids=lambda v: " ".join(v)[:40]
                         if isinstance(v, list) else v)
def test_bad_option_values(argv: list[str], name: str, cwd: Path) -> None:
    _refused(argv, name, where=cwd)


@pytest.mark.parametrize("address", ["bogus://x", "tcp://", "tcp://h:99999", "a b"])
def test_malformed_scheduler(address: str, cwd: Path) -> None:
    (cwd / "t.toml").write_text(TINY, "utf-8")
    _refused(["run", "t.toml", "--out", "out", "--backend", "dask", "--scheduler", address],
             "'scheduler'", where=cwd)


def test_scheduler_without_dask_backend(cwd: Path) -> None:
    (cwd / "t.toml").write_text(TINY, "utf-8")
    line = _refused(["run", "t.toml", "--out", "out", "--scheduler", "tcp://10.0.0.5:8786"],
                    "'scheduler'", where=cwd)
    assert "--backend dask" in line


def test_state_values(cwd: Path) -> None:
    (cwd / "s.json").write_text('{"hit_slots": [[1]]}', "utf-8")
    _refused(["hit", A, "--damage", "5", "--location", "CT", "--state", "s.json"],
             "hit_slots")
    (cwd / "deep.json").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    _refused(["hit", A, "--damage", "5", "--location", "CT", "--state", "deep.json"],
             "--state")


@pytest.mark.parametrize("argv", [["attack", "punch", "--tons", "x" * 5000],
                                  ["fire", "y" * 5000], ["heat", "--unit", "z" * 5000]])
def test_echo_is_cut(argv: list[str]) -> None:
    code, _, err = _call(argv)
    assert code == 2 and len(err) < 200 + 2 * ECHO_LIMIT, err


def test_a_newline_in_a_value_stays_one_line() -> None:
    code, _, err = _call(["heat", "--unit", "a\nb"])
    assert code == 2 and len(err.strip().splitlines()) == 1, err


# -- misleading: the lazy sim attributes, the help examples -------------------------------

def _fresh(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, cwd=ROOT).stdout


def test_sim_testing_without_importing_it() -> None:
    out = _fresh("import sim, sys; print('numpy' in sys.modules); "
                 "print(sim.testing.assert_mc_matches_exact.__name__, sim.Result.__name__)")
    assert out.split() == ["False", "assert_mc_matches_exact", "Result"]


def test_help_and_units_import_neither_numpy_nor_pandas() -> None:
    """Start-up (timed by ``btsim bench``): ``btsim --help`` and ``btsim units`` load no
    heavy module."""
    out = _fresh("import sys, io, contextlib\nfrom sim.cli import main\n"
                 "with contextlib.redirect_stdout(io.StringIO()):\n"
                 "    try: main(['--help'])\n    except SystemExit: pass\n    main(['units'])\n"
                 "print(sorted(m for m in ('numpy', 'pandas', 'matplotlib', 'pyarrow')"
                 " if m in sys.modules))")
    assert out.strip() == "[]"


def test_help_examples_name_folders_make_report_creates() -> None:
    """Every ``results/<name>`` in the help examples is an experiment's results folder."""
    import tomllib

    names = {tomllib.loads(p.read_text("utf-8")).get("name", p.stem)
             for p in (ROOT / "experiments").glob("*.toml")}
    texts = []
    for argv in (["--help"], ["sensitivity", "--help"], ["run", "--help"]):
        texts.append(_call(argv)[1])
    found = {m for t in texts for m in re.findall(r"results/(\w+)", t)}
    assert found and found <= names, found - names


def test_bench_times_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """``btsim bench`` times ``btsim --help``, ``btsim units`` and a finished ``btsim run``
    in fresh processes (the shape of the figures; their speed is what the benchmark
    reports, not a test)."""
    from sim import bench

    ran: list[list[str]] = []
    monkeypatch.setattr(bench.subprocess, "run", lambda argv, **kw: ran.append(argv[1:]))
    st = bench.startup_times(2, rerun_scenarios=153)
    assert ["-m", "sim", "--help"] in ran and ["-m", "sim", "units"] in ran
    reruns = [a for a in ran if a[:3] == ["-m", "sim", "run"]]
    assert len(reruns) == 1 + 3 and all(a == reruns[0] for a in reruns)  # the run, its reruns
    assert len(ran) == 1 + 4 * 3  # a warm-up and 2 repeats of each of 4 commands
    assert {"help_s", "units_s", "python_s", "help_best_s", "bytecode_cache", "rerun_s",
            "rerun_cpu_best_s", "help_cpu_best_s"} <= set(st)
    line = bench._startup_lines(st)[0]
    assert "btsim --help" in line and "a finished btsim run (153 scenarios)" in line
