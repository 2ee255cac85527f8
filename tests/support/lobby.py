"""What the lobby's API tests share: an in-process app on the toy game, a bearer header, a player."""

from __future__ import annotations

from typing import Any

from tests.support.stack import make_session_app
from tests.support.toy import GAME


def toy_app(fake_redis: Any, prefix: str, **config: Any) -> Any:
    """The session service on fakeredis with the toy game, no write rate limit (``config``: more settings)."""
    return make_session_app(fake_redis, prefix, {"toy": GAME}, **{"RATE_LIMIT_PER_MINUTE": 0, **config})[0]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player(client: Any, name: str, bot: bool = False) -> dict[str, Any]:
    reply = client.post("/v1/players", json={"name": name, "bot": bot})
    assert reply.status_code == 201, reply.json
    return reply.json
