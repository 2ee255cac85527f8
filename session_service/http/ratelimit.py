"""The write rate limit, one concern of the edge: fixed one-minute windows of writes counted in Redis (so every
process shares them), answered with ``RateLimit-*`` headers, and ``429 request/rate_limited`` past a limit with
nothing written.

**Who pays** (issues 16 and 33): a write counts against its client (``clients.client``: the seat whose token holds
for the game, else the address) up to ``RATE_LIMIT_PER_MINUTE``, and against its address, whatever token it
presents, up to ``RATE_LIMIT_PER_ADDRESS``. A token gives its seat a budget of its own, but tokens never multiply
what one address may write: 35 tokens from one address once wrote 35 budgets a minute.

**When** (issue 32): a command (``POST /v1/games/<id>/commands``) is counted by its own append, in the same Redis
round trip as the write (``storage.store.Charge``), so the limit costs a command no round trip; a command refused
before its append (a rule, a version, a token) is counted when it is answered, and past the limit its answer is the
429 instead. Every other write is counted before anything of it is handled. ``admit`` and ``settle`` are the
edge's hooks (shared/wire/edge.py); ``for_client`` is the command route's.
"""

from __future__ import annotations

import hashlib
import math
import re
import time

import redis

from shared.wire.edge import Exchange
from shared.wire.errors import ApiError
from session_service.http import clients
from session_service.storage.store import Charge, EventStore

WINDOW_S = 60  # the rate limit's window
clock = time.time  # the wall clock the rate windows are cut from (tests start each test at a window's start)
COMMAND_PATH = re.compile(r"/v1/games/[^/]+/commands")  # the writes whose append counts them


class RateLimit:
    def __init__(self, store: EventStore, per_client: int, per_address: int):
        self.store, self.per_client, self.per_address = store, per_client, per_address

    def admit(self, ex: Exchange) -> None:
        """Every POST is a write: charge it to its address (a command's route may name its seat instead)."""
        if not self.per_client or ex.method != "POST":
            return
        ex.charge = self._charge(clients.address_client(ex.address), ex.address)
        ex.settle = lambda: self.settle(ex)
        if not COMMAND_PATH.fullmatch(ex.path):  # counted before anything of it is handled
            ex.settle = None
            self.settle(ex)

    def for_client(self, ex: Exchange, client: str) -> Charge | None:
        """A command's charge, against ``client`` and its address, for its append to count (None: no limit)."""
        if not isinstance(ex.charge, Charge):
            return None
        charge = ex.charge = self._charge(client, ex.address)
        return charge

    def settle(self, ex: Exchange) -> None:
        """Count the write unless its append did; note its headers; refuse it past a limit."""
        charge = ex.charge
        if not isinstance(charge, Charge):
            return
        if charge.counts is None:
            try:
                self.store.count(charge)
            except redis.RedisError:
                return  # Redis is down: the request itself reports it
        if not charge.counts:  # an append sent again after a lost reply, whose first try counted it
            return
        limit, count, per = min(((limit, n, per) for n, (_, limit), per in zip(charge.counts, charge.counters,
                                                                               ("client", "address"))),
                                key=lambda found: found[0] - found[1])
        reset = max(1, math.ceil(WINDOW_S * (1 - (clock() / WINDOW_S) % 1)))
        ex.headers.update({"RateLimit-Limit": str(limit), "RateLimit-Remaining": str(max(0, limit - count)),
                           "RateLimit-Reset": str(reset)})
        if charge.limited:
            ex.headers["Retry-After"] = str(reset)
            whose = " from one address" if per == "address" else ""
            details = {"limit_per_minute": limit, **({"per": "address"} if per == "address" else {})}
            raise ApiError(429, "request/rate_limited", f"more than {limit} writes a minute{whose}; slow down", details,
                           headers={"Retry-After": str(reset)})

    def _charge(self, client: str, address: str) -> Charge:
        window = int(clock() // WINDOW_S)
        counters = [(self._bucket(client, window), self.per_client)]
        if self.per_address:
            counters.append((self._bucket("all:" + address, window), self.per_address))
        return Charge(tuple(counters), WINDOW_S + 30)

    def _bucket(self, who: str, window: int) -> str:
        """The Redis counter of ``who``'s writes in a window (hashed: Redis keeps no address in the clear)."""
        return self.store.rate_key(hashlib.sha256(who.encode()).hexdigest()[:24], window)
