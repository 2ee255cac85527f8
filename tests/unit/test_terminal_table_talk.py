"""The terminal client around the table, without a server: chat lines by name (your own as "You", those who watch
marked), each line once; say, mute and unmute asking the API and saying its refusals in its words; the rematch in
every state it can be in, followed once it starts; leaving and declining before the start. Every screen at 80 and
at 40 columns: names and sentences that fit, never an id or JSON."""

from __future__ import annotations

import datetime
import io
import queue
import re
import threading
from typing import Any

import pytest

from session_service.cli.terminal import table_talk
from session_service.cli.terminal.api import Api, PlayError, StreamReader
from session_service.cli.terminal.around import chat_text, invitation_text, rematch_text
from session_service.cli.play import table_at
from session_service.cli.terminal import session as session_module
from session_service.cli.terminal.session import Session
from shared.games import GAMES
from shared.wire.catalog import catalog

ENTRY = {g["id"]: g for g in catalog(GAMES)["games"]}["pocket-madness"]
NOW = datetime.datetime(2026, 11, 26, 12, 0, tzinfo=datetime.timezone.utc)
UNREADABLE = re.compile(r"[\[\]{}]|\bp_\w+|\bg_\w+|\bNone\b")
ADA = {"id": "p_ada", "name": "Ada"}
SEATS = [{"name": "Ada", "player": "p_ada"}, {"name": "Bo", "player": "p_bo"}]


class FakeApi:
    """Answers each request as the test says (by its path), and keeps what was asked."""

    def __init__(self, answers: dict[str, Any] | None = None) -> None:
        self.asked: list[tuple[str, str, Any]] = []
        self.answers = answers or {}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        self.asked.append((method, path, body))
        answer = self.answers.get(path, {})
        if isinstance(answer, Exception):
            raise answer
        return answer


class NoPolling:
    """Stands in for ``AfterTheEnd``: the test hands the session the messages a look would bring."""

    def __init__(self, *args: Any) -> None:
        self.stop, self.rematch = threading.Event(), None

    def start(self) -> None:
        pass


def session(api: FakeApi, seat: int | None = 0, me: dict[str, Any] | None = ADA, status: str = "active",
            invited: int | None = None) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    resource = {"status": status, "seats": SEATS, "host": {"name": "Ada"}}
    return Session(api, "g_1", seat, resource, ENTRY, out, io.StringIO(), me=me, invited=invited), out  # type: ignore[arg-type]


def line(number: int, name: str, text: str, seat: int | None = None, channel: str = "players", player: str | None = None) -> dict[str, Any]:
    said: dict[str, Any] = {"name": name, **({"seat": seat} if seat is not None else {}), **({"player": player} if player else {})}
    return {"id": number, "channel": channel, "at": "2026-11-26T12:00:00Z", "from": said, "text": text}


def flat(out: io.StringIO) -> str:
    """What the screen says, its lines joined as one text (a sentence may wrap anywhere)."""
    return " ".join(out.getvalue().split())


def readable(text: str, columns: int) -> None:
    for shown in text.splitlines():
        assert len(shown) <= columns, f"{shown!r} is wider than {columns} columns"
        assert not UNREADABLE.search(shown), shown


@pytest.fixture(params=[80, 40])
def columns(request, monkeypatch) -> int:
    monkeypatch.setenv("COLUMNS", str(request.param))
    return int(request.param)


def test_a_chat_line_names_its_speaker_and_marks_those_who_watch():
    assert chat_text(line(1, "Bo", "good luck", seat=1), 0, None) == "» Bo: good luck"
    assert chat_text(line(2, "Ada", "thanks", seat=0), 0, None) == "» You: thanks"
    assert chat_text(line(3, "Ada", "thanks", player="p_ada"), None, "p_ada") == "» You: thanks"
    assert chat_text(line(4, "Cy", "go Ada", channel="spectators", player="p_cy"), None, "p_ada") == "» Cy (watching): go Ada"


def test_chat_lines_arrive_once_by_name_and_fit_the_terminal(columns):
    table, out = session(FakeApi())
    table.on_chat(line(7, "Bo", "may the stars be right for you, and may your cultists keep their wits about them", seat=1, player="p_bo"))
    table.on_chat(line(7, "Bo", "may the stars be right for you", seat=1, player="p_bo"))  # the same line again (a resume)
    table.on_chat(line(8, "Ada", "thanks!", seat=0, player="p_ada"))
    shown = out.getvalue()
    assert shown.count("» Bo:") == 1 and "» You: thanks!" in shown and "cultists keep their wits" in " ".join(shown.split())
    readable(shown, columns)


def test_say_posts_the_words_and_a_refusal_is_said_in_the_servers_words(columns):
    api = FakeApi({"/v1/games/g_1/chat": PlayError("more than 12 chat lines a minute; wait a moment", "request/rate_limited")})
    table, out = session(api)
    table.on_line("say good luck to you all")
    assert api.asked == [("POST", "/v1/games/g_1/chat", {"text": "good luck to you all"})]
    assert "Not sent: more than 12 chat lines a minute; wait a moment." in flat(out)
    table.on_line("say")
    assert len(api.asked) == 1 and "Type say and your words" in flat(out)
    readable(out.getvalue(), columns)


def test_mute_and_unmute_by_name_ask_for_that_player(columns):
    api = FakeApi()
    table, out = session(api)
    table.on_chat(line(3, "Cy", "psst", channel="spectators", player="p_cy"))
    table.on_line("mute bo")
    table.on_line("unmute Cy")
    table.on_line("mute Zed")
    table.on_line("mute Ada")
    assert [a[1] for a in api.asked] == ["/v1/players/p_bo/mute", "/v1/players/p_cy/unmute"]
    shown = flat(out)
    assert "You will not read Bo's lines any more" in shown and "You read Cy's lines again." in shown
    assert "Nobody called Zed" in shown and "That is you." in shown
    readable(out.getvalue(), columns)


def test_a_spectator_without_a_player_key_is_told_how_to_talk():
    api = FakeApi()
    table, out = session(api, seat=None, me=None)
    table.on_line("say hello")
    assert api.asked == [] and "come back with --key" in flat(out)


def test_mute_without_a_player_key_says_how_to_get_one():
    api = FakeApi()
    table, out = session(api, me=None)
    table.on_line("mute Bo")
    assert api.asked == [] and "--key" in out.getvalue()


@pytest.mark.parametrize("rematch, seat, said", [
    ({"status": "offered", "offered_by": 1, "accepted": [1], "expires_at": "2026-11-26T12:01:40Z"}, 0,
     "Bo offers a rematch (said yes: Bo; it lapses in 1 min 40 s). Type rematch to accept, or decline to turn it down."),
    ({"status": "offered", "offered_by": 0, "accepted": [0], "expires_at": "2026-11-26T12:00:45Z"}, 0,
     "You offer a rematch (said yes: you; it lapses in 45 s). Waiting for the others; type decline to withdraw."),
    ({"status": "declined", "offered_by": 0, "accepted": [0], "declined_by": 1}, 0, "Bo declined the rematch. Type rematch to offer another."),
    ({"status": "expired", "offered_by": 0, "accepted": [0]}, 1, "The rematch offer lapsed. Type rematch to offer another."),
    ({"status": "accepted", "offered_by": 0, "accepted": [0, 1], "game": "g_2"}, 1, "Everyone said yes: the rematch is on. Here is the new table."),
])
def test_a_rematch_reads_as_a_sentence_in_each_state(rematch, seat, said):
    assert rematch_text(rematch, ["Ada", "Bo"], seat, NOW) == said


def test_after_the_end_a_seat_stays_offers_a_rematch_and_follows_it_once_it_starts(columns, monkeypatch):
    monkeypatch.setattr(table_talk, "AfterTheEnd", NoPolling)
    offered = {"status": "offered", "offered_by": 0, "accepted": [0], "expires_at": "2026-11-26T12:02:00Z", "game": None}
    api = FakeApi({"/v1/games/g_1/rematch": {"rematch": offered}})
    table, out = session(api)
    assert table.on_end({"outcome": {"winners": [1], "scores": [3, 9], "reason": "madness"}}) is False
    assert "Type rematch to offer a rematch" in flat(out)
    assert table.on_line("rematch") is False and ("POST", "/v1/games/g_1/rematch", None) in api.asked
    assert "You offer a rematch" in flat(out)
    table.on_chat(line(9, "Bo", "one more?", seat=1))  # after the stream: from a look at GET /chat
    assert table.on_rematch({**offered, "status": "accepted", "accepted": [0, 1], "game": "g_2"}) is True
    assert table.follow == ("g_2", 0) and "the rematch is on" in flat(out)
    readable(out.getvalue(), columns)


def test_a_spectator_leaves_at_the_end_and_plays_no_rematch():
    api = FakeApi()
    table, out = session(api, seat=None)
    assert table.on_end({"outcome": {"winners": [0], "scores": [9, 3]}}) is True
    table.on_line("rematch")
    assert api.asked == [] and "play no rematch" in out.getvalue()


def test_a_rematch_declined_is_said_and_refusals_in_the_servers_words(monkeypatch):
    monkeypatch.setattr(table_talk, "AfterTheEnd", NoPolling)
    declined = {"status": "declined", "offered_by": 1, "accepted": [1], "declined_by": 0, "game": None}
    api = FakeApi({"/v1/games/g_1/rematch/decline": {"rematch": declined}})
    table, out = session(api)
    table.on_end({"outcome": {"winners": [1], "scores": [3, 9]}})
    assert table.on_line("decline") is False and "You declined the rematch." in flat(out)
    api.answers["/v1/games/g_1/rematch"] = PlayError("a table may be offered a rematch 3 times", "request/rate_limited")
    table.on_line("rematch")
    assert "No rematch: a table may be offered a rematch 3 times." in flat(out)


def test_leave_gives_the_seat_back_while_the_table_waits_and_says_why_not_after(columns):
    api = FakeApi({"/v1/games/g_1/leave": {"version": 3, "events": [{"type": "table_seat_left"}]}})
    table, out = session(api, status="waiting")
    assert table.on_line("leave") is True and ("POST", "/v1/games/g_1/leave", None) in api.asked
    assert "You left the table: your seat is open again for anyone." in flat(out)
    api.answers["/v1/games/g_1/leave"] = {"version": 3, "events": [{"type": "table_aborted"}]}
    table, out = session(api, status="waiting")
    assert table.on_line("leave") is True and "the table is called off: you opened it" in flat(out)
    api.answers["/v1/games/g_1/leave"] = PlayError("the game has started: its seats are taken", "game/started")
    table, out = session(api)
    assert table.on_line("leave") is False and "You stay: the game has started" in flat(out)
    readable(out.getvalue(), columns)


def test_an_invitation_is_taken_with_join_or_turned_down_with_decline(columns):
    assert invitation_text("Ada", 1, ["Ada", "an open seat"]) == (
        "Ada keeps seat 1 for you (seated: Ada). Type join to take it, or decline to turn the invitation down.")
    api = FakeApi({"/v1/games/g_1/join": {"seat": 1}})
    table, out = session(api, seat=None, status="waiting", invited=1)
    table.show_invitation()
    assert table.on_line("join") is True and table.follow == ("g_1", 1)
    table, out2 = session(api, seat=None, status="waiting", invited=1)
    assert table.on_line("decline") is True and ("POST", "/v1/games/g_1/decline", None) in api.asked
    assert "You declined the invitation" in flat(out2)
    readable(out.getvalue() + out2.getvalue(), columns)


def test_a_session_reads_only_its_own_readers_once_the_next_one_runs(monkeypatch):
    """Taking a seat kept for you opens a session of its own, on the same inbox: the first one's stream may have
    put a message in it before it was stopped, which the second drops."""
    inbox: queue.Queue = queue.Queue()
    first, second = (StreamReader(Api("http://server"), "g_1", inbox) for _ in range(2))
    first.put(("stream", {"type": "event", "data": {"version": 4, "text": {"plain": "Di took an open seat"}}}))
    first.stop.set()
    first.put(("stream", {"type": "event", "data": {"version": 5, "text": {"plain": "Di took an open seat again"}}}))
    second.put(("stream", {"type": "chat", "data": line(1, "Bo", "hi", seat=1)}))
    second.put(("stream", {"type": "end", "data": {}}))
    monkeypatch.setattr(session_module, "StreamReader", lambda *args: second)
    monkeypatch.setattr(second, "start", lambda: None)  # no connection: the inbox holds what it would bring
    table, out = session(FakeApi(), seat=None, me=None)
    table.inbox, table.reads_lines = inbox, False
    assert table.run() == 0
    assert "» Bo: hi" in out.getvalue() and "took an open seat" not in out.getvalue() and inbox.empty()


def test_a_rematchs_table_named_before_it_is_made_is_asked_for_again_and_a_first_table_is_not():
    missing = PlayError("there is no game with that id", "game/not_found")
    api, pauses = FakeApi({"/v1/games/g_2": missing}), []
    with pytest.raises(PlayError):
        table_at(api, "g_2", again=False, pause=pauses.append)
    assert len(api.asked) == 1 and pauses == []

    class MadeOnTheThirdLook(FakeApi):
        def call(self, method: str, path: str, body: Any = None) -> Any:
            self.asked.append((method, path, body))
            if len(self.asked) < 3:
                raise missing
            return {"id": "g_2", "game": "pocket-madness"}

    api = MadeOnTheThirdLook()
    assert table_at(api, "g_2", again=True, pause=pauses.append)["id"] == "g_2" and len(pauses) == 2
    with pytest.raises(PlayError):
        table_at(FakeApi({"/v1/games/g_2": missing}), "g_2", again=True, tries=3, pause=pauses.append)
