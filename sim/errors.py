"""Error types. A :class:`UserError` is bad input: the CLI prints its message on one line
of stderr and exits with status 2, without a traceback."""

from __future__ import annotations

from typing import Any


class UserError(Exception):
    """Bad input from a user (an option, an experiment file, a unit file)."""

    exit_code = 2


class ConfigError(UserError, ValueError):
    """A parameter outside its allowed values.

    The message always names the field, the bad value and what is allowed, in the
    scikit-learn style: ``The 'tons' parameter must be a multiple of 5 in [20, 100]; got 73.``
    """

    def __init__(self, field: str, value: Any, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"The {field!r} parameter must be {allowed}; got {value!r}.")


def check_int(field: str, value: Any, lo: int | None = None, hi: int | None = None,
              multiple: int | None = None) -> int:
    """Validate an integer parameter, returning it as ``int``; raise :class:`ConfigError`."""
    rng = ""
    if lo is not None and hi is not None:
        rng = f" in [{lo}, {hi}]"
    elif lo is not None:
        rng = f" >= {lo}"
    elif hi is not None:
        rng = f" <= {hi}"
    allowed = (f"a multiple of {multiple}{rng}" if multiple else f"an integer{rng}")
    if isinstance(value, bool):
        raise ConfigError(field, value, allowed)
    try:
        iv = int(value)
    except (TypeError, ValueError):
        raise ConfigError(field, value, allowed) from None
    if isinstance(value, float) and iv != value:
        raise ConfigError(field, value, allowed)
    if isinstance(value, str) and value.strip() != str(iv):
        raise ConfigError(field, value, allowed)
    if (lo is not None and iv < lo) or (hi is not None and iv > hi) or (multiple and iv % multiple):
        raise ConfigError(field, value, allowed)
    return iv


def check_choice(field: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    """Validate a string parameter against a fixed set of choices."""
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(field, value, "one of " + ", ".join(repr(c) for c in choices))
    return value


def check_bool(field: str, value: Any) -> bool:
    """Validate a boolean parameter (TOML/JSON booleans only)."""
    if not isinstance(value, bool | int) or value not in (0, 1):
        raise ConfigError(field, value, "true or false")
    return bool(value)
