"""The game in words: each event told as a short sentence for one reader, the way a table's log reads.

A sentence is a ``Text``: a ``template`` with named ``{placeholders}``, its ``args`` and the ``plain`` words, so a
client may print ``plain`` or render the template itself (names as links, cards as pictures). An argument is a
number, a word, a seat ``{"seat": 1, "name": "Bot 1"}`` (``"you": true`` for the reader's own seat, which reads
"you"; ``{seat}'s`` then reads "your"), a card ``{"card": 13, "name": "Shoggoth"}`` or any other named thing
(``{"portal": 9, "name": "Dagon"}``), or a list of those (read "A, B and C"). ``render`` is the one function that
turns a template and its args into plain words.

A game's ``Narrator`` holds one line per event type: a function of the event's data *as redacted for the reader*
(``shared.kernel.redact``) and the ``Voice`` (who reads, the seats' names). It never sees more than the event, so
a sentence cannot say more than the event does: a card the reader may not see is missing from the data, and the
line says "a card" or counts. Sentences are in the past tense ("Ada drew 2 cards"), which reads the same for
"you" as for a name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}('s\b)?")


@dataclass(frozen=True, slots=True)
class Text:
    """One sentence: the template, its named arguments, and the plain words they render to."""

    template: str
    args: Mapping[str, Any]
    plain: str

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "args": dict(self.args), "plain": self.plain}


def render(template: str, args: Mapping[str, Any]) -> str:
    """The plain words of ``template`` with each ``{name}`` replaced by its argument's words; the sentence starts
    with a capital. Raises ``KeyError`` for a placeholder without an argument."""
    literals, slots, _ = _parsed(template)
    out = [literals[0]]
    for (name, possessive), literal in zip(slots, literals[1:]):
        value = args[name]
        if possessive:
            out.append("your" if _is_reader(value) else f"{words(value)}'s")
        else:
            out.append(words(value))
        out.append(literal)
    plain = "".join(out)
    return plain[:1].upper() + plain[1:]


@functools.lru_cache(maxsize=4096)
def _parsed(template: str) -> tuple[tuple[str, ...], tuple[tuple[str, bool], ...], frozenset[str]]:
    """A template as its literal pieces, its placeholders (name, possessive) between them, and their names: a game
    tells the same few hundred templates over and over."""
    literals: list[str] = []
    slots: list[tuple[str, bool]] = []
    at = 0
    for match in PLACEHOLDER.finditer(template):
        literals.append(template[at : match.start()])
        slots.append((match.group(1), bool(match.group(2))))
        at = match.end()
    literals.append(template[at:])
    return tuple(literals), tuple(slots), frozenset(name for name, _ in slots)


def words(value: Any) -> str:
    """An argument as words: a seat's name ("you" for the reader), a thing's name, a list joined "A, B and C"."""
    if isinstance(value, dict):
        return "you" if value.get("you") is True else str(value["name"])
    if isinstance(value, (list, tuple)):
        return joined([words(v) for v in value])
    return str(value)


def joined(items: Sequence[str]) -> str:
    """``["A", "B", "C"]`` as "A, B and C" ("nothing" for none)."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _is_reader(value: Any) -> bool:
    return isinstance(value, dict) and value.get("you") is True


def say(template: str, **args: Any) -> Text:
    """A sentence from its template and arguments: ``say("{seat} drew {count} cards", seat=..., count=2)``. An
    argument the template does not name is left out (a line may offer one a plural form does not use)."""
    used = _parsed(template)[2]
    kept = {name: value for name, value in args.items() if name in used}
    return Text(template, kept, render(template, kept))


def clauses(parts: Iterable[tuple[str, Mapping[str, Any]]], separator: str = ", ") -> tuple[str, dict[str, Any]]:
    """Several clauses of one sentence, each a template with its own arguments, joined by ``separator``: their
    arguments numbered apart, so ``("{seat} took {madness}", …)`` twice reads ``"{seat_0} took {madness_0}, {seat_1}
    took {madness_1}"``. The joined template and all the arguments."""
    texts: list[str] = []
    args: dict[str, Any] = {}
    for index, (template, own) in enumerate(parts):
        texts.append(PLACEHOLDER.sub(lambda m: f"{{{m.group(1)}_{index}}}{m.group(2) or ''}", template))  # noqa: B023
        args |= {f"{name}_{index}": value for name, value in own.items()}
    return separator.join(texts), args


def plural(count: int, one: str, many: str) -> str:
    """The template fragment for ``count`` things: ``plural(n, "a card", "{count} cards")``."""
    return one if count == 1 else many


def named(kind: str, key: Any, name: str) -> dict[str, Any]:
    """A named thing as an argument: ``named("card", 13, "Shoggoth")`` is ``{"card": 13, "name": "Shoggoth"}``."""
    return {kind: key, "name": name}


def changed_hands(template: str, other: str, field: str, thing: Callable[[Any], dict[str, Any]]) -> Line:
    """The line of a card that changed hands between ``seat`` and the seat in ``other``, named (``thing`` of the
    data's ``field``) where the data holds it, the two seats' secret, else "a card": ``changed_hands("{seat} gave
    {card} to {other}", "to", "card", card)``."""

    def line(data: Mapping[str, Any], voice: Voice) -> Text:
        args = {"seat": voice.seat(data["seat"]), "other": voice.seat(data[other])}
        if field in data:
            return say(template, card=thing(data[field]), **args)
        return say(template.replace("{card}", "a card"), **args)

    return line


# -- who reads -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Voice:
    """Who a game's sentences are told to: the ``reader``'s seat (None for a spectator) and the seats' names, one
    per seat (a seat without a name reads "Seat N"). ``tell`` gives one event's sentence from its data as redacted
    for that reader."""

    narrator: Narrator
    reader: int | None = None
    names: tuple[str | None, ...] = ()

    def seat(self, seat: int) -> dict[str, Any]:
        """A seat as an argument: its number and name, marked ``you`` for the reader's own."""
        name = self.names[seat] if 0 <= seat < len(self.names) else None
        out: dict[str, Any] = {"seat": seat, "name": name or f"Seat {seat}"}
        if seat == self.reader:
            out["you"] = True
        return out

    def seats(self, seats: Iterable[int]) -> list[dict[str, Any]]:
        return [self.seat(s) for s in seats]

    def tell(self, event_type: str, data: Mapping[str, Any]) -> Text:
        return self.narrator(event_type, data, self)

    def named(self, seat: int, name: str | None) -> Voice:
        """This voice once ``seat`` is called ``name`` (a seat taken after the names were read)."""
        names = list(self.names) + [None] * (seat + 1 - len(self.names))
        names[seat] = name
        return replace(self, names=tuple(names))


Line = Callable[[Mapping[str, Any], Voice], Text]
"""One event type's sentence: from the event's redacted data and the voice."""


@dataclass(frozen=True, eq=False)
class Narrator:
    """A game's sentences, one ``Line`` per event type; ``|`` joins two (the table's and the game's). An event type
    it has no line for (a retired rules version's) reads as its type in words."""

    lines: Mapping[str, Line] = field(default_factory=dict)

    @property
    def covers(self) -> frozenset[str]:
        return frozenset(self.lines)

    def __call__(self, event_type: str, data: Mapping[str, Any], voice: Voice) -> Text:
        line = self.lines.get(event_type)
        if line is None:
            return say(event_type.replace("_", " "))
        return line(data, voice)

    def __or__(self, other: Narrator) -> Narrator:
        return Narrator({**self.lines, **other.lines})
