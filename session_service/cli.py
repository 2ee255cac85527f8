"""The ``mythos`` command: ``mythos run`` starts the stack, ``mythos audit FILE`` verifies an export offline."""

from __future__ import annotations

import argparse
import os
import sys

import orjson


def audit_file(path: str) -> int:
    """Verify an exported game with no server and no Redis; print a summary; 0 only if everything holds."""
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
    report = verify_export(export, GAMES)
    print(f"game      {export.get('game_id')} ({export.get('game')}, rules {export.get('rules_version')})")
    print(f"events    {report.get('events', 0)}, commands {len(export.get('commands', []))}")
    for check, label in (("chain_ok", "hash chain"), ("seed_ok", "seed commitment"), ("replay_ok", "re-decision")):
        print(f"{label:<16}{'ok' if report.get(check) else 'FAILED'}")
    outcome = export.get("outcome") or {}
    print(f"outcome   {outcome.get('reason')}: winners {outcome.get('winners')}")
    for problem in report.get("problems", []):
        print(f"problem   {problem}")
    print("VERIFIED" if report["ok"] else "NOT VERIFIED")
    return 0 if report["ok"] else 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="mythos", description="Mythos Tables: a server for Lovecraftian card games")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start Redis (embedded unless REDIS_URL), both services and a worker")
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    run.add_argument("--rules-port", type=int, default=int(os.environ.get("RULES_PORT", "8001")))
    audit = sub.add_parser("audit", help="verify an exported game offline")
    audit.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "audit":
        sys.exit(audit_file(args.file))
    from session_service.devstack import run as run_stack

    run_stack(args.port, args.rules_port)


if __name__ == "__main__":
    main()
