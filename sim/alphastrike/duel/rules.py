"""Rule options of the Alpha Strike duel: one field per discrepancy of
``reference-as-combat.md`` section 25 (A1...) that a duel touches, plus the duel's own choices.

Options the heat model already owns stay in :class:`sim.alphastrike.rules.ASRules` (A1 is
``minimal_damage``, A5 is ``engine_heat_same_turn``, D17/D20...); ``--rule NAME=VALUE`` routes a
name to whichever group declares it (:func:`split_overrides`). A-options whose subject is not
simulated in a duel (A8 BHJ with its other reading, A14 special attacks, A15 artillery, A16 BV,
A20 PNT) have no field: the unit's special is listed in the notes instead. A11 (order of
the damage modifiers) and A17 (Narc before the standard attack) are fixed at the reference's
default and documented where they are applied (:mod:`sim.alphastrike.duel.turn`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sim.alphastrike.rules import FIELDS as AS_FIELDS
from sim.errors import ConfigError, check_bool, check_choice, check_int


@dataclass(frozen=True)
class DuelRules:
    """Duel rule options (reference-as-combat 20-25)."""

    #: A2 -- Weapon Hit on a low damage value. ``mekbay`` (default): one step down the scale
    #: N -> ... -> 1 -> 0* -> 0; ``minus1`` (jdgwf, Joel47): -1, minimum 0 (1 -> 0, 0* -> 0).
    weapon_hit_scale: str = "mekbay"
    #: A3 -- natural 12 on the attack roll: ``off`` (default; no rules text for ground units).
    #: The prior-art readings (+1 point and a crit roll; a crit roll) are not simulated.
    natural_12: str = "off"
    #: A4 -- PV step for worse skill above base PV 104 and the floor: ``megamek`` (default,
    #: 1 + floor((PV-5)/10), result >= 1) or ``jdgwf`` (10 + floor((PV-104)/10), no floor).
    pv_step_reading: str = "megamek"
    #: A6 -- STL at Long: +2 (default, "+1 at Medium, +2 at Long") or +3 (cumulative reading).
    stealth_long: int = 2
    #: A7 -- CR at the low end of the crit table: ``literal`` (default, -2 on the roll: roll 4
    #: becomes an Ammo Hit, no Unit Destroyed). No source gives another reading.
    cr_reading: str = "literal"
    #: A9 -- AMS floor: 1 (default, ASCE) or 0 (Joel47).
    ams_floor: int = 1
    #: A12 -- ``SNARC`` without a number reads as this many launchers (default 1).
    snarc_default: int = 1
    #: A13 -- jump TMM with JMPW#/JMPS#: ``compute`` (default: TMM from the jump Move, +1 for
    #: jumping, -W / +S) or ``card`` (the card TMM +1, MekBay: the card already includes it).
    jump_tmm: str = "compute"
    #: A18 -- own attack modifier of an immobile unit (Move 0 from MP hits or heat): -1
    #: (default, stood still, D20) or 0.
    immobile_own_mod: int = -1
    #: A19 -- a unit whose ground Move is 0 only because of heat (and no jump): ``immobile``
    #: (default, MekBay: -4 against it) or ``still`` (stood still: 0 against it).
    heat_immobile: str = "immobile"
    #: 20.3 item 5 -- a Weapon Hit with every damage value already 0, or an MP Hit with every
    #: Move already 0, deals 1 point instead (default True; False: the hit does nothing, the
    #: "without that rule" line of example E13).
    noeffect_point: bool = True
    #: A22 -- that point brings its own crit roll when it reaches Structure: True (default,
    #: like the CASE point) or False (the point never rolls).
    noeffect_point_crit: bool = True
    #: A8 -- BHJ2/BHJ3 armor recovery timing: ``after`` (default, Joel47's order: recover in
    #: the End Phase if Armor >= 1 after this turn's damage). The "before the pending damage"
    #: reading is not simulated.
    bhj_timing: str = "after"
    #: A10 -- RFA halving of an ENE attacker's points: ``down`` (default, ASCE: round down,
    #: minimum 1) or ``up`` (Joel47: halves round up, minimum 1).
    rfa_rounding: str = "down"
    #: A21 -- BRA floor: 0 (default, none stated: a 1-point attack drops to 0) or 1.
    bra_floor: int = 0
    #: A23 -- RCA against an attacker with IF but no LRM/SRM special: ``zero`` (default,
    #: literal: no value to halve) or ``half_if`` (half the IF value, rounded up). With both
    #: LRM and SRM the reduction is half their sum at the band, rounded up (default reading).
    rca_if_only: str = "zero"
    #: 20.4 / 6.6 -- roll critical hits at all (default True; False gives the closed-form
    #: "without crits" results of E2 and E9).
    crits: bool = True
    #: 20.9 [REC] -- default targeting policy of a force (overridden per side by
    #: ``targeting_a``/``targeting_b``): ``focus`` (highest expected damage per turn divided
    #: by Armor + Structure left), ``nearest-to-death`` (least Armor + Structure left),
    #: ``most-dangerous`` (highest damage at the band), ``spread`` (unit i fires at the i-th
    #: surviving enemy, wrapping around).
    targeting: str = "focus"

    def replace(self, **overrides: Any) -> DuelRules:
        """A copy with some fields changed, each validated."""
        for k, v in overrides.items():
            if k not in FIELDS:
                raise ConfigError("rule option", k, "one of " + ", ".join(
                    sorted(FIELDS + AS_FIELDS)))
            overrides[k] = _validate(k, v)
        return dataclasses.replace(self, **overrides)


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(DuelRules))

TARGETING = ("focus", "nearest-to-death", "most-dangerous", "spread")

_CHOICES: dict[str, tuple[str, ...]] = {
    "weapon_hit_scale": ("mekbay", "minus1"),
    "natural_12": ("off",),
    "pv_step_reading": ("megamek", "jdgwf"),
    "cr_reading": ("literal",),
    "jump_tmm": ("compute", "card"),
    "heat_immobile": ("immobile", "still"),
    "targeting": TARGETING,
    "bhj_timing": ("after",),
    "rfa_rounding": ("down", "up"),
    "rca_if_only": ("zero", "half_if"),
}
_INTS: dict[str, tuple[int, int]] = {
    "stealth_long": (2, 3),
    "ams_floor": (0, 1),
    "snarc_default": (1, 4),
    "immobile_own_mod": (-1, 0),
    "bra_floor": (0, 1),
}


def _validate(name: str, value: Any) -> Any:
    if name in _CHOICES:
        return check_choice(name, value, _CHOICES[name])
    if name in _INTS:
        lo, hi = _INTS[name]
        return check_int(name, value, lo, hi)
    return check_bool(name, value)


def parse_value(text: str) -> Any:
    """A ``--rule`` value from text: true/false, an integer, else the string."""
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    try:
        return int(t)
    except ValueError:
        return t


def split_overrides(overrides: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Route rule options by name: ``(DuelRules fields, ASRules fields)``; unknown names
    raise :class:`ConfigError` listing both groups."""
    duel, heat = {}, {}
    for k, v in overrides.items():
        if k in FIELDS:
            duel[k] = v
        elif k in AS_FIELDS:
            heat[k] = v
        else:
            raise ConfigError("rule option", k, "one of " + ", ".join(sorted(FIELDS + AS_FIELDS)))
    return duel, heat
