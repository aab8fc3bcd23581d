"""The README's examples run as written: the experiment file writes results and nothing to
stderr, and the Python snippets return what the README says."""

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _toml_example() -> str:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    assert blocks, "README has a TOML example"
    return blocks[0]


def test_readme_experiment_runs_quietly(tmp_path):
    exp = tmp_path / "example.toml"
    exp.write_text(_toml_example())
    res = subprocess.run([sys.executable, "-m", "sim", "run", str(exp), "--trials", "2000",
                          "--out", str(tmp_path / "res"), "--quiet"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert (tmp_path / "res" / "punch_vs_kick" / "summary.parquet").exists()


def test_readme_python_snippets():
    import sim

    punch = sim.attack("punch", tons=70, damaged=["upper-arm"], terrain="light-woods")
    assert punch["target_number"] == 8  # the Grasshopper example
    curves = sim.heat(unit="Loki (Hellbringer) Prime", policy="max", turns=3)
    assert list(curves["turn"]) == [1, 2, 3]
