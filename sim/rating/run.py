"""A rating run (issue 23): every rated unit plays a reference pool in a declared set of
scenarios, both seatings, with duels allocated where they change the answer; the fit and the
verdicts are :mod:`sim.rating.fit`.

Plan
----
* **Units**: the names given, or every unit of the game in the catalog (``--all``, built-in
  plus imported). **Pool** (``auto``): :data:`POOL_SIZE` units of the game's catalog spread
  over weight (tonnage, or Alpha Strike size) and price: the candidates sorted by (weight,
  price) and taken at evenly spaced ranks, fully simulated ones first; the chosen names are
  recorded. Every rated unit plays every pool unit but itself (pool units play each other).
* **Scenarios**: the declared set (default :func:`default_scenarios`: short, medium and long
  range played ``competent`` by both sides, plus the tactic matrix's **maximin**), each
  optionally crossed with a set of tactics; both seatings (A against B and B against A) in
  every scenario. A scenario's ``tactic = "T"`` is played by both sides (:func:`tactic_params`:
  ``tactic_a = tactic_b = T``, Alpha Strike and Classic alike: issue 22's tactics, which
  choose movement and fire each turn); the tactics played are recorded (:func:`tactic_text`).
* **Maximin scenario** (``maximin = true`` or a list of tactics; issue 22's tactic matrix):
  each pairing is first *screened*: every tactic of the set for A against every one for B,
  ``screen_trials`` duels a cell (default: one chunk), from streams of their own
  (:data:`SCREEN_STREAM` + cell); each side then plays its pure maximin tactic
  (:func:`sim.tactics.maximin`: A the tactic whose worst score over B's replies is best, B the
  one that holds A's best reply lowest), and the pairing's duels under those two tactics are
  allocated like any other pairing's, from fresh streams, so the screening's noise picks the
  tactics but does not bias the score that is fitted. The screen matrices and the chosen
  tactics are recorded (``meta["maximin"]``, the pairings' ``tactic_a``/``tactic_b``). Cost: a
  screen of ``k x k`` cells a pairing (Alpha Strike, 6 tactics at free movement: about 45 ms
  CPU a cell, whatever its duels, so ~1.6 s a pairing; Classic, 2 tactics
  (:data:`CLASSIC_MAXIMIN`): each competent cell fills its decision table, ~0.5-1 s CPU, so
  ~2 s a pairing).
* **Catalog** (``catalog``): ``builtin`` (the shipped catalog: what ``make report`` rates) or
  ``all`` (built-in plus the units imported with ``btsim units import``): every unit that can
  play the game: Alpha Strike, a unit with a MUL card or whose design converts to a card
  (:func:`sim.units.catalog.get_alphastrike`); Classic, every unit with Classic data that the
  Classic duel plays (:func:`classic_refusal`: it refuses quads), complete or not. The units
  a game refuses are listed as left out (``meta["left_out"]``), each with the reason.
  ``max_units`` caps the units rated (:func:`cap_units`: the fully simulated ones first, at
  evenly spaced ranks of weight, price and name; then, if fewer than ``max_units`` are, the
  others at evenly spaced ranks; recorded): the Classic duel's cost per pairing is the limit
  there.
* **Completeness**: a unit with anything not simulated (a card special the Alpha Strike duel
  does not simulate, a Classic item or physical weapon the duel notes as not simulated, or a
  catalog record marked ``simulated = "incomplete"``, or Classic equipment that Battle Value
  prices but the duel gives no effect: ECM, active probes, A-Pods, CASE II,
  :data:`CLASSIC_SIMULATED`) is rated but gets no verdict, and the reason is printed beside it. Classic design quirks (an optional rule, off by default, that
  Battle Value does not price) do not count.

Adaptive allocation
-------------------
Duels are run in rounds. In round ``r`` every still-active Monte Carlo pairing has ``2^r``
chunks of ``chunk_size`` duels (chunk ``c`` of pairing ``g`` always draws from
``SeedSequence(seed, spawn_key=(g, c))`` through :func:`sim.engine.sample_run`, the one
Monte Carlo loop, so a pairing's numbers are those of a plain run of it with as many duels).
After each round (a chunk boundary) every scenario is refitted and a unit is *settled* when
its strength's 95% half-width is at most ``target_error``, or when no number of further duels
can move its verdict: even with no Monte Carlo error left its residual could not reach the
least strict Holm threshold, or it already passes the strictest (Bonferroni) one by two
standard errors. A pairing stops when both its units are settled or it reached
``max_trials``. Decisions depend only on the folded results, so a rating is bit-identical
for any ``--jobs`` or backend; with a results folder, finished chunks are cached
(:class:`sim.cache.ChunkCache`), so the same command resumes an interrupted rating. Exact
pairings (``exact=True``, Alpha Strike 1-vs-1 whose chain fits) need no sampling.
Because each round's chunks are known once the rounds before are folded, a rating shards
round by round (``btsim run --shard I/N``, ``sharding``): every shard computes its share of
each round, waits for the others' chunks in the shared cache and takes the same decision
(:mod:`sim.rating.shards`).
"""

from __future__ import annotations

import math
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import ConfigError, UserError, check_int
from sim.rating import fit as F
from sim.rating import prices as P

#: the games a rating plays: model, price (fact stem), side parameters, default chunk
GAMES: dict[str, dict[str, Any]] = {
    "alphastrike": {"model": "duel", "price": "pv", "sides": ("a", "b"), "chunk": 500,
                    "max_trials": 8000, "label": "PV"},
    "classic": {"model": "classic-duel", "price": "bv", "sides": ("unit_a", "unit_b"),
                "chunk": 100, "max_trials": 800, "label": "BV"},
}
#: units in an automatic pool
POOL_SIZE = {"alphastrike": 5, "classic": 4}
#: default 95% half-width target of a strength (logit units)
TARGET_ERROR = 0.35
#: what a scenario without a tactic plays: each duel model's own default (recorded)
TACTIC_ASSUMPTION = {
    "alphastrike": "the duel's default (competent: at a fixed band it picks the movement "
                   "mode and its fire each turn, heat-aware), front-on in clear terrain, "
                   "skill 4",
    "classic": "the duel's default: both 'Mechs stand still and fire every weapon in reach "
               "every turn (stand-and-fire, policy 'all'), Gunnery 4 / Piloting 5",
}
#: what each named tactic means in a rating's text
TACTIC_MEANING = {
    "alphastrike": "Alpha Strike tactics of sim.alphastrike.duel.tactics (competent: moving "
                   "first the move whose worst case is best, moving second the best reply; "
                   "heat-aware fire; at a fixed band only the mode and the fire are chosen)",
    "classic": "Classic tactics of sim.classic.duel.tactics (competent: initiative each turn, "
               "moving first the move whose worst case is best, moving second the best reply, "
               "heat-aware max-expected fire; the scenario's range is the start distance and "
               "the field's depth; stand-and-fire: stand and fire everything), Gunnery 4 / "
               "Piloting 5",
}
#: spawn key offset of the maximin screen's cells (never a pairing's stream)
SCREEN_STREAM = 1 << 24
#: scenario keys of a rating (besides the duel model's parameters)
SCENARIO_KEYS = ("name", "tactic", "maximin", "screen_trials")
OUTCOMES = ("p_win_a", "p_win_b", "p_draw", "p_timeout")


def default_scenarios(game: str) -> list[dict[str, Any]]:
    """The issue's declared set: short, medium and long range with both sides ``competent``,
    plus the tactic matrix's maximin (Alpha Strike: free movement from 40", every named
    tactic; Classic: from 9 hexes, competent and stand-and-fire, :data:`CLASSIC_MAXIMIN`)."""
    if game == "classic":
        return [*({"name": n, "range": r, "turns": 15, "tactic": "competent"}
                  for n, r in (("short", 3), ("medium", 9), ("long", 15))),
                {"name": "maximin", "range": 9, "turns": 15, "maximin": True}]
    return [*({"name": n, "range": n, "tactic": "competent"} for n in ("short", "medium", "long")),
            {"name": "maximin", "range": "free", "maximin": True}]


def tactic_names(game: str) -> tuple[str, ...]:
    """The named tactics of a game (the maximin scenario's default set)."""
    if game == "alphastrike":
        from sim.alphastrike.duel.tactics import NAMES

        return tuple(NAMES)
    from sim import tactics as G
    from sim.classic.duel.tactics import GAME

    return G.named(GAME)


#: the Classic maximin scenario's default tactic set: a Classic cell costs its decision
#: table (~1 s CPU for a new pairing), so the default screens these two, not all six
CLASSIC_MAXIMIN = ("competent", "stand-and-fire")


def tactic_params(game: str, ta: str, tb: str) -> dict[str, Any]:
    """The duel parameters of side A playing tactic ``ta`` and B ``tb`` (ConfigError naming
    ``tactic`` for a tactic the game does not have)."""
    names = tactic_names(game)
    for t in (ta, tb):
        if t not in names:
            raise ConfigError("tactic", t, f"a {game} tactic: one of " + ", ".join(names))
    return {"tactic_a": ta, "tactic_b": tb}


def maximin_set(game: str, sc: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The tactic set of a maximin scenario (None: not one)."""
    m = sc.get("maximin", False)
    if m is False or m is None:
        return None
    if m is True:
        return CLASSIC_MAXIMIN if game == "classic" else tactic_names(game)
    if not isinstance(m, list | tuple) or len(m) < 2 or not all(isinstance(t, str) for t in m):
        raise ConfigError("maximin", m, "true (every tactic of the game) or a list of at least "
                          "two tactic names")
    for t in m:
        tactic_params(game, t, t)
    return tuple(dict.fromkeys(m))


def scenario_params(game: str, sc: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario's duel parameters (its tactic translated by :func:`tactic_params`)."""
    base = {k: v for k, v in sc.items() if k not in SCENARIO_KEYS}
    if sc.get("tactic") is not None:
        if maximin_set(game, sc) is not None:
            raise ConfigError("tactic", sc["tactic"], "not in a maximin scenario (it chooses "
                              "each side's tactic)")
        base.update(tactic_params(game, str(sc["tactic"]), str(sc["tactic"])))
    return base


def tactic_text(game: str, scenarios: Sequence[Mapping[str, Any]]) -> str:
    """What the scenarios' units do, for the rating's assumptions line."""
    parts: dict[str, list[str]] = {}
    for sc in scenarios:
        ms = maximin_set(game, sc)
        what = (f"each side its pure maximin over {', '.join(ms)}" if ms is not None
                else f"both {sc['tactic']}" if sc.get("tactic") is not None
                else f"default ({TACTIC_ASSUMPTION[game]})")
        parts.setdefault(what, []).append(str(sc["name"]))
    return "; ".join(f"{w} in {', '.join(n)}" for w, n in parts.items()) + \
        f" [{TACTIC_MEANING[game]}]"


def check_game(game: Any) -> str:
    if game not in GAMES:
        raise ConfigError("game", game, "one of " + ", ".join(GAMES))
    return str(game)


def read_scenarios(path: str | Path) -> tuple[list[dict[str, Any]], list[str] | None]:
    """A scenarios file (TOML): ``[[scenario]]`` tables with a ``name`` and duel parameters,
    and an optional ``tactics = [...]`` crossed with them."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError("scenarios", str(path), "an existing TOML file of [[scenario]] tables")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{p}: not valid TOML: {exc}") from None
    return check_scenarios(data.get("scenario")), data.get("tactics")


def check_scenarios(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw or not all(
            isinstance(s, Mapping) and isinstance(s.get("name"), str) and s["name"]
            for s in raw):
        raise ConfigError("scenarios", raw, "a non-empty list of tables, each with a name "
                          "and duel parameters")
    names = [s["name"] for s in raw]
    if len(set(names)) != len(names):
        raise ConfigError("scenarios", names, "distinct scenario names")
    return [dict(s) for s in raw]


# -- units, prices, completeness, pool ----------------------------------------------------------
CATALOGS = ("builtin", "all")


def check_catalog(catalog: Any) -> str:
    if catalog not in CATALOGS:
        raise ConfigError("catalog", catalog, "builtin (the shipped catalog) or all (built-in "
                          "plus the units imported with btsim units import)")
    return str(catalog)


def catalog_units(game: str, catalog: str = "builtin") -> list[str]:
    """Every unit of the catalog (``builtin`` or ``all``) that can play the game, by name
    (module docstring)."""
    return catalog_split(game, catalog)[0]


def catalog_split(game: str, catalog: str = "builtin") -> tuple[list[str], dict[str, str]]:
    """(units that can play the game, {unit left out: why}) of a catalog (module docstring)."""
    from sim.units.catalog import all_entries, converted_card, entries

    every = entries() if check_catalog(catalog) == "builtin" else all_entries()
    names: list[str] = []
    left: dict[str, str] = {}
    for e in every:
        if game == "alphastrike":
            if e.card is None and e.classic is not None:
                try:
                    converted_card(e.classic)
                except UserError as exc:
                    why = str(exc).removeprefix(f"{e.name}: ")
                    left[e.name] = f"no Alpha Strike card: {why}"
                    continue
            if e.card is not None or e.classic is not None:
                names.append(e.name)
        elif e.classic is not None:
            refused = classic_refusal(e.classic)
            if refused is not None:
                left[e.name] = f"cannot play: {refused}"
                continue
            names.append(e.name)
    return names, left


def classic_refusal(mech: Any) -> str | None:
    """Why the Classic duel refuses ``mech`` (not a biped or quad: :func:`sim.units.usable.require_biped`),
    from the duel itself (its scenario built with the unit on both sides), else None. A unit
    the duel plays with something not simulated is not refused: it is rated, without a
    verdict (:func:`unsimulated`)."""
    from sim.models import get_model

    try:
        get_model("classic-duel").scenario({"unit_a": mech, "unit_b": mech, "range": 3})
    except UserError as exc:
        return str(exc).removeprefix("unit_a: ").removeprefix(f"{mech.name}: ")
    return None


def _unit(game: str, name: str) -> Any:
    from sim.units.catalog import get_alphastrike, get_classic

    base, _ = split_skill(name)
    return get_alphastrike(base) if game == "alphastrike" else get_classic(base)


def split_skill(label: str) -> tuple[str, int | None]:
    """``"Griffin GRF-2N@3"`` -> ``("Griffin GRF-2N", 3)`` (an Alpha Strike card at a skill);
    no ``@``: skill None."""
    name, sep, skill = str(label).rpartition("@")
    return (name, int(skill)) if sep and skill.strip().isdigit() else (str(label), None)


def canonical(game: str, label: str) -> str:
    """The catalog name of a unit (unique prefixes and aliases work), keeping an Alpha Strike
    ``@SKILL``: the same card at another skill is another unit with its own PV."""
    from sim.units.catalog import lookup

    name, skill = split_skill(label)
    if skill is not None and game != "alphastrike":
        raise ConfigError("units", label, "a unit name (UNIT@SKILL only with --game "
                          "alphastrike; Classic skills are duel parameters)")
    return lookup(name).name + (f"@{skill}" if skill is not None else "")


def unsimulated(game: str, name: str, notes: Sequence[str] = ()) -> list[str]:
    """What of the unit is not simulated (module docstring); empty when nothing."""
    obj = _unit(game, name)
    out: list[str] = []
    name = split_skill(name)[0]
    if str(getattr(obj, "simulated", "complete")) == "incomplete":
        out.append("catalog: simulated = incomplete")
    if game == "alphastrike":
        from sim.alphastrike.duel.specials import note_for

        out += [n for c, s in obj.specials.items() if (n := note_for(c, s.raw))]
    else:
        from sim.classic.weapons import EQUIPMENT

        out += [n[len(name) + 2:] for n in notes if n.startswith(f"{name}: ")
                and "not simulated" in n and "design quirks" not in n]
        idle = sorted({k for k, _ in getattr(obj, "equipment", ())
                       if k in EQUIPMENT and EQUIPMENT[k].kind not in CLASSIC_SIMULATED})
        out += [f"{k}: no effect in the duel (Battle Value prices it)" for k in idle]
        out += [f"unknown equipment {n!r}: not simulated"
                for n, *_ in getattr(obj, "unknown_equipment", ())]
        if not out:
            from sim.units.usable import incomplete_note

            note = incomplete_note(obj)
            out += [note] if note else []
    lead = f"{name} is incomplete: not simulated: "  # the reason says "not simulated" once
    return list(dict.fromkeys(n.removeprefix(lead) for n in out))


#: Classic equipment kinds (sim/classic/data/equipment.csv) whose effect the duel simulates;
#: any other (ECM, active probe, A-Pod, CASE II) is priced by BV but does nothing in a duel
CLASSIC_SIMULATED = frozenset({"heat_sink", "double_heat_sink", "jump_jet", "case", "structure",
                               "armor", "targeting_computer"})


def _weight(game: str, name: str) -> float:
    obj = _unit(game, name)
    return float(obj.size if game == "alphastrike" else obj.tons)


def _rows(game: str, names: Sequence[str], price: str = P.DEFAULT_PRICE
          ) -> list[tuple[int, float, float, str]]:
    """(0 if nothing is unsimulated else 1, weight, base price under the ``price`` option
    (0 when none), name) of each unit."""
    rows = []
    for n in names:
        base, _ = P.choose(P.unit_prices(game, split_skill(n)[0]), price,
                           GAMES[game]["label"])
        rows.append((0 if not unsimulated(game, n) else 1, _weight(game, n),
                     float(base or 0), n))
    return rows


def _ranks(rows: Sequence[tuple[int, float, float, str]], k: int) -> list[str]:
    """The names of ``k`` of ``rows`` at evenly spaced ranks of (weight, price, name)."""
    pick_from = sorted(rows, key=lambda r: (r[1], r[2], r[3]))
    m = len(pick_from)
    if k <= 0 or not m:
        return []
    idx = sorted({round(q * (m - 1) / max(k - 1, 1)) for q in range(min(k, m))})
    return [pick_from[i][3] for i in idx]


def spread(game: str, names: Sequence[str], k: int, price: str = P.DEFAULT_PRICE
           ) -> list[str]:
    """``k`` of ``names`` at evenly spaced ranks of (weight, price, name), from the fully
    simulated ones when there are ``k`` of them, else from all (the automatic pool)."""
    rows = _rows(game, names, price)
    full = [r for r in rows if r[0] == 0]
    return _ranks(full if len(full) >= k else rows, k)


def cap_units(game: str, names: Sequence[str], k: int, price: str = P.DEFAULT_PRICE
              ) -> list[str]:
    """The ``k`` of ``names`` a rating capped by ``max_units`` rates (module docstring):
    the units that can get a verdict (nothing unsimulated) first: ``k`` of them at evenly
    spaced ranks of (weight, price, name) when there are at least ``k``, else all of them
    plus ``k - n`` of the others at evenly spaced ranks of theirs; in ``names``' order."""
    rows = _rows(game, names, price)
    full = [r for r in rows if r[0] == 0]
    rest = [r for r in rows if r[0] != 0]
    chosen = set(_ranks(full, k) if len(full) >= k
                 else [r[3] for r in full] + _ranks(rest, k - len(full)))
    return [n for n in names if n in chosen]


def auto_pool(game: str, size: int | None = None, candidates: Sequence[str] | None = None,
              catalog: str = "builtin", price: str = P.DEFAULT_PRICE) -> tuple[list[str], str]:
    """The automatic pool (module docstring) and how it was chosen."""
    k = POOL_SIZE[game] if size is None else size
    names = list(candidates) if candidates is not None else catalog_units(game, catalog)
    pool = spread(game, names, k, price)
    how = (f"{len(pool)} of the {len(names)} units of the {catalog} catalog, fully simulated "
           f"ones first, at evenly spaced ranks of (weight: "
           f"{'size' if game == 'alphastrike' else 'tons'}, then price)")
    return pool, how


# -- pairings -----------------------------------------------------------------------------------
@dataclass
class Pairing:
    """One duel setting: scenario index, side A and B units, its parameters; and its
    outcome counts (``n`` duels; ``exact``: the counts are probabilities)."""

    scenario: int
    a: str
    b: str
    params: dict[str, Any]
    exact: bool = False
    n: int = 0
    counts: tuple[float, float, float] = (0.0, 0.0, 0.0)  # win, loss, tie of A
    #: a maximin scenario's tactic set; after the screen, the tactics played and its matrix
    maximin: tuple[str, ...] | None = None
    tactics: tuple[str, str] | None = None
    screen: list[list[float]] | None = None


@dataclass
class Plan:
    game: str
    units: list[str]
    pool: list[str]
    pool_how: str
    scenarios: list[dict[str, Any]]
    pairings: list[Pairing] = field(default_factory=list)

    @property
    def everyone(self) -> list[str]:
        return list(dict.fromkeys([*self.units, *self.pool]))


def expand_scenarios(scenarios: Sequence[Mapping[str, Any]], tactics: Sequence[str] | None
                     ) -> list[dict[str, Any]]:
    """Scenarios crossed with tactics (``tactic = T``, both sides; name ``"<name>, T"``); a
    maximin scenario, which chooses the tactics itself, is kept once."""
    if not tactics:
        return [dict(s) for s in scenarios]
    if not isinstance(tactics, list | tuple) or not all(isinstance(t, str) for t in tactics):
        raise ConfigError("tactics", tactics, "a list of tactic names")
    out: list[dict[str, Any]] = []
    for s in scenarios:
        if s.get("maximin") not in (None, False):
            out.append(dict(s))
        else:
            out += [{**s, "name": f"{s['name']}, {t}", "tactic": t} for t in tactics]
    return out


def plan(game: str, units: Sequence[str], pool: Sequence[str] | str = "auto",
         scenarios: Sequence[Mapping[str, Any]] | None = None,
         tactics: Sequence[str] | None = None, seatings: str = "both",
         pool_size: int | None = None, rule_overrides: Mapping[str, Any] | None = None,
         catalog: str = "builtin", price: str = P.DEFAULT_PRICE) -> Plan:
    """Every pairing of a rating (module docstring)."""
    game = check_game(game)
    if seatings not in ("both", "one"):
        raise ConfigError("seatings", seatings, "'both' (A-B and B-A) or 'one'")
    names = [canonical(game, u) for u in units]
    if not names:
        raise ConfigError("units", list(units), "at least one unit (or --all)")
    if isinstance(pool, str) and pool == "auto":
        chosen, how = auto_pool(game, pool_size, catalog=catalog, price=price)
    else:
        chosen = [canonical(game, u) for u in ([pool] if isinstance(pool, str) else pool)]
        how = "given"
    if not chosen:
        raise ConfigError("pool", pool, "'auto' or a list of unit names")
    scns = expand_scenarios(check_scenarios(list(scenarios or default_scenarios(game))),
                            tactics)
    pl = Plan(game, list(dict.fromkeys(names)), list(dict.fromkeys(chosen)), how, scns)
    side_a, side_b = GAMES[game]["sides"]
    pairs = sorted({tuple(sorted((u, p))) for u in pl.everyone for p in pl.pool if u != p})
    for si, sc in enumerate(scns):
        base = scenario_params(game, sc)
        ms = maximin_set(game, sc)
        if sc.get("screen_trials") is not None:
            check_int("screen_trials", sc["screen_trials"], lo=1)
        for x, y in pairs:
            for a, b in ((x, y), (y, x)) if seatings == "both" else ((x, y),):
                prm = {**base, side_a: a, side_b: b, **dict(rule_overrides or {})}
                pl.pairings.append(Pairing(si, a, b, prm, maximin=ms))
    if not pl.pairings:
        raise ConfigError("pool", chosen, "a pool with at least one unit besides the rated one")
    return pl


# -- the run ------------------------------------------------------------------------------------
class _View:
    """The chunk cache of the active pairings as :func:`sim.engine.sample_run` sees it
    (scenario ``s`` of the round is pairing ``ids[s]``): earlier rounds' chunks from memory,
    resumed ones from the results folder's cache."""

    def __init__(self, mem: dict[int, dict[tuple[int, int], Any]], ids: list[int],
                 backing: Any) -> None:
        self.mem, self.ids, self.backing = mem, ids, backing

    def load(self, s: int) -> dict[tuple[int, int], Any]:
        g = self.ids[s]
        have = dict(self.backing.load(g)) if self.backing is not None else {}
        have.update(self.mem.get(g, {}))
        return have

    def save(self, task: Any, aggs: Sequence[Any]) -> None:
        g = self.ids[task.scenario_index]
        box = self.mem.setdefault(g, {})
        for c, agg in zip(range(task.first_chunk, task.last_chunk), aggs, strict=True):
            box[(c, agg.n)] = agg
        if self.backing is not None:
            self.backing.save(replace(task, scenario_index=g), aggs)


#: pairings (or screen cells) built and played at once. A built Classic scenario holds both
#: sides' fire situations against that opponent (1-3 MB), and a rating of a few hundred
#: units has thousands of pairings: held all at once they took 18 GB for 282 units. So a
#: rating keeps only parameters and builds a step's scenarios this many at a time (the
#: results do not change: a pairing's chunks are seeded by its own stream and folded alone).
BATCH = 128


class _Lazy(Sequence[Any]):
    """The scenarios of ``params`` built on access and not kept (for one pass over them, as
    :meth:`sim.cache.ChunkCache.bind` makes)."""

    def __init__(self, model: Any, params: Sequence[Mapping[str, Any]]) -> None:
        self.model, self.params = model, params

    def __len__(self) -> int:
        return len(self.params)

    def __getitem__(self, i: Any) -> Any:
        return self.model.scenario(self.params[i])


def _batches(ids: Sequence[int], size: int = BATCH) -> list[list[int]]:
    """``ids`` cut into consecutive runs of at most ``size``."""
    return [list(ids[i:i + size]) for i in range(0, len(ids), size)]


def _counts(agg: Any) -> tuple[int, tuple[float, float, float]]:
    def tot(name: str) -> float:
        return float(agg.stats[name][0, 1])

    return int(agg.n), (tot("p_win_a"), tot("p_win_b"), tot("p_draw") + tot("p_timeout"))


@dataclass
class Fits:
    """Per scenario (and ``pooled``): the fit and judgement, unit order :attr:`Plan.everyone`."""

    fits: list[F.BTFit]
    judgements: list[F.Judgement]
    pooled: F.BTFit
    pooled_judgement: F.Judgement


def records(pl: Plan, scenario: int | None = None) -> dict[str, np.ndarray]:
    """The records of a scenario (None: all) as arrays (i, j, s, v, n, exact)."""
    idx = {u: k for k, u in enumerate(pl.everyone)}
    ps = [p for p in pl.pairings if scenario is None or p.scenario == scenario]
    w = np.array([p.counts[0] for p in ps], float)
    lo = np.array([p.counts[1] for p in ps], float)
    t = np.array([p.counts[2] for p in ps], float)
    n = np.array([0 if p.exact else p.n for p in ps], float)
    s, v = F.score_stats(w, lo, t, n)
    return {"i": np.array([idx[p.a] for p in ps], np.intp),
            "j": np.array([idx[p.b] for p in ps], np.intp), "s": s, "v": v, "n": n,
            "exact": np.array([p.exact for p in ps], bool)}


def fit_all(pl: Plan, price: np.ndarray, judged: np.ndarray, reasons: list[str],
            correction: str) -> Fits:
    """Every scenario's fit and judgement, and the pooled ones; the correction's family is
    the rated units (:attr:`Plan.units`; :func:`sim.rating.fit.judge`)."""
    k = len(pl.everyone)
    rated = np.isin(np.array(pl.everyone, dtype=object), np.array(pl.units, dtype=object))
    fits, judgements = [], []
    for si in range(len(pl.scenarios)):
        r = records(pl, si)
        f = F.bradley_terry(r["i"], r["j"], r["s"], r["v"], k)
        fits.append(f)
        judgements.append(F.judge(f, price, judged, list(reasons), correction, rated=rated))
    r = records(pl)
    pooled = F.bradley_terry(r["i"], r["j"], r["s"], r["v"], k)
    return Fits(fits, judgements, pooled, F.judge(pooled, price, judged, list(reasons),
                                                  correction, rated=rated))


def _t_ppf(q: float, df: int) -> float:
    """Student's t quantile; ``scipy.stats`` imported on first use (~1 s to import)."""
    from scipy import stats

    return float(stats.t.ppf(q, df))


def settled(f: F.BTFit, jd: F.Judgement, judged: np.ndarray, target_error: float,
            alpha: float = F.ALPHA) -> np.ndarray:
    """Units whose answer further duels cannot change (module docstring)."""
    precise = F.Z95 * f.se <= target_error
    m = max(jd.family, 1)  # the correction's family: every rated unit
    out = precise.copy()
    for u in np.flatnonzero(~precise & judged & np.isfinite(jd.residual)):
        df = int(jd.df[u])
        c_lo = F.t975(df)
        c_hi = float(_t_ppf(1 - alpha / (2 * m), df)) if df > 0 else math.inf
        r, v, ln = abs(jd.residual[u]), jd.mc_var[u], jd.line_var[u]
        never = r + 2 * math.sqrt(v) < c_lo * math.sqrt(ln)
        decided = r - 2 * math.sqrt(v) > c_hi * math.sqrt(v + ln)
        out[u] = never or decided
    return out


@dataclass
class Rating:
    """A finished rating: the tidy ``frame`` (one row per unit and scenario, ``scenario =
    "all"`` for the run's verdict), the ``pairings`` frame and the ``meta`` document."""

    frame: pd.DataFrame
    pairings: pd.DataFrame
    meta: dict[str, Any]


def rate(units: Sequence[str] | None = None, *, game: str = "alphastrike",
         pool: Sequence[str] | str = "auto", scenarios: Sequence[Mapping[str, Any]] | None = None,
         tactics: Sequence[str] | None = None, seatings: str = "both",
         pool_size: int | None = None, target_error: float = TARGET_ERROR,
         max_trials: int | None = None, chunk_size: int | None = None, seed: int = 0,
         n_jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
         exact: bool = False, correction: str = "holm", alpha: float = F.ALPHA,
         rule_overrides: Mapping[str, Any] | None = None, cache_dir: str | Path | None = None,
         progress: bool | str | None = "never", catalog: str = "builtin",
         max_units: int | None = None, price: str = P.DEFAULT_PRICE,
         sharding: Any = None) -> Rating:
    """Rate ``units`` (None: every unit of the game in ``catalog``, at most ``max_units`` of
    them) against a pool (module docstring); :func:`sim.rating.fit` has the statistics.
    ``sharding``: a :class:`sim.rating.shards.Sharding` (with ``cache_dir``, the shared
    results folder's cache): this process computes only its share of each round and reads
    the other shards' chunks from the cache (:mod:`sim.rating.shards`); the result is the
    same bits."""
    from sim import engine
    from sim.cache import ChunkCache
    from sim.models import get_model

    t0 = time.perf_counter()
    game = check_game(game)
    price_mode = P.check_price(price)
    if correction not in F.CORRECTIONS:
        raise ConfigError("correction", correction, "one of " + ", ".join(F.CORRECTIONS))
    if isinstance(target_error, bool) or not isinstance(target_error, int | float) \
            or not 0 < target_error < math.inf:
        raise ConfigError("target_error", target_error, "a positive number (95% half-width "
                          "of a strength, logit units)")
    g = GAMES[game]
    model = get_model(g["model"])
    chunk = int(chunk_size or g["chunk"])
    cap = int(max_trials or g["max_trials"])
    if chunk < 1 or cap < chunk:
        raise ConfigError("max_trials", cap, f"at least the chunk size ({chunk})")
    if exact and game != "alphastrike":
        raise ConfigError("exact", exact, "only with --game alphastrike (the Classic duel "
                          "has no exact chain)")
    catalog = check_catalog(catalog)
    left: dict[str, str] = {}
    units_how = "given"
    if not units:
        units, left = catalog_split(game, catalog)
        units_how = f"every unit of the {catalog} catalog that can play {game}"
        if max_units is not None:
            k = check_int("max_units", max_units, lo=2)
            if len(units) > k:
                units_how = (f"{k} of the {len(units)} units of the {catalog} catalog that can "
                             f"play {game} (max_units): the fully simulated ones first, at "
                             "evenly spaced ranks of (weight, price, name)")
                units = cap_units(game, units, k, price_mode)
    pl = plan(game, list(units), pool, scenarios, tactics, seatings, pool_size,
              rule_overrides, catalog, price_mode)
    if sharding is not None and cache_dir is None:
        raise ValueError("a sharded rating needs the shared results folder's cache_dir")
    screen_duels = screen(model, pl, seed, chunk, n_jobs, backend, scheduler, cache_dir,
                          sharding)
    scns = _Lazy(model, [p.params for p in pl.pairings])
    everyone = pl.everyone
    where = {u: k for k, u in enumerate(everyone)}
    # prices and what is not simulated, from each unit's first pairing as side A
    # under the price option (sim.rating.prices), with each one's source
    prices = np.full(len(everyone), np.nan)
    sources = [""] * len(everyone)
    notes: dict[str, list[str]] = {}
    for gi, p in enumerate(pl.pairings):
        k = where[p.a]
        if p.a not in notes:
            s = scns[gi]
            prices[k], sources[k] = P.rated_price(
                game, split_skill(p.a)[0], s, "a", model.facts(s).get(f"{g['price']}_a"),
                price_mode)
            notes[p.a] = unsimulated(game, p.a, model.notes(s))
    for k, u in enumerate(everyone):  # a unit only ever seated as B (one seating)
        if u not in notes:
            s = scns[next(gi for gi, p in enumerate(pl.pairings) if p.b == u)]
            prices[k], sources[k] = P.rated_price(
                game, split_skill(u)[0], s, "b", model.facts(s).get(f"{g['price']}_b"),
                price_mode)
            notes[u] = unsimulated(game, u, model.notes(s))
    reasons = ["not simulated: " + "; ".join(notes[u]) if notes[u] else "" for u in everyone]
    judged = np.array([not notes[u] for u in everyone]) & np.isfinite(prices)
    # exact pairings
    mc: list[int] = []
    for gi, p in enumerate(pl.pairings):
        ex = model.exact(scns[gi]) if exact else None
        if ex is not None:
            p.exact = True
            p.counts = (float(ex["p_win_a"][0]), float(ex["p_win_b"][0]),
                        float(ex["p_draw"][0] + ex["p_timeout"][0]))
        else:
            mc.append(gi)
    backing = None
    if cache_dir is not None and mc:
        backing = ChunkCache(cache_dir, quiet=True, **_shared_cache(sharding))
        backing.bind(model, scns, [p.params for p in pl.pairings], seed, chunk, None)
    mem: dict[int, dict[tuple[int, int], Any]] = {}
    last = math.ceil(cap / chunk)
    goal, active = 1, list(mc)
    rounds: list[dict[str, int]] = []
    fits = None
    while active:
        goal = min(goal, last)
        for part, ids in enumerate(_batches(active)):
            built = [scns[x] for x in ids]
            view = _View(mem, ids, backing)
            if sharding is not None:  # this shard's share, then everyone's chunks into mem
                from sim.rating.shards import fill

                what = f"round {len(rounds) + 1} ({goal * chunk} duels a pairing)"
                if len(active) > BATCH:
                    what += f", part {part + 1}"
                fill(sharding, model, built, ids, goal * chunk, chunk, seed, view, what,
                     n_jobs=n_jobs, backend=backend, scheduler=scheduler)
                view = _View(mem, ids, None)
            res = engine.sample_run(model, built, goal * chunk, seed, n_jobs=n_jobs,
                                    backend=backend, chunk_size=chunk, progress=progress,
                                    scheduler=scheduler, streams=ids, cache=view)
            for local, gi in enumerate(ids):
                pl.pairings[gi].n, pl.pairings[gi].counts = _counts(res.parts[local])
            del built, res
        fits = fit_all(pl, prices, judged, reasons, correction)
        keep = []
        done = [settled(f, jd, judged, target_error, alpha)
                for f, jd in zip(fits.fits, fits.judgements, strict=True)]
        for gi in active:
            p = pl.pairings[gi]
            ka, kb = where[p.a], where[p.b]
            if goal < last and not (done[p.scenario][ka] and done[p.scenario][kb]):
                keep.append(gi)
        rounds.append({"duels_per_pairing": goal * chunk, "pairings": len(active),
                       "continue": len(keep)})
        active = keep
        goal *= 2
    if fits is None:
        fits = fit_all(pl, prices, judged, reasons, correction)
    frame = tidy(pl, fits, prices, judged, reasons, sources)
    pair = pairings_frame(pl, prices)
    gap = gap_table(pl, prices, seed)
    meta = {
        "kind": "rating", "report": "rating", "game": game, "model": g["model"],
        "price": g["price"], "price_label": g["label"], "price_mode": price_mode,
        "price_sources": dict(zip(everyone, sources, strict=True)), "units": pl.units,
        "pool": pl.pool,
        "pool_how": pl.pool_how, "scenarios": pl.scenarios, "seatings": seatings,
        "tactic": tactic_text(game, pl.scenarios), "catalog": catalog,
        "units_how": units_how, "left_out": left, "maximin": [
            {"scenario": pl.scenarios[p.scenario]["name"], "a": p.a, "b": p.b,
             "tactics": list(p.maximin), "score_a": p.screen, "tactic_a": p.tactics[0],
             "tactic_b": p.tactics[1]}
            for p in pl.pairings if p.maximin is not None and p.tactics is not None],
        "screen_duels": screen_duels,
        "seed": seed, "target_error": target_error, "max_trials": cap, "chunk_size": chunk,
        "exact": exact, "correction": correction, "alpha": alpha, "ridge": F.RIDGE,
        "family": fits.pooled_judgement.family,
        "judged": int(sum(bool(judged[where[u]]) for u in pl.units)),
        "rounds": rounds, "duels": int(sum(p.n for p in pl.pairings)),
        "exact_pairings": int(sum(p.exact for p in pl.pairings)),
        "pairings": len(pl.pairings), "jobs": n_jobs, "backend": backend,
        "curve": curve_meta(pl, fits, prices, judged), "gap": gap,
        "unsimulated": {u: notes[u] for u in everyone if notes[u]},
        "wall_time_s": round(time.perf_counter() - t0, 3),
    }
    return Rating(frame, pair, meta)


def _shared_cache(sharding: Any) -> dict[str, Any]:
    """The :class:`sim.cache.ChunkCache` options of a rating's caches: a shard appends to
    its own log, refuses a cache of other settings and reads every shard's log
    (:mod:`sim.rating.shards`)."""
    if sharding is None:
        return {}
    return {"log": sharding.log, "strict": True, "shared": True}


def screen(model: Any, pl: Plan, seed: int, chunk: int, n_jobs: int, backend: str,
           scheduler: str | None, cache_dir: str | Path | None, sharding: Any = None) -> int:
    """The maximin screen (module docstring): every cell of every maximin pairing's tactic
    matrix, one seeded Monte Carlo batch per screen size; sets each pairing's ``tactics``,
    ``screen`` and its parameters. Returns the duels it ran (cached ones included).
    ``sharding``: each shard computes its share of the cells (:mod:`sim.rating.shards`)."""
    from sim import engine
    from sim import tactics as G
    from sim.cache import ChunkCache

    todo = [g for g, p in enumerate(pl.pairings) if p.maximin is not None]
    groups: dict[int, list[tuple[int, str, str]]] = {}
    for g in todo:
        p = pl.pairings[g]
        assert p.maximin is not None
        n = int(pl.scenarios[p.scenario].get("screen_trials") or chunk)
        groups.setdefault(n, []).extend((g, ta, tb) for ta in p.maximin for tb in p.maximin)
    score: dict[tuple[int, str, str], float] = {}
    total, base = 0, SCREEN_STREAM
    for n, cells in sorted(groups.items()):
        params = [{**pl.pairings[g].params, **tactic_params(pl.game, ta, tb)}
                  for g, ta, tb in cells]
        streams = list(range(base, base + len(cells)))
        base += len(cells)
        box: Any = None
        if cache_dir is not None:
            root = Path(cache_dir)
            extra = _shared_cache(sharding) or (
                {"shared": True} if (root / "run.json").is_file() else {})  # a sharded one
            box = ChunkCache(root / f"maximin-screen-{n}", quiet=True, **extra)
            box.bind(model, _Lazy(model, params), params, seed, min(chunk, n), streams)
        groups_of = _batches(range(len(cells)))
        for part, ids in enumerate(groups_of):  # BATCH cells built at a time
            built = [model.scenario(params[i]) for i in ids]
            mem: dict[int, dict[tuple[int, int], Any]] = {}
            view: Any = _View(mem, ids, box) if box is not None else None
            if sharding is not None:
                from sim.rating.shards import fill

                what = f"maximin screen ({n} duels a cell)"
                if len(groups_of) > 1:
                    what += f", part {part + 1}"
                fill(sharding, model, built, [streams[i] for i in ids], n, min(chunk, n), seed,
                     _View(mem, ids, box), what, n_jobs=n_jobs, backend=backend,
                     scheduler=scheduler)
                view = _View(mem, ids, None)
            res = engine.sample_run(model, built, n, seed, n_jobs=n_jobs, backend=backend,
                                    chunk_size=min(chunk, n), progress="never",
                                    scheduler=scheduler, streams=[streams[i] for i in ids],
                                    cache=view)
            for local, i in enumerate(ids):
                k, (w, _, t) = _counts(res.parts[local])
                score[cells[i]] = (w + 0.5 * t) / k
                total += k
            del built, res
    for g in todo:
        p = pl.pairings[g]
        assert p.maximin is not None
        mat = [[score[(g, ta, tb)] for tb in p.maximin] for ta in p.maximin]
        i, _, j, _ = G.maximin(np.array(mat))
        p.tactics, p.screen = (p.maximin[i], p.maximin[j]), mat
        p.params.update(tactic_params(pl.game, *p.tactics))
    return total


# -- output -------------------------------------------------------------------------------------
COLUMNS = ("scenario", "unit", "price", "price_source", "fair_price", "fair_price_ci_low", "fair_price_ci_high",
           "beyond_data", "ratio", "strength", "strength_ci_low", "strength_ci_high",
           "verdict", "robustness", "n", "n_exact", "reason", "residual", "p_value",
           "p_adjusted", "complete", "in_pool", "rated")


def tidy(pl: Plan, fits: Fits, price: np.ndarray, judged: np.ndarray, reasons: list[str],
         sources: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per unit and scenario plus the ``all`` row (pooled strength and fair price,
    the run's verdict and its robustness); ``sources``: each unit's ``price_source``."""
    src = list(sources) if sources is not None else [""] * len(pl.everyone)
    everyone = pl.everyone
    names = [s["name"] for s in pl.scenarios]
    lo_p, hi_p = float(np.nanmin(price)), float(np.nanmax(price))
    verdict, robust = F.robustness([jd.verdict for jd in fits.judgements], names)
    rows = []
    for si, (f, jd) in enumerate([*zip(fits.fits, fits.judgements, strict=True),
                                  (fits.pooled, fits.pooled_judgement)]):
        pooled = si == len(names)
        r = records(pl, None if pooled else si)
        ci_low, ci_high = f.ci_low, f.ci_high
        for k, u in enumerate(everyone):
            mine = (r["i"] == k) | (r["j"] == k)
            fair = math.exp(jd.fair_ln[k]) if np.isfinite(jd.fair_ln[k]) else math.nan
            flo = math.exp(jd.fair_ln_low[k]) if np.isfinite(jd.fair_ln_low[k]) else (
                0.0 if np.isfinite(jd.fair_ln[k]) or np.isfinite(price[k]) else math.nan)
            fhi = math.exp(jd.fair_ln_high[k]) if jd.fair_ln_high[k] < math.inf else (
                math.inf if np.isfinite(price[k]) else math.nan)
            if pooled:
                v, why = verdict[k], reasons[k] or (
                    "" if verdict[k] != F.NONE else robust[k])
                rob = robust[k] if judged[k] else "no verdict: " + (
                    reasons[k] or src[k] or "no price")
            else:
                v, why = jd.verdict[k], jd.reason[k]
                rob = ""
            rows.append({
                "scenario": "all" if pooled else names[si], "unit": u, "price": price[k],
                "price_source": src[k],
                "fair_price": fair, "fair_price_ci_low": flo, "fair_price_ci_high": fhi,
                "beyond_data": bool(np.isfinite(fair) and not lo_p <= fair <= hi_p),
                "ratio": price[k] / fair if fair > 0 else math.nan,
                "strength": f.theta[k], "strength_ci_low": ci_low[k],
                "strength_ci_high": ci_high[k], "verdict": v, "robustness": rob,
                "n": int(r["n"][mine].sum()), "n_exact": int(r["exact"][mine].sum()),
                "reason": why, "residual": jd.residual[k], "p_value": jd.p_value[k],
                "p_adjusted": jd.p_adjusted[k], "complete": not reasons[k],
                "in_pool": u in pl.pool, "rated": u in pl.units})
    return pd.DataFrame(rows, columns=list(COLUMNS))


def pairings_frame(pl: Plan, price: np.ndarray) -> pd.DataFrame:
    """One row per pairing: scenario, units, prices, duels, outcome counts, score and its
    95% interval."""
    idx = {u: k for k, u in enumerate(pl.everyone)}
    r = records(pl)
    half = F.Z95 * np.sqrt(r["v"])
    return pd.DataFrame({
        "scenario": [pl.scenarios[p.scenario]["name"] for p in pl.pairings],
        "a": [p.a for p in pl.pairings], "b": [p.b for p in pl.pairings],
        "price_a": [price[idx[p.a]] for p in pl.pairings],
        "price_b": [price[idx[p.b]] for p in pl.pairings],
        "tactic_a": [_played(pl, p)[0] for p in pl.pairings],
        "tactic_b": [_played(pl, p)[1] for p in pl.pairings],
        "exact": r["exact"], "n": r["n"].astype(int),
        "win_a": [p.counts[0] for p in pl.pairings], "win_b": [p.counts[1] for p in pl.pairings],
        "tie": [p.counts[2] for p in pl.pairings], "score_a": r["s"],
        "score_ci_low": np.clip(r["s"] - half, 0, 1), "score_ci_high": np.clip(r["s"] + half, 0, 1)})


def _played(pl: Plan, p: Pairing) -> tuple[str, str]:
    """The tactics a pairing's duels were played with ("default": the duel model's own)."""
    if p.tactics is not None:
        return p.tactics
    t = pl.scenarios[p.scenario].get("tactic")
    return (str(t), str(t)) if t is not None else ("default", "default")


def curve_meta(pl: Plan, fits: Fits, price: np.ndarray, judged: np.ndarray) -> dict[str, Any]:
    """The fairness curves (pooled and per scenario) with the pooled band on a grid."""
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.log(price)
    ok = np.isfinite(x)
    grid = np.linspace(float(np.min(x[ok])), float(np.max(x[ok])), 41) if ok.any() else \
        np.zeros(0)
    out: dict[str, Any] = {"judged_units": int(np.sum(judged))}
    for name, jd in [*zip([s["name"] for s in pl.scenarios], fits.judgements, strict=True),
                     ("all", fits.pooled_judgement)]:
        ln = jd.line
        lo, hi = ln.slope_ci
        out[name] = {"a": ln.a, "b": ln.b, "centre": ln.centre, "b_low": lo, "b_high": hi,
                     "df": ln.df}
    y, ylo, yhi = F.curve_band(fits.pooled_judgement.line, grid)
    out["band"] = {"price": np.exp(grid).tolist(), "strength": y.tolist(), "low": ylo.tolist(),
                   "high": yhi.tolist()}
    return out


#: price ratios of the price-gap table, and the scores whose price ratio it reports
GAP_RATIOS = (1.1, 1.25, 1.5, 2.0, 3.0)
GAP_SCORES = (0.6, 0.75, 0.9)


def gap_table(pl: Plan, price: np.ndarray, seed: int, n_boot: int = F.N_BOOT
              ) -> dict[str, Any]:
    """How big a price gap decides a fight (:func:`sim.rating.fit.gap_curve`), over every
    record between priced units: the curve at :data:`GAP_RATIOS`, the ratio for each of
    :data:`GAP_SCORES`, and binned observed scores with their 95% intervals."""
    r = records(pl)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.log(price[r["i"]] / price[r["j"]])
    ok = np.isfinite(x)
    if ok.sum() < 2:
        return {}
    gap = F.gap_curve(r["i"][ok], r["j"][ok], x[ok], r["s"][ok], len(pl.everyone), seed,
                      max(n_boot, 1))
    flip = x[ok] < 0   # the dearer side's view
    ax, sx = np.abs(x[ok]), np.where(flip, 1 - r["s"][ok], r["s"][ok])
    edges = np.log([1.0, 1.1, 1.25, 1.5, 2.0, 3.0, math.inf])
    bins = []
    for lo_e, hi_e in zip(edges[:-1], edges[1:], strict=True):
        m = (ax >= lo_e) & (ax < hi_e)
        if m.sum() >= 2:
            mean, sd = float(sx[m].mean()), float(sx[m].std(ddof=1))
            h = F.t975(int(m.sum()) - 1) * sd / math.sqrt(m.sum())
            bins.append({"ratio_low": math.exp(lo_e), "ratio_high": math.exp(hi_e),
                         "pairings": int(m.sum()), "score": mean, "low": mean - h,
                         "high": mean + h})
    return {"beta": gap.beta, "beta_low": float(np.percentile(gap.boot, 2.5)),
            "beta_high": float(np.percentile(gap.boot, 97.5)),
            "win": [{"ratio": q, **dict(zip(("score", "low", "high"), gap.win(q),
                                             strict=True))} for q in GAP_RATIOS],
            "ratio_for": [{"score": q, **dict(zip(("ratio", "low", "high"), gap.ratio_for(q),
                                                  strict=True))} for q in GAP_SCORES],
            "bins": bins}
