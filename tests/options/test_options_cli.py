"""``btsim rules`` and the ``--rule NAME=VALUE`` flag of attack, heat and run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim import options
from sim.alphastrike.rules import ASRules
from sim.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# -- btsim rules ------------------------------------------------------------------------------

def test_rules_text_lists_every_option_with_presets(capsys) -> None:
    rc, out, err = cli(capsys, "rules")
    assert rc == 0 and err == ""
    for o in options.options():
        assert o.name in out and f"[{o.ref}]" in out and o.doc in out
    assert "DEFAULT" in out and "SEED" in out and "MEGAMEK" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("punch_min_damage"))
    assert row.split()[1:6] == ["D5", "1", "1", "0*", "0..1"]
    row = next(line for line in out.splitlines() if line.strip().startswith("immobile_psr "))
    assert row.split()[1:] == ["D22", "auto-fail", "auto-fail", "auto-fail", "auto-fail|roll"]
    assert "auto-fail (default): it fails every PSR" in out


def test_rules_game_filter(capsys) -> None:
    rc, out, _ = cli(capsys, "rules", "--game", "alphastrike")
    assert rc == 0 and "heat_tmm_threshold" in out and "dfa_rounding" not in out
    row = next(line for line in out.splitlines() if line.strip().startswith("heat_tmm_threshold"))
    assert row.split()[1:5] == ["D1", "2", "3*", "1..4"]


def test_rules_json(capsys) -> None:
    rc, out, _ = cli(capsys, "rules", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["games"]["classic"]["models"][0] == "attack"  # more Classic models may follow
    assert doc["games"]["classic"]["presets"] == ["default", "seed", "megamek"]
    assert doc["games"]["alphastrike"]["presets"] == ["default", "seed"]
    by = {o["name"]: o for o in doc["options"]}
    assert set(by) == set(options.names())
    d22 = by["immobile_psr"]
    assert d22 == {"name": "immobile_psr", "game": "classic", "group": "ClassicRules",
                   "kind": "choice", "default": "auto-fail", "allowed": ["auto-fail", "roll"],
                   "ref": "D22", "doc": d22["doc"], "readings": d22["readings"],
                   "presets": {"default": "auto-fail", "seed": "auto-fail",
                               "megamek": "auto-fail"}, "models": ["attack", "classic-duel"]}
    assert set(d22["readings"]) == {"auto-fail", "roll"}
    assert by["heat_tmm_threshold"]["allowed"] == {"min": 1, "max": 4}
    assert by["quirks"]["allowed"] == [False, True]
    rc, out, _ = cli(capsys, "rules", "--game", "classic", "--json")
    assert {o["game"] for o in json.loads(out)["options"]} == {"classic"}


def test_rules_unknown_game_exit_2(capsys) -> None:
    rc, out, err = cli(capsys, "rules", "--game", "chess")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "'game'" in err and "classic" in err


# -- --rule on attack and heat -----------------------------------------------------------------

def _attack(capsys, *extra: str) -> dict:
    rc, out, err = cli(capsys, "attack", "dfa", "--tons", "55", "--json", *extra)
    assert rc == 0, err
    return json.loads(out)


def test_attack_rule_changes_result_and_is_recorded(capsys) -> None:
    base = _attack(capsys)
    alt = _attack(capsys, "--rule", "dfa_rounding=ceil-then-times-3")
    assert (base["damage_on_hit"], alt["damage_on_hit"]) == (17, 18)   # D18: 55 t
    assert alt["rule_options"]["dfa_rounding"] == "ceil-then-times-3"
    assert set(alt["rule_options"]) == set(options.model_names("attack"))
    alias = _attack(capsys, "--option", "dfa-rounding=ceil-then-times-3")
    assert alias["damage_on_hit"] == 18
    mc = _attack(capsys, "--rule", "dfa_rounding=floor-then-times-3", "--rules", "megamek",
                 "--trials", "2000", "--seed", "1")
    assert mc["damage_on_hit"] == 15 and mc["rules"] == "megamek"
    assert mc["rule_options"]["punch_min_damage"] == 0


def _heat(capsys, *extra: str) -> dict:
    rc, out, err = cli(capsys, "heat", "--ov", "2", "--turns", "4", "--incoming",
                       "tn=7,dmg=3", "--json", *extra)
    assert rc == 0, err
    return json.loads(out)


def test_heat_rule_changes_result_and_is_recorded(capsys) -> None:
    base = _heat(capsys)
    alt = _heat(capsys, "--rule", "heat_tmm_threshold=3")
    last = [d["turns"][-1]["expected_cumulative_damage"] for d in (base, alt)]
    assert last[0] != pytest.approx(last[1])
    assert alt["params"]["rule_overrides"] == "heat_tmm_threshold=3"
    alias = _heat(capsys, "--option", "heat_tmm_threshold=3")
    assert alias["turns"] == alt["turns"]
    seed = _heat(capsys, "--rules", "seed")
    assert seed["turns"] == alt["turns"]  # the seed preset reads D1 as 3 (water off: same)


@pytest.mark.parametrize("argv,names", [
    (["attack", "punch", "--tons", "70", "--rule", "punch_min_damage=5"],
     ["punch_min_damage", "[0, 1]"]),
    (["attack", "punch", "--tons", "70", "--rule", "heat_tmm_threshold=3"],
     ["heat_tmm_threshold", "alphastrike"]),
    (["attack", "punch", "--tons", "70", "--rule", "dfa_roundin=x"],
     ["did you mean 'dfa_rounding'"]),
    (["heat", "--rule", "water_ov=maybe"], ["water_ov", "'steps', 'seed'"]),
    (["heat", "--rule", "heat_tmm_threshold"], ["NAME=VALUE"]),
    (["heat", "--rules", "megamek"], ["rules", "'default', 'seed'"]),
    (["heat", "--option", "immobile_psr=roll"], ["immobile_psr", "classic"]),
])
def test_bad_rule_exit_2_one_line(capsys, argv: list[str], names: list[str]) -> None:
    rc, out, err = cli(capsys, *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("btsim: error:")
    for n in names:
        assert n in err


# -- --rule on btsim run ------------------------------------------------------------------------

HEAT_EXP = """
name = "{name}"
model = "heat"
trials = 1000
seed = 1
[fixed]
ov = 2
turns = 3
incoming = ["tn=7,dmg=3"]
[grid]
policy = ["max", "never"]
"""

ATTACK_EXP = """
name = "{name}"
model = "attack"
trials = 1000
seed = 1
[fixed]
attack = "dfa"
[grid]
tons = [55, 65]
"""


def _write(tmp: Path, text: str, name: str) -> Path:
    p = tmp / f"{name}.toml"
    p.write_text(text.format(name=name))
    return p


def _meta(folder: Path) -> dict:
    return json.loads((folder / "metadata.json").read_text())


def test_run_rule_applies_to_every_experiment_and_is_recorded(tmp_path: Path, capsys) -> None:
    from sim import results

    h = _write(tmp_path, HEAT_EXP, "h")
    h2 = _write(tmp_path, HEAT_EXP, "h2")
    out = tmp_path / "res"
    assert main(["run", str(h), "--exact", "--quiet", "--out", str(out / "base")]) == 0
    assert main(["run", str(h), str(h2), "--exact", "--quiet", "--out", str(out / "alt"),
                 "--rule", "heat_tmm_threshold=3"]) == 0
    base, _ = results.read(out / "base" / "h")
    for name in ("h", "h2"):
        frame, meta = results.read(out / "alt" / name)
        assert frame["p_destroyed_by"].tolist() != pytest.approx(
            base["p_destroyed_by"].tolist())  # policy max: heat 2 moves the TMM
        (s,) = meta["rule_sets"]["sets"]
        assert s["overrides"] == {"heat_tmm_threshold": 3} and s["scenarios"] == 2
        assert s["options"]["heat_tmm_threshold"] == 3
        assert set(s["options"]) == set(options.names(ASRules))  # the heat model's group
        assert meta["experiment"]["rule_overrides"] == {"heat_tmm_threshold": 3}


def test_run_rule_on_attack(tmp_path: Path) -> None:
    from sim import results

    a = _write(tmp_path, ATTACK_EXP, "a")
    assert main(["run", str(a), "--exact", "--quiet", "--out", str(tmp_path),
                 "--rule", "dfa_rounding=floor-then-times-3"]) == 0
    frame, meta = results.read(tmp_path / "a")
    assert frame["damage_on_hit"].tolist() == [15, 18]   # floor(W/10) x 3
    assert meta["rule_sets"]["rule_options"][0]["dfa_rounding"] == "floor-then-times-3"


def test_run_rule_validated_against_each_models_game(tmp_path: Path, capsys) -> None:
    a = _write(tmp_path, ATTACK_EXP, "a")
    h = _write(tmp_path, HEAT_EXP, "h")
    rc, out, err = cli(capsys, "run", str(a), str(h), "--exact", "--quiet", "--out",
                       str(tmp_path / "res"), "--rule", "heat_tmm_threshold=3")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert "'attack' model" in err and "heat_tmm_threshold" in err
    assert not (tmp_path / "res").exists()  # nothing ran
