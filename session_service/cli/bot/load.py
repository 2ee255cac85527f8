"""The bot ``mythos bot run`` plays: ``module:obj`` (an importable module, or a file ``path/to/bot.py``; ``obj`` is
``choose`` when left out), where ``obj`` is one ``choose(view, legal_commands)`` for every game, or a mapping of game
ids to each game's own (the games it leaves out are never sought nor accepted)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from session_service.cli.bot.game import Choose


class BotNotFound(Exception):
    """The ``module:obj`` named no bot, said in words for the command line."""


class Bot:
    """The author's functions, by game."""

    def __init__(self, found: Any, spec: str):
        self.spec = spec
        if callable(found):
            self.one: Choose | None = found
            self.each: Mapping[str, Choose] = {}
        elif isinstance(found, Mapping) and found and all(callable(f) for f in found.values()):
            self.one, self.each = None, dict(found)
        else:
            raise BotNotFound(f"{spec} is neither a function choose(view, legal_commands) nor a mapping of game ids "
                              "to such functions")

    def plays(self, game: str) -> Choose | None:
        return self.one if self.one is not None else self.each.get(game)

    def games(self, known: list[str]) -> list[str]:
        return list(known) if self.one is not None else [g for g in known if g in self.each]


def load(spec: str) -> Bot:
    where, _, name = spec.partition(":")
    name = name or "choose"
    try:
        module = _from_file(Path(where)) if where.endswith(".py") else importlib.import_module(where)
    except ImportError as exc:
        raise BotNotFound(f"cannot import {where}: {exc}") from exc
    if not hasattr(module, name):
        raise BotNotFound(f"{where} has no {name}")
    return Bot(getattr(module, name), spec)


def _from_file(path: Path) -> Any:
    """A bot's file, imported with its folder on the path (so it may import the modules beside it)."""
    if not path.is_file():
        raise ImportError(f"no file {path}")
    sys.path.insert(0, str(path.resolve().parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
