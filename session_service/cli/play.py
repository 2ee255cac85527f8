"""``mythos play``: a terminal client for a seat. It creates a table (the other seats AI) or takes a seat it holds
a token for (or, with a player key, a seat the player holds; or joins an open one), or watches, then plays the
seat in ``terminal.session``: the table drawn per game with card names, the log in sentences, the legal moves
by number, the table's chat, on the game's live stream; after the end, the rematch, and the new table once it
starts.

Only the public API is used (stdlib + requests): nothing here knows a game's rules; card names come from the
catalogue's card data."""

from __future__ import annotations

import os
import queue
import sys
import time
from collections.abc import Callable
from typing import Any

from session_service.cli.terminal.api import Api, Inbox, LineReader, PlayError
from session_service.cli.terminal.quick import quick_seat
from session_service.cli.terminal.session import Session


def take_seat(api: Api, args: Any, me: dict[str, Any], say: Any) -> tuple[str, int | None, int | None]:
    """The game, the seat this run plays (None to watch) and a seat kept for the player there (an invitation it
    answers with join or decline), creating or joining a table as the arguments say."""
    invite = {"invite": args.invite} if args.invite else {}
    if args.game_id and args.watch:
        if args.invite and not args.key:
            api.token = args.invite  # a private table is watched with its invite code
        return args.game_id, None, None
    if args.game_id and args.token and not args.key:
        api.token = args.token
        return args.game_id, args.seat, None
    if args.game_id and args.key:
        seats = api.call("GET", f"/v1/games/{args.game_id}")["seats"]
        held = [s["seat"] for s in seats if s.get("player") == me.get("id") and not s.get("open")]
        kept = [s["seat"] for s in seats if s.get("player") == me.get("id") and s.get("open")]
        if held or kept:
            return args.game_id, (held or [None])[0], None if held else kept[0]
        return args.game_id, api.call("POST", f"/v1/games/{args.game_id}/join", invite)["seat"], None
    if args.game_id:
        answer = api.call("POST", f"/v1/games/{args.game_id}/join", {"name": args.name, **invite})
        api.token = answer.get("token")
        return args.game_id, answer["seat"], None
    bots = [{"name": f"Bot {n}", "ai": args.ai} for n in range(1, args.players or 2)]
    you = {"me": True} if args.key else {"name": args.name}
    body: dict[str, Any] = {"game": args.game, "seats": [you] + bots}
    if args.seed:
        body["seed"] = args.seed
    created = api.call("POST", "/v1/games", body)
    if not args.key:
        api.token = created["seats"][0]["token"]
        say(f"created {created['id']}; your seat token (keep it to come back): {api.token}")
    else:
        say(f"created {created['id']}; come back with: mythos play {created['id']} --key …")
    return created["id"], 0, None


def table_at(api: Api, game_id: str, again: bool, tries: int = 40, pause: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """The table's resource; ``again``: a rematch's table is named a moment before it is made, so a table not found
    yet is asked for again, ``tries`` times a quarter of a second apart."""
    left = tries if again else 1
    while True:
        left -= 1
        try:
            resource: dict[str, Any] = api.call("GET", f"/v1/games/{game_id}")
            return resource
        except PlayError as exc:
            if exc.code != "game/not_found" or left <= 0:
                raise
        pause(0.25)


def run(args: Any, out: Any = None, inp: Any = None) -> int:
    """Play (or watch) the table, then the next one while there is one to follow: a rematch that started, a seat
    kept for the player that it took. One reader of the input for all of them."""
    out, inp = out or sys.stdout, inp or sys.stdin
    api = Api(args.server)
    args.players_given = getattr(args, "players", None) is not None

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        me: dict[str, Any] = {}
        if args.key:  # a player: one key for every seat it holds, so coming back needs no seat token
            api.token = args.key
            me = api.call("GET", "/v1/me")
        seat: int | None
        if getattr(args, "quick", None):
            (game_id, seat), invited = quick_seat(api, args, say), None
            me = me or api.call("GET", "/v1/me")
        else:
            game_id, seat, invited = take_seat(api, args, me, say)
        inbox: Inbox = queue.Queue()
        LineReader(inp, inbox).start()
        catalogue = {g["id"]: g for g in api.call("GET", "/v1/catalog")["games"]}
        following = False
        while True:
            resource = table_at(api, game_id, again=following)
            entry = catalogue.get(resource["game"], {"id": resource["game"]})
            session = Session(api, game_id, seat, resource, entry, out, inp, me=me or None, inbox=inbox, invited=invited)
            code = session.run()
            if session.follow is None:
                return code
            (game_id, seat), invited, following = session.follow, None, True
    except PlayError as exc:
        say(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130


def add_parser(sub: Any) -> None:
    play = sub.add_parser("play", help="play a seat in the terminal: create a table (other seats AI), join one, or watch")
    play.add_argument("game_id", nargs="?", help="a table to take a seat at (with --token), join, or --watch")
    play.add_argument("--server", default="http://127.0.0.1:8000")
    play.add_argument("--game", default="pocket-madness", help="the game type of a new table")
    play.add_argument("--players", type=int, help="seats at a new table (you and AI seats; default 2), or at a quick one")
    play.add_argument("--ai", default="random", help="the AI level of a new table's other seats (random, easy, medium, hard)")
    play.add_argument("--seed", help="a new table's seed, on a server that allows it (MYTHOS_ALLOW_CLIENT_SEED): the same deal again")
    play.add_argument("--name", default="Player")
    play.add_argument("--token", help="your seat token at GAME_ID")
    play.add_argument("--seat", type=int, default=0, help="the seat of --token")
    play.add_argument("--watch", action="store_true", help="watch GAME_ID as a spectator")
    play.add_argument("--invite", help="a private table's invite code: join GAME_ID with it (or, with --watch and no "
                                       "--key, watch it)")
    play.add_argument("--quick", metavar="GAME", help="quick play: wait for other players of GAME (POST /v1/seeks), then "
                                                      "play the seat found (makes you a player without --key)")
    play.add_argument("--rated", action="store_true", help="with --quick: a rated table")
    play.add_argument("--ai-after", type=int, metavar="S", help="with --quick: AI seats (--ai) fill the table after S seconds")
    play.add_argument("--key", default=os.environ.get("MYTHOS_KEY"),
                      help="your player key (POST /v1/players; default $MYTHOS_KEY): create, join and come back as that "
                           "player, no seat token needed")
