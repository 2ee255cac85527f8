"""``mythos bot``: a runner for bot authors (docs/writing-a-bot.md). A bot is one ``choose(view, legal_commands) ->
command`` per game, or one for every game, typed with ``games/<game>.py``'s ``View`` and ``Command``. ``runner.py``
follows the bot account's stream, seeks quick play games and plays each table on its own stream (``game.py``);
``load.py`` finds the bot a command line names; ``cli.py`` is the command line. Only the public API is used."""
