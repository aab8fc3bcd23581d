"""Which special abilities the duel simulates, as data (reference-as-combat 21.1-21.2).

Every code on a card is either simulated (:data:`SIMULATED`, with the rule it follows) or
reported in the duel's notes with the reference's reason (:data:`NOT_SIMULATED` for codes the
reference says do not matter in a front-on duel or are out of scope; :data:`PENDING` for codes
that can matter but this model does not simulate yet). Nothing is dropped silently: a code in
none of the tables is reported as "not simulated (unknown to the duel model)".
"""

from __future__ import annotations

#: Simulated codes -> the rule applied (reference section).
SIMULATED: dict[str, str] = {
    "AMS": "-1 point (floor A9) against attacks by IF/LRM/SRM units (21.2)",
    "RAMS": "used as AMS on itself (21.2)",
    "CASE": "Ammo Hit: +1 point, roll again if on Structure (6.6)",
    "CASEII": "Ammo Hit has no effect (6.6)",
    "RHS": "End Phase at heat >= 1: -1 heat, then 1D6: a 1 loses the RHS and the reduction",
    "ECS": "End Phase at heat 4: 1D6 >= 2 -> -2 heat; 1 -> lost, Engine Hit",
    "EE": "Engine Hits add no heat; after each later weapon attack 2D6: 12 destroys",
    "CASEP": "Ammo Hit: 1D6, 1-2 destroyed, else no effect (21.2)",
    "ENE": "Ammo Hit has no effect (6.6)",
    "OVL": "overheat also at Long (6.2)",
    "TSM": "at heat >= 1: +2\" ground Move (Move feeds A19 immobility and the closing "
           "distance); its +1 physical damage needs contact, which a duel at range never has",
    "JMPW": "jump TMM -# when jumping (A13)",
    "JMPS": "jump TMM +# when jumping (A13)",
    "SNARC": "Narc attacks before the standard attack (A17), reach Medium; +1 point from "
             "attacks by IF/LRM/SRM units on the narced target unless it has ECM (21.2)",
    "INARC": "as SNARC (21.2, read like SNARC)",
    "CNARC": "as SNARC, reach Short (21.2)",
    "ECM": "cancels an opponent's Narc bonus on itself (21.2); no other duel effect",
    "IF": "no effect with line of sight (standard attack used); makes the unit an IF user for "
          "AMS and Narc (21.2)",
    "LRM": "standard attack used (22.2); makes the unit an LRM user for AMS and Narc",
    "SRM": "standard attack used (22.2); makes the unit an SRM user for AMS and Narc",
    "AC": "standard attack used: the AC special attack is never better (22.2)",
    "ARM": "cancels the first crit chance of the duel (21.2)",
    "BAR": "a crit roll on every successful attack (21.2)",
    "CR": "-2 on crit rolls, literal (A7)",
    "IRA": "+1 on crit rolls, above 12 = Engine Hit (21.2)",
    "STL": "+1 TN at Medium, +2 at Long (A6) against it (21.2)",
    "SHLD": "-1 point (min 0) on attacks against it; +1 TN on its own attacks (21.2)",
    "HT": "heat to the target on a hit, at most 2 per turn (6.6)",
    "FR": "ignores HT heat (21.2)",
    "BRA": "attacks by AC/IATM/IF/LRM/SRM units lose half their points, loss rounded up (A21)",
    "RCA": "attacks by IF/LRM/SRM units lose half the LRM/SRM value at the band, rounded up, "
           "min 1 (A23)",
    "RFA": "ENE attackers' points halved (A10, min 1), other attacks -1 (min 1) (21.2); the "
           "halving of HT heat is not simulated (no card in the catalog has HT)",
    "MAS": "+3 TN against it while it stood still or is immobile (21.2)",
    "LMAS": "+2 TN against it while it stood still or is immobile (21.2)",
    "BHJ2": "recovers 1 armor per End Phase while Armor >= 1 after damage (A8)",
    "BHJ3": "recovers 2 armor per End Phase while Armor >= 1 after damage (A8)",
    "MEL": "+1 melee damage: a duel at range makes no physical attacks, so it never applies",
}

#: Codes the reference marks as not mattering in a front-on duel, or out of scope (21.2 c).
NOT_SIMULATED: dict[str, str] = {
    "ARTAIS": "artillery not used directly in a duel (A15)",
    "FLK": "only against airborne units (21.2)",
    "OMNI": "transport of battle armor, no duel effect (21.2)",
    "PRB": "scouting, no duel effect (21.2 c)",
    "RCN": "initiative/intelligence, no duel effect (21.2 c)",
    "REAR": "only outside the front arc; the duel is front-on (20.6)",
    "TUR": "only outside the front arc; the duel is front-on (20.6)",
    "C3M": "needs a C3 network (21.2 c)", "C3S": "needs a C3 network (21.2 c)",
    "C3I": "needs a C3 network (21.2 c)", "MHQ": "no duel effect (21.2 c)",
    "TAG": "spotting, no duel effect (21.2 c)", "LPRB": "scouting, no duel effect (21.2 c)",
    "AECM": "no duel effect (21.2 c)", "LECM": "no duel effect (21.2 c)",
    "WAT": "no duel effect (21.2 c)", "BH": "no duel effect (21.2 c)",
    "BHJ": "hull breaches only (21.2)",
    "LG": "no 'Mech has it (21.2)", "VLG": "no 'Mech has it (21.2)",
    "SLG": "no 'Mech has it (21.2)",
}

#: Codes that can matter in a duel (reference 21.2 "yes"/"cond.") but are not simulated by
#: this model yet: reported in the notes so a result never hides them.
PENDING: dict[str, str] = {
    "MTAS": "taser attacks", "BTAS": "taser attacks", "TSEMP": "EMP attacks (A17)",
    "PNT": "point defense (A20)", "VR": "ECM vulnerability", "DN": "pilot option",
    "IATM": "magnetic pulse / inferno", "REL": "cancels RFA", "ABA": "immune to tasers",
    "I-TSM": "physical attacks only", "TSMX": "physical attacks only",
    "DJ": "jammers", "HJ": "jammers",
}


def note_for(code: str, raw: str | None = None) -> str | None:
    """The note for a card's special ``code`` (``raw``: the token as written, e.g. ``BHJ2``,
    which the card parser reads as code ``BHJ`` with value 2), or None when it is simulated."""
    raw = raw or code
    if raw in SIMULATED:
        return None
    for key in (raw, code):
        if key in PENDING:
            return (f"{raw}: matters in a duel ({PENDING[key]}) but is NOT simulated by this "
                    "model")
    if code in SIMULATED:
        return None
    if code in NOT_SIMULATED:
        return f"{raw}: not simulated, {NOT_SIMULATED[code]}"
    return f"{raw}: not simulated (unknown to the duel model)"
