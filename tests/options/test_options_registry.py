"""The rule-option registry (sim.options): declarations, presets, parser, build, listing."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import pytest

from sim import options
from sim.alphastrike.duel.rules import DuelRules
from sim.alphastrike.rules import ASRules
from sim.classic.rules import ClassicRules
from sim.errors import ConfigError
from sim.options import opt


def _values(o: options.Option) -> list[Any]:
    """Every allowed value of an option (the ends of a range)."""
    if o.kind == "bool":
        return [False, True]
    if o.kind == "int":
        return [o.allowed["min"], o.allowed["max"]]
    return list(o.allowed)


def _text(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def test_both_games_and_groups_registered() -> None:
    assert {"classic", "alphastrike"} <= set(options.games())
    from sim.classic.damage_rules import DamageRules
    from sim.classic.duel.physical_rules import ClassicPhysicalRules
    from sim.classic.duel.rules import ClassicDuelRules
    from sim.classic.fire.rules import FireRules

    assert options.groups("classic")[0] is ClassicRules  # later groups: damage, fire...
    assert set(options.groups("classic")) == {ClassicRules, FireRules, DamageRules,
                                              ClassicDuelRules, ClassicPhysicalRules}
    assert set(options.model_names("classic-duel")) == set(
        options.names(FireRules) + options.names(DamageRules) + options.names(ClassicDuelRules)
        + options.names(ClassicPhysicalRules) + options.names(ClassicRules))
    assert set(options.model_names("attack")) == set(options.names(ClassicRules))
    listed = {o.name: o for o in options.options("classic")}
    assert listed["dfa_rounding"].models == ("attack", "classic-duel")
    assert options.game_of_model("fire") == options.game_of_model("profile") == "classic"
    assert set(options.groups("alphastrike")) == {ASRules, DuelRules}
    assert options.game_of_model("duel") == "alphastrike"
    assert set(options.model_names("duel")) == set(options.names("alphastrike"))
    assert options.game_of_model("attack") == "classic"
    assert options.game_of_model("heat") == "alphastrike"
    assert options.game_of_model("punch-demo") is None
    assert options.presets("classic") == ("default", "seed", "megamek")
    assert options.presets("alphastrike") == ("default", "seed")


def test_every_field_of_every_group_is_declared() -> None:
    """Every field carries a declaration: reference, one-line doc, allowed values, readings;
    its default is allowed, and every choice has a reading."""
    listed = {o.name: o for o in options.options()}
    for game in ("classic", "alphastrike"):
        for cls in options.groups(game):
            for f in dataclasses.fields(cls):
                decl = f.metadata[options.META_KEY]
                assert decl.ref and decl.doc and "\n" not in decl.doc, f.name
                assert decl.default == f.default
                assert decl.coerce(f.name, f.default) == f.default
                o = listed[f.name]
                assert o.game == game and o.group == cls.__name__
                assert o.readings, f"{f.name}: no readings"
                if o.kind == "choice":
                    assert set(o.readings) == set(o.allowed), f.name
                if o.kind == "bool":
                    assert set(o.readings) == {"true", "false"}, f.name


def test_names_are_unique_across_games() -> None:
    names = [o.name for o in options.options()]
    assert len(names) == len(set(names))
    assert set(options.names("classic")).isdisjoint(options.names("alphastrike"))


@pytest.mark.parametrize("o", options.options(), ids=lambda o: o.name)
def test_round_trip_every_value(o: options.Option) -> None:
    """Each allowed value goes through the parser, build and effective() unchanged."""
    cls = options.spec(o.name).group
    for v in _values(o):
        name, parsed = options.parse_rule(f"{o.name}={_text(v)}")
        assert (name, parsed) == (o.name, v) and type(parsed) is type(v)
        inst = options.build(cls, "default", {o.name: v})
        eff = options.effective(inst)
        assert eff[o.name] == v
        assert list(eff) == [f.name for f in dataclasses.fields(cls)]
        assert json.loads(json.dumps(eff)) == eff
        assert options.build(cls, "default", eff) == inst  # effective() rebuilds the instance


def test_default_preset_is_the_declared_defaults() -> None:
    assert options.build(ClassicRules) == ClassicRules()
    assert options.build(ASRules) == ASRules()
    assert options.build(DuelRules) == DuelRules()
    assert options.build(ClassicRules, "default") == ClassicRules()


def test_presets_set_what_they_did_before() -> None:
    seed = options.build(ClassicRules, "seed")
    assert seed == ClassicRules(hand_and_lower_arm_missing_mod=2)
    mm = options.build(ClassicRules, "megamek")
    assert mm == ClassicRules(punch_min_damage=0, charge_psr_without_displacement=False,
                              fall_pilot_damage="megamek")
    assert options.build(ASRules, "seed") == ASRules(heat_tmm_threshold=3, water_cool_depth=2,
                                                      water_ov_depth=1, water_ov="seed")
    listed = {o.name: o for o in options.options("classic")}
    assert listed["punch_min_damage"].presets == {"default": 1, "seed": 1, "megamek": 0}
    assert listed["immobile_psr"].presets == {"default": "auto-fail", "seed": "auto-fail",
                                              "megamek": "auto-fail"}


def test_preset_then_overrides() -> None:
    r = options.build(ClassicRules, "megamek", {"punch_min_damage": "1", "quirks": "yes"})
    assert r.punch_min_damage == 1 and r.quirks is True and r.fall_pilot_damage == "megamek"
    assert options.overrides_of(r, "megamek") == {"punch_min_damage": 1, "quirks": True}


def test_d22_immobile_psr() -> None:
    """Reference 4.1 / D22: a shut-down or unconscious target fails its PSRs by default."""
    o = {x.name: x for x in options.options("classic")}["immobile_psr"]
    assert (o.default, o.allowed, o.ref) == ("auto-fail", ["auto-fail", "roll"], "D22")
    assert ClassicRules().immobile_psr == "auto-fail"
    assert options.build(ClassicRules, "default", {"immobile_psr": "roll"}).immobile_psr == "roll"


# -- errors -----------------------------------------------------------------------------------

def test_unknown_name_suggests_a_close_match() -> None:
    with pytest.raises(ConfigError) as e:
        options.parse_rule("heat_tmm_treshold=3")
    assert "did you mean 'heat_tmm_threshold'" in str(e.value)
    assert "heat_tmm_treshold" in str(e.value)
    with pytest.raises(ConfigError, match="did you mean 'dfa_rounding'"):
        options.parse_rule("dfa_rounding_=x", "classic")


def test_near_miss_of_another_games_option_is_named() -> None:
    with pytest.raises(ConfigError, match="did you mean 'heat_tmm_threshold', an option of "
                       "alphastrike"):
        options.parse_rule("heat_tmm_treshold=3", "classic")


@pytest.mark.parametrize("text,allowed", [
    ("dfa_rounding=round", "one of 'ceil-product', 'ceil-then-times-3', 'floor-then-times-3'"),
    ("heat_tmm_threshold=7", "an integer in [1, 4]"),
    ("heat_tmm_threshold=two", "an integer in [1, 4]"),
    ("heat_tmm_threshold=2.5", "an integer in [1, 4]"),
    ("quirks=maybe", "true or false"),
    ("immobile_psr=fall", "one of 'auto-fail', 'roll'"),
])
def test_bad_value_names_option_and_allowed_values(text: str, allowed: str) -> None:
    name, _, value = text.partition("=")
    with pytest.raises(ConfigError) as e:
        options.parse_rule(text)
    msg = str(e.value)
    assert e.value.field == name and repr(name) in msg and allowed in msg and value in msg
    assert len(msg.splitlines()) == 1


def test_malformed_rule_and_wrong_game() -> None:
    with pytest.raises(ConfigError, match="NAME=VALUE"):
        options.parse_rule("dfa_rounding")
    with pytest.raises(ConfigError, match="'water_ov' is an option of alphastrike"):
        options.parse_rule("water_ov=seed", "classic")
    with pytest.raises(ConfigError, match="'water_ov' is an option of alphastrike"):
        options.check_overrides("attack", {"water_ov": "seed"})
    with pytest.raises(ConfigError, match="has no rule options"):
        options.check_overrides("punch-demo", {"quirks": True})


def test_bad_preset_and_bad_override_in_build() -> None:
    with pytest.raises(ConfigError, match="'rules' parameter must be one of 'default', 'seed'"):
        options.build(ASRules, "megamek")
    with pytest.raises(ConfigError, match="'water_ov' is an option of ASRules"):
        options.build(ClassicRules, "default", {"water_ov": "seed"})
    with pytest.raises(ConfigError, match="case_damage"):
        options.build(ASRules, "default", {"case_damage": 9})


def test_legacy_helpers_are_wrappers() -> None:
    from sim.alphastrike import rules as ar
    from sim.classic import rules as cr

    assert cr.rules_from("seed", punch_min_damage=0).punch_min_damage == 0
    assert cr.check_option("tac", "false") is False
    assert cr.RULE_SETS == ("default", "seed", "megamek")
    assert cr.PRESETS["megamek"].punch_min_damage == 0
    assert json.loads(ClassicRules().as_json())["immobile_psr"] == "auto-fail"
    assert ASRules.preset("seed").replace(ht_cap="3").ht_cap == 3
    assert ar.PRESETS["seed"].water_ov == "seed"
    with pytest.raises(ConfigError, match="did you mean 'ht_cap'"):
        ASRules().replace(ht_capp=1)
    with pytest.raises(ConfigError):
        cr.rules_from("tw")


# -- declaring new groups (isolated registry) ------------------------------------------------

@pytest.fixture
def scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the registry, so a test group does not leak into other tests."""
    options.games()
    monkeypatch.setattr(options, "_GAMES", {k: dataclasses.replace(v, groups=list(v.groups),
                                                                   models=set(v.models),
                                                                   presets=dict(v.presets))
                                            for k, v in options._GAMES.items()})
    monkeypatch.setattr(options, "_SPECS", dict(options._SPECS))
    monkeypatch.setattr(options, "_GROUP_MODELS", dict(options._GROUP_MODELS))


def test_a_new_group_is_listed_parsed_and_built(scratch: None) -> None:
    @dataclass(frozen=True)
    class ToyRules:
        toy_range: int = opt(3, allowed=(1, 6), ref="T1", doc="a toy range",
                             readings={3: "three"})
        toy_mode: str = opt("a", allowed=("a", "b"), ref="T2", doc="a toy mode",
                            readings={"a": "A", "b": "B"})

    options.register_group("toy", ToyRules, models=("toy-model",))
    options.register_preset("toy", "default", {})
    options.register_preset("toy", "other", {"toy_mode": "b"})
    options.register_preset("toy", "other", {"toy_range": 2})  # adds to the preset
    assert options.build("toy", "other") == ToyRules(2, "b")
    assert options.parse_rule("toy-range=5") == ("toy_range", 5)
    assert options.build("toy", "other", {"toy_range": 6}) == ToyRules(6, "b")
    listed = {o.name: o for o in options.options("toy")}
    assert listed["toy_mode"].presets == {"default": "a", "other": "b"}
    assert listed["toy_mode"].models == ("toy-model",)
    assert options.model_names("toy-model") == ("toy_range", "toy_mode")
    with pytest.raises(ConfigError, match="toy_range"):
        options.build("toy", "default", {"toy_range": 0})


def test_malformed_declarations_fail_at_import(scratch: None) -> None:
    with pytest.raises(TypeError):
        opt(1, allowed=[1, 2], ref="X", doc="a list is not allowed")
    with pytest.raises(TypeError):
        opt("a", allowed=("a",), ref="", doc="no reference")
    with pytest.raises(ConfigError):
        opt("c", allowed=("a", "b"), ref="X", doc="default not allowed")
    with pytest.raises(ConfigError):
        opt("a", allowed=("a", "b"), ref="X", doc="reading of no value", readings={"z": "?"})

    @dataclass(frozen=True)
    class Bare:
        plain: int = 1

    with pytest.raises(TypeError, match="not declared with sim.options.opt"):
        options.register_group("toy", Bare, models=())

    @dataclass(frozen=True)
    class Clash:
        quirks: bool = opt(False, allowed=bool, ref="X", doc="taken",
                           readings={False: "no", True: "yes"})

    with pytest.raises(ValueError, match="already declared by ClassicRules"):
        options.register_group("toy", Clash, models=())
    with pytest.raises(ValueError, match="default preset"):
        options.register_preset("classic", "default", {"quirks": True})
