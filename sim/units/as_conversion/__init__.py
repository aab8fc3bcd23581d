"""A BattleMech converted to an Alpha Strike card from its unit file
(``reference-as-conversion.md``): :func:`alpha_strike_card` returns the card (an
:class:`~sim.units.types.ASCard` whose ``source`` is ``converted``) with its derivation;
options V1-V10 are :class:`~sim.units.as_conversion.rules.ConversionRules`. A unit outside
section 1 raises :class:`~sim.units.bv2.scope.OutOfScope` with the reasons."""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import Any

from sim.units.as_conversion.convert import (
    Derivation,
    card_fields,
    convert,
    dmg_text,
    pv_at_skill,
)
from sim.units.as_conversion.rules import (
    DEFAULT_CONVERSION_RULES,
    ConversionRules,
    conversion_rules,
)
from sim.units.design.reader import Design, design_of, inventory
from sim.units.mul import parse_specials
from sim.units.types import ASCard, ClassicMech

__all__ = ["CONVERTED", "ConvertedCard", "ConversionRules", "alpha_strike_card",
           "pv_at_skill"]

#: ``ASCard.source`` of every converted card
CONVERTED = "converted"


@dataclass(frozen=True)
class ConvertedCard:
    """The converted card, its fields as ``alphastrike.csv`` writes them, the derivation."""

    card: ASCard
    fields: dict[str, Any]
    derivation: Derivation
    rules: dict[str, Any]

    def lines(self) -> list[str]:
        """The derivation, one step a line (reference-as-conversion.md 5 layout)."""
        d = self.derivation
        c = self.fields
        out = [f"Size {d.size} (tonnage band). Move {d.walk:g} MP x 2 = {d.move}\"; jump "
               f"{d.jump}\"; TMM {d.tmm}",
               f"Armor {d.armor_points:g} points / 30 = {d.armor_points / 30:.2f} -> "
               f"{d.armor}. Structure: row {d.structure_row}, -> {d.structure}"]
        for w in d.weapons:
            vals = "/".join(f"{v:.3f}" for v in w.values[:3])
            out.append(f"  weapon {w.name} ({w.location}{', rear' if w.rear else ''}, heat "
                       f"{w.heat}): {vals}" + (f" [{', '.join(w.factors)}]" if w.factors else ""))
        if d.shots:
            out.append("Ammunition (shots): " + ", ".join(f"{k} {v}" for k, v in
                                                          sorted(d.shots.items()))
                       + (f"; low-ammo x0.75 on: {', '.join(d.low_ammo)}" if d.low_ammo
                          else ""))
        out.append("Front raw sums S/M/L/E = " + "/".join(f"{v:.3f}" for v in d.raw))
        heat = (f"Heat: movement {d.move_heat} + front weapons -> M heat {d.m_heat} (L heat "
                f"{d.l_heat}); capacity {d.capacity}.")
        if d.factor < 1:
            heat += (f" M heat - 4 = {d.m_heat - 4} > {d.capacity}: factor {d.factor:.4f}; "
                     f"adjusted S/M/L = " + "/".join(f"{v:.3f}" for v in d.adjusted[:3])
                     + f"; OV {d.ov}" + ("; OVL" if d.ovl else ""))
        else:
            heat += f" M heat - 4 = {d.m_heat - 4} <= {d.capacity}: no adjustment, OV 0"
        out.append(heat)
        out.append(f"Card damage {c['dmg_s']}/{c['dmg_m']}/{c['dmg_l']}, OV {c['ov']}. "
                   f"Specials: {', '.join(c['specials']) or 'none'}")
        out += d.pv_lines
        return out

    def to_dict(self) -> dict[str, Any]:
        return {**self.fields, "name": self.card.name, "source": CONVERTED,
                "derivation": self.lines(), "rules": self.rules}


def alpha_strike_card(unit: ClassicMech | Design | str | PathLike[str],
                      rules: ConversionRules | dict[str, Any] | None = None,
                      skill: int = 4) -> ConvertedCard:
    """The Alpha Strike card of ``unit`` converted from its design (section 2), PV at skill
    4 and then at ``skill`` (2.9 step 5)."""
    r = rules if isinstance(rules, ConversionRules) else (
        conversion_rules(rules) if rules else DEFAULT_CONVERSION_RULES)
    d = design_of(unit)
    inv = inventory(d)
    der = convert(d, inv, r)
    fields = card_fields(der, r)
    shown = ",".join(fields["specials"])
    pv = pv_at_skill(der.pv, skill)
    minimal = tuple(v[1] for v in der.damage)
    card = ASCard(name=d.name, type="BM", size=der.size, move=der.move, jump=der.jump,
                  tmm=der.tmm, armor=der.armor, structure=der.structure,
                  damage=tuple(v[0] for v in der.damage),  # type: ignore[arg-type]
                  minimal=minimal,  # type: ignore[arg-type]
                  ov=der.ov, specials=parse_specials(shown), specials_raw=shown, pv=pv,
                  skill=skill, mul_id=d.mul_id, source=CONVERTED)
    return ConvertedCard(card, fields, der, r.as_dict())


__all__ += ["dmg_text"]
