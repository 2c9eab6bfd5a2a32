"""Server tuning: the ``sabacc serve`` flags, in one record every server module reads."""

from __future__ import annotations

from dataclasses import dataclass, field


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
    #: Chat lines per second one connection may send, and the burst allowed.
    chat_rate: float = 0.5
    chat_burst: int = 5
    #: Seconds without anybody connected after which a table leaves the lobby list. 0: never.
    abandon_after: float = 1800.0
    #: Seconds a table may sit idle (nobody connected, no timer or move pending) before it is
    #: dropped from memory; it is reloaded from the store when somebody opens it. 0: never.
    idle_evict: float = 3600.0
    #: Seconds between checks of a database that stopped answering.
    storage_retry: float = 1.0
    #: Spectators one table accepts (0: any); players and the host are never turned away.
    max_spectators: int = 200
    #: Seconds within which spectators coming and going are announced together.
    announce_delay: float = 0.25
    #: Seconds between renewals of the server's claim on its database.
    claim_renew: float = 5.0
    # Per client (address; see sabacc.apps.server.limits). 0: no limit.
    #: API calls and sockets opened per second, and the burst allowed.
    http_rate: float = 5.0
    http_burst: int = 60
    #: WebSocket messages per second over all of a client's sockets, and the burst.
    client_rate: float = 60.0
    client_burst: int = 200
    #: Tables one client may create per hour (a burst of as many).
    tables_per_hour: int = 30
    #: WebSockets one client may hold open at once.
    sockets_per_client: int = 40
    #: Seconds a database call may take (a locked SQLite file, a stuck PostgreSQL) before it
    #: fails and the change is refused with ``storage_error``.
    storage_timeout: float = 5.0
    #: Worker threads that talk to the database (0: 1 for SQLite, which has one writer at a
    #: time anyway, 4 for PostgreSQL). No database call runs on the event loop.
    storage_workers: int = 0
    #: Seconds the first applied action of a group commit waits for others to join it (one
    #: transaction for them all, at most this much latency). 0 (the default): no wait; the
    #: actions applied while a commit runs still share the next one. Measured: the 2 ms wait
    #: cost more CPU per action than it saved (a timer wake-up per batch; benchmarks/README).
    commit_window: float = 0.0
    #: Worker processes in which bots think (never on the event loop; 0: in a worker thread).
    bot_workers: int = 1
    #: Seconds one bot decision may take before the table plays its default move instead.
    bot_budget: float = 5.0
    #: Tables without a human seat this server holds at once (0: any).
    max_bot_tables: int = 20
    #: Days after which a table nobody has used (no action, no seat taken or left, nobody
    #: connected) is deleted with its games. 0: tables are kept for ever.
    expire_days: float = 30.0
    #: Several servers share one PostgreSQL: each table is owned by one of them at a time (a
    #: lease row renewed by heartbeat) instead of the whole database by one server.
    cluster: bool = False
    #: This server's name in the leases (default: host name and process id).
    node: str = ""
    #: Seconds a lease lasts unless renewed (renewed every third of it): how soon another
    #: server takes over the tables of one that died.
    lease_ttl: float = 3.0
    #: The community layer (docs/server.md, "Accounts"). Days a log-in session lasts.
    session_days: float = 30.0
    #: Session cookies marked Secure even when the request looks like plain http (behind a
    #: proxy that terminates TLS without saying so; https requests get Secure anyway).
    secure_cookies: bool = False
    #: Reverse proxies (addresses or CIDR networks) whose ``X-Forwarded-For`` / ``X-Real-IP``
    #: name the client; none by default, so a client's own such headers are ignored
    #: (sabacc.apps.server.proxies).
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)
    #: Failed log-ins allowed per address and username within 5 minutes (6x per address).
    login_attempts: int = 5
    #: Password hashing (sabacc.apps.server.passwords; 0 lifts a limit): sign-ups per hour and
    #: log-in attempts per minute one address may make (429 past them)...
    signups_per_hour: int = 10
    logins_per_minute: int = 20
    #: ...hashing requests per second over the whole site, and the burst (503 past them)...
    auth_rate: float = 5.0
    auth_burst: int = 20
    #: ...and the threads that hash (about 0.1 s of CPU and 64 MiB each), with at most
    #: ``hash_queue`` requests waiting for one (503 beyond; 0: no bound).
    hash_workers: int = 1
    hash_queue: int = 8
    #: Rated games an account needs to appear on a leaderboard.
    leaderboard_min_games: int = 5
    #: Rating integrity (sabacc.apps.server.integrity): networks (CIDR) many people share, whose
    #: address links no accounts (their browsers still do), and the rated games one pair of
    #: accounts may play together in a day (0: any).
    shared_addresses: tuple[str, ...] = ()
    rating_pair_games: int = 3
    #: Friends and invitations (sabacc.apps.server.social; 0: no limit): accounts one account
    #: may follow, friends it may add in an hour, invitations it may have pending at once.
    friends_max: int = 200
    friend_adds_per_hour: int = 30
    invites_pending: int = 10
    #: Every this many actions of a game, its state is stored with the action (a snapshot), so
    #: the history viewer replays at most this many actions before a hand instead of the whole
    #: game (sabacc.apps.server.snapshots). 0: no snapshots (every hand replays from the start).
    history_snapshot_every: int = 500
