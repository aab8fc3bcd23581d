"""Alpha Strike attacks (rules reference 6.1, 6.2, 6.7): the unit's own attack and the
incoming attackers' specifications, as small pure functions over arrays."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sim.alphastrike import tables as T
from sim.errors import ConfigError, check_choice, check_int

_INCOMING_ALLOWED = ("comma-separated key=value pairs from tn, skill, range, mod, dmg "
                     "(required), ht, e.g. 'tn=8,dmg=3,ht=1'")
_KEYS = ("tn", "skill", "range", "mod", "dmg", "ht")


@dataclass(frozen=True)
class Incoming:
    """One attacker shooting the unit every turn (ref 6.1, 6.6 HT).

    Either a fixed ``tn`` (the TN against the unit in its nominal state: heat 0, no MP hits,
    its movement mode; ``tn=2`` always hits) or ``skill`` + ``range`` + ``mod``. Either way the
    TN then follows the unit's state: heat TMM penalty, MP hits, standing still, and -4 when
    it is shut down or immobile. ``dmg`` is the damage of a hit, ``ht`` its HT value at the band.
    After :meth:`resolve`: TN = ``base`` + target modifier; a hit deals ``hit_dmg`` and gives
    ``hit_heat`` heat.
    """

    dmg: int
    ht: int = 0
    tn: int | None = None
    skill: int = 4
    range: str | None = None
    mod: int = 0
    base: int = 0
    hit_dmg: int = 0
    hit_heat: int = 0

    @property
    def label(self) -> str:
        head = f"tn={self.tn}" if self.tn is not None else (
            f"skill={self.skill},range={self.range or 'same'},mod={self.mod}")
        return f"{head},dmg={self.dmg},ht={self.ht}"

    def resolve(self, nominal_tmod: int, band: str, has_heat: bool, fire_resistant: bool
                ) -> Incoming:
        """Fix ``base`` and the hit effects for a target (HT: heat, or damage without a heat
        scale; FR ignores HT heat; ref 6.6)."""
        if self.tn is not None:
            base = self.tn - nominal_tmod
        else:
            base = self.skill + T.RANGE_MOD[self.range or band] + self.mod
        hit_dmg = self.dmg + (0 if has_heat else self.ht)
        hit_heat = self.ht if (has_heat and not fire_resistant) else 0
        return replace(self, base=base, hit_dmg=hit_dmg, hit_heat=hit_heat)


def parse_incoming(value: Any) -> Incoming:
    """Parse ``"tn=8,dmg=3,ht=1"`` or a dict with the same keys into an :class:`Incoming`."""
    if isinstance(value, Incoming):
        return value
    if isinstance(value, str):
        d: dict[str, Any] = {}
        for part in value.split(","):
            k, sep, v = part.partition("=")
            k = k.strip()
            if not sep or k not in _KEYS or k in d or not v.strip():
                raise ConfigError("incoming", value, _INCOMING_ALLOWED)
            d[k] = v.strip()
    elif isinstance(value, Mapping):
        d = dict(value)
        if any(k not in _KEYS for k in d):
            raise ConfigError("incoming", value, _INCOMING_ALLOWED)
    else:
        raise ConfigError("incoming", value, _INCOMING_ALLOWED)
    if "dmg" not in d:
        raise ConfigError("incoming", value, _INCOMING_ALLOWED)
    try:
        return Incoming(
            dmg=check_int("incoming dmg", d["dmg"], 0, 30),
            ht=check_int("incoming ht", d.get("ht", 0), 0, 4),
            tn=None if d.get("tn") is None else check_int("incoming tn", d["tn"], -10, 20),
            skill=check_int("incoming skill", d.get("skill", 4), 0, 8),
            range=None if d.get("range") is None else check_choice(
                "incoming range", d["range"], T.RANGES),
            mod=check_int("incoming mod", d.get("mod", 0), -10, 12))
    except ConfigError as exc:
        raise ConfigError("incoming", value, f"{_INCOMING_ALLOWED} ({exc})") from None


def parse_incoming_list(value: Any) -> tuple[Incoming, ...]:
    """A list of attackers (strings, dicts or :class:`Incoming`); one string or dict is one."""
    if value is None:
        return ()
    if isinstance(value, str | Mapping | Incoming):
        value = [value]
    if not isinstance(value, list | tuple):
        raise ConfigError("incoming", value, "a list of attackers: " + _INCOMING_ALLOWED)
    return tuple(parse_incoming(v) for v in value)


def weapon_tn(base: int, amod: np.ndarray, heat: np.ndarray, fc: np.ndarray) -> np.ndarray:
    """Weapon attack TN (ref 6.1): base (skill + range + target + other) + attacker movement
    + heat level (ref 6.3) + 2 per Fire Control hit (ref 6.6)."""
    return (np.int16(base) + amod + T.HEAT_TO_HIT[heat].astype(np.int16)
            + np.int16(T.FIRE_CONTROL_MOD) * fc.astype(np.int16))


def physical_tn(base: int, amod: np.ndarray, heat: np.ndarray, heat_applies: bool) -> np.ndarray:
    """Physical attack TN (ref 6.7): base (skill + type + target + other) + attacker
    movement; heat only under D14 ``physical_heat``; Fire Control never."""
    tn = np.int16(base) + amod.astype(np.int16)
    if heat_applies:
        tn = tn + T.HEAT_TO_HIT[heat].astype(np.int16)
    return tn

