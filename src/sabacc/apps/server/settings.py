"""Server tuning: the ``sabacc serve`` flags, in one record every server module reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Settings:
    """Server tuning (``sabacc serve`` flags)."""

    db_url: str = "sqlite:///sabacc.db"
    #: Seconds a bot waits before acting, so people can follow the play.
    bot_delay: float = 0.8
    #: Seconds before the seat of a player who left is played automatically.
    away_delay: float = 1.0
    #: Turns in a row a player may let the timer play before the seat counts as away.
    missed_turns_away: int = 2
    #: Per-connection rate limit: messages per second, and the burst allowed.
    rate: float = 20.0
    burst: int = 40
    #: Rate-limited messages in a row after which the connection is closed.
    abuse_limit: int = 400
    max_tables: int = 10_000
    #: Seconds a table may sit idle (nobody connected, no timer or move pending) before it is
    #: dropped from memory; it is reloaded from the store when somebody opens it. 0: never.
    idle_evict: float = 3600.0
    #: Seconds between checks of a database that stopped answering.
    storage_retry: float = 1.0
