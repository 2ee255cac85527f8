"""``mythos ratings DIR`` (the ratings recomputed from exports, with no server) and ``mythos projections rebuild``
(every read model again from the logs and the retained exports): both fold ``shared.ratings`` as the server does."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from shared import ratings
from shared.kernel import Game
from shared.ratings import Result

if TYPE_CHECKING:
    from session_service.use_cases.projector import Projector


def exported_results(directory: Path, problems: list[str], games: Mapping[str, Game] | None = None) -> Iterator[Result]:
    """The results of the exports in ``directory`` that verify (``mythos audit``'s checks, against ``games``: the
    registry's by default); the others are named in ``problems`` and left out."""
    from shared.audit import verify_export
    from shared.games import GAMES

    for path in sorted(directory.glob("*.json")):
        try:
            export = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError) as exc:
            problems.append(f"{path.name}: cannot be read ({exc})")
            continue
        if not isinstance(export, dict):
            problems.append(f"{path.name}: not a game record")
            continue
        if export.get("rating_algorithm") not in (None, ratings.ALGORITHM):
            problems.append(f"{path.name}: rated with another algorithm ({export['rating_algorithm']})")
            continue
        report = verify_export(export, GAMES if games is None else games)
        if not report["ok"]:
            problems.append(f"{path.name}: NOT VERIFIED ({'; '.join(report['problems'])})")
            continue
        if (result := ratings.result_of(export["events"])) is not None:
            yield result


def ratings_dir(directory: str, games: Mapping[str, Game] | None = None) -> int:
    """Print every rating the exports in ``directory`` give, per game, best first, every digit; 1 if an export
    did not verify (it is left out, and named)."""
    problems: list[str] = []
    results = list(exported_results(Path(directory), problems, games))
    names = {s.entry: s.name for r in sorted(results, key=ratings.order_key) for s in r.seats if s.entry}
    folded = ratings.fold(results)
    algorithm = ratings.ALGORITHM
    print(f"{len(results)} games verified; {algorithm['library']} {algorithm['version']}, {algorithm['model']}, "
          f"ordinal = {algorithm['ordinal']}, in order of {algorithm['order']}")
    for game, rated in sorted(folded.items()):
        print(f"{game}:")
        best = sorted(rated.items(), key=lambda kv: (-kv[1].ordinal, kv[0]))
        for rank, (entry, r) in enumerate(best, start=1):
            print(f"  {rank:>3}. {names.get(entry, entry)} ({entry})  mu {r.mu!r}  sigma {r.sigma!r}  "
                  f"ordinal {r.ordinal!r}  games {r.games}")
    for problem in problems:
        print(f"problem   {problem}", file=sys.stderr)
    return 1 if problems else 0


def ended_results(projector: Projector, exports: Path | None, problems: list[str], games: Mapping[str, Game]) -> list[Result]:
    """What a rebuild folds: every ended game's result, from its log while Redis holds it, else from the export
    retention kept of it in ``exports`` (one that does not verify is named in ``problems`` and left out)."""
    found = {r.game_id: r for r in projector.logged_results()}
    if exports is not None and exports.is_dir():
        for result in exported_results(exports, problems, games):
            found.setdefault(result.game_id, result)
    return list(found.values())


def rebuild() -> int:
    """Every read model again, from the games in Redis (REDIS_URL) and the exports retention kept
    (RETENTION_EXPORT_DIR). Run it with the workers' projectors stopped: a game a projector rates meanwhile moves
    the ledger under the rebuild, which then stops and says so (exit 1) rather than leave a mix."""
    from session_service import bootstrap
    from session_service.config import Settings
    from session_service.use_cases.projector import RebuildRaced

    settings = Settings.from_env()
    service = bootstrap.build(settings, {"SCHEDULER": None}, serves_clients=False, decides=False)
    problems: list[str] = []
    found = ended_results(service.projector, settings.retention.export_dir, problems, service.tables.games)
    try:
        folded = service.projector.rebuild(found)
    except RebuildRaced as raced:
        print(f"problem   {raced}", file=sys.stderr)
        return 1
    print(f"rebuilt the read models from {folded} games ({len(found)} ended games found)")
    for problem in problems:
        print(f"problem   {problem}", file=sys.stderr)
    return 1 if problems else 0
