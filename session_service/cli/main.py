"""The ``mythos`` command: ``mythos run`` starts the stack, ``mythos cluster`` the scaled one (a Redis Cluster,
two processes of each part, HAProxy), ``mythos audit FILE`` verifies an export offline, ``mythos ratings DIR``
recomputes the ratings of a directory of exports, ``mythos projections rebuild`` the read models, ``mythos play`` plays a
seat in the terminal, ``mythos bot run`` plays as a bot account (``mythos bot new`` makes one)."""

from __future__ import annotations

import argparse
import os
import sys

import orjson


def audit_file(path: str, commitment: str | None = None, head: str | None = None) -> int:
    """Verify an exported game with no server and no Redis; print a summary; 0 only if everything holds.

    ``commitment`` and ``head`` are what the user saw while playing (the seed commitment at creation, the
    head hash at the end): given, the export must carry exactly those, so a server cannot hand over another
    record than the game that was played."""
    from shared.audit import verify_export
    from shared.games import GAMES

    try:
        with open(path, "rb") as handle:
            export = orjson.loads(handle.read())
    except (OSError, orjson.JSONDecodeError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(export, dict):
        print(f"{path} is not a game record", file=sys.stderr)
        return 2
    report = verify_export(export, GAMES, commitment=commitment, head=head)
    print(f"game      {export.get('game_id')} ({export.get('game')}, rules {export.get('rules_version')})")
    print(f"events    {report.get('events', 0)}, commands {len(export.get('commands', []))}")
    for check, label in (("chain_ok", "hash chain"), ("seed_ok", "seed commitment"), ("replay_ok", "re-decision")):
        print(f"{label:<16}{'ok' if report.get(check) else 'FAILED'}")
    outcome = export.get("outcome") or {}
    print(f"outcome   {outcome.get('reason')}: winners {outcome.get('winners')}")
    print(f"checked   {', '.join(report.get('checked', [])) or 'nothing'}")
    for problem in report.get("problems", []):
        print(f"problem   {problem}")
    print("VERIFIED" if report["ok"] else "NOT VERIFIED")
    return 0 if report["ok"] else 1


def rules_in_use() -> int:
    from session_service.bootstrap import build_tables
    from session_service.config import Settings
    from session_service.use_cases.upgrades import report

    tables = build_tables(Settings.from_env(), {"SCHEDULER": None}, decides=False)
    return report(tables.store, tables.games)


def retention_now(rounds: int = 1000) -> int:
    """Run the retention policy of the environment now, round after round until no old game is left (the
    Kubernetes base runs this as a CronJob, where the exports have a volume of their own: deploy/k8s/retention.yaml).
    1 when a game could not be exported (it is kept), or when the policy deletes nothing (no export directory)."""
    from session_service.bootstrap import build_tables
    from session_service.config import Settings
    from session_service.use_cases import retention

    settings = Settings.from_env()
    policy = settings.retention
    if not policy.deletes:
        print("retention is off: set RETENTION_DAYS above 0 and RETENTION_EXPORT_DIR", file=sys.stderr)
        return 1
    tables = build_tables(settings, {"SCHEDULER": None}, decides=False)
    total = {"exported": 0, "failed": 0}
    for _ in range(rounds):
        counts = retention.sweep(tables, policy, force=True)
        total = {k: total[k] + counts.get(k, 0) for k in total}
        if counts.get("exported", 0) + counts.get("failed", 0) < policy.batch or not counts.get("exported"):
            break
    print(f"retention ({policy.days:g} days, exports in {policy.export_dir}): {total['exported']} games exported "
          f"and deleted, {total['failed']} kept (their export failed)")
    return 1 if total["failed"] else 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="mythos", description="Mythos Tables: a server for Lovecraftian card games")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start Redis (embedded unless REDIS_URL), both services and a worker")
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    run.add_argument("--rules-port", type=int, default=int(os.environ.get("RULES_PORT", "8001")))
    cluster = sub.add_parser("cluster", help="start the scaled stack: Redis Cluster, 2 of each process, HAProxy")
    cluster.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    cluster.add_argument("--rules-port", type=int, default=int(os.environ.get("RULES_PORT", "8001")))
    sub.add_parser("rules-in-use", help="before an upgrade: the rules versions of games in play (REDIS_URL), and "
                   "whether this code provides each")
    sub.add_parser("retention", help="export, then delete from Redis, the games over for longer than RETENTION_DAYS "
                   "(into RETENTION_EXPORT_DIR), now")
    sub.add_parser("projections", help="the read models (ratings, leaderboards, histories)").add_argument(
        "action", choices=["rebuild"], help="rebuild: every read model again from the logs and the retained exports")
    rated = sub.add_parser("ratings", help="verify a directory of exports and print the ratings they give, as the server")
    rated.add_argument("directory")
    audit = sub.add_parser("audit", help="verify an exported game offline")
    audit.add_argument("file")
    audit.add_argument("--commitment", help="the seed commitment you saw when the game was created (hex)")
    audit.add_argument("--head", help="the head hash you saw when the game ended")
    from session_service.cli.bot import cli as bot
    from session_service.cli.play import add_parser, run as play

    add_parser(sub)
    bot.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "play":
        sys.exit(play(args))
    if args.command == "bot":
        sys.exit(bot.run(args))
    if args.command == "audit":
        sys.exit(audit_file(args.file, args.commitment, args.head))
    if args.command == "ratings":
        from session_service.cli.standings import ratings_dir

        sys.exit(ratings_dir(args.directory))
    if args.command == "projections":
        from session_service.cli.standings import rebuild

        sys.exit(rebuild())
    if args.command == "rules-in-use":
        sys.exit(rules_in_use())
    if args.command == "retention":
        sys.exit(retention_now())
    if args.command == "cluster":
        from deploy.stacks.cluster import run as run_stack
    else:
        from deploy.stacks.dev import run as run_stack
    run_stack(args.port, args.rules_port)


if __name__ == "__main__":
    main()
