"""Construction and card tables the unit readers need, as data (one table, one place).

* :data:`INTERNAL_STRUCTURE`: internal structure points by tonnage (reference 5.1).
* :data:`AS_TMM_STEPS`: Alpha Strike TMM from ground Move in inches (reference 6.1,
  FORMAT.md 2.2).
"""

from __future__ import annotations

import bisect

#: Tonnage -> internal structure points (HD, CT, side torso, arm, leg); reference 5.1
#: [MM ``Mek.autoSetInternal``]. Standard, endo steel and other structure types share it.
#: The 10 and 15 t rows (ultralight 'Mechs, which reference 5.1's 20-100 t table leaves out)
#: are MegaMek's ``Mek.autoSetInternal`` facts; combat treats an ultralight as any 'Mech.
INTERNAL_STRUCTURE: dict[int, tuple[int, int, int, int, int]] = {
    10: (3, 4, 3, 1, 2),
    15: (3, 5, 4, 2, 3),
    20: (3, 6, 5, 3, 4),
    25: (3, 8, 6, 4, 6),
    30: (3, 10, 7, 5, 7),
    35: (3, 11, 8, 6, 8),
    40: (3, 12, 10, 6, 10),
    45: (3, 14, 11, 7, 11),
    50: (3, 16, 12, 8, 12),
    55: (3, 18, 13, 9, 13),
    60: (3, 20, 14, 10, 14),
    65: (3, 21, 15, 10, 15),
    70: (3, 22, 15, 11, 15),
    75: (3, 23, 16, 12, 16),
    80: (3, 25, 17, 13, 17),
    85: (3, 27, 18, 14, 18),
    90: (3, 29, 19, 15, 19),
    95: (3, 30, 20, 16, 20),
    100: (3, 31, 21, 17, 21),
}

#: Which column of :data:`INTERNAL_STRUCTURE` each biped location reads.
_IS_COLUMN = {"HD": 0, "CT": 1, "LT": 2, "RT": 2, "LA": 3, "RA": 3, "LL": 4, "RL": 4}

#: Head armor maximum (reference 5.1: head 9, every other location 2 x IS).
HEAD_MAX_ARMOR = 9

#: Alpha Strike TMM table: upper bounds (inches) of each TMM step 0..4; 35"+ gives 5.
#: Reference 6.1 ("0-4" -> 0; 5-8" -> 1; 9-12" -> 2; 13-18" -> 3; 19-34" -> 4; 35"+ -> 5").
AS_TMM_STEPS = (4, 8, 12, 18, 34)


def internal_structure(tons: int, quad: bool = False) -> dict[str, int]:
    """Internal structure points per biped location for a 'Mech of ``tons`` (reference 5.1;
    ``quad``: the front legs, stored as LA/RA, take the leg value, reference-bv 24.1).

    Raises ``KeyError`` for a tonnage outside the table (10-100 t in steps of 5).
    """
    row = INTERNAL_STRUCTURE[tons]
    out = {loc: row[col] for loc, col in _IS_COLUMN.items()}
    if quad:
        out["LA"] = out["RA"] = row[4]
    return out


def max_armor(tons: int, quad: bool = False) -> dict[str, int]:
    """Maximum armor per location (reference 5.1): head 9, otherwise 2 x IS; for torsos the
    limit applies to front + rear together."""
    return {loc: (HEAD_MAX_ARMOR if loc == "HD" else 2 * pts)
            for loc, pts in internal_structure(tons, quad).items()}


def tmm_from_move(move_inches: int) -> int:
    """Alpha Strike TMM for a ground Move in inches (reference 6.1; FORMAT.md 2.2)."""
    if move_inches < 0:
        raise ValueError(f"move must be >= 0 inches; got {move_inches}")
    return bisect.bisect_left(AS_TMM_STEPS, move_inches)
