"""Helpers of the Classic physical-attack sections: readable attack labels in the model's
order, and the model's "impossible" reasons and unit facts as words.

The attack names and their order come from the model's table (:data:`sim.classic.tables.
ATTACKS`); the report adds only how a scenario's parameters read (``punch ×2`` for both arms,
``charge (5 hexes)``) and the casing of acronyms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pandas as pd

from sim.classic import attacks as A
from sim.classic import tables as CT


def attack_order() -> tuple[str, ...]:
    """The model's attack names, in its order."""
    return tuple(CT.ATTACKS)


def attack_name(attack: str) -> str:
    """The display name of a model attack name: ``"dfa"`` -> ``"DFA"``."""
    a = A.ATTACK_SPECS.get(attack)
    return attack if a is None else a.label


def attack_label(row: pd.Series) -> str:
    """A short readable name of one attack scenario: ``punch``, ``punch ×2``, ``charge (5
    hexes)``, ``DFA``."""
    return A.attack_label({str(k): v for k, v in row.items()})


def tick_label(label: str) -> str:
    """An attack label for a crowded axis: ``charge (5 hexes)`` -> ``charge\\n(5 hexes)``."""
    return label.replace(" (", "\n(")


def cell_label(label: str) -> str:
    """An attack label for a heatmap cell: ``charge (5 hexes)`` -> ``charge 5 hex``."""
    return re.sub(r" \((\d+) hexes\)", r" \1 hex", label)


def attack_sort_key(label: str) -> tuple[int, int]:
    """Model order of the attack, then the number in the label (``punch ×2``, hexes)."""
    names = attack_order()
    base = str(label).split(" ")[0].lower()
    i = names.index(base) if base in names else len(names)
    m = re.search(r"(\d+)", str(label))
    return i, int(m.group(1)) if m else 0


def ordered_attacks(labels: Iterable[str]) -> list[str]:
    """Distinct attack labels in the model's attack order."""
    return sorted(set(labels), key=attack_sort_key)


def with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with an ``attack_label`` column."""
    f = frame.copy()
    f["attack_label"] = f.apply(attack_label, axis=1)
    return f


def missing_text(missing: Any) -> str:
    """The ``missing`` actuator list of a unit as words:
    ``"left-hand,left-lower-arm,right-hand,right-lower-arm"`` -> ``"no hands or lower arms"``."""
    parts = [p.strip() for p in str(missing or "").split(",")
             if p.strip() and p.strip() not in ("None", "nan")]
    if not parts:
        return ""
    sides: dict[str, set[str]] = {}
    for p in parts:
        side, _, name = p.partition("-")
        if side not in ("left", "right") or not name:
            side, name = "", p
        sides.setdefault(name.replace("-", " "), set()).add(side)
    words = []
    for name, ss in sorted(sides.items()):
        if ss >= {"left", "right"}:
            words.append(name + "s")
        else:
            words += [f"{s} {name}".strip() for s in sorted(ss)]
    return "no " + " or ".join(words)


def reason_text(reason: Any, unit: str, missing: Any = "") -> str:
    """A model's 'impossible' reason, shortened for a sentence about ``unit``:
    ``"attacker Locust LCT-1V has no jump MP: a DFA is a jump"`` -> ``"no jump MP: a DFA is a
    jump"``; a missing-actuator reason names what the unit lacks (its ``missing`` fact)."""
    r = str(reason).replace(f"attacker {unit} ", "").strip()
    r = re.sub(r"^has no ", "no ", r)
    lacks = missing_text(missing)
    if "destroyed or missing" in r and lacks:
        tail = r.split(":", 1)[1].strip() if ":" in r else ""
        r = lacks + (f": {tail}" if tail else "")
    return r


#: appended to an attack label in a cell where that attack carries no self-risk
NO_RISK = " (no risk)"


def risk_label(label: Any) -> str:
    """``"kick (no risk)"`` -> ``"kick (no self-risk)"`` for running text."""
    s = str(label)
    return s.replace(NO_RISK, "") + " (no self-risk)" if s.endswith(NO_RISK) else s
