"""The session service's use cases on one table: open it, apply a command, read state, events, audits and exports.

Every HTTP view and every worker job goes through one method here, so a bot's move and a client's move take
the same path. The store holds the log; the table (``shared.kernel.table``: the seats, and the game's state
inside) is rebuilt by folding it (``positions.py``). Game rules are decided by the rules (``ports.RulesPort``); the
table's own commands (joining, resigning …) by the kernel's ``Seating``, which the audit re-decides the same way.
``Tables`` opens tables and decides commands; what it reads is ``reads.py``'s, how a batch is appended
``writes.py``'s. Nothing here knows HTTP: refusals are ``errors.Refused``, and live streams are in ``live.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.kernel import Event, Game, RuleViolation, entropy_for
from shared.kernel.entropy import commitment
from shared.kernel.table import OpenTable, Seating, Table, table_batch
from shared.records import GENESIS, make_records
from session_service.storage import index
from session_service.storage.store import Charge, EventStore
from session_service.use_cases.errors import SeedNotAllowed
from session_service.use_cases.meta import Meta, dumps, epoch_ms, iso, now
from session_service.use_cases.players import seat_token
from session_service.use_cases.ports import RulesPort, Scheduler
from session_service.use_cases.positions import CACHE_SIZE, SNAPSHOT_EVERY, Position, Positions
from session_service.use_cases.quotas import Quotas
from session_service.use_cases.resources import GameResource
from session_service.use_cases.watchers import Leases, Watchers
from session_service.use_cases.writes import CommandRequest, TableWrites, cause_of, seats_of


@dataclass(frozen=True)
class Opening:
    """A table decided and not yet written (``Tables._seat``): its ``open_table`` batch, the table it leaves, and the
    tokens of the seats a person holds (``holders``: seat → the token hash of one held already)."""

    game: Game
    game_id: str
    seed: bytes
    command: OpenTable
    seating: Seating
    events: list[Event]
    table: Table
    tokens: dict[int, str]
    holders: Mapping[int, str]


@dataclass
class Tables(TableWrites):
    store: EventStore
    rules: RulesPort
    games: Mapping[str, Game]
    scheduler: Scheduler = field(default_factory=Scheduler)
    snapshot_every: int = SNAPSHOT_EVERY
    cache_size: int = CACHE_SIZE
    allow_client_seed: bool = False
    quotas: Quotas | None = None  # what one client may open and make the worker play
    on_command: Callable[[str, str], None] = lambda game, result: None
    # A game's end, told to the projector's feed (storage/projections.EndedFeed) before the game leaves the
    # sweeper's active set: a process that dies between the two leaves it to the sweeper (use_cases/projector.py).
    on_end: Callable[[str], bool] = lambda game_id: True  # False: the feed could not be told now
    bots_among: Callable[[Iterable[str]], set[str]] = lambda players: set()  # Players.bots_among: a seat's mark

    def __post_init__(self) -> None:
        self.index = index.GameIndex(self.store)
        self.positions = Positions(self.store, self.games, self.cache_size)
        self.watchers = Watchers(self.store, Leases(self.store))

    # -- opening a table: seating, then appending ---------------------------------------------------
    def create(self, body: Mapping[str, Any], extra: Mapping[str, str] | None = None,
               players: Mapping[int, str] | None = None, keys: Mapping[int, str] | None = None,
               game_id: str | None = None, token_for: Callable[[int], str] | None = None,
               client: str | None = None, holders: Mapping[int, str] | None = None,
               quota_client: str | None = None) -> GameResource:
        """Open a table: ``body`` as ``POST /v1/games`` takes it, its seats ``{name, ai}`` or ``{open: true}`` (the
        lobby resolves ``me``). A seat held by a person who is not a player gets a token, answered once here;
        ``players``: seat → player id (of a seat a player holds, or one kept open for them), ``keys``: seat →
        that player's key (its hash checks the seat like a token's). A table with no open seat is set up at once.
        ``extra``: the lobby's meta fields; ``game_id`` and ``token_for``: an idempotent retry's (the same id and
        tokens again; a table that exists already is answered as it stands); ``client``: who opens it, for the
        quotas (None: the server itself, no quota; ``quota_client``: the quotas' digest of a client, instead);
        ``holders``: seat → the token hash of a person's seat held already (a rematch's: the same token plays on)."""
        opening = self._seat(body, game_id or new_game_id(), players or {}, token_for, holders or {})
        return self._open(opening, body, extra or {}, keys or {}, client, quota_client)

    def _seat(self, body: Mapping[str, Any], game_id: str, players: Mapping[int, str],
              token_for: Callable[[int], str] | None, holders: Mapping[int, str]) -> Opening:
        """The table ``body`` opens, decided by the kernel (set up by the rules when no seat is open), and the tokens
        of the seats it gives a person: nothing is written."""
        game = self.games.get(body["game"])
        if game is None:
            raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(self.games)})
        for seat in body["seats"]:
            if seat.get("ai") is not None and seat["ai"] not in game.ai.levels:
                raise RuleViolation("rules/unknown_ai", f"no AI level {seat['ai'][:32]!r}", {"ai_levels": list(game.ai.levels)})
        seed = self._seed(body.get("seed"))
        seats = [{"name": None if s.get("open") else s["name"], "ai": s.get("ai"), "player": players.get(i),
                  "open": bool(s.get("open"))} for i, s in enumerate(body["seats"])]
        command = OpenTable(game_id=game_id, seats=tuple(seats), options=body.get("options") or {},
                            visibility=body.get("visibility", "public"), rated=bool(body.get("rated")))
        seating = self.positions.seating(game.id)
        events = table_batch(seating, None, command, None, self._setup(game, seed))
        table = seating.fold(None, events)
        token_for = token_for or (lambda seat: seat_token(secrets.token_urlsafe(24)))
        tokens = {i: token_for(i) for i, s in enumerate(seats)
                  if s["name"] is not None and s["ai"] is None and i not in players and i not in holders}
        return Opening(game, game_id, seed, command, seating, events, table, tokens, holders)

    def _open(self, opening: Opening, body: Mapping[str, Any], extra: Mapping[str, str], keys: Mapping[int, str],
              client: str | None, quota_client: str | None) -> GameResource:
        """Write the opened table once the quotas admit it (refused: nothing written): its first batch and meta, its
        listing, its cache and follow-up work. Its resource, with the seats' new tokens, answered once."""
        game, game_id, seed, command, seating, table, tokens = (opening.game, opening.game_id, opening.seed,
                                                                opening.command, opening.seating, opening.table,
                                                                opening.tokens)
        moment = now()
        records = make_records(opening.events, version=0, prev_hash=GENESIS, cause=cause_of(None, "open_table", "server"),
                               command=command.to_record(), at=iso(moment), rules_version=game.rules_version)
        admitted = self.quotas.admit(game_id, body, client, quota_client) if self.quotas else {}  # refused: nothing written
        extra = {**extra, **admitted}
        held = [{"seat": i, "token_hash": h} for i, h in opening.holders.items()]
        meta = {
            "game": game.id, "seed": seed.hex(), "seed_commitment": commitment(seed), "options": dumps(table.options),
            "turn_timeout_s": str(body.get("turn_timeout_s") or ""), "rules_version": game.rules_version,
            "created_at": iso(moment), **extra,
            **self.progress(seating, table, records, moment, body.get("turn_timeout_s"),
                            seats_of(table, held, {**tokens, **keys})),
        }
        # Listed before it is written: a listing shows only games whose meta exists (session_service/storage/index.py).
        self.index.enter(game_id, epoch_ms(moment), index.names_for(game.id, meta["status"], command.visibility == "private"))
        if self.store.create(game_id, meta, records).status == "ok":
            created = self.meta(game_id)
            self.positions.remember(game_id, len(records), records[-1]["hash"], table, created)
            self.scheduler.after_change(created)
        else:  # an idempotent retry raced its first try, which wrote first: that table is the answer
            created = self.meta(game_id)
        resource = self.resource_of(created)
        for seat in resource["seats"]:
            if seat["seat"] in tokens:
                seat["token"] = tokens[seat["seat"]]
        return resource

    def _seed(self, chosen: str | None) -> bytes:
        """A fresh secret seed; a client's own only where the operator allows it (whoever knows it knows the deck)."""
        if chosen is None:
            return secrets.token_bytes(32)
        if not self.allow_client_seed or len(chosen) % 2:
            raise SeedNotAllowed()
        return bytes.fromhex(chosen)

    def _setup(self, game: Game, seed: bytes) -> Callable[[int, Mapping[str, Any]], list[Event]]:
        """The game's setup through the rules service, with the game's first entropy (its own event count, 0)."""
        return lambda players, options: self.rules.setup(game, players, dict(options), entropy_for(seed, 0))[1]

    # -- deciding ------------------------------------------------------------------------------------
    def command(self, game_id: str, seat: int, command: Any, expected_version: int | None = None,
                idempotency_key: str | None = None, by: str = "seat", meta: Meta | None = None,
                charge: Charge | None = None, unread: bool = False, durable: bool = False) -> dict[str, Any]:
        """Decide a game ``command`` for ``seat`` through the rules service and append its events, all or nothing
        (``by``: seat, ai or timeout). ``meta`` is the game's meta when the caller has just read it, or knows it
        (``known_meta``: then ``unread``); ``charge``: the write's rate counters, counted by the append (refused:
        ``RateLimited``); ``durable``: answered only once a replica has it (``CommandRequest``)."""

        def decide(pos: Position) -> tuple[list[Event], Table, str | None]:
            pos.seating.check_game_command(pos.table)
            if by == "seat" and seat in pos.table.resigned:
                raise RuleViolation("rules/resigned", "this seat has resigned: the table's AI plays it now")
            entropy = entropy_for(pos.meta.seed, pos.table.game_events)
            ruling = self.rules.decide(pos.game, pos.table.game, command, seat, entropy, kept=pos.kept)
            events, table = pos.seating.played(pos.table, ruling.events)
            return events, table, ruling.kept

        return self.write(CommandRequest(game_id, seat, command, expected_version, idempotency_key, by, meta, unread=unread,
                                         charge=charge, durable=durable), decide)

    def table_command(self, game_id: str, seat: int | None, command: Mapping[str, Any], *,
                      expected_version: int | None = None, idempotency_key: str | None = None, by: str = "seat",
                      meta: Meta | None = None, tokens: Callable[[Position, list[Event]], dict[int, str]] | None = None,
                      digest: str = "") -> dict[str, Any]:
        """A table command (``join``, ``start``, ``resign``, ``abort``, ``abandon``: see ``table_batch``) decided by
        the kernel's ``Seating``, with the game's setup when it fills the table; ``tokens(position, events)``:
        the secrets (seat tokens, player keys) of seats the batch fills, whose hashes join the meta."""

        def decide(pos: Position) -> tuple[list[Event], None, None]:
            return table_batch(pos.seating, pos.table, command, seat, self._setup(pos.game, pos.meta.seed)), None, None

        return self.write(CommandRequest(game_id, seat, command, expected_version, idempotency_key, by, meta, tokens=tokens,
                                         digest=digest), decide)


def new_game_id() -> str:
    return "g_" + secrets.token_urlsafe(12)
