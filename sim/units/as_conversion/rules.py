"""Alpha Strike conversion rule options: the disagreements V1-V10 of
``reference-as-conversion.md`` section 4, one :func:`sim.options.opt` field each, registered
for its own game ``as-conversion`` (read by :func:`sim.units.alpha_strike_card` and
``btsim units card/check --rule NAME=VALUE``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim import options
from sim.options import opt


@dataclass(frozen=True)
class ConversionRules:
    """Options of the 'Mech -> Alpha Strike card conversion (reference-as-conversion.md 4)."""

    asc_weapon_values: str = opt(
        "formula", allowed=("formula", "override"), ref="V1",
        doc="per-weapon AS damage: the 2022 formula or per-class constants",
        readings={"formula": "steps 2.5.1-4 from the Classic facts (MegaMek 2022)",
                  "override": "a constant from tables.WEAPON_OVERRIDES where one exists "
                  "(later MegaMek), else the formula"})
    asc_hidden_specials: str = opt(
        "hide", allowed=("hide", "show"), ref="V2", doc="SRCH and SOA of every BattleMech",
        readings={"hide": "assigned, not printed or compared (MUL cards omit them)",
                  "show": "printed and compared"})
    asc_snarc_count: str = opt(
        "from2", allowed=("from2", "always"), ref="V3", doc="the count on SNARC / INARC",
        readings={"from2": "printed only when >= 2 (MUL: SNARC)",
                  "always": "always printed (MegaMek: SNARC1)"})
    asc_ultra_rotary: str = opt(
        "megamek", allowed=("megamek",), ref="V4", doc="Ultra / Rotary AC damage multipliers",
        readings={"megamek": "Ultra x1.5, Rotary x6 (the ASC weapon table that may supersede "
                  "them is not in the reference; RAC units are unverified)"})
    asc_extreme: str = opt(
        "zero", allowed=("zero", "computed"), ref="V5", doc="extreme range on a ground card",
        readings={"zero": "E = 0 on the card, the raw E kept in the derivation",
                  "computed": "E printed as computed"})
    asc_rear_heat: str = opt(
        "megamek", allowed=("megamek", "own"), ref="V6", doc="heat adjustment of REAR",
        readings={"megamek": "scaled by the front heat factor (MegaMek)",
                  "own": "scaled by the rear weapons' own heat (MegaMek #3961)"})
    asc_special_threshold: str = opt(
        "tenth-up", allowed=("tenth-up", "raw"), ref="V7",
        doc="AC / LRM / SRM special granted when M reaches 1",
        readings={"tenth-up": "T(M) >= 1 (MegaMek: 0.93 qualifies)",
                  "raw": "the unrounded M >= 1"})
    asc_tmm_bands: str = opt(
        "errata", allowed=("errata",), ref="V8", doc="TMM bands from ground Move",
        readings={"errata": "ASC errata v1.4 bands (0-4, 5-8, 9-12, 13-18, 19-34, 35+); the "
                  "core-text bands are not in the reference"})
    asc_clan_case: str = opt(
        "megamek", allowed=("megamek", "listed"), ref="V9", doc="CASE of Clan units",
        readings={"megamek": "every Clan unit with explosive equipment has CASE",
                  "listed": "only a listed CASE slot gives CASE"})
    asc_oracle: str = opt(
        "mul", allowed=("mul",), ref="V10", doc="the card a converted card is checked against",
        readings={"mul": "the MUL card (alphastrike.csv) and PV (mul_mechs.csv); a mismatch "
                  "is reported, never tuned away"})

    def as_dict(self) -> dict[str, Any]:
        return options.effective(self)


options.register_group("as-conversion", ConversionRules, models=())

DEFAULT_CONVERSION_RULES = ConversionRules()


def conversion_rules(overrides: dict[str, Any] | None = None) -> ConversionRules:
    rules: ConversionRules = options.build(ConversionRules, "default", overrides or {})
    return rules
