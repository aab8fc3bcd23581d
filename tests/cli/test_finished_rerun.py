"""A finished ``btsim run`` (issue 18): the rerun of the same command is recognised from the
experiment file's text, the command's options and the code before numpy, pandas or any model
is imported; it writes nothing, exits 0 and prints its lines. Any change of input, seed,
trials, rule option or code (a model's ``version`` is a line of its source) runs again."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim import results
from sim.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
EXP = 'name = "t"\nmodel = "punch-demo"\ntrials = 2000\nseed = 3\n[grid]\ntons = [20, 80]\n'


def _tree(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry under ``folder`` with its mtime and bytes (a write shows)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        out[str(p.relative_to(folder))] = (st.st_mtime_ns, p.read_bytes() if p.is_file() else b"")
    return out


def _stamp(out: Path) -> dict:
    return json.loads((out / "t" / "metadata.json").read_text())["run_key"]


@pytest.fixture
def done(tmp_path: Path) -> tuple[Path, Path]:
    """An experiment file and the results folder of its finished run."""
    exp = tmp_path / "t.toml"
    exp.write_text(EXP)
    out = tmp_path / "r"
    assert cli(["run", str(exp), "--out", str(out), "--quiet", "--chunk-size", "500"]) == 0
    return exp, out


def test_a_finished_rerun_imports_no_heavy_module_and_writes_nothing(done):
    exp, out = done
    before = _tree(out)
    code = ("import sys\nfrom sim.cli import main\n"
            f"rc = main(['run', {str(exp)!r}, {str(exp)!r}, '--out', {str(out)!r}, "
            "'--chunk-size', '500', '--jobs', '2'])\n"
            "print(rc, sorted(m for m in ('numpy', 'pandas', 'pyarrow', 'sim.engine', "
            "'sim.models') if m in sys.modules))\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True,
                         timeout=120)
    lines = got.stdout.strip().splitlines()
    assert lines[-1] == "0 []"
    assert lines[:2] == [f"{out / 't'}: 2 rows (0.0 s)"] * 2
    assert got.stderr.splitlines() == ["btsim: run 1/2: t (2 scenarios) ...",
                                       "btsim: run 2/2: t (2 scenarios) ..."]
    assert _tree(out) == before


@pytest.mark.parametrize("change", [["--seed", "4"], ["--trials", "2500"], ["--exact"],
                                    "toml"])
def test_any_change_runs_again(done, change):
    exp, out = done
    stamp = _stamp(out)
    if change == "toml":
        exp.write_text(EXP.replace("[20, 80]", "[20, 85]"))
        change = []
    assert cli(["run", str(exp), "--out", str(out), "--quiet", "--chunk-size", "500",
                *change]) == 0
    again = _stamp(out)
    assert again["rerun"] != stamp["rerun"] and again["key"] != stamp["key"]


def test_a_rule_option_runs_again(tmp_path):
    exp = tmp_path / "t.toml"
    exp.write_text('name = "t"\nmodel = "attack"\ntrials = 2000\nseed = 1\n'
                   '[fixed]\nattack = "punch"\ntons = 50\n')
    args = ["run", str(exp), "--out", str(tmp_path / "r"), "--quiet", "--chunk-size", "1000"]
    assert cli(args) == 0
    stamp = _stamp(tmp_path / "r")
    assert cli(args) == 0 and _stamp(tmp_path / "r") == stamp  # finished: the same stamp
    assert cli([*args, "--rule", "punch_min_damage=0"]) == 0
    assert _stamp(tmp_path / "r")["key"] != stamp["key"]


def test_a_code_change_runs_again(done, monkeypatch):
    """A changed source file (a model's version bump) changes the fingerprint, so the rerun
    computes (in-process: the fingerprint is set aside as a new process would find it)."""
    exp, out = done
    stamp = _stamp(out)
    monkeypatch.setattr(results, "_FINGERPRINT", ["another code"])
    assert cli(["run", str(exp), "--out", str(out), "--quiet", "--chunk-size", "500"]) == 0
    assert _stamp(out)["rerun"] != stamp["rerun"]


def test_a_version_bump_changes_the_code_fingerprint(tmp_path, monkeypatch):
    copy = tmp_path / "sim"
    shutil.copytree(ROOT / "sim", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(results, "_PACKAGE_DIR", copy)
    monkeypatch.setattr(results, "_FINGERPRINT", [])
    first = results.code_fingerprint()
    model = copy / "alphastrike" / "model.py"
    text = model.read_text()
    assert 'version="2"' in text
    model.write_text(text.replace('version="2"', 'version="3"', 1))
    monkeypatch.setattr(results, "_FINGERPRINT", [])
    assert results.code_fingerprint() != first


def test_a_lock_leftovers_or_changed_cache_take_the_full_path(done):
    exp, out = done
    from sim.cli import build_parser
    from sim.cli.run import _rerun_settings

    args = build_parser("run", full=False).parse_args(["run", str(exp), "--chunk-size", "500"])
    key, name = results.rerun_key(exp, _rerun_settings(args))
    assert name == "t" and results.finished(out / "t", key) is not None
    (out / ".t.lock").write_text("")
    assert results.finished(out / "t", key) is None
    (out / ".t.lock").unlink()
    (out / ".t.tmp-x").mkdir()
    assert results.finished(out / "t", key) is None
    (out / ".t.tmp-x").rmdir()
    log = next(p for p in (out / "t" / ".cache").rglob("*") if p.is_file())
    log.write_bytes(log.read_bytes() + b"x")
    assert results.finished(out / "t", key) is None
