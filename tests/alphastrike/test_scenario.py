"""Scenario validation and parameters (issue 4 experiment-grid contract; ref 6.1 defaults)."""

from __future__ import annotations

import pytest
from as_helpers import card, scenario

from sim.alphastrike.generic import generic_mech
from sim.alphastrike.model import MODEL
from sim.alphastrike.rules import ASRules
from sim.errors import ConfigError


@pytest.mark.parametrize("params", [
    {"ov": 5}, {"ov": -1}, {"policy": "sometimes"}, {"start_heat": 5}, {"start_heat": -1},
    {"turns": 0}, {"incoming": ["tn=8"]}, {"incoming": ["tn=8,dmg=x"]},
    {"incoming": ["dmg=2,foo=1"]}, {"incoming": [{"dmg": 1, "bad": 2}]}, {"range": "far"},
    {"rules": "megamek"}, {"water": "yes"}, {"movement": "jump"}, {"skill": 9},
    {"water_ov": "sometimes"}, {"heat_tmm_threshold": 7}, {"colour": "red"},
])
def test_bad_params_raise_config_error(params) -> None:
    with pytest.raises(ConfigError):
        MODEL.scenario(params)


def test_unknown_key_lists_allowed_keys() -> None:
    with pytest.raises(ConfigError) as err:
        MODEL.scenario({"colour": "red"})
    msg = str(err.value)
    for key in ("unit", "ov", "policy", "turns", "start_heat", "water", "range", "skill",
                "incoming", "rules", "water_ov", "heat_tmm_threshold"):
        assert repr(key) in msg


def test_params_are_flat_and_json_able() -> None:
    scn = MODEL.scenario({"ov": 2, "incoming": ["tn=8,dmg=3,ht=1", {"skill": 3, "dmg": 2}],
                          "water_ov": "seed"})
    p = MODEL.params(scn)
    assert p["incoming"] == "tn=8,dmg=3,ht=1;skill=3,range=same,mod=0,dmg=2,ht=0"
    assert p["rule_overrides"] == "water_ov=seed"
    assert all(isinstance(v, str | int | bool) for v in p.values())
    assert MODEL.rows(scn)["turn"].tolist() == list(range(1, 11))


def test_default_target_and_tn() -> None:
    """Default own target: TMM 2 that moved -> TN = skill + range + 2 (ref 6.1)."""
    scn = scenario(ov=2)
    assert scn.tn_weapon_base == 4 + 2 + 2
    assert scenario(ov=2, target_tmm=3, target_jumped=True).tn_weapon_base == 4 + 2 + 4
    assert scenario(ov=2, target_immobile=True).tn_weapon_base == 4 + 2 - 4
    assert scenario(ov=2, range="short", skill=3).tn_weapon_base == 3 + 0 + 2


def test_d20_stood_still() -> None:
    assert scenario(ov=2, movement="stand").amod[0][0] == -1
    assert scenario(ov=2, movement="stand", stood_still_mod=0).amod[0][0] == 0
    assert scenario(ov=2, movement="stand").tmod[0][0] == 0     # stood still: TMM 0


def test_incoming_tn_follows_the_unit_state() -> None:
    scn = scenario(ov=2, incoming=["tn=8,dmg=1", "skill=4,dmg=1,mod=1"])
    a, b = scn.incoming
    assert a.base + scn.tmod[0][0] == 8           # nominal state: as given
    assert a.base + scn.tmod[4][0] == 8 - 2 - 4   # shut down: -4 replaces TMM 2
    assert b.base + scn.tmod[0][0] == 4 + 2 + 1 + 2


def test_presets_and_generic_card() -> None:
    seed = ASRules.preset("seed")
    assert (seed.heat_tmm_threshold, seed.water_cool_depth, seed.water_ov) == (3, 2, "seed")
    d = ASRules.preset("default")
    assert (d.heat_tmm_threshold, d.water_cool_depth, d.water_ov, d.mp_hit_tmm,
            d.stood_still_mod, d.ht_order) == (2, 1, "steps", "halve", -1, "after_cooling")
    g = generic_mech(3)
    assert (g.ov, g.armor, g.structure, g.damage, g.tmm) == (3, 5, 4, (3, 3, 2, 0), 2)
    assert scenario(ov=1).unit_label == "generic"
    assert scenario(unit=card(ov=1), ov=3).ov_cap == 3     # --ov replaces the card's OV
