"""Rule options: one declaration per option, one registry, one parser, for every game.

Where the sources disagree (rules reference section 8, the "D" numbers) or a rule has a
tunable constant, the choice is a *rule option*. An option is declared once, as a field of a
frozen dataclass (an *option group*) in the module whose rules read it::

    @dataclass(frozen=True)
    class ClassicRules:
        immobile_psr: str = opt("auto-fail", allowed=("auto-fail", "roll"), ref="D22",
                                doc="PSRs of a shut-down 'Mech or one with an unconscious pilot",
                                readings={"auto-fail": "fails every PSR (TW, MegaMek)",
                                          "roll": "rolls normally (btsim 0.1.0)"})

    register_group("classic", ClassicRules, models=("attack",))
    register_preset("classic", "megamek", {"punch_min_damage": 0, ...})

``allowed`` is a tuple of string choices, a ``(lo, hi)`` inclusive integer range, or ``bool``.
Everything else -- the parser of ``--rule NAME=VALUE``, validation, presets, the
``btsim rules`` listing and the effective options recorded with every result -- is derived
from these declarations; no option has code of its own here.

Option names are unique across all games, so ``--rule NAME=VALUE`` routes by name alone.
Every game has the preset ``default`` (the declared defaults); other presets set some fields.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.errors import ConfigError, check_int

#: key of the option metadata in a dataclass field's ``metadata``
META_KEY = "btsim_option"

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Decl:
    """What ``opt`` records about one option (the field name is added at registration)."""

    default: Any
    allowed: Any              # tuple[str, ...] | tuple[int, int] | type[bool]
    ref: str
    doc: str
    readings: Mapping[Any, str]

    @property
    def kind(self) -> str:
        """``bool``, ``int`` (a range) or ``choice``."""
        if self.allowed is bool:
            return "bool"
        if _is_range(self.allowed):
            return "int"
        return "choice"

    def allowed_text(self) -> str:
        """What is allowed, as the error messages say it."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            lo, hi = self.allowed
            return f"an integer in [{lo}, {hi}]"
        return "one of " + ", ".join(repr(c) for c in self.allowed)

    def allowed_json(self) -> Any:
        """The allowed values as JSON: a list of choices, ``{"min", "max"}`` or ``[false, true]``."""
        if self.kind == "bool":
            return [False, True]
        if self.kind == "int":
            return {"min": self.allowed[0], "max": self.allowed[1]}
        return list(self.allowed)

    def coerce(self, name: str, value: Any) -> Any:
        """``value`` (typed, or text from a command line) as this option's type, validated.

        Raises :class:`ConfigError` naming the option and its allowed values."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
                return value.strip().lower() in _TRUE
            raise ConfigError(name, value, self.allowed_text())
        if self.kind == "int":
            lo, hi = self.allowed
            try:
                return check_int(name, value.strip() if isinstance(value, str) else value, lo, hi)
            except ConfigError:
                raise ConfigError(name, value, self.allowed_text()) from None
        text = value.strip() if isinstance(value, str) else value
        if not isinstance(text, str) or text not in self.allowed:
            raise ConfigError(name, value, self.allowed_text())
        return text


def _is_range(allowed: Any) -> bool:
    return (isinstance(allowed, tuple) and len(allowed) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in allowed))


def opt(default: Any, *, allowed: Any, ref: str, doc: str,
        readings: Mapping[Any, str] | None = None) -> Any:
    """Declare one rule option: a ``dataclasses.field`` with ``default`` and metadata.

    ``allowed``: a tuple of string choices, a ``(lo, hi)`` inclusive integer range, or
    ``bool``. ``ref``: the reference number (``"D22"``) or section (``"6.4"``). ``doc``: one
    line. ``readings``: what each value means (keys are allowed values; for a choice option,
    every choice should have one). Raises ``TypeError`` for a malformed declaration.
    """
    if not (allowed is bool or _is_range(allowed)
            or (isinstance(allowed, tuple) and allowed
                and all(isinstance(c, str) for c in allowed))):
        raise TypeError(f"allowed must be a tuple of strings, a (lo, hi) int range or bool; "
                        f"got {allowed!r}")
    if not ref or not doc or "\n" in doc:
        raise TypeError("an option needs a reference and a one-line doc")
    decl = Decl(default=default, allowed=allowed, ref=ref, doc=doc,
                readings=dict(readings or {}))
    decl.coerce("default", default)  # the default must be allowed
    for key in decl.readings:
        decl.coerce("readings", key)
    if decl.kind == "bool" and not isinstance(default, bool):
        raise TypeError(f"a bool option needs a bool default; got {default!r}")
    return field(default=default, metadata={META_KEY: decl})


# -- the registry ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One registered option: its declaration, field name, group and game."""

    name: str
    game: str
    group: type
    decl: Decl


@dataclass
class _Game:
    groups: list[type] = field(default_factory=list)
    models: set[str] = field(default_factory=set)
    presets: dict[str, dict[str, Any]] = field(default_factory=lambda: {"default": {}})


_GAMES: dict[str, _Game] = {}
_SPECS: dict[str, Spec] = {}
_GROUP_MODELS: dict[type, tuple[str, ...]] = {}


def register_group(game: str, cls: type, models: Iterable[str]) -> type:
    """Register the option group ``cls`` (a frozen dataclass whose every field is an
    :func:`opt`) for ``game``, used by the models named in ``models``. Returns ``cls``.

    Raises ``TypeError`` for a field declared without :func:`opt` and ``ValueError`` for an
    option name already registered by another group."""
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls!r} must be a frozen dataclass")
    specs = []
    for f in dataclasses.fields(cls):
        decl = f.metadata.get(META_KEY)
        if not isinstance(decl, Decl):
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with sim.options.opt()")
        old = _SPECS.get(f.name)
        if old is not None and _key(old.group) != _key(cls):
            raise ValueError(f"rule option {f.name!r} of {cls.__name__} is already declared by "
                             f"{old.group.__name__} ({old.game})")
        specs.append(Spec(f.name, game, cls, decl))
    g = _GAMES.setdefault(game, _Game())
    g.groups = [c for c in g.groups if _key(c) != _key(cls)] + [cls]  # re-import replaces
    g.models.update(models)
    _GROUP_MODELS[cls] = tuple(models)
    for s in specs:
        _SPECS[s.name] = s
    return cls


def _key(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def register_preset(game: str, name: str, values: Mapping[str, Any]) -> None:
    """Register the preset ``name`` of ``game``: option name -> value, for any group of that
    game; unnamed options keep their declared default. Registering a preset name again adds
    its values (so each group of a game can set its own fields of a shared preset). The
    ``default`` preset always exists and may only restate declared defaults."""
    if game not in _GAMES:
        raise ValueError(f"register a group of game {game!r} before its presets")
    clean = {}
    for key, value in values.items():
        spec = _spec(key, game)
        clean[key] = spec.decl.coerce(key, value)
        if name == "default" and clean[key] != spec.decl.default:
            raise ValueError(f"the default preset of {game} must keep {key}'s declared default")
    _GAMES[game].presets[name] = {**_GAMES[game].presets.get(name, {}), **clean}


_LOADED = False


def _load() -> None:
    """Import every model once, so that every group they use is registered."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from sim import models

    models.available()


def games() -> tuple[str, ...]:
    """Names of the games with registered options."""
    _load()
    return tuple(_GAMES)


def _game(game: str) -> _Game:
    if game not in _GAMES:
        _load()
    if game not in _GAMES:
        raise ConfigError("game", game, "one of " + ", ".join(repr(g) for g in _GAMES))
    return _GAMES[game]


def presets(game: str) -> tuple[str, ...]:
    """Preset names of ``game``, ``default`` first."""
    return tuple(_game(game).presets)


def groups(game: str) -> tuple[type, ...]:
    """The option groups of ``game``, in registration order."""
    return tuple(_game(game).groups)


def names(target: str | type | None = None) -> tuple[str, ...]:
    """Option names of a game, of a group class, or of everything (``None``)."""
    if target is None:
        _load()
        return tuple(_SPECS)
    if isinstance(target, str):
        _game(target)
        return tuple(n for n, s in _SPECS.items() if s.game == target)
    return tuple(f.name for f in dataclasses.fields(target))


def models_of(game: str) -> tuple[str, ...]:
    """Names of the models that read options of ``game``."""
    return tuple(sorted(_game(game).models))


def game_of_model(model: str) -> str | None:
    """The game whose option groups the model ``model`` uses (None: a model without options)."""
    _load()
    for game, g in _GAMES.items():
        if model in g.models:
            return game
    return None


def model_names(model: str) -> tuple[str, ...]:
    """Option names that the model ``model`` reads."""
    _load()
    return tuple(n for n, s in _SPECS.items() if model in _GROUP_MODELS.get(s.group, ()))


def _unknown(name: str, pool: Iterable[str], where: str) -> ConfigError:
    pool = list(pool)
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    if not close:  # perhaps a near miss of another game's option
        other = difflib.get_close_matches(name, list(_SPECS), n=1, cutoff=0.6)
        if other:
            hint = f" (did you mean {other[0]!r}, an option of {_SPECS[other[0]].game}?)"
    return ConfigError("rule option", name, f"a rule option of {where}{hint}: one of "
                       + ", ".join(pool))


def _spec(name: str, game: str | None = None) -> Spec:
    """The option ``name`` (of ``game`` when given); ConfigError with a close match if not."""
    if name not in _SPECS:
        _load()
    spec = _SPECS.get(name)
    if spec is None:
        pool = names(game) if game else tuple(_SPECS)
        raise _unknown(name, pool, game or "any game")
    if game is not None and spec.game != game:
        raise ConfigError("rule option", name, f"an option of {game} ({name!r} is an option "
                          f"of {spec.game}): one of " + ", ".join(names(game)))
    return spec


def spec(name: str) -> Spec:
    """The registered option ``name`` (ConfigError naming a close match when unknown)."""
    return _spec(name)


def coerce(name: str, value: Any, game: str | None = None) -> Any:
    """``value`` of the option ``name`` coerced to its declared type and validated."""
    return _spec(name, game).decl.coerce(name, value)


def parse_rule(text: str, game: str | None = None, model: str | None = None
               ) -> tuple[str, Any]:
    """Parse ``"NAME=VALUE"`` (dashes in NAME read as underscores) into ``(name, value)``,
    the value coerced by the option's declared type. With ``game``, only that game's options
    are accepted; with ``model``, only the options that model reads (its error lists those,
    not every game's: :func:`check_overrides`). Raises :class:`ConfigError` naming the
    option and its allowed values."""
    key, sep, value = str(text).partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise ConfigError("rule", text, "NAME=VALUE with NAME a rule option (btsim rules "
                          "lists them)")
    if model is not None:
        return key, check_overrides(model, {key: value})[key]
    return key, coerce(key, value, game)


def parse_rules(items: Iterable[str], game: str | None = None, model: str | None = None
                ) -> dict[str, Any]:
    """Several ``NAME=VALUE`` texts as one overrides dict (a later one wins); ``game`` and
    ``model`` as for :func:`parse_rule`."""
    out: dict[str, Any] = {}
    for item in items:
        k, v = parse_rule(item, game, model)
        out[k] = v
    return out


def _target(target: str | type) -> tuple[str, type]:
    if isinstance(target, str):
        gs = _game(target).groups
        if len(gs) != 1:
            raise TypeError(f"game {target!r} has {len(gs)} option groups; pass the group class")
        return target, gs[0]
    for game, g in list(_GAMES.items()):
        if target in g.groups:
            return game, target
    raise TypeError(f"{target!r} is not a registered option group")


def build(target: str | type, preset: str = "default",
          overrides: Mapping[str, Any] | None = None) -> Any:
    """An instance of the group ``target`` (a class, or a game with one group): the preset's
    values, then ``overrides`` (option name -> value or text), every value validated."""
    game, cls = _target(target)
    g = _game(game)
    if not isinstance(preset, str) or preset not in g.presets:
        raise ConfigError("rules", preset, "one of " + ", ".join(repr(p) for p in g.presets))
    own = names(cls)
    return replace(cls(**{k: v for k, v in g.presets[preset].items() if k in own}),
                   overrides or {})


def replace(instance: Any, overrides: Mapping[str, Any]) -> Any:
    """A copy of the group instance with ``overrides`` (option name -> value or text)
    validated and applied; ConfigError (with a close match) for a name it does not have."""
    cls = type(instance)
    game, _ = _target(cls)
    own = names(cls)
    values = {}
    for key, value in overrides.items():
        if key not in own:
            owner = _SPECS.get(key)
            if owner is not None:
                raise ConfigError("rule option", key, f"an option of {cls.__name__} ({key!r} is "
                                  f"an option of {owner.group.__name__}): one of "
                                  + ", ".join(own))
            raise _unknown(key, own, f"{game} ({cls.__name__})")
        values[key] = _SPECS[key].decl.coerce(key, value)
    return dataclasses.replace(instance, **values)


def check_overrides(model: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Validate overrides for the model ``model``: each name must be an option that model
    reads; values are coerced. ConfigError otherwise."""
    mine = model_names(model)
    out = {}
    for key, value in overrides.items():
        name = str(key).replace("-", "_")
        if name not in mine:
            if not mine:
                raise ConfigError("rule option", name, f"nothing: the {model!r} model has no "
                                  "rule options")
            owner = _SPECS.get(name)
            if owner is not None:
                raise ConfigError("rule option", name, f"an option of the {model!r} model "
                                  f"({name!r} is an option of {owner.game}): one of "
                                  + ", ".join(mine))
            raise _unknown(name, mine, f"the {model!r} model")
        out[name] = _SPECS[name].decl.coerce(name, value)
    return out


def effective(instance: Any) -> dict[str, Any]:
    """Every option of a group instance by name (JSON-able values), in declaration order."""
    return {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance)}


def overrides_of(instance: Any, preset: str = "default") -> dict[str, Any]:
    """The options of ``instance`` that differ from ``preset``."""
    game, cls = _target(type(instance))
    ref = effective(build(cls, preset))
    return {k: v for k, v in effective(instance).items() if ref[k] != v}


# -- listing ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One declared option as ``btsim rules`` lists it."""

    name: str
    game: str
    group: str
    kind: str
    default: Any
    allowed: Any
    ref: str
    doc: str
    readings: dict[str, str]
    presets: dict[str, Any]
    models: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``allowed`` as a list, a ``{min, max}`` range or ``[false, true]``)."""
        d = dataclasses.asdict(self)
        d["models"] = list(self.models)
        return d


def _reading_key(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def options(game: str | None = None) -> list[Option]:
    """Every declared option (of ``game``, or of every game), with what each preset sets."""
    _load()
    out = []
    for name, s in _SPECS.items():
        if game is not None and s.game != game:
            continue
        pre = _game(s.game).presets
        out.append(Option(
            name=name, game=s.game, group=s.group.__name__, kind=s.decl.kind,
            default=s.decl.default, allowed=s.decl.allowed_json(), ref=s.decl.ref,
            doc=s.decl.doc,
            readings={_reading_key(k): v for k, v in s.decl.readings.items()},
            presets={p: vals.get(name, s.decl.default) for p, vals in pre.items()},
            models=_GROUP_MODELS.get(s.group, ())))
    if game is not None:
        _game(game)  # unknown game -> ConfigError
    return out


# -- what a run used -------------------------------------------------------------------------

def groups_in(obj: Any, depth: int = 3) -> list[Any]:
    """Instances of registered option groups held by ``obj`` (a scenario), looked for in its
    dataclass fields down to ``depth`` levels."""
    registered = {c for g in _GAMES.values() for c in g.groups}
    found: list[Any] = []

    def walk(x: Any, d: int) -> None:
        if type(x) in registered:
            if not any(y is x for y in found):
                found.append(x)
            return
        if d <= 0 or not dataclasses.is_dataclass(x) or isinstance(x, type):
            return
        for f in dataclasses.fields(x):
            walk(getattr(x, f.name, None), d - 1)

    walk(obj, depth)
    return found


def scenario_rule_sets(model: Any, scn: Any) -> list[list[Any]]:
    """The rule sets one built scenario uses: ``[[key, entry], ...]``, an entry being
    ``{"game", "group", "preset", "overrides", "options"}`` (:func:`rule_sets` counts them;
    a finished scenario's list is kept in the chunk cache, :mod:`sim.described`)."""
    _load()
    preset = model.params(scn).get("rules", "default")
    out: list[list[Any]] = []
    for inst in groups_in(scn):
        game, cls = _target(type(inst))
        opts = effective(inst)
        preset_name = preset if preset in _GAMES[game].presets else "default"
        key = repr((cls.__name__, preset_name, sorted(opts.items())))
        out.append([key, {"game": game, "group": cls.__name__, "preset": preset_name,
                          "overrides": overrides_of(inst, preset_name), "options": opts}])
    return out


def rule_sets(model: Any, params_list: Iterable[Mapping[str, Any]],
              scenarios: Sequence[Any] | None = None) -> dict[str, Any]:
    """The distinct rule sets the scenarios of a run use, for results metadata.

    ``{"rules": [preset names], "rule_options": [every option, one dict per distinct set],
    "sets": [{"game", "group", "preset", "overrides", "options", "scenarios"}]}``;
    ``{}`` for a model without rule options. ``scenarios``: the scenarios of
    ``params_list`` already built (a run builds each once), or their
    :class:`sim.described.Described` (its ``rule_entries``)."""
    from sim.described import Described

    _load()
    sets: dict[str, dict[str, Any]] = {}
    for i, params in enumerate(params_list):
        scn = model.scenario(params) if scenarios is None else scenarios[i]
        entries = (scn.rule_entries if isinstance(scn, Described)
                   else scenario_rule_sets(model, scn))
        for key, entry in entries:
            if key in sets:
                sets[key]["scenarios"] += 1
                continue
            sets[key] = {**entry, "scenarios": 1}
    if not sets:
        return {}
    vals = list(sets.values())
    return {"rules": sorted({s["preset"] for s in vals}),
            "rule_options": [s["options"] for s in vals],
            "sets": vals}
