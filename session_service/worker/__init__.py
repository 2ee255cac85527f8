"""The RQ worker: the jobs (AI turns, turn timeouts, the sweeper) and the process that runs them."""
