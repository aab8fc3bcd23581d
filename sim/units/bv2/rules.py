"""Battle Value 2 rule options: the disagreements B1-B14 of ``reference-bv.md`` section 25,
one :func:`sim.options.opt` field each, registered for their own game ``battle-value`` (no
simulation model reads them; ``btsim units bv/check --rule NAME=VALUE`` and
:func:`sim.units.battle_value` do)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim import options
from sim.options import opt


@dataclass(frozen=True)
class BVRules:
    """Options of the Battle Value 2 calculator (reference-bv.md 25; defaults as written)."""

    bv_masc_run: str = opt(
        "counted", allowed=("counted", "ignored"), ref="B1",
        doc="MASC / supercharger in the BV running MP",
        readings={"counted": "walk x 2, both ceil(walk x 2.5) (MegaMek BV_CALCULATION; MUL)",
                  "ignored": "ceil(walk x 1.5) as without (older MegaMek noMASC)"})
    bv_tsm_walk: str = opt(
        "plus1", allowed=("plus1", "plus2"), ref="B2", doc="TSM in the BV walking MP",
        readings={"plus1": "walk + 1 (MegaMek: +2 with TSM active, -1 for its heat)",
                  "plus2": "walk + 2"})
    bv_tc_mg_flamer: bool = opt(
        False, allowed=bool, ref="B3", doc="targeting computer x1.25 on MGs and flamers",
        readings={False: "not boosted (MegaMek: no direct-fire flag; Loki Prime)",
                  True: "boosted as ballistic / energy weapons"})
    bv_clan_ams_ammo: str = opt(
        "22", allowed=("22", "21"), ref="B4", doc="BV of one ton of Clan AMS ammo",
        readings={"22": "22 (MegaMek; Loki Prime matches the MUL)",
                  "21": "21 (an older MegaMek createCLAMSAmmo)"})
    bv_clan_case: str = opt(
        "implicit", allowed=("implicit", "listed"), ref="B5",
        doc="CASE of Clan 'Mechs for the explosive penalty",
        readings={"implicit": "every Clan location with explosive equipment has CASE "
                  "(MegaMek addClanCase)", "listed": "only where the file lists CASE"})
    bv_heat_cutoff: str = opt(
        "crossing-full", allowed=("crossing-full", "within"), ref="B6",
        doc="which weapon still counts full at the heat-efficiency line",
        readings={"crossing-full": "the weapon that reaches or crosses it counts full, later "
                  "ones half (MegaMek)", "within": "full only if the running heat including "
                  "it stays <= the efficiency"})
    bv_artemis_ammo: str = opt(
        "standard", allowed=("standard", "boosted"), ref="B7",
        doc="BV of Artemis-capable ammunition",
        readings={"standard": "as standard ammo (Centurion CN9-D matches the MUL)",
                  "boosted": "x 1.2 like the linked launcher"})
    bv_front_rear_values: str = opt(
        "modified", allowed=("modified", "table"), ref="B8",
        doc="values compared when deciding front or rear (22.3)",
        readings={"modified": "modified BV (TC, Artemis) as MegaMek",
                  "table": "table BV"})
    bv_hardened_run: str = opt(
        "minus1", allowed=("minus1", "ignore"), ref="B9",
        doc="hardened armor and the BV running MP",
        readings={"minus1": "running MP - 1 (Great Turtle GTR-1 matches the MUL)",
                  "ignore": "no effect on BV MP"})
    bv_xl_case: str = opt(
        "penalised", allowed=("penalised", "protects"), ref="B10",
        doc="IS XL / XXL side torso with CASE",
        readings={"penalised": "still penalised (3+ engine slots; only CASE II helps; "
                  "MegaMek)", "protects": "CASE protects it"})
    bv_ammo_cap: str = opt(
        "family", allowed=("family", "front"), ref="B11",
        doc="weapons whose BV caps an ammo group (22.6)",
        readings={"family": "every weapon of the ammo's family and rack, all arcs, table BV "
                  "(MegaMek)", "front": "only the weapons in the forward arc (per-arc reading)"})
    bv_explosive: str = opt(
        "megamek", allowed=("megamek",), ref="B12", doc="which weapons are explosive",
        readings={"megamek": "Gauss 1 per slot (and the out-of-scope list of 21.5), no "
                  "autocannons; the TechManual reading (some ACs) is not implemented: "
                  "the reference does not list which"})
    bv_rounding: str = opt(
        "none", allowed=("none", "ratings-2dp"), ref="B13",
        doc="intermediate rounding",
        readings={"none": "none until the end; speed factor to 2 decimals (MegaMek)",
                  "ratings-2dp": "also DBR and OBR rounded half up to 2 decimals (TM "
                  "worksheet)"})
    bv_oracle: str = opt(
        "mul", allowed=("mul",), ref="B14", doc="the value computed BV is checked against",
        readings={"mul": "the Master Unit List (mul_mechs.csv, bv.csv); MegaMek's runtime BV "
                  "is not shipped, so the MegaMek reading cannot be selected"})

    def as_dict(self) -> dict[str, Any]:
        return options.effective(self)


options.register_group("battle-value", BVRules, models=())

DEFAULT_BV_RULES = BVRules()


def bv_rules(overrides: dict[str, Any] | None = None) -> BVRules:
    """The default BV rules with options overridden by name (validated)."""
    rules: BVRules = options.build(BVRules, "default", overrides or {})
    return rules
