"""``btsim units import DIR``: every .mtf under a folder, broken files skipped with one reason
each, imported units nameable afterwards (user catalog under ``$BTSIM_HOME``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from units_helpers import MTF_FILES, needs_shared

from sim.units.catalog import get_classic, lookup
from sim.units.mtf import read_mtf
from sim.units.user_catalog import import_dir, load_user_units


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
    return 10  # dir.mtf, a folder, is skipped too ("not a file")


def test_import_broken_files_never_crashes(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    n = _broken(src)
    rep = import_dir(src, tmp_path / "units.json")
    assert rep.imported == []
    assert len(rep.skipped) == n
    assert all(s.reason and "\n" not in s.reason for s in rep.skipped)
    assert [s.kind for s in rep.skipped].count("not a file") == 1


@needs_shared
def test_import_shared_files_then_name_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    src = tmp_path / "src" / "deep" / "er"
    src.mkdir(parents=True)
    for f in MTF_FILES:  # the catalog's names are shadowed: each copy gets a new model name
        mech = read_mtf(f)
        text = f.read_bytes().decode("utf-8", "replace")
        text = re.sub(rf"(?im)^(model:){re.escape(mech.model)}\s*$", rf"\g<1>{mech.model}-Z",
                      text, count=1)
        (src / f.name).write_text(re.sub(r"(?im)^mul id:.*$", "", text))
    shutil.copy(MTF_FILES[0], tmp_path / "src" / MTF_FILES[0].name)  # the catalog's own
    _broken(tmp_path / "src")
    home = tmp_path / "home"
    monkeypatch.setenv("BTSIM_HOME", str(home))
    rep = import_dir(tmp_path / "src")
    assert len(rep.imported) == len(MTF_FILES), rep.skipped
    assert [s.kind for s in rep.skipped].count("shadowed by the catalog") == 1
    units = load_user_units()
    assert len(units) == len(MTF_FILES) and all(u.slots for u in units)
    assert lookup("Locust LCT-1V-Z").imported
    # a name only the user catalog knows
    text = (home / "units.json").read_text()
    (home / "units.json").write_text(text.replace('"Locust LCT-1V-Z"', '"Locust LCT-9Z"', 1)
                                     .replace('"model": "LCT-1V-Z"', '"model": "LCT-9Z"',
                                              1))
    assert lookup("Locust LCT-9Z").imported
    m = get_classic("Locust LCT-9Z")
    assert m.slots and m.tons == 20
    env = {**os.environ, "BTSIM_HOME": str(home)}
    p = subprocess.run([sys.executable, "-m", "sim", "units", "import", str(tmp_path / "src"),
                        "--json", "--skipped", str(tmp_path / "skipped.txt")],
                       capture_output=True, text=True, env=env, check=False)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert len(out["imported"]) == len(MTF_FILES) and len(out["skipped"]) == 11
    assert len((tmp_path / "skipped.txt").read_text().splitlines()) == 11
    p = subprocess.run([sys.executable, "-m", "sim", "hit", "Locust LCT-9Z", "--damage", "5",
                        "--location", "CT", "--json"], capture_output=True, text=True,
                       env=env, check=False)
    assert p.returncode == 0, p.stderr


def test_import_of_a_missing_folder_exits_2(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "units", "import", str(tmp_path / "no")],
                       capture_output=True, text=True, check=False,
                       env={**os.environ, "BTSIM_HOME": str(tmp_path)})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def _toml_value(v: object) -> str:
    """A tiny TOML writer for the legacy-store test (strings, numbers, lists, tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    assert isinstance(v, list)
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


@needs_shared
def test_a_legacy_toml_store_is_read_until_the_next_import(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """btsim 0.1 stored imports in units.toml: still read while no units.json exists; the
    next import writes units.json, keeping the units it had."""
    src = tmp_path / "src"
    src.mkdir()
    mech = read_mtf(MTF_FILES[0])
    text = MTF_FILES[0].read_bytes().decode("utf-8", "replace")
    (src / "a.mtf").write_text(re.sub(rf"(?im)^(model:){re.escape(mech.model)}\s*$",
                                      rf"\g<1>{mech.model}-L", text, count=1))
    home = tmp_path / "home"
    monkeypatch.setenv("BTSIM_HOME", str(home))
    import_dir(src)
    data = json.loads((home / "units.json").read_text())
    (home / "units.toml").write_text("".join(
        "[[mech]]\n" + "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in r.items())
        for r in data["mech"]))
    (home / "units.json").unlink()
    assert [u.model for u in load_user_units()] == [f"{mech.model}-L"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.mtf").write_text(re.sub(rf"(?im)^(model:){re.escape(mech.model)}\s*$",
                                        rf"\g<1>{mech.model}-M", text, count=1))
    import_dir(other)
    assert (home / "units.json").is_file()
    assert sorted(u.model for u in load_user_units()) == [f"{mech.model}-L", f"{mech.model}-M"]
