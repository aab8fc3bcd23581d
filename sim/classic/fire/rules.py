"""Rule options of the fire model: one field per reading of a section-16 discrepancy (C...)
that weapon fire and the heat phase use, plus the fire model's own choices.

Until the ``options`` helper's registry is merged these live here (CONTRACTS 2); every field
carries its reference number, its readings and the default in a comment.

Section-16 options the fire model does not need a field for: C1 (life-support pilot damage:
the firing 'Mech takes no damage here), C2 (restart in the heat phase or the next end phase:
both lose the same turn and read the same heat in this model), C8 (exploding bin: the
TW/MegaMek order -- most damage per round, then most rounds left -- is applied per
ammunition type; an exact tie between two types goes to the first, as MegaMek, rather than
at random), C22 (engine-critical heat: no engine criticals here), C6/C7/C9-C12/C15/C16/
C21/C23/C25/C28-C30 (damage, criticals, ATM, AMS: outside weapon fire at an undamaged
'Mech).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from sim.errors import ConfigError, check_int

#: Allowed values of the string options.
CHOICES: dict[str, tuple[str, ...]] = {
    "uac_jam": ("tw", "never"),
    "rac_jam": ("megamek", "never"),
    "jump_heat": ("spent", "rating"),
    "water_cooling": ("legs", "all"),
    "mrm_to_hit": ("tw", "core"),
    "flamer_mode": ("damage", "heat"),
    "tmm_table": ("tw", "old"),
    "lbx_ammo": ("slug", "cluster"),
    "ultra_mode": ("ultra", "single"),
}
INT_RANGES: dict[str, tuple[int, int]] = {"rotary_shots": (1, 6), "piloting": (0, 8)}


@dataclass(frozen=True)
class FireRules:
    """Every option of the fire model (reference part 2, section 16 unless noted)."""

    #: C3: TacOps "Avoiding Shutdown": the shutdown avoid roll becomes avoid - 5 plus a
    #: piloting modifier (-2 Piloting 0-1, -1 2-3, 0 4-5, +1 6-7). False = TW plain 2D6
    #: (default); True = TacOps, avoid roll only (never the restart roll, C3/C26 default).
    tacops_shutdown: bool = False
    #: Piloting skill used by ``tacops_shutdown`` (default 5).
    piloting: int = 5
    #: C4: Ultra AC jam. "tw" = jams on a natural 2 in 2-shot mode (MegaMek TW, default);
    #: "never" = Core rules / MegaMek PLAYTEST_3 (no jam).
    uac_jam: str = "tw"
    #: C5: Rotary AC jam. "megamek" = 2-3 shots jam on <= 2, 4-5 on <= 3, 6 on <= 4, 1 shot
    #: never (default, single source); "never" = no jams.
    rac_jam: str = "megamek"
    #: C13: jump heat basis. "spent" = max(3, hexes actually jumped) (MegaMek, default);
    #: "rating" = max(3, jump MP rating).
    jump_heat: str = "spent"
    #: C17: cooling in depth-1 water. "legs" = +1 per single (+2 per double) leg-mounted
    #: sink, water bonus capped at +6 (MegaMek, default); "all" = every sink counts again,
    #: capped at +6.
    water_cooling: str = "legs"
    #: C19: MRM to-hit. "tw" = +1 (default); "core" = +0 to-hit and -1 on the cluster roll.
    mrm_to_hit: str = "tw"
    #: C24: flamer against a 'Mech. "damage" = 2 damage (default); "heat" = adds heat to the
    #: target instead (no damage counted by this model).
    flamer_mode: str = "damage"
    #: C27: heat-induced ammunition explosion check while shut down. True = check every heat
    #: phase at heat >= 19 regardless of shutdown (MegaMek, default); False = not while shut
    #: down.
    explosion_while_shutdown: bool = True
    #: reference.md D16: target movement modifier above 9 hexes, "tw" (default) or "old".
    tmm_table: str = "tw"
    #: 10.3 LB-X: ammunition loaded. "slug" (default: a normal AC) or "cluster" (-1 to-hit,
    #: cluster table with the gun's class, 1-point pellets).
    lbx_ammo: str = "slug"
    #: 10.3 Ultra AC mode when fired: "ultra" (2 shots, default) or "single" (1 shot, no jam).
    ultra_mode: str = "ultra"
    #: 10.3 Rotary AC shots per turn when fired (1-6, default 6).
    rotary_shots: int = 6

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def as_json(self) -> str:
        """The effective options as compact key-sorted JSON (recorded in results)."""
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(FireRules))
DEFAULT = FireRules()


def check_option(name: str, value: Any) -> Any:
    """Validate one option value; ConfigError naming the option and what is allowed."""
    if name not in OPTION_NAMES:
        raise ConfigError("rule", name, "one of " + ", ".join(OPTION_NAMES))
    default = getattr(DEFAULT, name)
    if isinstance(default, bool):
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        if not isinstance(value, bool | int) or value not in (0, 1):
            raise ConfigError(name, value, "true or false")
        return bool(value)
    if isinstance(default, int):
        lo, hi = INT_RANGES[name]
        return check_int(name, value, lo, hi)
    allowed = CHOICES[name]
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(name, value, "one of " + ", ".join(repr(c) for c in allowed))
    return value


def rules_from(overrides: dict[str, Any] | None = None) -> FireRules:
    """The default rules with options overridden by name (validated)."""
    clean = {k: check_option(k, v) for k, v in (overrides or {}).items()}
    return replace(DEFAULT, **clean)
