"""Every event of every game, and of the table around it, reads as a sentence for every reader (issue 30, item 1).

Seeded games of every game (and of the toy template) are played at the table, as the session service records them
(``table_opened`` … ``table_ended``), and every event is told to every seat, to a spectator and, as the replay
reads it once the game is over, with nothing hidden. Each sentence renders from its template and arguments, has
no placeholder left and no id list or JSON in its words, names the reader "you" and nobody else, and names its
cards. Every event type a game declares has a sentence of its own, and the playouts reach every one of them
(the few that random play never reaches are told from an example built by hand).

That the sentences say no more than the redacted events is the hidden-information suites' matter: they compare
what a seat receives of an event, sentence included (``tests/support/properties.py``,
``tests/trust/test_non_interference.py``, ``tests/trust/test_rites_non_interference.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from shared.games import GAMES
from shared.games.toy import GAME as TOY
from shared.kernel import EVERYONE, Event, ev, redact
from shared.kernel.game import Game
from shared.kernel.narration import PLACEHOLDER, Narrator, render
from shared.kernel.table import TABLE_FACTS, Seating, table_batch
from shared.kernel.table_narration import TABLE_NARRATOR, heard, voice_for
from shared.records import GENESIS, client_event, make_records
from tests.support.properties import random_playout

ALL = {**GAMES, TOY.id: TOY}
SEEDS = range(36)
NAMES = ["Ada", "Bot 2", "Cy", "Dee", "Eli", "Fay", "Gus"]
RAW = re.compile(r"[{}\[\]\"]|\bNone\b|\w_\w")
DISAGREES = re.compile(r"\byou (was|is|has|wins|takes|draws|holds|plays)\b", re.IGNORECASE)
RARE = {
    # Out of the Aeons: a cultist whose hand a power-play emptied sits a round out (no random playout of these seeds)
    "bid_passed": ev("bid_passed", seat=1, reason="empty_hand"),
}
"""Event types random play does not reach in ``SEEDS``: each told from one example, checked against its fact."""


def table_log(game: Game, players: int, seed: int, options: dict[str, Any] | None) -> list[Event]:
    """A seeded random game of ``game`` as its table records it: opened with every seat named, set up and started,
    each command's events, and ``table_ended`` after the last."""
    play = random_playout(game, players, seed, options)
    seating = Seating(game)
    seats = [{"name": NAMES[i], "ai": "random" if i else None, "player": None, "open": False} for i in range(players)]
    opening = {"type": "open_table", "game_id": "g_narrated", "seats": seats, "options": play.options,
               "visibility": "public"}
    setup = play.events[: play.batches[0]]
    log = table_batch(seating, None, opening, None, lambda count, resolved: setup)
    table = seating.fold(None, log)
    start = len(setup)
    for size in play.batches[1:]:
        batch, table = seating.played(table, play.events[start : start + size])
        log += batch
        start += size
    return log


def readers(players: int) -> Iterator[tuple[Any, int | None]]:
    """(viewer, reader): each seat and a spectator while the game runs, and the replay's view of a seat and of a
    spectator once it is over (everything shown, the reader still "you")."""
    for seat in range(players):
        yield seat, seat
    yield None, None
    yield EVERYONE, 0
    yield EVERYONE, None


def check_text(text: dict[str, Any], reader: int | None, where: str) -> None:
    """One sentence as a reader gets it: checked once per sentence and reader (``CHECKED``), since the same
    sentence comes back for the same reader game after game."""
    key = (reader, repr(text))
    if key in CHECKED:
        return
    _check_text(text, reader, where)
    CHECKED.add(key)


CHECKED: set[tuple[int | None, str]] = set()
"""The (reader, ``repr`` of the sentence) pairs ``_check_text`` has passed: its verdict depends on nothing else, and
``repr`` tells apart values ``==`` does not (``1`` and ``True``)."""


def _check_text(text: dict[str, Any], reader: int | None, where: str) -> None:
    template, args, plain = text["template"], text["args"], text["plain"]
    assert set(text) == {"template", "args", "plain"}, where
    json.dumps(args)
    named = {m.group(1) for m in PLACEHOLDER.finditer(template)}
    assert named == set(args), f"{where}: placeholders {sorted(named)} and arguments {sorted(args)} differ"
    assert render(template, args) == plain, where
    assert plain and not plain[0].islower() and "  " not in plain, f"{where}: {plain!r}"
    assert not RAW.search(plain), f"{where}: ids, JSON or a raw name in {plain!r}"
    assert not DISAGREES.search(plain), f"{where}: {plain!r}"
    for value in args.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                assert isinstance(item.get("name"), str) and item["name"], f"{where}: an argument without a name: {item}"
                if "seat" in item:
                    assert item.get("you", False) is (item["seat"] == reader), f"{where}: {item} read by {reader}"


def told(game: Game, log: list[Event], players: int) -> set[str]:
    """Tell every event of ``log`` to every reader, as the API does (``client_event``), checking each sentence; the
    event types told."""
    records = make_records(log, version=0, prev_hash=GENESIS, cause={"id": "c", "seat": None, "type": "t", "by": "server"},
                           command=None, at="2026-01-01T00:00:00.000Z", rules_version=game.rules_version)
    for viewer, reader in readers(players):
        voice = voice_for(game, reader, NAMES[:players])
        for record in records:
            voice = heard(voice, record["type"], record["data"])
            event = client_event(record, viewer, voice)
            check_text(event["text"], reader, f"{game.id} v{record['v']} {record['type']} for {viewer!r}")
    return {event.type for event in log}


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_every_event_type_a_game_declares_has_a_sentence_of_its_own(game_id):
    game = ALL[game_id]
    assert isinstance(game.catalogue.narrator, Narrator), f"{game_id} registers no narrator"
    assert game.catalogue.narrator.covers == set(game.decider.facts.by_type), (
        f"{game_id}: sentences for {sorted(game.catalogue.narrator.covers - set(game.decider.facts.by_type))}, "
        f"none for {sorted(set(game.decider.facts.by_type) - game.catalogue.narrator.covers)}")
    assert TABLE_NARRATOR.covers == set(TABLE_FACTS.by_type)


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_every_event_of_seeded_games_reads_as_a_sentence_for_every_reader(game_id):
    game = ALL[game_id]
    switches = {name: True for name, option in game.catalogue.options.items() if option.type == "bool"}
    seen: set[str] = set()
    for seed in SEEDS:
        players = game.catalogue.min_players + seed % (min(game.catalogue.max_players, 6) - game.catalogue.min_players + 1)
        seen |= told(game, table_log(game, players, seed, switches if seed % 2 else None), players)
    for example in (e for kind, e in RARE.items() if kind in game.decider.facts and kind not in seen):
        assert not game.decider.facts.problems(example), game.decider.facts.problems(example)
        seen |= told(game, [example], 4)
    assert seen >= set(game.decider.facts.by_type), f"{game_id}: never told {sorted(set(game.decider.facts.by_type) - seen)}"


def test_the_tables_own_events_read_as_sentences_for_every_reader():
    """Opened with an open seat kept for a player, who declines it; taken by a person, who leaves it and takes it again;
    the rest taken by the table's AI; a resignation, an abandoned table; tables called off by a seat and by the server."""
    game = GAMES["pocket-madness"]
    seating = Seating(game)
    setup = game.decider.setup
    seats = [{"name": "Ada", "ai": None}, {"open": True, "player": "p_cy"}, {"open": True}]
    opening = {"type": "open_table", "game_id": "g_t", "seats": [{**s, "name": s.get("name")} for s in seats],
               "options": {}, "visibility": "public"}
    start = lambda players, options: setup(players, options, b"table")  # noqa: E731 - a one-line setup
    log = table_batch(seating, None, opening, None, start)
    for command, by in (({"type": "decline", "seat": 1, "player": "p_cy"}, None), ({"type": "join", "seat": 1, "name": "Cy"}, None),
                        ({"type": "leave"}, 1), ({"type": "join", "seat": 1, "name": "Cy"}, None), ({"type": "start", "ai": "easy"}, None)):
        log += table_batch(seating, seating.fold(None, log), command, by, start)
    log += table_batch(seating, seating.fold(None, log), {"type": "resign", "ai": "random"}, 1, start)
    log += table_batch(seating, seating.fold(None, log), {"type": "abandon", "idle_s": 3600}, None, start)
    assert {e.type for e in log} >= set(TABLE_FACTS.by_type) - {"table_aborted"}
    told(game, log, 3)
    for who in (0, None):
        called_off = table_batch(seating, None, opening, None, start)
        called_off += table_batch(seating, seating.fold(None, called_off), {"type": "abort"}, who, start)
        told(game, called_off, 3)


def test_a_seat_reads_its_own_secrets_and_the_others_read_a_count():
    """Pocket Madness: a draw of face-down cards names them to the drawer only."""
    game = GAMES["pocket-madness"]
    drawn = ev("cards_drawn", seat=0, count=3, revealed=[6], face_down=[9, 12], secret={"face_down": [0]})
    for_ada = voice_for(game, 0, NAMES[:2]).tell(drawn.type, redact(drawn, 0))
    for_bot = voice_for(game, 1, NAMES[:2]).tell(drawn.type, redact(drawn, 1))
    assert for_ada.plain == "You drew R'lyeh, Innsmouth and Underworld"
    assert for_bot.plain == "Ada drew R'lyeh, plus 2 face-down cards"
    assert for_ada.args["seat"] == {"seat": 0, "name": "Ada", "you": True}
    assert for_bot.args["cards"] == [{"card": 6, "name": "R'lyeh"}]


def test_the_seat_named_is_the_one_the_event_is_about_not_the_one_whose_command_caused_it():
    """The Dunwich Horror: seat 0's move ends its turn and begins seat 1's; the sentence names seat 1."""
    game = GAMES["rites-of-cthulhu"]
    began = ev("dunwich_turn_began", seat=1)
    record = make_records([began], version=0, prev_hash=GENESIS, cause={"id": "c", "seat": 0, "type": "end_turn", "by": "seat"},
                          command=None, at="2026-01-01T00:00:00.000Z", rules_version=game.rules_version)[0]
    event = client_event(record, 0, voice_for(game, 0, NAMES[:3]))
    assert event["seat"] == 0 and event["text"]["plain"] == "Bot 2 began a turn"
    assert event["text"]["args"] == {"seat": {"seat": 1, "name": "Bot 2"}}
