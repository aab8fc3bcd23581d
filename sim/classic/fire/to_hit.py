"""Weapon attack target numbers (reference part 2, 12.1; movement and terrain from
reference.md 1.2, reusing :mod:`sim.classic.tables` and :func:`sim.classic.to_hit.tmm`).

TN = Gunnery + range bracket + minimum range + attacker movement + target movement + target
terrain + attacker heat + weapon modifier. TN <= 2 always hits; TN >= 13 cannot be attempted.
"""

from __future__ import annotations

from sim.classic import tables as CT
from sim.classic.to_hit import tmm as _tmm
from sim.classic.weapons import Weapon, to_hit_at

#: Range bracket modifiers (12.1): short +0, medium +2, long +4.
BRACKET_MOD: dict[str, int] = {"short": 0, "medium": 2, "long": 4}
#: Highest target number that can be attempted (reference.md section 0).
MAX_TN = 12


def bracket(w: Weapon, distance: int) -> str | None:
    """Range bracket of ``distance`` hexes for weapon ``w`` (10.3): short 1..S, medium
    S+1..M, long M+1..L; ``None`` beyond long range (or range 0)."""
    if distance < 1 or distance > w.long:
        return None
    if distance <= w.short:
        return "short"
    return "medium" if distance <= w.medium else "long"


def min_range_mod(w: Weapon, distance: int) -> int:
    """Minimum-range modifier (10.3): +(min - d + 1) when d <= min (PPC at 3: +1)."""
    return w.min_range - distance + 1 if w.min_range and distance <= w.min_range else 0


def attacker_movement_mod(moved: str) -> int:
    """Attacker movement (reference.md 1.2.1): stand 0, walk +1, run +2, jump +3."""
    return CT.ATTACKER_MOVEMENT[moved]


def target_movement_mod(hexes: int, jumped: bool, table: str = "tw") -> int:
    """Target movement modifier by hexes moved, +1 if it jumped (reference.md 1.2.2, D16)."""
    return _tmm(hexes, jumped, table)


def terrain_mod(terrain: str) -> int:
    """Target hex terrain (12.1): light woods +1, heavy woods +2."""
    return CT.TERRAIN[terrain]


#: Weapon families MegaMek flags as direct fire (10.3 targeting computer: lasers, PPCs,
#: autocannons, Gauss; not missiles, machine guns or flamers).
DIRECT_FIRE = frozenset({"laser", "pulse", "ppc", "ac", "lbx", "ultra", "rotary", "gauss"})


def weapon_mod(w: Weapon, *, lbx_cluster: bool = False, mrm_to_hit: str = "tw",
               targeting_computer: bool = False, bracket: str | None = None,
               apollo: bool = False) -> int:
    """The weapon's own modifier (12.1): pulse -2 (``to_hit_mod``; a variable-speed pulse
    laser's by range ``bracket``, ``to_hit_by_range``), LB-X cluster ammo -1,
    MRM +1 under TW (C19; the table row already holds +1, removed for ``core`` and for an
    MRM with a linked Apollo FCS, ``apollo``: 10.3 MRM row, cancelled), targeting
    computer -1 for direct-fire weapons (10.3; not LB-X cluster ammunition)."""
    mod = to_hit_at(w, bracket)
    if targeting_computer and w.family in DIRECT_FIRE and not (w.family == "lbx"
                                                               and lbx_cluster):
        mod -= 1
    if w.family == "lbx" and lbx_cluster:
        mod -= 1
    if w.family == "mrm" and (mrm_to_hit == "core" or apollo):
        mod -= 1
    return mod


def weapon_base_tn(w: Weapon, *, gunnery: int, distance: int, target_hexes: int,
                   target_jumped: bool, terrain: str, tmm_table: str = "tw",
                   lbx_cluster: bool = False, mrm_to_hit: str = "tw",
                   targeting_computer: bool = False, apollo: bool = False
                   ) -> tuple[int | None, list[tuple[str, int]]]:
    """TN of ``w`` without the attacker's movement and heat terms (those depend on the
    turn's state), and its breakdown; ``None`` when out of range."""
    b = bracket(w, distance)
    if b is None:
        return None, [("out of range", 0)]
    terms = [("gunnery", gunnery), (f"{b} range", BRACKET_MOD[b]),
             ("minimum range", min_range_mod(w, distance)),
             ("target movement", target_movement_mod(target_hexes, target_jumped, tmm_table)),
             ("terrain", terrain_mod(terrain)),
             ("weapon", weapon_mod(w, lbx_cluster=lbx_cluster, mrm_to_hit=mrm_to_hit,
                                    targeting_computer=targeting_computer, bracket=b,
                                    apollo=apollo))]
    terms = [(k, v) for k, v in terms if v or k == "gunnery"]
    return sum(v for _, v in terms), terms
