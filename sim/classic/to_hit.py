"""To-hit numbers of physical attacks (reference section 1).

The attack-specific parts come from the declarations (:mod:`sim.classic.attacks`). Every
function takes an :class:`~sim.classic.attacks.Attack` or its name and returns an ``int``
modifier, or for :func:`target_number` the total and a list of
``(label, modifier)`` terms (the breakdown the CLI prints). Physical attacks never take heat or
sensor modifiers (reference 1.2).
"""

from __future__ import annotations

from collections.abc import Callable

from sim.classic import tables as T
from sim.classic.attacks import Attack, spec
from sim.classic.rules import ClassicRules


def tmm(hexes: int, jumped: bool, table: str = "tw") -> int:
    """Target movement modifier by hexes moved, +1 if it jumped (reference 1.2.2, D16)."""
    rows, top = (T.TMM_TW, T.TMM_TW_MAX) if table == "tw" else (T.TMM_OLD, T.TMM_OLD_MAX)
    mod = top
    for upper, m in rows:
        if hexes <= upper:
            mod = m
            break
    return mod + (1 if jumped else 0)


def _spec(attack: Attack | str) -> Attack:
    return attack if isinstance(attack, Attack) else spec(attack)


def attacker_movement_mod(attack: Attack | str, moved: str) -> int:
    """Attacker movement modifier (reference 1.2.1), unless the attack is exempt
    (``movement_mod`` False: a DFA's jump +3 is part of its base)."""
    return T.ATTACKER_MOVEMENT[moved] if _spec(attack).movement_mod else 0


def terrain_mod(attack: Attack | str, terrain: str, partial_cover: bool,
                rules: ClassicRules) -> int:
    """Target-hex terrain modifier (reference 1.2.3): woods +1/+2; depth-1 water partial cover +1
    (or the attack's ``partial_cover_option``, e.g. ``partial_cover_push_mod`` D7); none when
    the attack's ``terrain_option`` is off (DFA, D9)."""
    a = _spec(attack)
    if a.terrain_option is not None and not getattr(rules, a.terrain_option):
        return 0
    mod = T.TERRAIN[terrain]
    if partial_cover:
        mod += getattr(rules, a.partial_cover_option) if a.partial_cover_option else 1
    return mod


def actuator_mod(attack: Attack | str, bad: Callable[[str, str], bool],
                 missing: Callable[[str, str], bool], limb: str, rules: ClassicRules) -> int:
    """To-hit cost of destroyed/missing actuators (reference 1.3) over the attack's
    ``mod_limbs`` ("own" = ``limb``, "both" = both sides): each bad actuator of
    ``actuator_mods`` costs its modifier; a ``missing_pair`` both missing by design costs the
    rule option ``missing_pair_option`` instead of their sum (D4: punch hand + lower arm)."""
    a = _spec(attack)
    if a.mod_limbs == "none":
        return 0
    sides = ("left", "right") if a.mod_limbs == "both" else (limb,)
    mod = 0
    for sd in sides:
        pair = (a.missing_pair is not None
                and all(missing(sd, x) for x in a.missing_pair))
        for act, m in a.actuator_mods:
            if pair and act in a.missing_pair:  # type: ignore[operator]
                continue
            mod += m * bad(sd, act)
        if pair:
            mod += getattr(rules, a.missing_pair_option)  # type: ignore[arg-type]
    return mod


def base_number(attack: Attack | str, piloting: int, target_piloting: int
                ) -> tuple[int, list[tuple[str, int]]]:
    """Base TN (reference 1.1): Piloting + attack modifier; charge/DFA add the piloting
    difference (attacker - target), DFA +3 for the jump."""
    a = _spec(attack)
    terms = [("piloting", piloting)]
    if a.piloting_difference:
        terms.append(("piloting difference", piloting - target_piloting))
    if a.base_mod:
        terms.append((a.term_label(), a.base_mod))
    return sum(m for _, m in terms), terms


def target_number(attack: Attack | str, *, piloting: int, target_piloting: int,
                  actuator_mod: int, moved: str, target_hexes: int, target_jumped: bool,
                  terrain: str, partial_cover: bool, target_prone: bool, target_immobile: bool,
                  rules: ClassicRules, extra: tuple[tuple[str, int], ...] = ()
                  ) -> tuple[int, list[tuple[str, int]]]:
    """Total TN of one physical attack roll and its breakdown (reference 1.1-1.3).

    TN <= 2 always hits; TN >= 13 cannot hit (checked by the eligibility step)."""
    a = _spec(attack)
    _, terms = base_number(a, piloting, target_piloting)
    terms = list(terms)
    for label, m in (
        ("actuators", actuator_mod),
        ("attacker movement", attacker_movement_mod(a, moved)),
        ("target movement", tmm(target_hexes, target_jumped, rules.tmm_table)),
        ("terrain", terrain_mod(a, terrain, partial_cover, rules)),
        ("target prone", -2 if target_prone else 0),
        ("target immobile", -4 if target_immobile else 0),
        *extra,
    ):
        if m:
            terms.append((label, m))
    return sum(m for _, m in terms), terms
