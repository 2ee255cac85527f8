"""``mythos play`` around the table, terminals on the real stack at 80 and at 40 columns: two players chat by name
while a third watches (the spectators' channel never reaches the seats), a muted player's line never reaches the one
who muted, and after the end one offers a rematch, the other accepts it and both terminals go on at the new table.
Before a start: an invited player declines in the terminal, another takes the seat kept for it and leaves it, a
stranger with the invite code joins the private table, says hello and leaves it, and the code lets one watch it.

With ``TERMINAL_SCREENS=DIR`` each terminal's screen is kept there as text (docs/screenshots/terminal/ holds them)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import requests

from tests.e2e.test_mythos_play import MYTHOS, Terminal

pytestmark = pytest.mark.e2e
UNREADABLE = re.compile(r"[\[\]{}]|\bp_\w+|\bNone\b")  # a game id may show (to come back with), never a player's


def player(base: str, name: str) -> dict:
    reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def post(base: str, path: str, key: str | None = None, body: dict | None = None) -> requests.Response:
    return requests.post(f"{base}{path}", json=body or {}, headers={"Authorization": f"Bearer {key}"} if key else {}, timeout=30)


def wrapped(text: str) -> re.Pattern:
    """``text`` as a terminal may show it: wrapped at any space, its next line indented."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def keep(name: str, term: Terminal, columns: int) -> None:
    """The terminal's screen as text, checked: names and sentences that fit the terminal."""
    screen = term.seen.replace("\r\n", "\n").replace("\r", "\n")
    for line in screen.splitlines():
        assert len(line) <= columns, f"{line!r} is wider than {columns} columns"
        assert not UNREADABLE.search(line), line
    folder = os.environ.get("TERMINAL_SCREENS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        Path(folder, f"{name}-{columns}.txt").write_text(screen)


@pytest.mark.parametrize("ada_columns, bo_columns", [(80, 40), (40, 80)])
def test_two_terminals_chat_mute_and_play_a_rematch_while_a_third_watches(stack, ada_columns, bo_columns):
    base = stack.url
    ada, bo, cy = player(base, "Ada"), player(base, "Bo"), player(base, "Cy")
    game = post(base, "/v1/games", ada["key"], {"game": "pocket-madness", "seats": [{"me": True}, {"open": True}]}).json()
    assert post(base, f"/v1/games/{game['id']}/join", bo["key"]).status_code == 200
    adas = Terminal([*MYTHOS, "play", game["id"], "--server", base, "--key", ada["key"]], columns=ada_columns)
    bos = Terminal([*MYTHOS, "play", game["id"], "--server", base, "--key", bo["key"]], columns=bo_columns)
    cys = Terminal([*MYTHOS, "play", game["id"], "--watch", "--server", base, "--key", cy["key"]], columns=bo_columns)
    try:
        for term, who in ((adas, "Ada (seat 0)"), (bos, "Bo (seat 1)"), (cys, "a spectator")):
            term.read_until(re.compile(wrapped(f"you are {who}").pattern + r"[^\0]*?\nNow: "))
        adas.type("say good luck, Bo")
        for term, who in ((bos, "Ada"), (cys, "Ada"), (adas, "You")):
            term.read_until(wrapped(f"» {who}: good luck, Bo"))
        bos.type("say thanks, you too")
        adas.read_until(wrapped("» Bo: thanks, you too"))
        cys.type("say go Ada!")  # the spectators' channel: the seats never read it while the game is on
        cys.read_until(wrapped("» You (watching): go Ada!"))
        bos.type("mute Ada")
        bos.read_until(wrapped("You will not read Ada's lines"))
        adas.type("say a line Bo never reads")
        adas.read_until(wrapped("» You: a line Bo never reads"))
        cys.read_until(wrapped("» Ada: a line Bo never reads"))
        bos.type("say are you there?")
        bos.read_until(wrapped("» You: are you there?"))  # said after Ada's line: the stream carried hers first, if at all
        adas.read_until(wrapped("» Bo: are you there?"))  # and after Cy's
        assert "never reads" not in bos.seen and "go Ada" not in adas.seen + bos.seen

        assert post(base, f"/v1/games/{game['id']}/resign", bo["key"]).status_code == 200  # Ada wins: the table is over
        for term in (adas, bos):
            term.read_until("Winner: Ada.")
            term.read_until(wrapped("Type rematch to offer a rematch"))
        cys.read_until(wrapped("Winner: Ada."))
        assert cys.process.wait(30) == 0  # a spectator's screen ends with the game
        adas.type("rematch")
        adas.read_until(wrapped("You offer a rematch"))
        bos.read_until(wrapped("Ada offers a rematch (said yes: Ada;"))
        bos.read_until(wrapped("Type rematch to accept, or decline to turn it down."))
        bos.type("rematch")
        bos.read_until(wrapped("the rematch is on"))
        adas.read_until(wrapped("the rematch is on"))
        new = requests.get(f"{base}/v1/games/{game['id']}/rematch", timeout=10).json()["rematch"]["game"]
        for term, who in ((bos, "Bo (seat 1)"), (adas, "Ada (seat 0)")):  # the new table, drawn to its line for now
            term.read_until(re.compile(wrapped(f"game {new} · you are {who}").pattern + r"[^\0]*?\nNow: "))
        keep("chat-mute-rematch-ada", adas, ada_columns)
        keep("chat-mute-rematch-bo", bos, bo_columns)
        keep("chat-spectator-cy", cys, bo_columns)
    finally:
        for term in (adas, bos, cys):
            term.close()
    table = requests.get(f"{base}/v1/games/{new}", timeout=10).json()
    assert table["rematch_of"] == game["id"] and table["status"] == "active"
    assert [s["player"] for s in table["seats"]] == [ada["id"], bo["id"]]
    post(base, f"/v1/games/{new}/resign", bo["key"])  # nothing left running for the shared stack's worker


@pytest.mark.parametrize("columns", [80, 40])
def test_an_invitation_declined_a_private_table_joined_with_its_code_then_left_and_watched(stack, columns):
    base = stack.url
    ada, bo = player(base, "Ada"), player(base, "Bo")
    di = player(base, "Di")
    game = post(base, "/v1/games", ada["key"], {"game": "pocket-madness", "visibility": "private", "seats": [
        {"me": True}, {"open": True, "player": bo["id"]}, {"open": True, "player": di["id"]}]}).json()
    bos = Terminal([*MYTHOS, "play", game["id"], "--server", base, "--key", bo["key"]], columns=columns)
    try:
        bos.read_until(wrapped("you are invited to seat 1"))
        bos.read_until(wrapped("Ada keeps seat 1 for you (seated: Ada). Type join to take it, or decline"))
        bos.type("decline")
        bos.read_until(wrapped("You declined the invitation: the seat is open for anyone now."))
        assert bos.process.wait(30) == 0
        keep("decline-bo", bos, columns)
    finally:
        bos.close()
    seats = requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()["seats"]
    assert seats[1]["open"] and not seats[1].get("player")

    dis = Terminal([*MYTHOS, "play", game["id"], "--server", base, "--key", di["key"]], columns=columns)
    try:
        dis.read_until(wrapped("Ada keeps seat 2 for you"))
        dis.type("join")
        dis.read_until(re.compile(wrapped("you are Di (seat 2)").pattern + r"[^\0]*?\nNow: waiting for players"))
        assert requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()["seats"][2]["name"] == "Di"
        assert "took an open seat" not in dis.seen  # the watching session's stream ended with it: no message twice
        dis.type("leave")
        dis.read_until(wrapped("You left the table: your seat is open again for anyone."))
        assert dis.process.wait(30) == 0
        keep("invitation-join-leave-di", dis, columns)
    finally:
        dis.close()

    cys = Terminal([*MYTHOS, "play", game["id"], "--server", base, "--invite", game["invite"], "--name", "Cy"], columns=columns)
    try:
        cys.read_until(wrapped("you are Cy (seat 1)"))
        cys.read_until(wrapped("Now: waiting for players to take the open seats."))
        cys.type("say hello?")
        cys.read_until(wrapped("» You: hello?"))
        cys.type("leave")
        cys.read_until(wrapped("You left the table: your seat is open again for anyone."))
        assert cys.process.wait(30) == 0
        keep("invite-leave-cy", cys, columns)
    finally:
        cys.close()
    seats = requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()["seats"]
    assert [s["name"] for s in seats] == ["Ada", None, None] and all(s["open"] for s in seats[1:])

    watching = Terminal([*MYTHOS, "play", game["id"], "--watch", "--server", base, "--invite", game["invite"]], columns=columns)
    try:
        watching.read_until(wrapped("you are a spectator"))
        watching.read_until(wrapped("Now: waiting for players to take the open seats."))
    finally:
        watching.close()
    post(base, f"/v1/games/{game['id']}/abort", ada["key"])
