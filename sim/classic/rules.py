"""Rule options for Classic physical attacks: one field per open discrepancy (reference 8).

:class:`ClassicRules` is a frozen dataclass; every field is declared with
:func:`sim.options.opt` (its allowed values, reference number, doc and readings) and the group
is registered for game ``classic``. Presets ``default`` (the reference's defaults), ``seed``
(the seed page's readings) and ``megamek`` (MegaMek's readings). Individual fields can be
overridden by name (``rules_from(name, **overrides)``, ``--rule NAME=VALUE``); results record
the preset name and the effective options (``ClassicRules.as_json()``). ``btsim rules --game
classic`` lists them all.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, fields
from typing import Any

from sim import options
from sim.options import opt


@dataclass(frozen=True)
class ClassicRules:
    """One Classic rule set. Every field is a named reading of a reference-8 discrepancy."""

    hand_and_lower_arm_missing_mod: int = opt(
        3, allowed=(2, 3), ref="D4",
        doc="to-hit modifier of a punch with both hand and lower arm actuators missing by design",
        readings={3: "+3: TW errata 8.0, BMM corrected 2nd printing, MegaMek >= PR #7866",
                  2: "+2: the seed page and older text (+2 in place of the +1)"})
    punch_min_damage: int = opt(
        1, allowed=(0, 1), ref="D5", doc="minimum punch damage after halving",
        readings={1: "at least 1 (rules, seed)", 0: "no minimum, can be 0 (MegaMek)"})
    per_5_tons_rounding: str = opt(
        "floor", allowed=("floor", "ceil"), ref="D6",
        doc="rounding of '1 point per 5 tons' for kick, club and hatchet damage",
        readings={"floor": "round down (MegaMek)", "ceil": "round up (some web specs); same "
                  "for tonnages that are multiples of 5"})
    partial_cover_push_mod: int = opt(
        3, allowed=(1, 3), ref="D7",
        doc="to-hit modifier of a push against a target with partial cover (depth-1 water)",
        readings={3: "+3 (MegaMek; rules not verified)", 1: "+1, like the other physical "
                  "attacks"})
    charge_psr_without_displacement: bool = opt(
        True, allowed=bool, ref="D8",
        doc="charge PSRs still happen when the displacement is impossible (prohibited terrain)",
        readings={True: "yes (seed)", False: "no displacement, no charge PSRs (MegaMek)"})
    dfa_terrain: bool = opt(
        False, allowed=bool, ref="D9", doc="target terrain modifiers apply to a DFA",
        readings={False: "no (MegaMek, the old reference card)",
                  True: "yes (some summaries: Battletech-Solo-Rules)"})
    fall_pilot_damage: str = opt(
        "tw", allowed=("tw", "megamek"), ref="D10", doc="target number of the pilot-damage "
        "PSR after a fall",
        readings={"tw": "Piloting + pre-existing damage + 1 per level fallen (TW)",
                  "megamek": "the failed PSR's TN with all its modifiers, + (levels - 1) for 2+ "
                  "levels; a missed DFA: Piloting + pre-existing + 1 (MegaMek)"})
    club_table: str = opt(
        "standard", allowed=("standard", "punch", "kick"), ref="D11",
        doc="hit location table a club is aimed at",
        readings={"standard": "no called shot: the standard table",
                  "punch": "the punch table, at club_aimed_mod (MegaMek advanced option)",
                  "kick": "the kick table, at club_aimed_mod (MegaMek advanced option)"})
    club_aimed_mod: int = opt(
        4, allowed=(0, 8), ref="D11", doc="to-hit cost of aiming a club at the punch or kick "
        "table", readings={4: "+4 (MegaMek)"})
    tmm_table: str = opt(
        "tw", allowed=("tw", "old"), ref="D16", doc="target movement modifier above 9 hexes",
        readings={"tw": "10-17 +4, 18-24 +5, 25+ +6 (TW, BMM, MegaMek)",
                  "old": "10+ +4 (older tables)"})
    dfa_rounding: str = opt(
        "ceil-product", allowed=("ceil-product", "ceil-then-times-3", "floor-then-times-3"),
        ref="D18", doc="rounding of DFA damage (3 per 10 tons)",
        readings={"ceil-product": "ceil(3W/10) (MegaMek; 55 t -> 17)",
                  "ceil-then-times-3": "ceil(W/10) x 3 (55 t -> 18)",
                  "floor-then-times-3": "floor(W/10) x 3 (55 t -> 15)"})
    psr_modifiers: str = opt(
        "cumulative", allowed=("cumulative", "own"), ref="D19",
        doc="modifiers of several PSRs in one phase",
        readings={"cumulative": "every roll adds all the phase's situational modifiers "
                  "(TW p. 59)", "own": "each roll only its own trigger's"})
    tac: bool = opt(
        True, allowed=bool, ref="3.2", doc="a 2 on the standard hit location table is a "
        "through-armor critical chance",
        readings={True: "on (the rules)", False: "off (to compare with tools without it)"})
    pilot_damage: bool = opt(
        True, allowed=bool, ref="4.3/4.5", doc="a fall (or a failed fall PSR) damages the "
        "pilot; pilot damage metrics",
        readings={True: "on (the rules)", False: "off (to compare with tools without it)"})
    quirks: bool = opt(
        False, allowed=bool, ref="D21", doc="design quirks of unit data",
        readings={False: "not simulated, only reported in notes (MegaMek's optional rule is "
                  "off by default)",
                  True: "a punch by a unit with the no_arms quirk is impossible (MegaMek with "
                  "quirks on); other quirks not covered"})
    immobile_psr: str = opt(
        "auto-fail", allowed=("auto-fail", "roll"), ref="D22",
        doc="PSRs of a shut-down 'Mech or one with an unconscious pilot (reference 4.1)",
        readings={"auto-fail": "it fails every PSR automatically: it falls whenever a PSR is "
                  "due (TW, MegaMek)",
                  "roll": "it rolls normally (btsim 0.1.0, the reference before 2026-11-30)"})

    def as_dict(self) -> dict[str, Any]:
        """Every option by name."""
        return options.effective(self)

    def as_json(self) -> str:
        """The effective options as a compact, key-sorted JSON string (recorded in results).
        Kept on the instance once made (the fields are frozen; a run asks each scenario's
        rules several times: its facts, notes, options and summary row)."""
        return self._json

    @functools.cached_property
    def _json(self) -> str:
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))


#: The duel (``classic-duel``) reads this group too; the options that mean nothing without a
#: map (D7, D8, D9) and ``tmm_table`` (the duel's single TMM table is the fire model's
#: ``fire_tmm_table``) are accepted there at their defaults only
#: (:data:`sim.classic.duel.scenario.INERT_CLASSIC_OPTIONS`).
options.register_group("classic", ClassicRules, models=("attack", "classic-duel"))
#: ``seed`` differs from ``default`` where the seed page reads differently; ``megamek`` where
#: MegaMek's implementation does.
options.register_preset("classic", "default", {})
options.register_preset("classic", "seed", {"hand_and_lower_arm_missing_mod": 2,
                                            "punch_min_damage": 1,
                                            "charge_psr_without_displacement": True})
options.register_preset("classic", "megamek", {
    "punch_min_damage": 0, "dfa_rounding": "ceil-product", "charge_psr_without_displacement": False,
    "dfa_terrain": False, "fall_pilot_damage": "megamek", "partial_cover_push_mod": 3,
    "immobile_psr": "auto-fail"})

#: Rule-set presets by name.
PRESETS: dict[str, ClassicRules] = {name: options.build(ClassicRules, name)
                                    for name in options.presets("classic")}
RULE_SETS: tuple[str, ...] = tuple(PRESETS)
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ClassicRules))


def check_option(name: str, value: Any) -> Any:
    """Validate one rule option value (ConfigError naming the option and what is allowed)."""
    return options.coerce(name, value, "classic")


def rules_from(name: str = "default", **overrides: Any) -> ClassicRules:
    """Preset ``name`` with individual options overridden (validated)."""
    rules: ClassicRules = options.build(ClassicRules, name, overrides)
    return rules
