"""Issue 9: attacks declared once, the kernel refusing plans it cannot sample, D22 (shut-down
or unconscious targets fail their PSRs), TSM never assumed from a unit, and products that never
import their test oracles."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.classic.attacks as A
from sim.classic import kernel, tables
from sim.classic.api import attack
from sim.classic.model import MODEL
from sim.classic.plan import make_plan
from sim.classic.scenario import build
from sim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("punch", "kick", "club", "hatchet", "push", "charge", "dfa")


# ------------------------------------------------------------------------------------------
# declarations
# ------------------------------------------------------------------------------------------
def test_every_attack_declared_once() -> None:
    """The seven attacks are declared once; the old tuples are views of the declarations."""
    assert A.ATTACKS == NAMES == tables.ATTACKS
    assert len({a.name for a in A.ATTACK_LIST}) == len(A.ATTACK_LIST)
    assert tables.BASE_MOD == {"punch": 0, "kick": -2, "club": -1, "hatchet": -1, "push": -1,
                               "charge": 0, "dfa": 3}
    assert A.LABEL_ORDER == ("punch", "punch ×2", "kick", "club", "hatchet", "push", "charge",
                             "DFA")
    assert A.attack_label({"attack": "punch", "arm": "both"}) == "punch ×2"
    assert A.attack_label({"attack": "charge", "hexes": 5}) == "charge (5 hexes)"
    assert A.attack_label({"attack": "charge", "hexes": float("nan")}) == "charge"
    assert A.attack_label({"attack": "dfa"}) == "DFA"
    with pytest.raises(KeyError, match="declared"):
        A.spec("headbutt")


@pytest.mark.parametrize("module", ["to_hit", "eligibility", "plan", "exact", "kernel",
                                    "metrics", "location", "psr", "damage"])
def test_rule_modules_do_not_branch_on_attack_names(module: str) -> None:
    """The rule modules read the declarations: no ``attack == "kick"`` chains left."""
    src = (ROOT / "sim" / "classic" / f"{module}.py").read_text()
    names = "|".join(NAMES)
    pat = re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({names})["']""")
    assert not pat.findall(src), pat.findall(src)


def test_a_new_attack_is_one_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new attack declared in one place works through eligibility, plan, exact and the
    Monte Carlo kernel (here a hypothetical head-butt: Piloting +1, punch damage on the punch
    table, the attacker rolls a +1 PSR on a miss)."""
    butt = A.Attack("headbutt", "head-butt", base_mod=1, standing_levels=(0,),
                    standing_reason="same level only", damage=lambda s, h: -(-s.tons // 10),
                    grouping="one", table="punch", psr_miss_attacker=1)
    specs = {**A.ATTACK_SPECS, "headbutt": butt}
    monkeypatch.setattr(A, "ATTACK_SPECS", specs)
    monkeypatch.setattr(A, "ATTACKS", tuple(specs))
    plan = MODEL.scenario({"attack": "headbutt", "tons": 70, "piloting": 4})
    assert plan.impossible is None and plan.target_number == 5
    assert plan.strikes[0].damage == 7 and plan.strikes[0].table == tables.TABLE_PUNCH
    ex = MODEL.exact(plan)
    p_hit = 30 / 36
    assert ex["p_hit"][0] == pytest.approx(p_hit)
    assert ex["p_attacker_falls"][0] == pytest.approx((1 - p_hit) * 6 / 36)  # TN 4 + 1
    agg = MODEL.sample(plan, np.random.default_rng(3), 200_000)
    c, s, _ = agg.stats["p_attacker_falls"][0]
    assert abs(s / c - ex["p_attacker_falls"][0]) < 4 * np.sqrt(0.04 / c)
    assert "same level only" in MODEL.scenario({"attack": "headbutt", "tons": 70,
                                                "target_level": 1}).impossible


# ------------------------------------------------------------------------------------------
# the kernel refuses what its path cannot sample
# ------------------------------------------------------------------------------------------
def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_kernel_refuses_two_multi_group_strikes() -> None:
    """Two 5-point-group strikes would go to the one-strike multi path: refused, loudly."""
    plan = make_plan(build({"attack": "charge", "tons": 65, "hexes": 5}))
    st = plan.strikes[0]
    two = dataclasses.replace(plan, strikes=(st, dataclasses.replace(st, label="second")))
    assert kernel.choose_path(two) == "multi"
    with pytest.raises(kernel.PlanPathError, match="exactly one attacker strike"):
        kernel.sample(two, _rng(), 1000)


def test_kernel_refuses_unfit_groups_and_self_damage() -> None:
    plan = make_plan(build({"attack": "dfa", "tons": 55}))
    st = plan.strikes[0]
    odd = dataclasses.replace(plan, strikes=(dataclasses.replace(st, groups=(4, 4, 4, 5)),))
    with pytest.raises(kernel.PlanPathError, match="not the 5-point groups"):
        kernel.sample(odd, _rng(), 1000)
    miss = plan.outcomes[0]
    self_on_miss = dataclasses.replace(plan, outcomes=(
        dataclasses.replace(miss, self_damage=3, self_groups=(3,)), plan.outcomes[1]))
    with pytest.raises(kernel.PlanPathError, match="self-damage on a miss"):
        kernel.sample(self_on_miss, _rng(), 1000)
    # a counter-strike that deals damage cannot be drawn as hit/miss only
    push = make_plan(build({"attack": "push", "tons": 50, "mutual_push": True}))
    bad = dataclasses.replace(push, strikes=(push.strikes[0], dataclasses.replace(
        push.strikes[1], damage=5, groups=(5,))))
    with pytest.raises(kernel.PlanPathError, match="counter-strike"):
        kernel.sample(bad, _rng(), 1000)
    # every real plan fits its path
    for name in NAMES:
        p = make_plan(build({"attack": name, "tons": 60, "hexes": 3} if name == "charge"
                            else {"attack": name, "tons": 60}))
        assert kernel.path_misfit(p, kernel.choose_path(p)) is None


# ------------------------------------------------------------------------------------------
# D22: shut-down and unconscious targets fail every PSR
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cause", ["shutdown", "unconscious"])
def test_kick_hit_drops_a_helpless_target(cause: str) -> None:
    """Reference 4.1/D22: a kick that hits a shut-down target (or one whose pilot is
    unconscious) makes it fall with probability 1 (the old reading: 1/6 at Piloting 5)."""
    r = attack("kick", tons=70, target_immobile=cause, flat=True)
    assert r["p_hit"] == pytest.approx(1.0)  # TN 5 - 2 - 4 = -1
    assert r["p_target_falls"] == pytest.approx(1.0)
    old = attack("kick", tons=70, target_immobile=cause, immobile_psr="roll", flat=True)
    assert old["p_target_falls"] == pytest.approx(6 / 36)
    mc = attack("kick", tons=70, target_immobile=cause, trials=20_000, seed=1, flat=True)
    assert mc["p_target_falls"] == 1.0


def test_other_immobile_still_rolls() -> None:
    """An immobile target for another reason (and ``true``, the old flag) still rolls; the
    roll reading reproduces the old numbers for every cause."""
    other = attack("kick", tons=70, target_immobile="other", flat=True)
    legacy = attack("kick", tons=70, target_immobile=True, flat=True)
    assert other["p_target_falls"] == legacy["p_target_falls"] == pytest.approx(6 / 36)
    assert legacy["params"]["target_immobile"] is True
    assert legacy["params"]["target_immobile_cause"] == "other"
    # a charge hit: the target's two PSRs (+2 charged, +1 for 20+ damage) all fail
    p = {"tons": 100, "hexes": 4, "target_piloting": 2, "target_tons": 50}
    shut = attack("charge", **p, target_immobile="shutdown", flat=True)
    rolled = attack("charge", **p, target_immobile="shutdown", immobile_psr="roll", flat=True)
    assert shut["p_target_falls"] == pytest.approx(shut["p_hit"])
    assert rolled["p_target_falls"] < shut["p_target_falls"]
    assert rolled == {**attack("charge", **p, target_immobile=True, flat=True),
                      "params": rolled["params"], "rule_options": rolled["rule_options"]}


def test_immobile_parameter_validation() -> None:
    with pytest.raises(ConfigError, match="target_immobile"):
        build({"attack": "kick", "tons": 50, "target_immobile": "asleep"})
    with pytest.raises(ConfigError, match="target_immobile_cause"):
        build({"attack": "kick", "tons": 50, "target_immobile": False,
               "target_immobile_cause": "shutdown"})
    s = build({"attack": "kick", "tons": 50, "target_immobile_cause": "unconscious"})
    assert s.target_immobile and s.target_immobile_cause == "unconscious"
    assert build(s.params()) == s  # the reported parameters round-trip


def test_cli_target_immobile_cause(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sim.cli import main

    assert main(["attack", "kick", "--tons", "70", "--target-immobile", "shutdown",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_target_falls"] == pytest.approx(1.0)
    assert main(["attack", "kick", "--tons", "70", "--target-immobile", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_target_falls"] == pytest.approx(6 / 36)


# ------------------------------------------------------------------------------------------
# TSM from a unit file is not assumed active
# ------------------------------------------------------------------------------------------
def _tsm_hunchback(tmp_path: Path) -> Path:
    """A Hunchback HBK-4G from the built-in catalog with triple-strength myomer, written as a
    synthetic .mtf file (the tests' own writer; no MegaMek text)."""
    sys.path.insert(0, str(ROOT / "tests" / "units"))
    try:
        from units_helpers import mtf_text
    finally:
        sys.path.pop(0)
    from sim.units.catalog import get_classic

    mech = dataclasses.replace(get_classic("Hunchback HBK-4G"), myomer="Triple-Strength",
                               tsm=True)
    path = tmp_path / "Hunchback HBK-4G TSM.mtf"
    path.write_text(mtf_text(mech))
    return path


def test_tsm_unit_inactive_unless_told(tmp_path: Path) -> None:
    """Reference 2: TSM works at heat 9+ only. A TSM Hunchback (50 t) read from a file punches
    for 5, not 10, and says why; ``tsm=True`` (``--tsm``) makes it 10 and says so."""
    path = str(_tsm_hunchback(tmp_path))
    off = attack("punch", attacker=path, flat=True)
    assert off["damage_on_hit"] == 5 and off["params"]["tsm"] is False
    assert "TSM inactive: heat below 9; pass --tsm" in off["notes"]
    on = attack("punch", attacker=path, tsm=True, flat=True)
    assert on["damage_on_hit"] == 10 and "TSM active" in on["notes"]
    assert attack("kick", attacker=path, flat=True)["damage_on_hit"] == 10
    assert attack("kick", attacker=path, tsm=True, flat=True)["damage_on_hit"] == 20


def test_tsm_cli_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sim.cli import main

    path = str(_tsm_hunchback(tmp_path))
    for flags, dmg in (([], 5), (["--tsm"], 10), (["--no-tsm"], 5)):
        assert main(["attack", "punch", "--attacker", path, "--json", *flags]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["damage_on_hit"] == dmg, flags
        assert "TSM" in out["notes"]


# ------------------------------------------------------------------------------------------
# products never import their test oracles
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("module", ["sim.classic.model", "sim.alphastrike.model", "sim.models",
                                    "sim.classic.api"])
def test_products_do_not_import_oracles(module: str) -> None:
    code = (f"import {module}, sys; bad = [m for m in sys.modules if m.startswith("
            f"'sim.oracles')]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_benchmark_links_models_to_their_oracles() -> None:
    from sim.models import get_model
    from sim.oracles import scalar_baseline
    from sim.oracles.alphastrike import run_oracle
    from sim.oracles.classic import scalar_trials

    assert scalar_baseline("attack") is scalar_trials
    assert scalar_baseline("heat") is run_oracle
    assert scalar_baseline("no-such-model") is None
    for name in ("attack", "heat"):
        assert get_model(name).bench_cases and scalar_baseline(name) is not None
    case = get_model("attack").bench_cases[1]
    out = scalar_trials(case.params, np.random.default_rng(0), 300)
    assert 0.8 < out["p_hit"] <= 1.0
