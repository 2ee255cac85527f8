"""The session service: games, seats, commands, views, event streams and audits over a Redis event log."""
