"""Ratings from finished games: what a game's log says about who placed where, and the Weng–Lin update over it.

Pure, no I/O: the session's projector, ``mythos projections rebuild`` and ``mythos ratings DIR`` (over exports) all
fold the same ``Result`` values through ``Ratings`` in the same order, so they print the same numbers to the last
digit. The algorithm and its parameters are ``ALGORITHM`` (named in every export and in the catalogue), and the
order is ``ORDER``: by the time of the game's last record, then by game id.

Rulings (docs/record-format.md, "Ratings"):

- A table is rated only when its ``table_opened`` says ``rated`` (its creator asked, and every seat a person holds
  is a player's: the lobby refuses the rest), it finished (not aborted) and was not abandoned, and at least two
  rating entries sat at it. Private tables are never rated (the lobby refuses it).
- An entry is a player (by id) or an AI level (``ai:<level>``, one entry per level per game, rated like a player).
  Several seats of one level count once, at the place of its best seat.
- Places: the winners first (a shared victory ties them), then the others by score (ties tie; with no scores they
  tie), then every seat that resigned, tied. A resigned seat was played on by the table's AI and can never win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
ALGORITHM: dict[str, Any] = {
    "library": "openskill", "version": "6.2.0", "model": "PlackettLuce (Weng-Lin)",
    "mu": MODEL.mu, "sigma": MODEL.sigma, "beta": MODEL.beta, "tau": MODEL.tau, "kappa": MODEL.kappa,
    "ordinal": "mu - 3 * sigma", "order": "time of the last record, then game id",
}
ORDER = "ended_at, game_id"
AI_ENTRY = "ai:"


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    name: str
    player: str | None
    ai: str | None  # the AI level of a seat an AI held from the start (not one that took over a resigned seat)
    resigned: bool
    place: int  # 0 is first
    won: bool

    @property
    def entry(self) -> str | None:
        """Whose rating this seat moves: its player's, its AI level's, or nobody's (a guest)."""
        return self.player if self.player else AI_ENTRY + self.ai if self.ai else None


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished (or aborted) game's log says, in public: enough to rate it and to write its history line."""

    game_id: str
    game: str
    ended_at: str
    ended_ms: int
    status: str  # finished | aborted
    reason: str
    visibility: str
    rated: bool
    seats: tuple[SeatResult, ...]

    @property
    def private(self) -> bool:
        return self.visibility == "private"

    @property
    def rateable(self) -> bool:
        return (self.rated and not self.private and self.status == "finished" and self.reason != "abandoned"
                and all(s.entry is not None for s in self.seats) and len(self.entries()) >= 2)

    def entries(self) -> list[tuple[str, int]]:
        """Each entry at the table and its place (its best seat's), in seat order of first appearance."""
        best: dict[str, int] = {}
        for seat in self.seats:
            if seat.entry is not None:
                best[seat.entry] = min(best.get(seat.entry, seat.place), seat.place)
        return list(best.items())

    def line(self) -> dict[str, Any]:
        """The game's line in a player's history (the same for every player at it)."""
        return {"game_id": self.game_id, "game": self.game, "ended_at": self.ended_at, "status": self.status,
                "reason": self.reason, "rated": self.rated,
                "seats": [{"seat": s.seat, "name": s.name, "player": s.player, "ai": s.ai, "place": s.place,
                           "won": s.won, **({"resigned": True} if s.resigned else {})} for s in self.seats]}


def result_of(records: Sequence[Mapping[str, Any]]) -> Result | None:
    """The result a game's log (or an export's ``events``) records; None while it has not ended, or for a log from
    before tables (no ``table_opened``)."""
    if not records or records[0].get("type") != "table_opened":
        return None
    opened = records[0]["data"]
    seats: list[dict[str, Any]] = [{"name": s.get("name"), "ai": s.get("ai"), "player": s.get("player"), "resigned": False}
                                   for s in opened["seats"]]
    outcome: Mapping[str, Any] | None = None
    status = None
    for record in records[1:]:
        kind, data = record["type"], record.get("data") or {}
        if kind == "table_seat_joined":
            seats[data["seat"]] = {"name": data["name"], "ai": data.get("ai"), "player": data.get("player"), "resigned": False}
        elif kind in ("table_seat_left", "table_seat_declined"):
            seats[data["seat"]] = {"name": None, "ai": None, "player": None, "resigned": False}
        elif kind == "table_seat_resigned":
            seats[data["seat"]]["resigned"] = True
        elif kind == "table_ended":
            outcome, status = data["outcome"], "finished"
        elif kind == "table_aborted":
            status = "aborted"
    if status is None:
        return None
    at = records[-1]["at"]
    places = places_of(outcome, [s["resigned"] for s in seats]) if outcome else [0] * len(seats)
    winners = set(outcome["winners"]) if outcome else set()
    return Result(
        game_id=opened["game_id"], game=opened["game"], ended_at=at, ended_ms=epoch_ms(at), status=status,
        reason=outcome["reason"] if outcome else "aborted", visibility=opened.get("visibility", "public"),
        rated=bool(opened.get("rated")),
        seats=tuple(SeatResult(i, s["name"] or "", s["player"], s["ai"], s["resigned"], places[i], i in winners)
                    for i, s in enumerate(seats)))


def places_of(outcome: Mapping[str, Any], resigned: Sequence[bool]) -> list[int]:
    """Each seat's place (module docstring): winners, then the others by score, then those who resigned."""
    winners = set(outcome.get("winners") or ())
    scores = outcome.get("scores")
    others = sorted({-float(scores[i]) if scores else 0.0 for i in range(len(resigned)) if i not in winners and not resigned[i]})
    first = 1 if winners else 0
    places = []
    for i, out in enumerate(resigned):
        if out:
            places.append(first + len(others))
        elif i in winners:
            places.append(0)
        else:
            places.append(first + others.index(-float(scores[i]) if scores else 0.0))
    return places


def epoch_ms(at: str) -> int:
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def order_key(result: Result) -> tuple[int, str]:
    return result.ended_ms, result.game_id


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}

    def dumps(self) -> bytes:
        return orjson.dumps(self.to_json(), option=orjson.OPT_SORT_KEYS)

    @classmethod
    def loads(cls, raw: bytes | str) -> Rating:
        kept = orjson.loads(raw)
        return cls(kept["mu"], kept["sigma"], kept["games"])


FRESH = Rating(MODEL.mu, MODEL.sigma, 0)


def rate(result: Result, current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the entries at ``result``'s table (``current``: theirs before it; missing: fresh)."""
    entries = result.entries()
    teams = [[MODEL.rating(mu=current.get(e, FRESH).mu, sigma=current.get(e, FRESH).sigma)] for e, _ in entries]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in entries])
    return {e: Rating(team[0].mu, team[0].sigma, current.get(e, FRESH).games + 1) for (e, _), team in zip(entries, rated)}


def fold(results: Iterable[Result]) -> dict[str, dict[str, Rating]]:
    """Every game type's ratings after ``results`` (rated or not: the unrated are passed over), in ``ORDER``."""
    ratings: dict[str, dict[str, Rating]] = {}
    for result in sorted(results, key=order_key):
        if result.rateable:
            of_game = ratings.setdefault(result.game, {})
            of_game.update(rate(result, of_game))
    return ratings
