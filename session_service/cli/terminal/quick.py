"""``mythos play --quick GAME``: seek a game (``POST /v1/seeks``) and wait on the player's stream for ``matched``,
then play the seat it names. Ctrl-C while waiting withdraws the seek. Without a player key it makes a player first
(a seek is a player's), and says its key once, to come back with."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import requests

from session_service.cli.terminal.api import Api, PlayError


def quick_seat(api: Api, args: Any, say: Any) -> tuple[str, int]:
    """The table and seat quick play found for the player (``args.quick``: the game type). The player's stream is
    open before the seek is made, so its ``matched`` cannot come before the stream reads from its feed."""
    if not api.token:
        made = api.call("POST", "/v1/players", {"name": args.name})
        api.token = made["key"]
        say(f"you are now the player {made['name']}; your key (keep it: --key, or MYTHOS_KEY): {made['key']}")
    body: dict[str, Any] = {"game": args.quick, "rated": bool(args.rated)}
    if args.players_given:
        body["seats"] = args.players
    if args.ai_after is not None:
        body["ai_fill_after_s"], body["ai"] = args.ai_after, args.ai
    seek: dict[str, Any] = {}

    def ask() -> str:
        seek.update(api.call("POST", "/v1/seeks", body))
        others = seek["pool_size"] - 1
        waiting = f"{others} other{'' if others == 1 else 's'} waiting" if others else "nobody else yet"
        say(f"looking for players for {args.quick} ({waiting}); Ctrl-C to stop looking")
        return str(seek["id"])

    try:
        return matched(api, ask)
    except KeyboardInterrupt:
        if seek:
            try:
                api.call("DELETE", f"/v1/seeks/{seek['id']}")
                say("stopped looking")
            except PlayError:
                pass  # matched meanwhile, or lapsed: nothing to withdraw
        raise


def matched(api: Api, ask: Callable[[], str], give_up_s: float = 24 * 3600) -> tuple[str, int]:
    """Open the player's stream, make the seek (``ask``, once the stream's first message is read) and read on until
    the stream says the seek was matched."""
    deadline = time.monotonic() + give_up_s
    headers = {"Accept": "application/x-ndjson", **api.headers()}
    seek_id = ""
    while time.monotonic() < deadline:
        try:
            with api.http.get(api.base + "/v1/me/stream", headers=headers, stream=True, timeout=(10, 60)) as reply:
                if not reply.ok:
                    raise PlayError(f"the player's stream was refused ({reply.status_code})")
                for line in reply.iter_lines():
                    message = json.loads(line) if line else {}
                    data = message.get("data") or {}
                    if message.get("type") == "tables" and not seek_id:
                        seek_id = ask()
                    elif message.get("type") == "matched" and data.get("seek") == seek_id:
                        return data["game"], int(data["seat"])
        except requests.RequestException:
            time.sleep(1.0)
        if seek_id and not any(s["id"] == seek_id for s in api.call("GET", "/v1/seeks")["seeks"]):
            raise PlayError("the seek closed while the connection was down (matched, or lapsed): your tables are on "
                            "`mythos play GAME_ID --key …`; look again with --quick")
    raise PlayError("nobody was found to play with")
