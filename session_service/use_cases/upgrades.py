"""Which rules versions games in play use, against the versions a release provides: the check before an upgrade.

A game is decided to its end by the rules version it started under (``Positions.seating_of``), so a release may
drop a retired version only once no game in play uses it. ``mythos rules-in-use``, run with the *new* release's
code against the live Redis, says whether that holds (docs/operations.md, "Upgrades").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from shared.kernel import Game
from session_service.storage.store import EventStore

BATCH = 500  # metas read per round trip


def in_use(store: EventStore, games: Mapping[str, Game]) -> dict[str, Any]:
    """Games in play by (game, rules version), and those whose version ``games`` does not provide."""
    counts: Counter[tuple[str, str]] = Counter()
    ids = list(store.active_ids())
    for start in range(0, len(ids), BATCH):
        for raw in store.metas(ids[start:start + BATCH]):
            if raw and raw.get("status") not in ("finished", "aborted"):
                counts[(raw.get("game", "?"), raw.get("rules_version", "?"))] += 1
    rows = []
    for (game_id, version), count in sorted(counts.items()):
        game = games.get(game_id)
        rows.append({"game": game_id, "rules_version": version, "games": count,
                     "provided": game is not None and game.at_version(version) is not None})
    return {"in_use": rows, "missing": [r for r in rows if not r["provided"]],
            "provided": {g.id: g.rules_versions for g in games.values()}}


def report(store: EventStore, games: Mapping[str, Game]) -> int:
    """Print the check; 0 when this code provides every version in use, 1 otherwise."""
    found = in_use(store, games)
    for game_id, versions in sorted(found["provided"].items()):
        print(f"provided  {game_id:<18} {', '.join(versions)}")
    for row in found["in_use"]:
        mark = "ok" if row["provided"] else "NOT PROVIDED"
        print(f"in play   {row['game']:<18} {row['rules_version']:<22} {row['games']:>6} games  {mark}")
    if found["missing"]:
        print("this code does not provide every rules version in play: deploying it would stop those games "
              "(keep the version in the game's `retired` until they end)")
        return 1
    print("every rules version in play is provided")
    return 0
