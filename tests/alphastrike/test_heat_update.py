"""End Phase heat update, rules reference 6.4 (every row of the procedure) and the options
D2, D3, D15 and HT-while-shut-down; cross-checked against the scalar oracle's literal
transcription of the 6.4 pseudocode."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from sim.alphastrike.heat import end_phase_heat
from sim.alphastrike.rules import ASRules
from sim.oracles.alphastrike import _heat_update

DEFAULT = ASRules.preset("default")
SEED = ASRules.preset("seed")


def upd(heat: int, fired: bool, ov: int = 0, engine: int = 0, ht: int = 0, water: int = 0,
        rules: ASRules = DEFAULT) -> int:
    a = lambda v, dt: np.array([v], dtype=dt)  # noqa: E731
    return int(end_phase_heat(a(heat, np.uint8), a(fired, bool), a(ov, np.uint8),
                              a(engine, np.uint8), a(ht, np.uint8), water, rules)[0])


# -- 6.4 step 1: overheating adds the OV and blocks cooling --------------------------------
@pytest.mark.parametrize("heat,ov,expected", [(0, 1, 1), (0, 2, 2), (1, 2, 3), (2, 2, 4),
                                              (3, 3, 4)])
def test_step1_overheat_adds_ov(heat: int, ov: int, expected: int) -> None:
    assert upd(heat, True, ov) == expected


# -- 6.4 step 2: firing without OV out of water holds the heat -----------------------------
@pytest.mark.parametrize("heat", [0, 1, 2, 3])
def test_step2_fired_without_ov_holds(heat: int) -> None:
    assert upd(heat, True, 0) == heat


# -- 6.4 step 3: OV 1 in water breaks even (both D3 readings) ------------------------------
@pytest.mark.parametrize("rules", [DEFAULT, SEED])
@pytest.mark.parametrize("heat", [0, 1, 2, 3])
def test_step3_ov1_in_water_unchanged(rules: ASRules, heat: int) -> None:
    assert upd(heat, True, 1, water=2, rules=rules) == heat


# -- 6.4 step 4a: a unit that starts the End Phase shut down restarts at 0 ------------------
def test_step4a_shutdown_restarts_at_zero() -> None:
    assert upd(4, False) == 0


# -- 6.4 step 4b: no weapon attack -> 0 (physical-only turns included) ----------------------
@pytest.mark.parametrize("heat", [0, 1, 2, 3])
def test_step4b_no_weapon_attack_drops_to_zero(heat: int) -> None:
    assert upd(heat, False) == 0
    assert upd(heat, False, water=3) == 0


# -- 6.4 step 4c: water and no OV -> -1 ; D2 depth threshold -------------------------------
def test_step4c_water_cooling_depth_d2() -> None:
    # default (errata v2.1 reading): 1" is enough
    assert upd(3, True, water=1) == 2
    assert upd(3, True, water=2) == 2
    # seed: 2" or deeper
    assert upd(3, True, water=1, rules=SEED) == 3
    assert upd(3, True, water=2, rules=SEED) == 2
    # never below 0
    assert upd(0, True, water=2) == 0


# -- D3: OV 2 in water: ASCE steps +1, seed literal +2 --------------------------------------
def test_d3_ov2_in_water_both_readings() -> None:
    assert upd(1, True, 2, water=2) == 2          # steps: +2 - 1
    assert upd(1, True, 2, water=2, rules=SEED) == 3  # seed: no cooling while overheating
    assert upd(1, True, 2, water=2, rules=DEFAULT.replace(water_ov="seed")) == 3
    assert upd(1, True, 2, water=2, rules=SEED.replace(water_ov="steps")) == 2


def test_d2_ov_clause_depth() -> None:
    assert upd(2, True, 1, water=1) == 2
    assert upd(2, True, 1, water=1, rules=DEFAULT.replace(water_ov_depth=2)) == 3


# -- 6.4 step 5: HT heat, capped at 2 per turn; D15 order ----------------------------------
def test_step5_ht_capped_at_two() -> None:
    assert upd(0, True, 0, ht=1) == 1
    assert upd(0, True, 0, ht=2) == 2
    assert upd(0, True, 0, ht=4) == 2      # two HT2 hits: +2 only (ref 7 case 19)
    assert upd(1, True, 1, ht=3) == 4      # 1 + 1 + 2 -> S


def test_d15_ht_after_cooling_default_and_before() -> None:
    # default: no weapon attack -> 0, then +HT
    assert upd(3, False, ht=2) == 2
    before = DEFAULT.replace(ht_order="before_cooling")
    assert upd(3, False, ht=2, rules=before) == 0     # HT first, then "no attack -> 0"
    assert upd(1, True, ht=2, rules=before) == 3


def test_ht_while_shutdown_option() -> None:
    assert upd(4, False, ht=2) == 0
    assert upd(4, False, ht=2, rules=DEFAULT.replace(ht_while_shutdown="apply")) == 2


# -- Engine Hit: +1 heat every turn it fires (ref 6.4, 6.6) ---------------------------------
def test_engine_hit_adds_one_when_firing() -> None:
    assert upd(1, True, 0, engine=1) == 2
    assert upd(1, True, 2, engine=1) == 4
    assert upd(2, False, 0, engine=1) == 0         # no weapon attack: no engine heat
    assert upd(2, True, 0, engine=1, water=2) == 2  # +1 engine - 1 water


# -- 6.4 step 6: clamp and shutdown at 4 ---------------------------------------------------
def test_step6_clamp_at_shutdown() -> None:
    assert upd(3, True, 3) == 4
    assert upd(2, True, 2, engine=1, ht=2) == 4


def test_vectorized_matches_literal_pseudocode_exhaustively() -> None:
    """Every input combination against the oracle's line-by-line 6.4 transcription."""
    for rules in (DEFAULT, SEED, DEFAULT.replace(ht_order="before_cooling"),
                  SEED.replace(ht_while_shutdown="apply")):
        rows = list(itertools.product(range(5), (False, True), range(4), (0, 1), range(5),
                                      (0, 1, 2)))
        heat, fired, ov, eng, ht, water = (np.array(c) for c in zip(*rows, strict=True))
        fired = fired.astype(bool) & (heat < 4)
        ov = ov * fired
        for depth in (0, 1, 2):
            got = end_phase_heat(heat.astype(np.uint8), fired, ov.astype(np.uint8),
                                 eng.astype(np.uint8), ht.astype(np.uint8), depth, rules)
            s = SimpleNamespace(rules=rules, water_depth=depth)
            want = [_heat_update(s, int(h), bool(f), int(o), bool(e), int(t))
                    for h, f, o, e, t in zip(heat, fired, ov, eng, ht, strict=True)]
            np.testing.assert_array_equal(got, want)
