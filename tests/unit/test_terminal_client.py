"""The terminal client (``mythos play``) without a server: each game's table drawn from every position of seeded
random playouts, for a seat and for a spectator, in names (no id, no JSON, no Python words); every legal command
in words; and the choice loop against a recorded API: the choices shown are the seat's current legal commands,
a stale choice is asked again rather than posted, a choice goes in with the latest version, and one refused only
because the table moved (409) goes in again at the next turn if it is still offered."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest

from session_service.cli.terminal.api import PlayError
from session_service.cli.terminal.games import Seen, describe, layout_for
from session_service.cli.terminal.screen import now_line, table_lines, wrap
from session_service.cli.terminal.session import GAME_ENDED_FIRST, Session, sentence
from shared.games import GAMES
from shared.kernel.narration import Voice
from shared.wire.catalog import catalog
from tests.support.properties import random_playout

CATALOG = {g["id"]: g for g in catalog(GAMES)["games"]}
PLAYED = [("pocket-madness", 3), ("arkham-ritual", 4), ("rise-of-cthulhu", 2), ("great-old-one", 3), ("rites-of-cthulhu", 4),
          ("rites-of-cthulhu", 2)]
# What a player must never read: an id list or JSON, Python's words, a card or seat the client could not name.
UNREADABLE = re.compile(r"[\[\]{}]|\bNone\b|\bTrue\b|\bFalse\b|Location \d|Portal \d|\bseat \d|\bunknown\b")


def seen_at(game: Any, state: Any, seat: int | None) -> Seen:
    outcome = game.decider.outcome(state)
    view = json.loads(json.dumps(game.decider.view(state, seat), default=list))
    return Seen(view, seat, ["Ada"] + [f"Bot {n}" for n in range(1, state.players)],
                sorted(game.decider.to_act(state)) if outcome is None else [], "finished" if outcome else "active",
                {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": outcome.reason,
                 "details": outcome.details} if outcome else None)


@pytest.mark.parametrize("game_id, players", PLAYED)
def test_every_position_of_every_game_is_drawn_in_names(game_id, players):
    game, entry = GAMES[game_id], CATALOG[game_id]
    layout = layout_for(entry)
    drawn_lines = 0
    for seed in range(2):
        for state in random_playout(game, players, seed, keep_states=True).states[::3]:
            for seat in (0, None):
                seen = seen_at(game, state, seat)
                lines = table_lines(entry["title"], layout.table(seen), seen, [None] + ["random"] * (players - 1))
                if seat is not None:
                    lines += [describe(json.loads(json.dumps(c.to_wire())), layout, seen) for c in game.decider.legal_commands(state, seat)]
                for line in lines:
                    assert not UNREADABLE.search(line), f"{game_id}: {line!r}"
                drawn_lines += len(lines)
    assert drawn_lines > 200


def test_a_rites_hand_and_the_artifacts_won_read_as_names():
    entry = CATALOG["rites-of-cthulhu"]
    names = {e["id"]: e["name"] for e in entry["card_data"]["entities"]}
    artifacts = {a["id"]: a["name"] for a in entry["card_data"]["artifacts"]}
    view = {"table": {"hands": {"0": [8, 13], "1": 5}}, "captured": {"0": [], "1": [10]}, "scores": {"0": 0, "1": 3}}
    text = "\n".join(table_lines("Rites", layout_for(entry).table(Seen(view, 0, ["Ada", "Bot"])), Seen(view, 0, ["Ada", "Bot"]), [None, "random"]))
    assert names[8] in text and names[13] in text and artifacts[10] in text
    assert names[10] not in text  # artifact 10 is not entity 10 (the defect the web table had)


def test_the_pocket_madness_deck_is_shown_whole():
    entry = CATALOG["pocket-madness"]
    names = {loc["number"]: loc["name"] for loc in entry["card_data"]["locations"]}
    deck = [{"face_up": True, "location": 6 + n % 7} if n % 3 else {"face_up": False} for n in range(52)]
    view = {"deck": deck, "deck_size": 52, "face_down_in_deck": 18, "portals": [], "hand": [6]}
    text = " ".join(line.strip() for line in table_lines("Pocket Madness", layout_for(entry).table(Seen(view, 0, ["Ada", "Bot"])),
                                                          Seen(view, 0, ["Ada", "Bot"]), [None, None]))
    for position, card in enumerate(deck, 1):
        if card["face_up"]:
            assert f"{position} {names[card['location']]}" in text
    assert "1 face down" in text and "52 " in text


def test_a_line_breaks_between_cards_never_inside_one():
    line = "Your hand: " + ", ".join(["Francis Wayland Thurston (5, green)", "The Mad Arab Abdul Alhazred (12, yellow)"] * 6)
    for text in wrap(line):
        assert text.count("(") == text.count(")"), text


def test_an_event_reads_as_its_sentence_and_never_as_its_data():
    assert sentence({"type": "cards_drawn", "data": {"seat": 1, "cards": [13, 22]}, "text": {"plain": "Bot drew Shoggoth"}}, ["Ada", "Bot"]) == "Bot drew Shoggoth"
    assert sentence({"type": "cards_drawn", "data": {"seat": 1, "cards": [13, 22]}}, ["Ada", "Bot"]) == "Bot: cards drawn"


# -- the choice loop ---------------------------------------------------------------------------------------
class RecordedApi:
    """Answers the session's posts as the test says, and keeps what was posted."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.answers: list[Any] = []

    def call(self, method: str, path: str, body: Any = None) -> Any:
        self.posts.append(body)
        answer = self.answers.pop(0) if self.answers else {"version": body["expected_version"] + 1}
        if isinstance(answer, Exception):
            raise answer
        return answer


BID_A, BID_B, BID_C = ({"type": "bid", "card": n} for n in (1, 2, 3))


def seated() -> tuple[Session, RecordedApi, io.StringIO]:
    api, out = RecordedApi(), io.StringIO()
    resource = {"status": "active", "seats": [{"name": "Ada"}, {"name": "Bot 1", "ai": "random"}, {"name": "Bot 2", "ai": "random"}]}
    session = Session(api, "g_1", 0, resource, CATALOG["rites-of-cthulhu"], out, io.StringIO())  # type: ignore[arg-type]
    return session, api, out


def turn(version: int, legal: list[dict[str, Any]], to_act: tuple[int, ...] = (0, 1, 2)) -> dict[str, Any]:
    return {"version": version, "status": "active", "to_act": list(to_act), "legal_commands": legal, "view": {}, "outcome": None}


def test_a_choice_made_while_others_bid_goes_in_with_the_latest_version():
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    assert "1. Bid" in out.getvalue() and "2. Bid" in out.getvalue()
    session.on_event({"version": 11, "type": "bid_sealed", "text": {"plain": "Bot 1 placed a bid face down"}})
    session.on_turn(turn(11, [BID_A, BID_B], (0, 2)))  # the same choices: not shown again, the prompt comes back
    assert out.getvalue().count("1. Bid") == 1 and out.getvalue().endswith("> ")
    session.on_line("2")
    assert api.posts == [{"command": BID_B, "expected_version": 11}]


def test_a_number_typed_against_choices_that_changed_is_asked_again_not_posted():
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    session.shown = [BID_A, BID_B]
    session.turn = turn(11, [BID_C])  # the table moved between the choices shown and the typing
    session.on_line("1")
    assert api.posts == [] and "moved on" in out.getvalue() and "1. Bid" in out.getvalue().split("moved on")[1]
    session.on_line("1")
    assert api.posts == [{"command": BID_C, "expected_version": 11}]


def test_a_number_typed_after_the_table_moved_on_to_others_is_told_once_and_not_posted():
    """The number is answered with one sentence (it once read "choose again" and then "you have no move", two
    notices for one number, which a person reads as two and the terminal test counted as two)."""
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    session.shown = [BID_A, BID_B]
    session.turn = turn(11, [], (1,))  # the table moved on to another seat between the choices shown and the typing
    before = out.getvalue()
    session.on_line("1")
    said = out.getvalue()[len(before):]
    assert api.posts == [] and said.count("no move to make right now") == 1 and "choose again" not in said
    session.on_line("1")
    assert api.posts == []


def test_a_move_the_game_ended_before_is_told_so_once_whether_posted_or_still_waiting():
    """A number typed as the last move was made never goes in: the person is told so, in one sentence (it once went
    unsaid, and the terminal test counted the number as posted)."""
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    api.answers = [PlayError("the game is over", "game/finished")]
    session.on_line("1")  # posted, and refused: the game had ended
    assert out.getvalue().count(GAME_ENDED_FIRST) == 1 and "refused" not in out.getvalue()
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    session.on_event({"version": 11, "type": "bid_sealed", "text": {"plain": "Bot 1 placed a bid face down"}})
    session.on_line("1")  # waits for the turn of version 11, which never comes: the game ends
    session.input_over = True  # (no rematch to stay for)
    session.on_end({"outcome": {"winners": [1], "reason": "score", "scores": [0, 3, 1]}})
    assert api.posts == [] and out.getvalue().count(GAME_ENDED_FIRST) == 1


def test_a_number_typed_before_the_turn_of_newer_events_waits_for_it():
    session, api, _ = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    session.on_event({"version": 11, "type": "bid_sealed", "text": {"plain": "Bot 1 placed a bid face down"}})
    session.on_line("1")
    assert api.posts == []  # the turn of version 11 is on its way: it says what is offered
    session.on_turn(turn(11, [BID_A, BID_B], (0, 2)))
    assert api.posts == [{"command": BID_A, "expected_version": 11}]


def test_a_choice_refused_because_the_table_moved_goes_in_again_if_still_offered():
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    api.answers = [PlayError("the game moved on", "game/version_conflict", {"current_version": 12})]
    session.on_line("1")
    session.on_turn(turn(12, [BID_A, BID_B], (0, 2)))
    assert api.posts == [{"command": BID_A, "expected_version": 10}, {"command": BID_A, "expected_version": 12}]
    assert "refused" not in out.getvalue()


def test_a_choice_refused_because_the_table_moved_is_asked_again_when_the_choices_changed():
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    api.answers = [PlayError("the game moved on", "game/version_conflict", {"current_version": 12})]
    session.on_line("1")
    session.on_turn(turn(12, [BID_C], (0,)))
    assert len(api.posts) == 1 and "choose again" in out.getvalue() and "1. Bid" in out.getvalue().split("choose again")[1]


def test_a_rules_refusal_is_said_in_the_servers_words_and_the_choice_stays_open():
    session, api, out = seated()
    session.on_turn(turn(10, [BID_A, BID_B]))
    api.answers = [PlayError("You cannot bid that card", "rules/not_in_hand")]
    session.on_line("1")
    assert "refused: You cannot bid that card" in out.getvalue() and session.shown == [BID_A, BID_B]


def test_moves_open_out_of_turn_are_offered_once_and_listed_on_request():
    session, api, out = seated()
    power = {"type": "invoke_artifact", "artifact": 3, "card": None, "seat": None, "target": None}
    session.on_turn(turn(10, [power], (1,)))
    session.on_turn(turn(11, [power], (2,)))
    assert out.getvalue().count("out of turn") == 1 and "1. Invoke" not in out.getvalue()
    session.on_line("l")
    assert "1. Invoke" in out.getvalue()
    session.on_line("1")
    assert api.posts == [{"command": power, "expected_version": 11}]


def test_a_stuck_table_says_so_on_its_now_line():
    session, _, out = seated()
    session.on_state({**turn(10, [], (1,)), "view": {"stage": "performing"}, "stuck": True})
    assert "the table is stuck" in out.getvalue()


def test_the_line_for_now_asks_only_what_the_menu_offers():
    """Issue 42: with the deck empty the menu held only "End your turn" and the line for now still said "draw 1
    to 3 cards…": the line is made from the seat's commands."""
    entry = CATALOG["pocket-madness"]
    view = {"deck": [], "deck_size": 0, "portals": [], "hand": [6, 7], "turn": {"seat": 0, "action": None}, "round": 2}
    seen = Seen(view, 0, ["Ada", "Bot"], [0], legal=[{"type": "end_turn"}])
    now = now_line(seen, layout_for(entry).table(seen))
    assert now == "Now: your move (end the turn).", now
    seen = Seen(view, 0, ["Ada", "Bot"], [0], legal=[{"type": "draw_cards", "count": n} for n in (1, 2, 3)] + [{"type": "meld_set", "location": 6, "count": 2}])
    assert now_line(seen, layout_for(entry).table(seen)) == "Now: your move (draw 1 to 3 cards or meld sets).", now_line(seen, layout_for(entry).table(seen))


def test_a_rounds_end_reads_one_way_on_the_screen_and_in_the_log():
    """Issue 42: the board said "Round 2 is over: the deck ran out." over a log line "The deck ran out and every
    hand was laid down; …" and a line for now "(the round is over)": one wording, the log's."""
    entry = CATALOG["pocket-madness"]
    data = {"reason": "deck_exhausted", "gained": [2, 1], "round": 2}
    view = {"deck": [], "deck_size": 0, "portals": [], "hand": [], "phase": "round_over", "round": 2, **data}
    seen = Seen(view, 0, ["Ada", "Bot"], [1])
    text = " ".join(line.strip() for line in table_lines("Pocket Madness", layout_for(entry).table(seen), seen, [None, "random"]))
    said = Voice(GAMES["pocket-madness"].catalogue.narrator, 0, ("Ada", "Bot")).tell("round_ended", data).plain
    assert said[0].lower() + said[1:] in text, (said, text)
    assert text.lower().count("round is over") + text.lower().count("round 2 is over") == 1, text
