"""The registry of report sections.

A section is a function ``build(result) -> Section`` in its own module under
``sim/report/sections/``, registered with the :func:`section` decorator::

    @section("heat-curves", order=40, legacy=("overheat_curves",))
    def build(res: Result) -> Section: ...

Modules there are found with :mod:`pkgutil` and imported the first time the registry is
asked, so adding a section is one new module (plus the experiment that names it with
``report = "heat-curves"``). Importing a section module must stay cheap: no figure is drawn
and Matplotlib is not imported until a section is built (:mod:`sim.plots` imports it lazily),
so ``sim.experiment.load`` can check an experiment's ``report`` key quickly.

Which section a saved result gets (:func:`for_result`): the ``report`` key recorded in its
metadata; for results saved before the key existed, the section whose ``legacy`` list holds
the experiment's name; else :data:`DEFAULT`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.errors import ConfigError

if TYPE_CHECKING:
    from sim.report.types import Result, Section

#: the section an experiment gets when it names none
DEFAULT = "generic"
#: the package holding one module per section
SECTIONS_PACKAGE = "sim.report.sections"


@dataclass(frozen=True)
class SectionSpec:
    """A registered section: its name, builder, place in the report and legacy names."""

    name: str
    build: Callable[[Result], Section]
    order: int
    legacy: tuple[str, ...]
    module: str

    @property
    def doc(self) -> str:
        """The first line of the builder's docstring."""
        return (self.build.__doc__ or "").strip().split("\n")[0]


_REGISTRY: dict[str, SectionSpec] = {}
_discovered = False


def section(name: str, *, order: int = 1000, legacy: tuple[str, ...] = ()
            ) -> Callable[[Callable[[Result], Section]], Callable[[Result], Section]]:
    """Register the decorated function as the builder of report section ``name``.

    ``order`` places the section in the report (lower first; experiments with equal order
    sort by their file name). ``legacy`` lists experiment names whose results were saved
    before experiments named their section; those results still get this section.
    """
    if not name or name != name.strip():
        raise ValueError(f"bad report section name {name!r}")

    def deco(fn: Callable[[Result], Section]) -> Callable[[Result], Section]:
        old = _REGISTRY.get(name)
        if old is not None and old.module != fn.__module__:
            raise ValueError(f"report section {name!r} registered twice: {old.module} and "
                             f"{fn.__module__}")
        _REGISTRY[name] = SectionSpec(name, fn, order, tuple(legacy), fn.__module__)
        return fn

    return deco


def discover() -> None:
    """Import every module of :data:`SECTIONS_PACKAGE` once (each registers itself)."""
    global _discovered
    if _discovered:
        return
    pkg = importlib.import_module(SECTIONS_PACKAGE)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{SECTIONS_PACKAGE}.{info.name}")
    _discovered = True


def sections() -> dict[str, SectionSpec]:
    """Every registered section by name, in report order."""
    discover()
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (kv[1].order, kv[0])))


def names() -> tuple[str, ...]:
    """The registered section names (what an experiment's ``report`` key may be)."""
    return tuple(sections())


def check_name(value: object) -> str:
    """Validate an experiment's ``report`` key; raise :class:`ConfigError` naming the field,
    the value and the allowed names."""
    allowed = names()
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError("report", value, "a report section: one of "
                          + ", ".join(repr(n) for n in allowed))
    return value


def get(name: str) -> SectionSpec:
    """The section called ``name`` (:class:`ConfigError` when there is none)."""
    return sections()[check_name(name)]


def for_result(result: Result) -> SectionSpec:
    """The section of a saved result: its recorded ``report`` key, else (results saved before
    the key existed) the section listing its experiment name as legacy, else the default."""
    specs = sections()
    name = result.section
    if name is not None:
        if name not in specs:
            raise ConfigError("report", name, f"a report section (result {result.name!r}): "
                              "one of " + ", ".join(repr(n) for n in specs))
        return specs[name]
    for spec in specs.values():
        if result.name in spec.legacy:
            return spec
    return specs[DEFAULT]
