"""``mythos bot new`` (make a bot account, print its key once) and ``mythos bot run`` (play as it: ``runner.py``)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any

from session_service.cli.terminal.api import Api, PlayError

SERVER = "http://127.0.0.1:8000"


def add_parser(sub: Any) -> None:
    bot = sub.add_parser("bot", help="run a bot: a program that plays as a bot account (docs/writing-a-bot.md)")
    verbs = bot.add_subparsers(dest="bot_command", required=True)
    new = verbs.add_parser("new", help="make a bot account (a player with bot: true) and print its key, once")
    new.add_argument("--name", required=True)
    new.add_argument("--url", default=SERVER, help=f"the server (default {SERVER})")
    run = verbs.add_parser("run", help="play every table of the bot account with module:obj, and seek games if asked")
    run.add_argument("bot", metavar="module:obj", help="the bot: a module (or a file path/to/bot.py) and in it one "
                     "choose(view, legal_commands) for every game, or a mapping of game ids to each game's (default obj: "
                     "choose)")
    run.add_argument("--key", default=os.environ.get("MYTHOS_KEY"), help="the bot account's key (default $MYTHOS_KEY)")
    run.add_argument("--url", default=SERVER, help=f"the server (default {SERVER})")
    run.add_argument("--quick", action="append", metavar="GAME", default=[], help="seek quick play games of this "
                     "type (again for another, or GAME,GAME: sought in turn, one seek at a time)")
    run.add_argument("--players", type=int, help="with --quick: tables of exactly this many seats")
    run.add_argument("--rated", action="store_true", help="with --quick: rated games")
    run.add_argument("--pool", choices=("bots", "humans"), help="with --quick: the pool to seek in (default: bots; "
                     "rated games with people only where the server allows it)")
    run.add_argument("--ai-after", type=int, metavar="S", help="with --quick: AI seats fill the table after S seconds")
    run.add_argument("--ai", help="with --ai-after: their AI level (default: the server's)")
    run.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    run.add_argument("--games", type=int, help="leave once this many games were played (default: run until Ctrl-C)")
    run.add_argument("--accept", default="all", metavar="POLICY", help="the challenges it accepts: all (the default), "
                     "none, or casual or rated, bots or people, joined by commas (casual,people); the others are declined")


def run(args: argparse.Namespace) -> int:
    # Imported here, not with the parser: they import every game's rules (1.5-2 s), which every other command of
    # mythos (run among them: a start of the stack) would wait for.
    from session_service.cli.bot.load import BotNotFound, load
    from session_service.cli.bot.policy import Policy
    from session_service.cli.bot.runner import Options, Runner

    say = _printer()
    if args.bot_command == "new":
        try:
            made = Api(args.url).call("POST", "/v1/players", {"name": args.name, "bot": True})
        except PlayError as exc:
            say(f"error: {exc}")
            return 1
        say(f"the bot account {made['name']} ({made['id']}); its key, shown once (keep it like a password): {made['key']}")
        return 0
    if not args.key:
        say("error: no key: --key K or MYTHOS_KEY (mythos bot new --name NAME makes a bot account)")
        return 2
    if args.concurrency < 1:
        say("error: --concurrency is at least 1")
        return 2
    try:
        bot, policy = load(args.bot), Policy.parse(args.accept)
    except (BotNotFound, ValueError) as exc:
        say(f"error: {exc}")
        return 2
    seek: dict[str, Any] = {"rated": bool(args.rated)}
    for name, value in (("seats", args.players), ("pool", args.pool), ("ai_fill_after_s", args.ai_after), ("ai", args.ai)):
        if value is not None:
            seek[name] = value
    quick = [game for given in args.quick for game in given.split(",") if game]
    options = Options(quick=quick, seek=seek, concurrency=args.concurrency, games=args.games, accept=policy)
    try:
        return Runner(args.url.rstrip("/"), args.key, bot, options, say).run()
    except PlayError as exc:
        say(f"error: {exc}")
        return 1


def _printer() -> Any:
    """One line at a time from every thread, each with the time it was said."""
    lock = threading.Lock()

    def say(text: str) -> None:
        with lock:
            sys.stdout.write(f"{time.strftime('%H:%M:%S')} {text}\n")
            sys.stdout.flush()

    return say
