"""Small CLI/API consistency fixes: text headers name the ``--rule`` overrides, an unknown
``--rule`` lists only the options of the command's model, and every Python door defaults
to the same progress mode."""

from __future__ import annotations

import inspect

import pytest

import sim
from sim import options
from sim.cli import main
from sim.cli.common import differing_options
from sim.errors import ConfigError
from sim.summary import rules_header


def test_rules_header() -> None:
    assert rules_header("default") == "default"
    assert rules_header("seed", {"tac": False, "club_aimed_mod": 2}) == \
        "seed + tac=false, club_aimed_mod=2"
    assert rules_header("default", "ht_cap=4,water_ov=steps") == \
        "default + ht_cap=4, water_ov=steps"
    eff = {o.name: o.presets.get("seed", o.default) for o in options.options("classic")}
    assert differing_options("classic", "seed", eff) == {}
    assert differing_options("classic", "seed", {**eff, "tac": not eff["tac"]}) == \
        {"tac": not eff["tac"]}


def test_attack_header_names_the_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", "kick", "--tons", "60", "--rule", "tac=false",
                 "--rule", "pilot_damage=false"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "rules default + pilot_damage=false, tac=false (exact)" in head
    assert main(["attack", "kick", "--tons", "60", "--rules", "megamek"]) == 0
    assert "rules megamek (exact)" in capsys.readouterr().out.splitlines()[0]


def test_heat_header_names_the_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["heat", "--ov", "2", "--turns", "2", "--rule", "water_ov=steps"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "rules default + water_ov=steps  (exact)" in head


@pytest.mark.parametrize("model, own, foreign", [
    ("profile", "rotary_shots", "tac"),        # fire options only, not the physical ones
    ("attack", "tac", "rotary_shots"),
    ("heat", "ht_cap", "tac"),
])
def test_unknown_rule_lists_only_the_models_options(model: str, own: str,
                                                    foreign: str) -> None:
    from argparse import Namespace

    from sim.cli.common import rule_overrides

    with pytest.raises(ConfigError) as err:
        rule_overrides(Namespace(rule=["nonsense=1"]), model)
    msg = str(err.value)
    listed = set(msg.split("one of ", 1)[1].split(";")[0].split(", "))
    assert f"the {model!r} model" in msg and own in listed and foreign not in listed
    assert listed == set(options.model_names(model))


def test_profile_cli_unknown_rule_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "Hunchback HBK-4G", "--rule", "nonsense=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'profile' model" in err
    assert "hand_and_lower_arm_missing_mod" not in err and "crits," not in err


def test_every_python_door_defaults_to_progress_auto() -> None:
    from sim.api import run_scenario
    from sim.classic.fire.api import fire_result, profile_result

    doors = [sim.attack, sim.heat, sim.fire, sim.profile, sim.duel, sim.run, sim.compare,
             run_scenario, fire_result, profile_result,
             __import__("sim.classic.duel.api", fromlist=["x"]).classic_duel]
    for fn in doors:
        assert inspect.signature(fn).parameters["progress"].default == "auto", fn.__name__
