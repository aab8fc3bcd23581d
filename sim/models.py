"""Registry of models by name. Each entry is a module exposing ``MODEL`` (a
:class:`sim.model.Model` instance); modules are imported lazily on first use."""

from __future__ import annotations

import importlib

from sim.errors import ConfigError
from sim.model import Model

#: model name -> module that defines it
MODULES: dict[str, str] = {
    "punch-demo": "sim.demo",
    "attack": "sim.classic.model",
    "heat": "sim.alphastrike.model",
    "fire": "sim.classic.fire.model",
    "profile": "sim.classic.fire.profile",
    "hit": "sim.classic.hit_model",
    "duel": "sim.alphastrike.duel.model",
    "classic-duel": "sim.classic.duel.model",
    "classic-force": "sim.classic.duel.force_model",
}


def get_model(name: str) -> Model:
    """Return the model registered under ``name``; ConfigError for an unknown name."""
    if name not in MODULES:
        raise ConfigError("model", name, "one of " + ", ".join(repr(m) for m in MODULES))
    model = importlib.import_module(MODULES[name]).MODEL
    if not isinstance(model, Model):
        raise TypeError(f"{MODULES[name]}.MODEL must be a sim.model.Model instance "
                        f"(the checked contract); got {type(model).__name__}")
    return model


def available() -> list[str]:
    """Names of models whose modules import."""
    out = []
    for name, mod in MODULES.items():
        try:
            importlib.import_module(mod)
        except ImportError:
            continue
        out.append(name)
    return out
