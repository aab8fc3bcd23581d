"""``btsim units import DIR``: every .mtf under a folder, broken files skipped with one reason
each, imported units nameable afterwards (user catalog under ``$BTSIM_HOME``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from units_helpers import MTF_FILES, needs_shared

from sim.units.catalog import get_classic
from sim.units.user_catalog import find_user_unit, import_dir, load_user_units


def _broken(folder: Path) -> int:
    """Write broken files: garbage, random bytes, a quad, an empty file, a folder named
    .mtf, a file with a header only. Returns how many of them are .mtf files."""
    rng = np.random.default_rng(5)
    (folder / "garbage.mtf").write_text("garbage\n")
    for k in range(5):
        (folder / f"random{k}.mtf").write_bytes(rng.integers(0, 256, 300, dtype=np.uint8)
                                                .tobytes())
    (folder / "quad.mtf").write_text("chassis:X\nmodel:Y\nConfig:Quad\n")
    (folder / "empty.mtf").write_text("")
    (folder / "dir.mtf").mkdir()
    (folder / "half.mtf").write_text("chassis:Half\nmodel:H-1\nmass:50\n")
    (folder / "readme.txt").write_text("not a unit")
    return 9  # dir.mtf is a folder, not a file


def test_import_broken_files_never_crashes(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    n = _broken(src)
    rep = import_dir(src, tmp_path / "units.toml")
    assert rep.imported == []
    assert len(rep.skipped) == n
    assert all(reason and "\n" not in reason for _, reason in rep.skipped)


@needs_shared
def test_import_shared_files_then_name_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    src = tmp_path / "src" / "deep" / "er"
    src.mkdir(parents=True)
    for f in MTF_FILES:
        shutil.copy(f, src / f.name)
    _broken(tmp_path / "src")
    home = tmp_path / "home"
    monkeypatch.setenv("BTSIM_HOME", str(home))
    rep = import_dir(tmp_path / "src")
    assert len(rep.imported) == len(MTF_FILES)
    units = load_user_units()
    assert len(units) == len(MTF_FILES) and all(u.slots for u in units)
    # a name only the user catalog knows
    text = (home / "units.toml").read_text()
    (home / "units.toml").write_text(text.replace('"Locust LCT-1V"', '"Locust LCT-9Z"', 1)
                                     .replace('"model" = "LCT-1V"', '"model" = "LCT-9Z"', 1))
    assert find_user_unit("Locust LCT-9Z") is not None
    m = get_classic("Locust LCT-9Z")
    assert m.slots and m.tons == 20
    env = {**os.environ, "BTSIM_HOME": str(home)}
    p = subprocess.run([sys.executable, "-m", "sim", "units", "import", str(tmp_path / "src"),
                        "--json", "--skipped", str(tmp_path / "skipped.txt")],
                       capture_output=True, text=True, env=env, check=False)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert len(out["imported"]) == len(MTF_FILES) and len(out["skipped"]) == 9
    assert len((tmp_path / "skipped.txt").read_text().splitlines()) == 9
    p = subprocess.run([sys.executable, "-m", "sim", "hit", "Locust LCT-9Z", "--damage", "5",
                        "--location", "CT", "--json"], capture_output=True, text=True,
                       env=env, check=False)
    assert p.returncode == 0, p.stderr


def test_import_of_a_missing_folder_exits_2(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "units", "import", str(tmp_path / "no")],
                       capture_output=True, text=True, check=False,
                       env={**os.environ, "BTSIM_HOME": str(tmp_path)})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
