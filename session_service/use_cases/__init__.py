"""The session service's use cases: tables, the lobby and players, positions, live stream messages, quotas,
retention and upgrades, with the refusals they raise. No Flask and no HTTP here: the edge (``http``) passes in who
is asking and maps each refusal to its status."""
