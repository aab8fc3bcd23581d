"""Rule options of the Alpha Strike duel: one field per discrepancy of
``reference-as-combat.md`` section 25 (A1...) that a duel touches, plus the duel's own choices.

Every field is declared with :func:`sim.options.opt` and the group is registered for the
``alphastrike`` game and the ``duel`` model, so ``btsim rules --game alphastrike`` lists it,
``--rule NAME=VALUE`` routes a name to it, and every run records the effective values.

Options the heat model already owns stay in :class:`sim.alphastrike.rules.ASRules` (A1 is
``minimal_damage``, A5 is ``engine_heat_same_turn``, D17/D20...); the duel reads them too
(registered here for the ``duel`` model as well). A-options whose subject is not simulated in
a duel (A14 special attacks, A15 artillery, A16 BV, A20 PNT) have no field: the unit's
special is listed in the notes instead. A11 (order of the damage modifiers) and A17 (Narc
before the standard attack) are fixed at the reference's default and documented where they
are applied (:mod:`sim.alphastrike.duel.turn`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sim import options
from sim.alphastrike.rules import FIELDS as AS_FIELDS
from sim.alphastrike.rules import ASRules
from sim.options import opt

#: Force targeting policies (20.9 [REC]).
TARGETING = ("focus", "nearest-to-death", "most-dangerous", "spread")


@dataclass(frozen=True)
class DuelRules:
    """Duel rule options (reference-as-combat 20-25)."""

    weapon_hit_scale: str = opt(
        "mekbay", allowed=("mekbay", "minus1"), ref="A2",
        doc="damage value after a Weapon Hit on a low value",
        readings={"mekbay": "one step down the scale N -> ... -> 1 -> 0* -> 0 (MekBay, PR #43)",
                  "minus1": "-1, minimum 0: a 1 becomes 0, 0* becomes 0 (jdgwf, Joel47)"})
    natural_12: str = opt(
        "off", allowed=("off",), ref="A3", doc="effect of a natural 12 on the attack roll",
        readings={"off": "none (no rules text for ground units); the prior-art readings "
                  "(+1 point and a crit roll; a crit roll) are not simulated"})
    pv_step_reading: str = opt(
        "megamek", allowed=("megamek", "jdgwf"), ref="A4",
        doc="PV step per worse skill above base PV 104, and the floor (23.1)",
        readings={"megamek": "1 + floor((PV - 5) / 10) per step, result >= 1 (MegaMek, "
                  "MekBay, MUL)",
                  "jdgwf": "10 + floor((PV - 104) / 10) above 104, no floor (jdgwf)"})
    stealth_long: int = opt(
        2, allowed=(2, 3), ref="A6", doc="STL to-hit modifier at Long range",
        readings={2: "+2 ('+1 at Medium, +2 at Long'; Joel47)", 3: "+3 (cumulative reading)"})
    cr_reading: str = opt(
        "literal", allowed=("literal",), ref="A7", doc="CR at the low end of the crit table",
        readings={"literal": "-2 on the roll: 2-3 no crit, 4 an Ammo Hit, no Unit Destroyed "
                  "(no source gives another reading)"})
    ams_floor: int = opt(
        1, allowed=(0, 1), ref="A9", doc="least damage an AMS-reduced attack keeps",
        readings={1: "1 (ASCE)", 0: "0 (Joel47)"})
    snarc_default: int = opt(
        1, allowed=(1, 4), ref="A12", doc="launchers of a SNARC special written without a number",
        readings={1: "SNARC1 (MegaMek expects a number)"})
    jump_tmm: str = opt(
        "compute", allowed=("compute", "card"), ref="A13",
        doc="TMM of a unit that jumped, with JMPW#/JMPS#",
        readings={"compute": "TMM from the jump Move, +1 for jumping, -W / +S (ASCE text)",
                  "card": "the card TMM + 1 (MekBay: the card already includes the modifier)"})
    immobile_own_mod: int = opt(
        -1, allowed=(-1, 0), ref="A18",
        doc="own attack modifier of an immobile unit (Move 0 from MP hits or heat)",
        readings={-1: "-1, as a unit that stood still (D20)", 0: "none"})
    heat_immobile: str = opt(
        "immobile", allowed=("immobile", "still"), ref="A19",
        doc="a unit whose every Move is 0 only because of heat",
        readings={"immobile": "immobile: -4 to attacks against it (MekBay)",
                  "still": "stood still: no modifier against it"})
    noeffect_point: bool = opt(
        True, allowed=bool, ref="20.3",
        doc="a Weapon Hit with every damage value 0, or an MP Hit with every Move 0, deals 1 "
        "point",
        readings={True: "1 point (20.3 item 5)",
                  False: "the hit does nothing (the 'without that rule' line of E13)"})
    noeffect_point_crit: bool = opt(
        True, allowed=bool, ref="A22",
        doc="the 20.3 item 5 point rolls its own crit when it reaches Structure",
        readings={True: "it rolls, like the CASE point", False: "it never rolls"})
    bhj_timing: str = opt(
        "after", allowed=("after",), ref="A8", doc="when BHJ2/BHJ3 recover armor",
        readings={"after": "End Phase, if Armor >= 1 after this turn's damage (Joel47); the "
                  "'before the pending damage' reading is not simulated"})
    rfa_rounding: str = opt(
        "down", allowed=("down", "up"), ref="A10", doc="RFA halving of an ENE attacker's points",
        readings={"down": "round down, minimum 1 (ASCE)", "up": "halves round up (Joel47)"})
    bra_floor: int = opt(
        0, allowed=(0, 1), ref="A21", doc="least damage a BRA-halved attack keeps",
        readings={0: "none stated: a 1-point attack drops to 0", 1: "1"})
    rca_if_only: str = opt(
        "zero", allowed=("zero", "half_if"), ref="A23",
        doc="RCA against an attacker with IF but no LRM/SRM (with both: half their sum)",
        readings={"zero": "no reduction (literal: no LRM/SRM value to halve)",
                  "half_if": "half the IF value, rounded up"})
    crits: bool = opt(
        True, allowed=bool, ref="20.4", doc="roll critical hits at all",
        readings={True: "yes (6.6, 20.4)",
                  False: "no: the closed-form 'without crits' results of E2 and E9"})
    targeting: str = opt(
        "focus", allowed=TARGETING, ref="20.9",
        doc="default target policy of a force (targeting_a / targeting_b override it per side)",
        readings={"focus": "highest expected damage per turn / (Armor + Structure left)",
                  "nearest-to-death": "least Armor + Structure left",
                  "most-dangerous": "highest expected damage at the band",
                  "spread": "unit i fires at the i-th surviving enemy, wrapping around"})
    hold_band: str = opt(
        "net", allowed=("net", "own"), ref="20.7",
        doc="band a faster unit keeps under --closing hold-band",
        readings={"net": "largest expected damage dealt minus expected damage taken (20.7 "
                  "text)",
                  "own": "largest own card damage (example E15: the Catapult stops at "
                  "Medium)"})

    initiative: str = opt(
        "roll", allowed=("roll", "a", "b"), ref="20.1",
        doc="who wins the initiative each turn of a duel played with tactics",
        readings={"roll": "2D6 a side, ties re-rolled (20.1 [REC]; each side wins with "
                  "probability 1/2): the loser moves first",
                  "a": "side A always wins (moves last, reacting to B)",
                  "b": "side B always wins"})

    def replace(self, **overrides: Any) -> DuelRules:
        """A copy with some fields changed, each validated (:func:`sim.options.replace`)."""
        rules: DuelRules = options.replace(self, overrides)
        return rules


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(DuelRules))

options.register_group("alphastrike", DuelRules, models=("duel",))
# The duel reads the heat model's options too (A1 minimal_damage, A5, D17, D20 ...).
options.register_group("alphastrike", ASRules, models=("heat", "duel"))


def split_overrides(overrides: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Route rule options by name: ``(DuelRules fields, ASRules fields)``, each value coerced
    by its declaration; an unknown name raises :class:`~sim.errors.ConfigError` naming a close
    match among the duel's options."""
    checked = options.check_overrides("duel", overrides)
    duel = {k: v for k, v in checked.items() if k in FIELDS}
    heat = {k: v for k, v in checked.items() if k in AS_FIELDS}
    return duel, heat


def build_rules(preset: str, overrides: Mapping[str, Any]) -> tuple[DuelRules, ASRules]:
    """Both option groups of a duel from a preset name and overrides by option name."""
    d_over, a_over = split_overrides(overrides)
    dr: DuelRules = options.build(DuelRules, preset, d_over)
    asr: ASRules = options.build(ASRules, preset, a_over)
    return dr, asr
