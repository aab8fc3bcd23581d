"""Units in attacks (issue 5 mapping): ClassicMech facts -> scenario parameters."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.classic import scenario as S
from sim.classic.model import MODEL
from sim.units.types import ClassicMech

ARM = frozenset({"shoulder", "upper_arm", "lower_arm", "hand"})
LEG = frozenset({"hip", "upper_leg", "lower_leg", "foot"})


def mech(name: str, tons: int, *, arms=ARM, hatchet: str | None = None, tsm=False, jump=0,
         walk=4) -> ClassicMech:
    return ClassicMech(name=name, chassis=name, model="X", tons=tons, walk_mp=walk,
                       jump_mp=jump, tsm=tsm,
                       actuators={"LA": arms, "RA": arms, "LL": LEG, "RL": LEG},
                       physical_weapons=((("hatchet", hatchet),) if hatchet else ()))


@pytest.fixture
def catalog(monkeypatch):
    units = {
        "Hatch": mech("Hatch", 45, hatchet="RA", jump=4),
        "Cat": mech("Cat", 65, arms=frozenset({"shoulder", "upper_arm"}), jump=4),
        "NoArm": mech("NoArm", 30, arms=frozenset()),
        "Tsm": mech("Tsm", 70, tsm=True),
        "Walker": mech("Walker", 50, walk=3),
    }
    monkeypatch.setattr(S, "_load_unit", lambda field, name: units[name])
    return units


def plan(**kw):
    return MODEL.scenario(kw)


def test_unit_tonnage_and_missing_actuators(catalog) -> None:
    """Tonnage and missing lower arm/hand come from the unit (D4 +3 by default)."""
    p = plan(attack="punch", attacker="Cat")
    assert p.scenario.tons == 65 and p.target_number == 5 + 3
    assert ("right", "hand") in p.scenario.missing
    assert p.strikes[0].damage == 3  # 7 halved once for the missing lower arm


def test_explicit_options_override(catalog) -> None:
    p = plan(attack="punch", attacker="Cat", tons=80, missing=[])
    assert p.scenario.tons == 80 and p.target_number == 5


def test_hatchet_from_unit(catalog) -> None:
    """The hatchet's arm comes from the unit; no hatchet (or the wrong arm) is impossible."""
    p = plan(attack="hatchet", attacker="Hatch")
    assert p.impossible is None and p.scenario.arm == "right" and p.strikes[0].damage == 9
    assert "no hatchet" in plan(attack="hatchet", attacker="Cat").impossible
    assert "left arm" in plan(attack="hatchet", attacker="Hatch", arm="left").impossible


def test_punch_without_shoulder_impossible(catalog) -> None:
    """Issue 5: a punch with an arm that has no shoulder comes back impossible."""
    assert "no shoulder" in plan(attack="punch", attacker="NoArm").impossible


def test_tsm_and_jump(catalog) -> None:
    """TSM works at heat 9+ only: a unit's TSM is inactive unless ``tsm`` says so (issue 9);
    a DFA needs jump MP; a charge needs the MP for hexes + 1."""
    assert plan(attack="kick", attacker="Tsm").strikes[0].damage == 14
    assert "TSM inactive" in plan(attack="kick", attacker="Tsm").notes[0]
    assert plan(attack="kick", attacker="Tsm", tsm=True).strikes[0].damage == 28
    assert plan(attack="kick", attacker="Tsm", tsm=False).strikes[0].damage == 14
    assert "jump MP" in plan(attack="dfa", attacker="Tsm").impossible
    assert plan(attack="dfa", attacker="Hatch").impossible is None
    assert "needs 5 MP" in plan(attack="charge", attacker="Walker", hexes=4,
                                moved="walk").impossible
    assert plan(attack="charge", attacker="Walker", hexes=3, moved="run").impossible is None


def test_target_unit_tonnage(catalog) -> None:
    p = plan(attack="charge", tons=50, hexes=2, target="Tsm")
    assert p.scenario.target_tons == 70 and p.outcomes[1].self_damage == 7


DATA = Path(__file__).resolve().parents[2] / "../shared/data/units"


def test_catalog_integration() -> None:
    """With the real catalog: Hatchetman hatchet, Catapult no lower arms, Locust no jump."""
    p = plan(attack="hatchet", attacker="Hatchetman HCT-3F", target="Grasshopper GHR-5H")
    assert p.impossible is None and p.strikes[0].damage == 9 and p.scenario.target_tons == 70
    p = plan(attack="punch", attacker="Catapult CPLT-C1")
    assert p.target_number == 8
    assert "jump" in plan(attack="dfa", attacker="Locust LCT-1V").impossible
    from sim.errors import UserError
    with pytest.raises(UserError):
        plan(attack="punch", attacker="No Such Mech XX-1")
