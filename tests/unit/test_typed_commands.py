"""Typed commands (``shared.kernel.commands``): the JSON Schema derived from a record, the strict reading of a posted
command with a clear message per wrong field, and the round trip of every legal command of every game."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from shared.games import GAMES
from shared.games.rites_of_cthulhu.rites.dunwich_horror.commands import Knock
from shared.kernel import Command, CommandRefused, RuleViolation, arg, by_type
from shared.wire.commands import MalformedCommand, parse_command
from tests.support.properties import choose
from tests.support.toy import GAME as TOY


@dataclass(frozen=True, slots=True)
class Probe(Command, type="probe"):
    """Probe the toolkit (Rule 0). A second line."""

    count: int = arg("how many", minimum=1, maximum=3)
    colour: str = arg("a colour", enum=("red", "blue"))
    cards: tuple[int, ...] = arg("two cards", min_items=2, max_items=2)
    seat: int | None = arg("a seat, or null", default=None)
    loud: bool = arg("whether loudly", default=False)


GOOD = {"type": "probe", "count": 2, "colour": "red", "cards": [4, 9]}
LEFT_OUT = object()


def refusal(raw: dict) -> dict[str, list[str]]:
    with pytest.raises(CommandRefused) as info:
        Probe.from_wire(raw)
    return info.value.fields


def test_the_json_schema_is_derived_from_the_record():
    assert Probe.json_schema() == {
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 1, "maximum": 3, "description": "how many"},
            "colour": {"type": "string", "enum": ["red", "blue"], "description": "a colour"},
            "cards": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                      "description": "two cards"},
            "seat": {"type": ["integer", "null"], "description": "a seat, or null", "default": None},
            "loud": {"type": "boolean", "description": "whether loudly", "default": False},
            "type": {"type": "string", "enum": ["probe"], "description": "the command's name"},
        },
        "required": ["type", "cards", "colour", "count"],
        "additionalProperties": False,
        "description": "Probe the toolkit (Rule 0). A second line.",
    }


def test_a_schema_handed_out_is_a_copy():
    Probe.json_schema()["properties"].clear()
    assert "count" in Probe.json_schema()["properties"]


def test_a_nullable_choice_is_the_choice_or_null():
    schema = GAMES["rise-of-cthulhu"].catalogue.commands["play_artifact"].json_schema()["properties"]["location"]
    assert schema["anyOf"] == [{"type": "string", "enum": ["arkham", "dunwich", "innsmouth", "kingsport"]},
                               {"type": "null"}]
    assert schema["default"] is None


def test_a_posted_command_becomes_its_record_with_the_defaults_filled_in():
    command = Probe.from_wire(GOOD)
    assert command == Probe(count=2, colour="red", cards=(4, 9), seat=None, loud=False)
    assert command.to_wire() == {**GOOD, "seat": None, "loud": False}
    assert json.loads(json.dumps(command.to_wire())) == command.to_wire()  # arrays as lists


@pytest.mark.parametrize("change, field, message", [
    ({"count": LEFT_OUT}, "count", "missing: the field is required"),
    ({"count": True}, "count", "not an integer"),
    ({"count": "2"}, "count", "not an integer"),
    ({"count": 2.0}, "count", "not an integer"),
    ({"count": 0}, "count", "less than 1"),
    ({"count": 4}, "count", "more than 3"),
    ({"colour": "green"}, "colour", "not one of red, blue"),
    ({"colour": 7}, "colour", "not a string"),
    ({"cards": [4]}, "cards", "fewer than 2 items"),
    ({"cards": [4, 9, 10]}, "cards", "more than 2 items"),
    ({"cards": [4, "9"]}, "cards", "item 1: not an integer"),
    ({"cards": {"0": 4}}, "cards", "not an array"),
    ({"seat": "1"}, "seat", "not an integer"),
    ({"loud": 1}, "loud", "not a boolean"),
    ({"shout": True}, "shout", "unknown field: probe has no such field"),
])
def test_a_malformed_command_is_refused_field_by_field(change, field, message):
    raw = {name: value for name, value in {**GOOD, **change}.items() if value is not LEFT_OUT}
    assert refusal(raw) == {field: [message]}


def test_a_record_reads_only_its_own_type():
    assert refusal({**GOOD, "type": "other"}) == {"type": ["not probe"]}
    assert Probe.from_wire({k: v for k, v in GOOD.items() if k != "type"}).count == 2


def test_every_wrong_field_is_named_at_once():
    assert refusal({"type": "probe", "count": 9, "extra": 1}) == {
        "count": ["more than 3"], "colour": ["missing: the field is required"],
        "cards": ["missing: the field is required"], "extra": ["unknown field: probe has no such field"],
    }


def test_the_wire_refuses_a_malformed_command_with_its_fields_and_an_unknown_one_by_rule():
    with pytest.raises(MalformedCommand) as bad:
        parse_command(TOY, {"type": "play_card", "card": False})
    assert bad.value.details == {"fields": {"card": ["not an integer"]}}
    with pytest.raises(RuleViolation) as unknown:
        parse_command(TOY, {"type": "castle"})
    assert unknown.value.code == "rules/unknown_command"


def test_null_is_accepted_only_where_the_field_allows_it():
    assert Probe.from_wire({**GOOD, "seat": None}).seat is None
    assert refusal({**GOOD, "colour": None}) == {"colour": ["not a string"]}


def test_a_pair_is_held_in_ascending_order_however_it_is_posted_or_built():
    assert Knock.from_wire({"type": "knock", "cards": [9, 4]}).cards == (4, 9) == Knock(cards=(9, 4)).cards


def test_a_field_without_its_description_or_of_an_unsupported_type_is_refused_when_the_class_is_first_read():
    @dataclass(frozen=True, slots=True)
    class Bare(Command, type="bare"):
        count: int = 1

    @dataclass(frozen=True, slots=True)
    class Odd(Command, type="odd"):
        ratio: float = arg("a ratio")

    for kind in (Bare, Odd):
        with pytest.raises(TypeError):
            kind.json_schema()


def test_a_command_name_means_one_record():
    @dataclass(frozen=True, slots=True)
    class OtherProbe(Command, type="probe"):
        """Another probe."""

    assert by_type(Probe)["probe"] is Probe
    with pytest.raises(TypeError):
        by_type(Probe, OtherProbe)


@pytest.mark.parametrize("game", [TOY, *GAMES.values()], ids=lambda g: g.id)
def test_every_legal_command_of_random_playouts_goes_to_the_wire_and_back_unchanged(game):
    """What ``legal_commands`` offers, posted as JSON, is read back as the very same record, and its schema lets
    it through (a command the server offers is one a client may post)."""
    checked, fields = 0, {kind: set(command.json_schema()["properties"]) for kind, command in game.catalogue.commands.items()}
    for seed in range(3):
        chooser = random.Random(seed)
        state = game.replay(game.start(game.catalogue.min_players, {}, seed.to_bytes(8, "big"))[1])
        for step in range(400):
            if game.decider.outcome(state) is not None:
                break
            for seat in range(state.players):
                for command in game.decider.legal_commands(state, seat):
                    posted = json.loads(json.dumps(command.to_wire()))
                    assert posted["type"] == command.type and parse_command(game, posted) == command
                    assert set(posted) == fields[command.type]
                    checked += 1
            seat, command = choose(game, state, chooser)
            state = game.checked_decide(state, command, seat, step.to_bytes(4, "big")).state
    assert checked > 20
