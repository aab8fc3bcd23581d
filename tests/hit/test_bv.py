"""Battle Value at skill (reference-as-combat.md 24.2) and its display in ``units show``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.classic.bv import SKILL_MULTIPLIER, bv_at_skill, bv_facts
from sim.errors import UserError
from sim.units.catalog import get_classic


def test_table_shape_and_baseline() -> None:
    assert len(SKILL_MULTIPLIER) == 9 and all(len(r) == 9 for r in SKILL_MULTIPLIER)
    assert SKILL_MULTIPLIER[4][5] == "1.00"
    assert bv_at_skill(1897) == 1897


def test_rounding_halves_up_on_the_exact_product() -> None:
    assert bv_at_skill(645, 0, 3) == 1355  # 645 x 2.10 = 1354.5
    assert bv_at_skill(50, 5, 2) == 57  # 50 x 1.13 = 56.5
    assert bv_at_skill(1897, 3, 4) == 2504  # 1897 x 1.32 = 2504.04
    with pytest.raises(UserError):              # the 24.2 table stops at 8
        bv_at_skill(1000, 12, 12)


def test_facts_carry_source_and_unknown_bv_says_so() -> None:
    f = bv_facts(get_classic("Atlas AS7-D"), 4, 5)
    assert f["bv"] == 1897 and f["bv_source"] and f["bv_record"]
    from dataclasses import replace
    m = replace(get_classic("Atlas AS7-D"), bv=None, bv_source="", bv_record=None)
    f = bv_facts(m)
    assert f["bv"] is None and f["notes"]
    assert bv_facts(m, bv=1500, gunnery=3, piloting=4)["bv_at_skill"] == 1980
    with pytest.raises(UserError):
        bv_facts(m, -1, 5)


def test_units_show_prints_bv_at_skill() -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "units", "show", "Atlas AS7-D", "--json",
                        "--gunnery", "3", "--piloting", "4"], capture_output=True, text=True,
                       check=False)
    assert p.returncode == 0, p.stderr
    c = json.loads(p.stdout)["classic"]
    assert c["bv"] == 1897 and c["bv_at_skill"] == 2504
