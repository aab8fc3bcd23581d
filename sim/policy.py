"""The one parser of policy specs shared by the models: a policy is a plain name
(``never``, ``all``...), ``NAME:K`` with an integer in a declared range (``fixed:2``,
``below:14``) or a Python callable. Each model declares its names and ranges and subclasses
:class:`PolicySpec` with what the policy does (:mod:`sim.alphastrike.policies`,
:mod:`sim.classic.fire.policies`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sim.errors import ConfigError

P = TypeVar("P", bound="PolicySpec")


@dataclass(frozen=True)
class PolicySpec:
    """A parsed policy: ``kind`` (a name, a name that takes ``arg``, or ``callable``)."""

    kind: str
    arg: int = 0
    fn: Callable[..., Any] | None = None
    takes_arg: bool = False

    @property
    def label(self) -> str:
        if self.takes_arg:
            return f"{self.kind}:{self.arg}"
        if self.kind == "callable":
            return getattr(self.fn, "__name__", "callable")
        return self.kind


def parse_spec(cls: type[P], value: Any, names: tuple[str, ...],
               with_arg: Mapping[str, tuple[int, int]], allowed: str) -> P:
    """Parse ``value`` into ``cls``: one of ``names``, ``KIND:K`` for a kind of ``with_arg``
    with K in its inclusive range, or a callable; ConfigError naming ``allowed`` otherwise."""
    if isinstance(value, cls):
        return value
    if callable(value):
        return cls("callable", 0, value)
    if not isinstance(value, str):
        raise ConfigError("policy", value, allowed)
    v = value.strip()
    if v in names:
        return cls(v)
    kind, sep, arg = v.partition(":")
    if sep and kind in with_arg and arg.strip().isdigit():
        lo, hi = with_arg[kind]
        if lo <= int(arg) <= hi:
            return cls(kind, int(arg), takes_arg=True)
    raise ConfigError("policy", value, allowed)
