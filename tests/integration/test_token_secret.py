"""Redis holds nothing a seat token or invite can be rebuilt from (issue 33, item 7).

A create or join retried with its ``Idempotency-Key`` must answer the tokens of its first attempt, so those tokens
are derived, not drawn: from a secret kept for the request (the create's 24 h record, the game's join secret and
the stored key). From those alone the creator's tokens, the invite and a keyed joiner's token were recovered and
used. They are now derived with the server's ``TOKEN_SECRET`` too, which Redis never holds: this test dumps every
value Redis holds after keyed creates and joins, and tries every way of rebuilding a token from it (the old
derivation, and the new one with every value Redis holds standing in for the server's key); none works, while
the same attacker given the server's key rebuilds them all (so the attack is the right one).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable

import pytest

from deploy.stacks.dev import Stack
from session_service.bootstrap import BadTokenSecret, build
from session_service.config import Settings
from session_service.use_cases.players import seat_token
from tests.support.stack import TEST_TOKEN_SECRET, make_session_app
from tests.support.toy import GAME

HEX_SECRET = re.compile(rb"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")
SEATS = [{"name": "Ada"}, {"name": "Bo"}, {"open": True}, {"open": True}]


def everything(redis_client, prefix) -> list[bytes]:
    """Every key and value under the prefix, as bytes (hash fields and values, members, stream entries)."""
    found: list[bytes] = []
    for key in redis_client.scan_iter(match=f"{prefix}*", count=1000):
        found.append(key)
        kind = redis_client.type(key).decode()
        if kind == "string":
            found.append(redis_client.get(key))
        elif kind == "hash":
            for field, value in redis_client.hgetall(key).items():
                found += [field, value]
        elif kind == "zset":
            found += [member for member, _ in redis_client.zrange(key, 0, -1, withscores=True)]
        elif kind == "set":
            found += list(redis_client.smembers(key))
        elif kind == "stream":
            for _, entry in redis_client.xrange(key):
                for field, value in entry.items():
                    found += [field, value]
    return found


def purposes(dump: Iterable[bytes]) -> set[str]:
    """What a derived token may be for: the seats and the invite, and every keyed join's key (the idempotency field
    ``lobby:None:<key>`` stored in the game's answers)."""
    found = {"invite", *(f"seat:{i}" for i in range(16))}
    for value in dump:
        for match in re.finditer(rb"lobby:None:(join:[0-9a-f]{16}:[^\"\\s,}]+)", value):
            found.add(match.group(1).decode())
    return found


def rebuilt(dump: list[bytes], server_keys: Iterable[bytes]) -> set[str]:
    """Every token and invite an attacker holding ``dump`` (and the code) can make: the request secrets in it (32 hex
    characters), through the old derivation and through the new one under each candidate server key."""
    secrets_ = {m.group(0).decode() for value in dump for m in HEX_SECRET.finditer(value)}
    made = set()
    for secret in secrets_:
        for purpose in purposes(dump):
            macs = [hmac.new(bytes.fromhex(secret), purpose.encode(), hashlib.sha256).digest()]  # before the fix
            macs += [hmac.new(key, bytes.fromhex(secret) + b"\0" + purpose.encode(), hashlib.sha256).digest()
                     for key in server_keys]
            for mac in macs:
                text = base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")
                made |= {text, seat_token(text)}
    return made


def test_no_seat_token_or_invite_can_be_rebuilt_from_what_redis_holds(real_redis, prefix):
    app, _ = make_session_app(real_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    handed_out: set[str] = set()
    for n, visibility in enumerate(("private", "public")):
        created = client.post("/v1/games", json={"game": "toy", "seats": SEATS, "visibility": visibility},
                              headers={"Idempotency-Key": f"create-{n}"})
        assert created.status_code == 201, created.json
        handed_out |= {s["token"] for s in created.json["seats"] if "token" in s}
        if visibility == "private":
            handed_out.add(created.json["invite"])
        join = {"name": "Cy", **({"invite": created.json["invite"]} if visibility == "private" else {})}
        joined = client.post(f"/v1/games/{created.json['id']}/join", json=join, headers={"Idempotency-Key": f"join-{n}"})
        assert joined.status_code == 200, joined.json
        handed_out.add(joined.json["token"])
        again = client.post(f"/v1/games/{created.json['id']}/join", json=join, headers={"Idempotency-Key": f"join-{n}"})
        assert again.json["token"] == joined.json["token"]  # retries still answer the first tokens
    assert len(handed_out) == 7
    dump = everything(real_redis, prefix)
    assert not any(token.encode() in value for token in handed_out for value in dump)  # never stored as such
    assert rebuilt(dump, server_keys=dump) & handed_out == set()
    # The attack is the right one: with the server's key, the same attacker rebuilds every token and invite.
    assert rebuilt(dump, server_keys=[TEST_TOKEN_SECRET.encode()]) >= handed_out


@pytest.mark.parametrize("secret", ["", "short", "change-me-to-64-random-hex-characters-from-openssl-rand-hex-32",
                                    " " * 40, "a" * 64, "0123456789abcdef" * 2, "password" * 5])
def test_the_session_service_will_not_start_without_a_token_secret_of_its_own(fake_redis, prefix, secret):
    """Issue 41: 40 spaces were accepted. Too little randomness is refused too, with how to make a good one."""
    config = {"REDIS": fake_redis, "KEY_PREFIX": prefix, "SCHEDULER": None, "RULES_URL": "http://127.0.0.1:1",
              "TOKEN_SECRET": secret}
    with pytest.raises(BadTokenSecret, match="TOKEN_SECRET") as refused:
        build(Settings.from_config(config), config)
    assert "openssl rand -hex 32" in str(refused.value)
    assert build(Settings.from_config(config), config, serves_clients=False).lobby.token_secret is None  # the worker makes no tokens


def test_mythos_run_makes_its_token_secret_once_and_keeps_it(tmp_path, monkeypatch):
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    monkeypatch.delenv("TOKEN_SECRET_FILE", raising=False)
    env = Stack(data_dir=tmp_path).env()
    path = tmp_path / "token-secret"
    assert env["TOKEN_SECRET_FILE"] == str(path.resolve())
    assert path.stat().st_mode & 0o777 == 0o600
    first = path.read_text()
    assert Stack(data_dir=tmp_path).env()["TOKEN_SECRET_FILE"] == env["TOKEN_SECRET_FILE"] and path.read_text() == first
    monkeypatch.setenv("TOKEN_SECRET_FILE", env["TOKEN_SECRET_FILE"])
    assert Settings.from_env().token_secret == first.strip() and len(first.strip()) == 64


def test_a_random_secret_of_every_usual_shape_is_accepted():
    """The check refuses what is plainly not random, never what the usual tools print (seeded: the same draws each run)."""
    import base64
    import random

    from session_service.bootstrap import token_secret

    draws = random.Random(41)
    for _ in range(500):
        raw = draws.randbytes(32)
        for made in (raw.hex(), raw[:16].hex(), base64.urlsafe_b64encode(raw).decode().rstrip("="), base64.b64encode(raw).decode()):
            assert token_secret(Settings(token_secret=made)) == made.encode(), made
