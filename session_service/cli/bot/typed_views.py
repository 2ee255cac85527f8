"""The typed records a bot author writes ``choose(view, legal_commands)`` against, one module per game in ``games/``:
the game's view as ``TypedDict`` classes, rendered from the JSON Schema the game describes it with (its
``shapes.py``: the same shapes the OpenAPI document and the wire suites use), and its commands' records
(``shared/games/<game>/commands.py``) with ``Command``, their union. mypy then checks a bot's reads of the view and
the commands it builds; at run time a view is the plain dict the stream sent.

The modules are generated, never edited: ``python -m session_service.cli.bot.typed_views`` writes them again after a
game's shapes or commands change (``tests/unit/test_bot_typed_views.py`` fails while they differ)."""

from __future__ import annotations

import importlib
import json
import keyword
import sys
from pathlib import Path
from typing import Any

from shared.games import PACKAGES
from shared.kernel import Game

HERE = Path(__file__).parent / "games"
WIDTH = 120


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_") if part)


def singular(name: str) -> str:
    """An array's item class: ``Portals`` holds ``Portal``s; a name with no plural ``s`` holds ``…Item``s."""
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name + "Item"


def _str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


class _Module:
    """One game's classes as they are rendered, in the order they are first needed (a class before those it names)."""

    def __init__(self) -> None:
        self.classes: list[str] = []
        self.names: set[str] = set()

    def type_of(self, schema: dict[str, Any], name: str) -> str:
        """The Python type of ``schema``; an object becomes a class named ``name`` (made unique)."""
        if "const" in schema:
            value = schema["const"]
            return f"Literal[{_str(value) if isinstance(value, str) else repr(value)}]"
        for key in ("oneOf", "anyOf"):
            if key in schema:
                options = [self.type_of(o, self.option_name(o, name, i)) for i, o in enumerate(schema[key])]
                return " | ".join(dict.fromkeys(options))
        kind = schema.get("type")
        if isinstance(kind, list):
            return " | ".join(self.type_of({**schema, "type": k}, name) for k in kind)
        if kind == "string" and "enum" in schema:
            return f"Literal[{', '.join(map(_str, schema['enum']))}]"
        scalars = {"null": "None", "string": "str", "integer": "int", "number": "float", "boolean": "bool"}
        if kind in scalars:
            return scalars[kind]
        if kind == "array":
            items = schema.get("items", {})
            return f"list[{self.type_of(items, name if items.get('type') == 'array' else singular(name))}]"
        if kind == "object" and "properties" in schema:
            return self.typed_dict(schema, name)
        if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            return f"dict[str, {self.type_of(schema['additionalProperties'], name)}]"
        return "Any"

    @staticmethod
    def option_name(option: dict[str, Any], name: str, index: int) -> str:
        """An option of a union is named by its discriminating ``const`` when it has one (a rite by its id)."""
        for prop in (option.get("properties") or {}).values():
            if isinstance(prop, dict) and isinstance(prop.get("const"), str):
                return name + pascal(prop["const"])
        return name if index == 0 else f"{name}{index + 1}"

    def typed_dict(self, schema: dict[str, Any], name: str) -> str:
        while name in self.names:
            name += "_"
        self.names.add(name)
        at = len(self.classes)
        self.classes.append("")  # its place: the classes its fields name come after it
        fields = schema["properties"]
        if any(not key.isidentifier() or keyword.iskeyword(key) for key in fields):
            raise ValueError(f"{name}: a property is not a Python name (TypedDict's functional syntax would be needed)")
        required = set(schema.get("required", []))
        lines = [f"class {name}(TypedDict):", *_docstring(schema.get("description") or name)]
        for key, prop in fields.items():
            kind = self.type_of(prop, pascal(key) if name == "View" else name + pascal(key))
            if prop.get("description"):
                lines += [f"    # {line}" for line in _wrap(prop["description"], WIDTH - 6)]
            lines += _field(key, kind if key in required else f"NotRequired[{kind}]")
        self.classes[at] = "\n".join(lines)
        return name


def _docstring(text: str) -> list[str]:
    words = " ".join(text.split()).replace('"""', "'''")
    if len(words) + 10 <= WIDTH:
        return [f'    """{words}"""']
    return ['    """', *(f"    {line}" for line in _wrap(words, WIDTH - 4)), '    """']


def _wrap(text: str, width: int, joiner: str = " ") -> list[str]:
    """``text``'s parts (split at ``joiner``) in lines of at most ``width``; a line broken after a part keeps the
    joiner's mark (``,``, ``|``) at its end."""
    lines: list[str] = []
    mark = joiner.strip()
    for part in (w.strip() for w in text.split(mark or None) if w.strip()):
        if lines and len(lines[-1]) + len(joiner) + len(part) <= width:
            lines[-1] += joiner + part
        elif lines:
            lines[-1] += mark if joiner.startswith(mark) else " " + mark if mark else ""
            lines.append(part)
        else:
            lines.append(part)
    return lines


def _field(key: str, kind: str) -> list[str]:
    """A field's line, its ``Literal`` folded over lines when the line is too long."""
    line = f"    {key}: {kind}"
    if len(line) <= WIDTH or "Literal[" not in kind:
        return [line]
    start = line.index("Literal[") + len("Literal[")
    end = line.index("]", start)
    return [line[:start], *(f"        {part}" for part in _wrap(line[start:end] + ",", WIDTH - 8, ", ")),
            "    " + line[end:]]


def render(package: str, game: Game) -> str:
    """The module of one game, as its file holds it."""
    module = _Module()
    if game.catalogue.shapes is None:
        raise ValueError(f"{game.id} describes no view (its shapes.py)")
    module.type_of(game.catalogue.shapes.view, "View")
    commands = sorted(game.catalogue.commands.values(), key=lambda c: c.__name__)
    if len({c.__name__ for c in commands}) != len(commands):
        raise ValueError(f"{game.id}: two command records share a class name")
    by_module: dict[str, list[str]] = {}
    for command in commands:
        by_module.setdefault(command.__module__, []).append(command.__name__)
    imports = []
    for mod, names in sorted(by_module.items()):
        line = f"from {mod} import {', '.join(names)}"
        imports += [line] if len(line) <= WIDTH else [f"from {mod} import (", *(f"    {n}" for n in
                                                      _wrap(", ".join(names) + ",", WIDTH - 4, ", ")), ")"]
    union = " | ".join(c.__name__ for c in commands)
    alias = [f"Command = {union}"] if len(union) + 10 <= WIDTH else [
        "Command = (", *(f"    {line}" for line in _wrap(union, WIDTH - 4, " | ")), ")"]
    body = "\n\n\n".join(module.classes)
    exported = ["GAME", "Command", "View", *(c.__name__ for c in commands), *sorted(module.names - {"View"})]
    typing = ", ".join(n for n in ("Any", "Literal", "NotRequired", "TypedDict") if n in body)
    return "\n".join([
        *_wrap(f'"""{game.catalogue.title} ({game.id}) for a bot: ``View``, its view as typed dicts, and ``Command``, '
               f"its commands' records. Generated from shared/games/{package}/ by ``python -m "
               'session_service.cli.bot.typed_views``: do not edit."""', WIDTH),
        "",
        "from __future__ import annotations",
        "",
        f"from typing import {typing}",
        "",
        *imports,
        "",
        f"GAME = {_str(game.id)}",
        "",
        "# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.",
        *alias,
        "",
        "",
        body,
        "",
        "",
        "__all__ = [",
        *(f"    {line}" for line in _wrap(", ".join(_str(n) for n in exported) + ",", WIDTH - 4, ", ")),
        "]",
        "",
    ])


def expected() -> dict[Path, str]:
    """Every game module's path and text."""
    return {HERE / f"{package}.py": render(package, importlib.import_module(f"shared.games.{package}").GAME)
            for package in PACKAGES}


def main() -> int:
    for path, text in expected().items():
        path.write_text(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
