"""Test helpers for the units tests: where the shared unit data lives, and a small writer that
renders a :class:`ClassicMech` as ``.mtf`` text (synthetic files, so reader tests also run
without the shared folder; no MegaMek text is copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.classic.weapons import EQUIPMENT, WEAPONS
from sim.units.types import ARM_ACTUATORS, LEG_ACTUATORS, ClassicMech

#: ../shared/data/units beside the repository (CI clones the repo next to shared/).
SHARED_UNITS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units"
MTF_DIR = SHARED_UNITS / "mtf"
AS_CSV = SHARED_UNITS / "alphastrike.csv"
BV_CSV = SHARED_UNITS / "bv.csv"
MTF_FILES = sorted(MTF_DIR.glob("*.mtf")) if MTF_DIR.is_dir() else []

needs_shared = pytest.mark.skipif(
    not MTF_FILES or not AS_CSV.is_file() or not BV_CSV.is_file(),
    reason=f"shared unit data not found at {SHARED_UNITS} (clone shared/ beside the repo)")

BLOCK_NAMES = {"LA": "Left Arm", "RA": "Right Arm", "LT": "Left Torso", "RT": "Right Torso",
               "CT": "Center Torso", "HD": "Head", "LL": "Left Leg", "RL": "Right Leg"}
_ACT_SLOT = {"shoulder": "Shoulder", "upper_arm": "Upper Arm Actuator",
             "lower_arm": "Lower Arm Actuator", "hand": "Hand Actuator", "hip": "Hip",
             "upper_leg": "Upper Leg Actuator", "lower_leg": "Lower Leg Actuator",
             "foot": "Foot Actuator"}
_ARMOR_KEYS = {"LA": "LA", "RA": "RA", "LT": "LT", "RT": "RT", "CT": "CT", "HD": "HD",
               "LL": "LL", "RL": "RL", "LTR": "RTL", "RTR": "RTR", "CTR": "RTC"}


def synthetic_slots(mech: ClassicMech) -> dict[str, list[str]]:
    """Plausible critical slots for a catalog 'Mech (actuators, physical weapons, weapon
    mounts, ammunition bins, heat sinks, equipment, CASE), padded with -Empty- to 12 lines
    like saved files. A split weapon fills its location and puts the rest in its
    ``split_location``."""
    clan = mech.tech_base == "Clan"
    slots: dict[str, list[str]] = {
        "HD": ["Life Support", "Sensors", "Cockpit", "-Empty-", "Sensors", "Life Support"],
        "CT": ["Fusion Engine"] * 3 + ["Gyro"] * 4 + ["Fusion Engine"] * 3,
        "LT": [], "RT": [],
    }
    if mech.engine_type in ("XL", "XXL", "Light"):
        side = 2 if mech.engine_clan or mech.engine_type == "Light" else 3
        slots["LT"] += ["Fusion Engine"] * side
        slots["RT"] += ["Fusion Engine"] * side
    for limb in ("LA", "RA", "LL", "RL"):
        names = ARM_ACTUATORS if limb in ("LA", "RA") else LEG_ACTUATORS
        slots[limb] = [_ACT_SLOT[a] for a in names if mech.has(limb, a)]
    head_free = [3]  # the head's one free slot sits between Cockpit and Sensors

    def put(loc: str, names: list[str]) -> None:
        if loc == "HD":
            for name in names:
                idx = head_free.pop(0) if head_free else None
                if idx is not None and slots["HD"][idx] == "-Empty-":
                    slots["HD"][idx] = name
                else:
                    slots["HD"].append(name)
        else:
            slots[loc] += names

    for weapon, loc in mech.physical_weapons:
        put(loc, [weapon.replace("_", " ").title()] * 3)
    split = []
    for m in mech.weapon_mounts:
        size = WEAPONS[m.weapon].slots if m.weapon in WEAPONS else 1
        text = m.name + (" (R)" if m.rear else "")
        if m.split_location is not None:
            split.append((m, size, text))
        else:
            put(m.location, [text] * size)
    for b in mech.ammo_bins:
        put(b.location, [b.name])
    sink = ("Heat Sink", 1) if mech.heat_sink_type != "Double" else (
        ("CLDoubleHeatSink", 2) if clan else ("ISDoubleHeatSink", 3))
    for loc in mech.heat_sink_locations:
        put(loc, [sink[0]] * sink[1])
    for key, loc in mech.equipment:
        put(loc, [EQUIPMENT[key].lookups[0]] * max(EQUIPMENT[key].slots, 1))
    for name, loc, _ in mech.unknown_equipment:
        put(loc, [name])
    for m, size, text in split:
        here = max(1, min(size - 1, 12 - len(slots[m.location])))
        slots[m.location] += [text] * here
        assert m.split_location is not None
        slots[m.split_location] += [text] * (size - here)
    has_case = any(EQUIPMENT[k].kind == "case" for k, _ in mech.equipment)
    for loc in mech.case_locations:
        if not mech.ammo_bins:  # older records: a bin so that Clan CASE is derived
            slots[loc] += ["Clan Ammo LRM-20"] if clan else ["IS Ammo AC/20", "ISCASE"]
        elif not clan and not has_case:
            slots[loc].append("ISCASE")
    for loc in mech.case2_locations:
        slots[loc].append("ISCASEII")
    return {loc: v + ["-Empty-"] * (12 - len(v)) for loc, v in slots.items()}


def mtf_text(mech: ClassicMech, header_case: str = "new", newline: str = "\n") -> str:
    """Render ``mech`` as .mtf text. ``header_case="old"`` uses the old capitalised keys
    (``Mass:``, ``Walk MP:``, ``Config:Biped Omnimech``, ``LA Armor:``)."""
    old = header_case == "old"

    def key(new: str, old_key: str) -> str:
        return old_key if old else new

    hs_type = {"Double": ("Clan Double" if mech.tech_base == "Clan" else "IS Double")}.get(
        mech.heat_sink_type, mech.heat_sink_type)
    omni = (" Omnimech" if old else " OmniMek") if mech.omni else ""
    lines = ["# synthetic test file", "", f"chassis:{mech.chassis}"]
    if mech.clan_name:
        lines.append(f"clanname:{mech.clan_name}")
    lines.append(f"model:{mech.model}")
    if mech.mul_id is not None:
        lines.append(f"mul id:{mech.mul_id}")
    lines += ["", f"Config:Biped{omni}", f"{key('techbase', 'TechBase')}:{mech.tech_base}",
              *([f"era:{mech.year}"] if mech.year else []), "rules level:1",
              *([f"role:{mech.role}"] if mech.role else []), ""]
    lines += [f"quirk:{q}" for q in mech.quirks]
    lines += ["", f"{key('mass', 'Mass')}:{mech.tons}",
              f"{key('engine', 'Engine')}:{mech.engine_rating or mech.tons * mech.walk_mp} "
              f"{mech.engine_type}{' (Clan)' if mech.engine_clan else ''} Engine"
              + ("(IS)" if old and not mech.engine_clan else ""),
              *([f"structure:{mech.structure_type}"] if mech.structure_type else []),
              *([f"cockpit:{mech.cockpit}"] if mech.cockpit else []),
              *([f"gyro:{mech.gyro}"] if mech.gyro else []), f"myomer:{mech.myomer}", "",
              f"{key('heat sinks', 'Heat Sinks')}:{mech.heat_sinks} {hs_type}",
              f"{key('walk mp', 'Walk MP')}:{mech.walk_mp}",
              f"{key('jump mp', 'Jump MP')}:{mech.jump_mp}", "",
              *([f"armor:{mech.armor_type}"] if mech.armor_type else [])]
    for loc, k in _ARMOR_KEYS.items():
        lines.append(f"{k} {'Armor' if old else 'armor'}:{mech.armor[loc]}")
    lines += ["", f"Weapons:{len(mech.weapons)}"]
    lines += [f"{w}, {BLOCK_NAMES[loc]}" for w, loc in mech.weapons]
    lines.append("")
    slots = ({loc: [s or "-Empty-" for s in v] + ["-Empty-"] * (12 - len(v))
              for loc, v in mech.slots.items()} if mech.slots else synthetic_slots(mech))
    for loc in ("LA", "RA", "LT", "RT", "CT", "HD", "LL", "RL"):
        lines += [f"{BLOCK_NAMES[loc]}:", *slots[loc], ""]
    lines += ["overview:<p>Synthetic fluff: mass:999 walk mp:x</p>", "notes:ignored"]
    return newline.join(lines) + newline
