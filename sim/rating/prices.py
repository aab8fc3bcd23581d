"""The price a rating puts on each unit, and where it came from (issue 23, rating option
``price``).

Two sources:

* **official**: the Master Unit List. Classic: the unit's BV (gunnery 4 / piloting 5) as the
  catalog gives it: a built-in 'Mech's shipped record (``bv.csv``), an imported file's MUL
  record found by its ``mul id:`` line first, else by its name
  (:func:`sim.units.catalog.with_catalog_bv`, which already refuses a record whose tonnage
  differs or whose built-in twin is another build). Alpha Strike: the shipped MUL card's PV
  (skill 4; an imported unit gets a card only by its MUL id), else, for a unit playing its
  converted card, the PV of its MUL record (same match as its BV).
* **computed**: from the unit file, issue 20's code: Battle Value 2
  (:func:`sim.units.battle_value`, reference-bv.md 21-22) and the converted card's PV
  (:func:`sim.units.alpha_strike_card`, reference-as-conversion.md 2.9). None, with the
  reason, for a unit outside those references' scope or without a unit file (an Alpha
  Strike card with no Classic data).

``price`` (:data:`PRICES`): ``official`` (only the MUL's; a unit without one has no price,
so no verdict), ``computed`` (only the computed), or ``official-else-computed`` (default):
the official price, except

* a unit with no official price takes the computed one (a made-up model such as a
  Hunchback HBK-4X gets a price, so a complete one can be judged);
* **the by-name rule**: a unit file matched to its MUL record by name only (an imported
  file with no ``mul id:`` line, or one naming an id btsim's MUL copy does not have), whose
  computed BV differs from the record's BV by more than :data:`BV_TOLERANCE` of it, is not
  that record's unit (a renamed-but-changed file: "HBK-4P" with other weapons); its
  ``price_source`` says ``MUL by name; computed BV differs: X vs Y`` (X computed, Y the
  record's) and it takes its computed price, in both games (the BV decides whether the file
  is the record's unit; the Alpha Strike price is then the converted card's PV). Under
  ``official`` the flag is recorded and the record's price kept. A by-name match with no
  computed BV (outside BV2's scope) keeps the record's price, marked ``unchecked``.

A match by MUL id (and a built-in 'Mech's shipped record) is trusted: its price is the
official one under ``official-else-computed`` whatever the computed value (issue 20's
``btsim units check`` reports those disagreements; on the 82 in-scope corpus files with a MUL
id the computed BV equals the MUL's in every one, so the 1% tolerance flags a changed
loadout, not rounding).

Prices are at skill 4 (Alpha Strike) or gunnery 4 / piloting 5 (Classic); the rating scales
the chosen one to the duel's skill as the duel does (:func:`at_skill`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sim.errors import ConfigError, UserError

#: the values of the ``price`` option (module docstring)
PRICES = ("official", "computed", "official-else-computed")
DEFAULT_PRICE = "official-else-computed"
#: relative difference of computed and official BV beyond which a by-name match is not the
#: record's unit (the by-name rule)
BV_TOLERANCE = 0.01
#: the ``price_source`` prefix of a flagged by-name match
BY_NAME_DIFFERS = "MUL by name; computed BV differs: "


def check_price(value: Any) -> str:
    """The ``price`` option (``--price`` / TOML ``price``), else ConfigError naming it."""
    if value not in PRICES:
        raise ConfigError("price", value, "one of " + ", ".join(PRICES) + " (--price, TOML "
                          "key price: the source of each unit's BV/PV)")
    return str(value)


@dataclass(frozen=True)
class UnitPrices:
    """A unit's official and computed base prices (skill 4 / gunnery 4 piloting 5), how the
    official one was found (``how``: ``by MUL id``, ``by name``, ``built-in``, ``shipped
    card``)
    and why one is missing."""

    official: float | None
    official_src: str
    how: str
    computed: float | None
    computed_why: str
    bv_official: int | None = None
    bv_computed: int | None = None
    #: the base price of what the duel plays (Classic ``mech.bv``, Alpha Strike ``card.pv``):
    #: a chosen price equal to it is taken from the duel's facts unchanged
    played: float | None = None


def _design(mech: Any) -> Any:
    from sim.units.design.reader import design_of, read_design_file

    src = Path(mech.source) if getattr(mech, "source", "") else None
    if src is not None and src.suffix.lower() == ".mtf" and src.is_file():
        return read_design_file(src)
    return design_of(mech)


def unit_prices(game: str, name: str) -> UnitPrices:
    """:class:`UnitPrices` of a catalog unit (module docstring); ``name`` without ``@SKILL``.
    Cached per user catalog version (a new ``btsim units import`` recomputes)."""
    from sim.units.user_catalog import user_catalog_version

    return _unit_prices(game, name, user_catalog_version())


@cache
def _unit_prices(game: str, name: str, _version: Any) -> UnitPrices:
    from sim.units.catalog import CONVERTED_SUFFIX, get_alphastrike, lookup

    entry = lookup(name[:-len(CONVERTED_SUFFIX)] if name.lower().endswith(CONVERTED_SUFFIX)
                   else name)
    mech = entry.classic
    bv_off: int | None = None
    how = ""
    off_src = ""
    if mech is not None and mech.bv is not None:
        bv_off = int(mech.bv)
        if not entry.imported:
            how = "built-in"
        elif mech.mul_id is not None and mech.bv_record == mech.mul_id:
            how = "by MUL id"
        else:
            how = "by name"
        rec = mech.bv_record or mech.mul_id
        off_src = f"MUL record {rec}" if rec else (mech.bv_source or "catalog record")
    bv_cmp: int | None = None
    why = "no unit file (an Alpha Strike card only)" if mech is None else ""
    if mech is not None:
        from sim.units.bv2 import battle_value
        try:
            bv_cmp = int(battle_value(_design(mech)).bv)
        except UserError as exc:
            why = " ".join(str(exc).split())
    if game == "classic":
        return UnitPrices(None if bv_off is None else float(bv_off), off_src, how,
                          None if bv_cmp is None else float(bv_cmp), why, bv_off, bv_cmp,
                          None if mech is None or mech.bv is None else float(mech.bv))
    card = get_alphastrike(name)
    pv_off: float | None = None
    pv_how, pv_src = how, off_src
    if card.source != "converted" and card.pv is not None:
        pv_off, pv_how = float(card.pv), "shipped card"
        pv_src = f"MUL card {card.mul_id}" if card.mul_id else "MUL card"
    elif mech is not None and mech.pv is not None:
        pv_off, pv_src = float(mech.pv), mech.pv_source or "MUL record"
    pv_cmp: float | None = None
    pwhy = why if mech is None else ""
    if mech is not None:  # the conversion's scope is not BV2's
        from sim.units.as_conversion import alpha_strike_card
        try:
            pv_cmp = float(alpha_strike_card(_design(mech)).fields["pv"])
        except UserError as exc:
            pwhy = " ".join(str(exc).split())
    return UnitPrices(pv_off, pv_src, pv_how if pv_off is not None else "", pv_cmp, pwhy,
                      bv_off, bv_cmp, None if card.pv is None else float(card.pv))


def by_name_differs(p: UnitPrices) -> bool:
    """The by-name rule's test: matched by name only, computed BV beyond the tolerance."""
    return (p.how == "by name" and p.bv_official is not None and p.bv_computed is not None
            and abs(p.bv_computed - p.bv_official) > BV_TOLERANCE * p.bv_official)


def choose(p: UnitPrices, mode: str, label: str) -> tuple[float | None, str]:
    """(base price or None, ``price_source``) under ``mode`` (module docstring)."""
    unchecked = (", unchecked: no computed BV" if p.how == "by name" and p.bv_computed is None
                 else "")
    official = (f"official: {p.official_src}" + (f" ({p.how}{unchecked})" if p.how else "")
                if p.official is not None else "")
    what = "BV2 from the unit file" if label == "BV" else "PV of the converted card"
    computed = f"computed ({what})" if p.computed is not None else ""
    flag = ""
    if by_name_differs(p):
        flag = (f"{BY_NAME_DIFFERS}{p.bv_computed} vs {p.bv_official} (computed vs "
                f"{p.official_src})")
    no_cmp = f"no computed {label}: {p.computed_why or 'unknown'}"
    if mode == "official":
        if p.official is None:
            return None, f"no official {label} (the MUL has no record of this unit)"
        return p.official, f"{flag}; official kept" if flag else official
    if mode == "computed":
        return (p.computed, computed) if p.computed is not None else (None, no_cmp)
    if flag and p.computed is not None:
        return p.computed, f"{flag}; computed {label} used"
    if p.official is not None:
        return p.official, official
    if p.computed is not None:
        return p.computed, computed + f" (no official {label})"
    return None, f"no price: no official {label}; {no_cmp}"


def at_skill(game: str, base: float, scenario: Any, side: str) -> float:
    """``base`` (skill 4 / gunnery 4 piloting 5) at the skill the duel plays side ``side``
    (``"a"`` or ``"b"``) of ``scenario`` (Classic: 24.2 :func:`sim.classic.bv.bv_at_skill` at
    its gunnery and piloting; Alpha Strike: 23.1 :func:`sim.alphastrike.pv.pv_at_skill` at
    the card's skill, with the duel's ``pv_step_reading``)."""
    if not math.isfinite(base):
        return math.nan
    part = getattr(scenario, side)
    if game == "classic":
        from sim.classic.bv import bv_at_skill

        return float(bv_at_skill(int(base), part.bv["gunnery"], part.bv["piloting"]))
    from sim.alphastrike.pv import pv_at_skill

    return float(pv_at_skill(int(base), part.units[0].skill, scenario.dr.pv_step_reading))


def rated_price(game: str, name: str, scenario: Any, side: str, played: Any, mode: str
                ) -> tuple[float, str]:
    """(price at the duel's skill, ``price_source``) of unit ``name`` (no ``@SKILL``) seated
    on ``side`` of ``scenario``; ``played`` is the duel's own price fact (the played unit's
    price at skill), kept when the chosen base price is the played one, so a unit priced as
    before keeps exactly its old price. NaN when the mode gives no price."""
    label = "BV" if game == "classic" else "PV"
    up = unit_prices(game, name)
    base, src = choose(up, mode, label)
    if base is None:
        return math.nan, src
    if played is not None and up.played is not None and base == up.played:
        return float(played), src
    return at_skill(game, base, scenario, side), src


def short_source(src: str) -> str:
    """A ``price_source`` shortened for a table column: ``official (by MUL id)``,
    ``computed``, ``computed: MUL by name, BV X vs Y``, ``official kept: ...``, ``none``."""
    if not src:
        return ""
    if src.startswith(BY_NAME_DIFFERS):
        xy = src[len(BY_NAME_DIFFERS):].split(" (", 1)[0]
        kept = "official kept" if src.endswith("official kept") else "computed"
        return f"{kept}: MUL by name, BV {xy}"
    if src.startswith("official: "):
        _, paren, rest = src.partition(" (")
        how = rest.split(",", 1)[0].split(")", 1)[0] if paren else ""
        return f"official ({how})" if how else "official"
    if src.startswith("computed"):
        return "computed" + (" (no official)" if "no official" in src else "")
    return "none"
