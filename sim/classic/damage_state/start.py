"""A damaged starting state from a description (``btsim hit --state FILE``, ``sim.hit(...,
state=...)``): what is left of the armor and structure, which critical slots are already
destroyed, shots left in the bins and MechWarrior damage (reference-classic-combat.md 14).

The description is a mapping (read from a JSON or TOML file)::

    armor      = {CT = 10, CTR = 0}      # points left per location (CTR/LTR/RTR: rear)
    structure  = {LA = 0}                # points left; 0: the location is destroyed
    hit_slots  = ["CT:4 Gyro"]           # slots destroyed by critical hits, as p_slot_hit
                                         # names them (LOC:slot-number name)
    ammo       = {"LT:1 IS Ammo AC/20" = 2}   # shots left in the bin holding that slot
    pilot      = 1                       # MechWarrior damage taken

Anything not named is undamaged. The consequences follow from the facts (14.3, 14.5): a
destroyed side torso takes its arm, destroyed locations lose their armor, the engine, gyro,
sensor, life-support and cockpit counters come from the slots, and a state that is already
destroyed says so (its cause). An ammunition slot named as hit leaves its bin empty (the bin
exploded or was lost earlier). Every error names the field and what is allowed.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.apply import DamageModel, effects
from sim.classic.damage_state.outcome import ARMOR_NAMES
from sim.errors import UserError, path_text, shown
from sim.fileio import read_regular_text

KEYS = ("armor", "structure", "hit_slots", "ammo", "pilot")


def read_state(path: str | Path) -> dict[str, Any]:
    """A state description from a ``.json`` or ``.toml`` file."""
    p = Path(path)
    kind = "TOML" if p.suffix.lower() == ".toml" else "JSON"
    try:
        text = read_regular_text(p, "--state", what=f"{kind} (JSON or TOML)")
    except OSError as exc:
        raise UserError(f"--state {path_text(path)}: cannot read it ({exc.strerror})") from None
    try:
        data = tomllib.loads(text) if kind == "TOML" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"--state {path_text(path)}: not valid {kind} ({exc})") from None
    except RecursionError:
        raise UserError(f"--state {path_text(path)}: not a state: nested too deeply") from None
    if not isinstance(data, dict):
        raise UserError(f"--state {path}: expected a table of {', '.join(KEYS)}")
    return data


def _count(field: str, value: Any, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise UserError(f"state {field}: {value!r} is not a whole number from 0 to {top}")
    return value


def _location(field: str, name: Any, allowed: tuple[str, ...]) -> int:
    key = str(name).upper()
    if key not in allowed:
        raise UserError(f"state {field}: unknown location {name!r}; expected one of "
                        + ", ".join(allowed))
    return allowed.index(key)


def _slot(layout: lay.Layout, label: Any, field: str) -> tuple[int, int]:
    labels = {layout.slot_label(i, s): (i, s) for i in range(8)
              for s in range(layout.n_slots[i]) if layout.kind[i, s] != lay.EMPTY}
    if not isinstance(label, str):
        raise UserError(f"state {field}: {shown(label)} is not a slot name (a string like "
                        f"{next(iter(labels))!r})")
    if label in labels:
        return labels[label]
    near = difflib.get_close_matches(str(label), list(labels), n=3)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    raise UserError(f"state {field}: unknown slot {label!r} (slots are named as in "
                    f"p_slot_hit, e.g. {next(iter(labels))!r}){hint}")


def damaged_state(layout: lay.Layout, dm: DamageModel, spec: Mapping[str, Any]) -> np.ndarray:
    """A (1, columns) state array for the description ``spec`` (module docstring)."""
    if not isinstance(spec, Mapping):
        raise UserError(f"state: expected a table of {', '.join(KEYS)}; got "
                        f"{type(spec).__name__}")
    for key in ("armor", "structure", "ammo"):
        if not isinstance(spec.get(key) or {}, Mapping):
            raise UserError(f"state {key}: expected a table like {{CT = 10}}; got "
                            f"{spec[key]!r}")
    unknown = [k for k in spec if k not in KEYS]
    if unknown:
        raise UserError(f"state: unknown field {unknown[0]!r}; expected some of "
                        + ", ".join(KEYS))
    S = st.fresh(layout, 1)
    for name, left in dict(spec.get("armor") or {}).items():
        i = _location("armor", name, ARMOR_NAMES)
        k = layout.armor_per_point  # hardened armor: kept in half points (layout)
        S[0, i] = k * _count(f"armor.{ARMOR_NAMES[i]}", left, int(layout.armor[i]) // k)
    for name, left in dict(spec.get("structure") or {}).items():
        i = _location("structure", name, lay.LOCS)
        S[0, st.IS0 + i] = _count(f"structure.{lay.LOCS[i]}", left, int(layout.structure[i]))
    hits = spec.get("hit_slots") or []
    if isinstance(hits, str) or not isinstance(hits, list):
        raise UserError("state hit_slots: expected a list of slot names like \"CT:4 Gyro\"")
    hit_bins: set[int] = set()
    for label in hits:
        i, s = _slot(layout, label, "hit_slots")
        S[0, st.HIT0 + i] |= 1 << s
        S[0, st.CRIT] |= 1 << i
        b = int(layout.bin_slot[i, s])
        if b >= 0:
            S[0, st.AMMO0 + b] = 0
            hit_bins.add(b)
    for label, shots in dict(spec.get("ammo") or {}).items():
        i, s = _slot(layout, label, "ammo")
        b = int(layout.bin_slot[i, s])
        if b < 0:
            raise UserError(f"state ammo: slot {label!r} holds no ammunition bin")
        left = _count(f"ammo.{label}", shots, int(layout.bins[b][1]))
        if b in hit_bins and left:
            raise UserError(f"state ammo: the bin of {label!r} took a critical hit (hit_slots):"
                            " it is empty")
        S[0, st.AMMO0 + b] = left
    S[0, st.PILOT] = _count("pilot", spec.get("pilot", 0), st.PILOT_DEAD)
    return effects(S, dm)
