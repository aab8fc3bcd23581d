"""Alpha Strike rule options: one frozen dataclass, one field per open question.

Every field names the discrepancy of the rules reference (``reference.md`` section 8) or the
section it configures. Two presets:

* ``default`` -- the reference's recommended readings (ASCE-era where the reference says so);
* ``seed`` -- the seed page's literal readings (AS 2013 Introductory, the Chinese seed text):
  D1 TMM penalty only above heat 2, D2 cooling in water needs 2" depth, D3 no cooling at all
  while overheating except OV 1 in water breaks even.

Options the seed page does not address keep the default in the ``seed`` preset.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sim.errors import ConfigError, check_bool, check_choice, check_int


@dataclass(frozen=True)
class ASRules:
    """Rule options for the Alpha Strike heat model (reference sections 6 and 8)."""

    #: D1 -- heat level at which ground TMM drops by 1 (ref 6.3). Default 2 (ASCE p. 52,
    #: MekBay, the seed's own Loki example); the seed sentence reads "above 2" = 3.
    heat_tmm_threshold: int = 2
    #: D2 -- water depth (inches) needed for the -1 cooling of a unit that used no OV
    #: (ref 6.4 step 4c). Default 1" (errata v2.1 reading); seed 2".
    water_cool_depth: int = 1
    #: D2 -- water depth (inches) for the "OV 1 in water breaks even" clause (ref 6.4 step 3).
    #: Errata v2.1: 1"; the seed says only "in water", read as 1".
    water_ov_depth: int = 1
    #: D3 -- overheating in water (ref 6.4). ``steps`` (ASCE p. 53): add the OV, then -1 for
    #: water whatever the OV (OV 2 nets +1). ``seed``: the -1 applies only when exactly 1 OV
    #: was used (OV 1 unchanged, OV 2 nets +2).
    water_ov: str = "steps"
    #: D15 -- order of HT heat and the cooling steps (ref 6.4 step 5). ``after_cooling``
    #: (default): cool first, then add received HT heat (capped), then check shutdown.
    #: ``before_cooling``: HT heat is added to the heat level before the cooling steps (so a
    #: unit that did not fire still drops to 0).
    ht_order: str = "after_cooling"
    #: ref 6.4 pseudocode: HT heat received by a unit that is shut down this turn (it restarts
    #: at 0). ``ignore`` (default) or ``apply`` (added after the restart).
    ht_while_shutdown: str = "ignore"
    #: ref 6.6 HT: at most this much HT heat per turn from all HT attacks (seed: 2).
    ht_cap: int = 2
    #: ref 6.4 pseudocode: an Engine Hit crit received this turn already adds its +1 heat in
    #: this End Phase (crits are applied before the heat update). False: from next turn on.
    engine_heat_same_turn: bool = True
    #: D17 -- TMM after MP hits (ref 6.6). ``halve``: halve per hit, round down, minimum drop
    #: 1 (MekBay/ASCE); ``minus1``: -1 per hit (older MekBay); ``recompute``: TMM from the
    #: remaining Move by the ref 6.1 table (AS 2013).
    mp_hit_tmm: str = "halve"
    #: D20 -- attacker stood still modifier (ref 6.1): -1 (ASCE-era) or 0.
    stood_still_mod: int = -1
    #: ref 6.1 -- attacker jumped modifier.
    jumped_mod: int = 2
    #: ref 6.2 -- how a 0* (minimal damage) hit resolves: ``roll`` (on a hit roll 1D6, 4+
    #: deals 1: AS Companion p. 18 / AS 2nd ed. p. 38 as quoted on bg.battletech.com),
    #: ``zero`` or ``one``.
    minimal_damage: str = "roll"
    #: D13 -- physical attack TN modifiers: ``asce`` (Standard +0, Melee +0: IO:BattleForce,
    #: PR #43) or ``as2013`` (Standard +0, Melee +1 as transcribed).
    physical_mods: str = "asce"
    #: D14 -- does the heat level add to physical attack TNs? Default False (weapon only).
    physical_heat: bool = False
    #: ref 6.6 -- the extra damage CASE takes on an Ammo Hit.
    case_damage: int = 1

    # -- presets ---------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> ASRules:
        """``default`` or ``seed`` (see the module docstring)."""
        check_choice("rules", name, tuple(PRESETS))
        return PRESETS[name]

    def replace(self, **overrides: Any) -> ASRules:
        """A copy with some fields changed, each validated."""
        for k, v in overrides.items():
            if k not in FIELDS:
                raise ConfigError("rule option", k, "one of " + ", ".join(sorted(FIELDS)))
            overrides[k] = _validate(k, v)
        return dataclasses.replace(self, **overrides)


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ASRules))

_CHOICES: dict[str, tuple[str, ...]] = {
    "water_ov": ("steps", "seed"),
    "ht_order": ("after_cooling", "before_cooling"),
    "ht_while_shutdown": ("ignore", "apply"),
    "mp_hit_tmm": ("halve", "minus1", "recompute"),
    "minimal_damage": ("roll", "zero", "one"),
    "physical_mods": ("asce", "as2013"),
}
_INTS: dict[str, tuple[int, int]] = {
    "heat_tmm_threshold": (1, 4),
    "water_cool_depth": (0, 10),
    "water_ov_depth": (0, 10),
    "ht_cap": (0, 4),
    "stood_still_mod": (-2, 0),
    "jumped_mod": (0, 3),
    "case_damage": (0, 3),
}


def _validate(name: str, value: Any) -> Any:
    if name in _CHOICES:
        return check_choice(name, value, _CHOICES[name])
    if name in _INTS:
        lo, hi = _INTS[name]
        return check_int(name, value, lo, hi)
    return check_bool(name, value)


PRESETS: dict[str, ASRules] = {
    "default": ASRules(),
    "seed": ASRules(heat_tmm_threshold=3, water_cool_depth=2, water_ov_depth=1, water_ov="seed"),
}
