"""What the read models show: a player's profile (ratings, recent games) and a game's leaderboard, by page.

Both read only what the projector wrote (``use_cases/projector.py``), which never holds a private table: a profile
and a leaderboard can show nothing of one, not even that it exists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared import ratings
from shared.ratings import Rating
from session_service.storage.projections import ReadModels
from session_service.use_cases.errors import NotFound, PlayerNotFound
from session_service.use_cases.meta import plausible_id
from session_service.use_cases.players import Players
from session_service.use_cases.tables import Tables


@dataclass
class Standings:
    tables: Tables
    players: Players
    min_games: int = 3

    def __post_init__(self) -> None:
        self.models = ReadModels(self.tables.store)

    def profile(self, player_id: str, cursor: str | None, limit: int) -> dict[str, Any]:
        player = self.players.get(player_id) if plausible_id(player_id) else None
        if player is None:
            raise PlayerNotFound()
        rated = self.models.player_ratings(sorted(self.tables.games), player_id)
        offset = int(cursor or 0)
        games = self.models.history(player_id, offset, limit + 1)
        return {**player.to_json(), "ratings": [{"game": g, **_shown(Rating.loads(raw))} for g, raw in rated.items()],
                "games": games[:limit], "next": str(offset + limit) if len(games) > limit else None,
                "rating_algorithm": ratings.ALGORITHM}

    def leaderboard(self, game: str, pool: str, cursor: str | None, limit: int) -> dict[str, Any]:
        if game not in self.tables.games:
            raise NotFound("there is no such game type")
        offset = int(cursor or 0)
        page = self.models.board(game, pool, offset, limit + 1)
        names = {p.id: p for entry, _ in page[:limit] if (p := self.players.get(entry)) is not None} if page else {}
        entries = []
        for rank, (entry, raw) in enumerate(page[:limit], start=offset + 1):
            shown: dict[str, Any] = {"rank": rank, **_shown(Rating.loads(raw))}
            if entry.startswith(ratings.AI_ENTRY):
                level = entry.removeprefix(ratings.AI_ENTRY)
                shown.update(ai=level, name=f"AI ({level})", bot=True)
            else:
                known = names.get(entry)
                shown.update(player=entry, name=known.name if known else "a player", bot=bool(known and known.bot))
            entries.append(shown)
        return {"game": game, "pool": pool, "min_games": self.min_games, "entries": entries,
                "next": str(offset + limit) if len(page) > limit else None, "rating_algorithm": ratings.ALGORITHM}


def _shown(rating: Rating) -> dict[str, Any]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "games": rating.games}
