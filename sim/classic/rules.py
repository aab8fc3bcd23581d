"""Rule options for Classic physical attacks: one field per open discrepancy (reference 8).

:class:`ClassicRules` is a frozen dataclass; presets ``default`` (the reference's defaults),
``seed`` (the seed page's readings) and ``megamek`` (MegaMek's readings). Individual fields can
be overridden by name (``rules_from(name, **overrides)``); results record the preset name and
the effective options (``ClassicRules.as_json()``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from sim.errors import ConfigError

#: Allowed values for the string-valued options.
CHOICES: dict[str, tuple[str, ...]] = {
    "dfa_rounding": ("ceil-product", "ceil-then-times-3", "floor-then-times-3"),
    "per_5_tons_rounding": ("floor", "ceil"),
    "fall_pilot_damage": ("tw", "megamek"),
    "tmm_table": ("tw", "old"),
    "psr_modifiers": ("cumulative", "own"),
    "club_table": ("standard", "punch", "kick"),
    "immobile_psr": ("auto-fail", "roll"),
}
#: Allowed ranges for the int-valued options.
INT_RANGES: dict[str, tuple[int, int]] = {
    "punch_min_damage": (0, 1),
    "hand_and_lower_arm_missing_mod": (2, 3),
    "partial_cover_push_mod": (1, 3),
    "club_aimed_mod": (0, 8),
}


@dataclass(frozen=True)
class ClassicRules:
    """One Classic rule set. Every field is a named reading of a reference-8 discrepancy."""

    #: D4: total to-hit modifier of a punch with **both** hand and lower arm actuators missing
    #: by design. 3 = TW errata 8.0 / BMM corrected 2nd printing / MegaMek >= PR #7866
    #: (default); 2 = seed and older text ("+2 in place of the +1").
    hand_and_lower_arm_missing_mod: int = 3
    #: D5: minimum punch damage after halving. 1 = rules/seed (default); 0 = MegaMek.
    punch_min_damage: int = 1
    #: D6: "1 point per 5 tons" rounding for kick/club/hatchet: floor (MegaMek, default) or
    #: ceil (some web specs). Identical for tonnages that are multiples of 5.
    per_5_tons_rounding: str = "floor"
    #: D7: to-hit modifier of a push against a target with partial cover (depth-1 water);
    #: other physical attacks take +1. 3 = MegaMek (default; rules not verified); 1 = same as
    #: the other attacks.
    partial_cover_push_mod: int = 3
    #: D8: when the charge displacement is impossible (prohibited terrain), do the charge PSRs
    #: still happen? True = seed (default); False = MegaMek (no displacement, no charge PSRs).
    charge_psr_without_displacement: bool = True
    #: D9: do target terrain modifiers apply to a DFA? False = MegaMek / old reference card
    #: (default); True = some summaries (Battletech-Solo-Rules).
    dfa_terrain: bool = False
    #: D10: pilot-damage PSR after a fall. "tw" = Piloting + pre-existing damage + 1 per level
    #: fallen (default); "megamek" = the failed PSR's TN with all its modifiers, + (levels - 1)
    #: for 2+ levels; a missed DFA uses Piloting + pre-existing + 1.
    fall_pilot_damage: str = "tw"
    #: D11: table a club is aimed at: "standard" (default, no called shot); "punch"/"kick" =
    #: MegaMek's advanced option, which costs ``club_aimed_mod`` (+4).
    club_table: str = "standard"
    #: D11: to-hit cost of aiming a club at the punch or kick table.
    club_aimed_mod: int = 4
    #: D16: target movement modifier above 9 hexes: "tw" = 10-17 +4, 18-24 +5, 25+ +6
    #: (TW/BMM/MegaMek, default); "old" = 10+ +4.
    tmm_table: str = "tw"
    #: D18: DFA damage rounding. "ceil-product" = ceil(3W/10) (MegaMek, default; 55 t -> 17);
    #: "ceil-then-times-3" = ceil(W/10) x 3 (18); "floor-then-times-3" = floor(W/10) x 3 (15).
    dfa_rounding: str = "ceil-product"
    #: D19: several PSRs in one phase. "cumulative" = every roll adds all the phase's
    #: situational modifiers (TW p. 59, default); "own" = each roll only its own trigger's.
    psr_modifiers: str = "cumulative"
    #: Reference 3.2: a 2 on the standard table is a through-armor critical chance (on).
    tac: bool = True
    #: Reference 4.3/4.5: a fall (or a failed fall PSR) damages the pilot; pilot damage metrics.
    #: (Kept as an option so the metric can be switched off to compare with tools without it.)
    pilot_damage: bool = True
    #: D21: design quirks of unit data. False = not simulated, only reported in ``notes``
    #: (default, as MegaMek's optional rule is off by default); True = a punch by a unit with
    #: the ``no_arms`` quirk is impossible (MegaMek with quirks on). Other quirks: not covered.
    quirks: bool = False
    #: D22: PSRs of a shut-down 'Mech or one with an unconscious pilot (reference 4.1).
    #: "auto-fail" = it fails every PSR automatically (TW, MegaMek; default); "roll" = it rolls
    #: normally (this reference before 2026-11-30, btsim 0.1.0). Other immobile targets roll.
    immobile_psr: str = "auto-fail"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def as_json(self) -> str:
        """The effective options as a compact, key-sorted JSON string (recorded in results)."""
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))


#: Rule-set presets. ``seed`` differs from ``default`` where the seed page reads differently;
#: ``megamek`` where MegaMek's implementation does.
PRESETS: dict[str, ClassicRules] = {
    "default": ClassicRules(),
    "seed": ClassicRules(hand_and_lower_arm_missing_mod=2, punch_min_damage=1,
                         charge_psr_without_displacement=True),
    "megamek": ClassicRules(punch_min_damage=0, dfa_rounding="ceil-product",
                            charge_psr_without_displacement=False, dfa_terrain=False,
                            fall_pilot_damage="megamek", partial_cover_push_mod=3),
}
RULE_SETS: tuple[str, ...] = tuple(PRESETS)
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ClassicRules))


def check_option(name: str, value: Any) -> Any:
    """Validate one rule option value (ConfigError naming the option and what is allowed)."""
    default = getattr(PRESETS["default"], name)
    if isinstance(default, bool):
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        if not isinstance(value, bool | int) or value not in (0, 1):
            raise ConfigError(name, value, "true or false")
        return bool(value)
    if isinstance(default, int):
        lo, hi = INT_RANGES[name]
        from sim.errors import check_int

        return check_int(name, value, lo, hi)
    allowed = CHOICES[name]
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(name, value, "one of " + ", ".join(repr(c) for c in allowed))
    return value


def rules_from(name: str = "default", **overrides: Any) -> ClassicRules:
    """Preset ``name`` with individual options overridden (validated)."""
    if name not in PRESETS:
        raise ConfigError("rules", name, "one of " + ", ".join(repr(r) for r in RULE_SETS))
    clean = {}
    for key, value in overrides.items():
        if key not in OPTION_NAMES:
            raise ConfigError("rule option", key, "one of " + ", ".join(OPTION_NAMES))
        clean[key] = check_option(key, value)
    return replace(PRESETS[name], **clean)
