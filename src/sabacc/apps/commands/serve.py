"""``sabacc serve``: host web tables (FastAPI + uvicorn), for any variant, humans and bots.

FastAPI, uvicorn and SQLAlchemy are imported inside the command (the ``server`` extra), so
``sabacc --help`` works with only the core installed.
"""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on (0.0.0.0: the network).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="Database URL: sqlite:///sabacc.db (default) or postgresql://user:pw@host/db."
        ),
    ] = "sqlite:///sabacc.db",
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before acting, so people can follow.")
    ] = 0.8,
    away_delay: Annotated[
        float, typer.Option(help="Seconds before the seat of a player who left is played.")
    ] = 1.0,
    rate: Annotated[float, typer.Option(help="Messages per second allowed per connection.")] = 20.0,
    burst: Annotated[int, typer.Option(help="Burst of messages allowed per connection.")] = 40,
    idle_evict: Annotated[
        float,
        typer.Option(
            help="Seconds before an idle table (nobody connected) leaves memory; it is reloaded "
            "from the database when opened again. 0: never."
        ),
    ] = 3600.0,
    http_rate: Annotated[
        float, typer.Option(help="API calls and sockets opened per second per client (0: any).")
    ] = 5.0,
    http_burst: Annotated[int, typer.Option(help="Burst of API calls allowed per client.")] = 60,
    client_rate: Annotated[
        float, typer.Option(help="Messages per second per client, over its sockets (0: any).")
    ] = 60.0,
    client_burst: Annotated[
        int, typer.Option(help="Burst of messages allowed per client, over its sockets.")
    ] = 200,
    tables_per_hour: Annotated[
        int, typer.Option(help="Tables one client may create per hour (0: any).")
    ] = 30,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets one client may hold open at once (0: any).")
    ] = 40,
    max_spectators: Annotated[
        int, typer.Option(help="Spectators one table accepts (0: any).")
    ] = 200,
    header_timeout: Annotated[
        float, typer.Option(help="Seconds a client has to send a request's headers (0: any).")
    ] = 10.0,
    storage_timeout: Annotated[
        float,
        typer.Option(help="Seconds a database call may take before the change is refused."),
    ] = 5.0,
    storage_workers: Annotated[
        int,
        typer.Option(help="Threads that talk to the database (0: 1 for SQLite, 4 for PostgreSQL)."),
    ] = 0,
    commit_window: Annotated[
        float,
        typer.Option(
            help="Seconds an applied action waits for others to share its commit (0: none; "
            "the actions applied while a commit runs share the next one anyway)."
        ),
    ] = 0.0,
    bot_workers: Annotated[
        int, typer.Option(help="Processes in which bots think (0: one thread).")
    ] = 1,
    bot_budget: Annotated[
        float,
        typer.Option(help="Seconds a bot may think before its table plays the default move."),
    ] = 5.0,
    max_bot_tables: Annotated[
        int, typer.Option(help="Tables with no human seat held at once (0: any).")
    ] = 20,
    expire_days: Annotated[
        float,
        typer.Option(help="Days after which a table nobody used is deleted (0: never)."),
    ] = 30.0,
    cluster: Annotated[
        bool,
        typer.Option(
            help="Share a PostgreSQL database with other sabacc servers: each table is owned by "
            "one server at a time (see docs/deploy.md)."
        ),
    ] = False,
    node: Annotated[
        str, typer.Option(help="This server's name among the cluster (default: host-pid).")
    ] = "",
    lease_ttl: Annotated[
        float,
        typer.Option(help="Seconds before a dead server's tables are taken over (cluster)."),
    ] = 3.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy (address or CIDR network; repeat or comma-separate for more) "
            "whose X-Forwarded-For / X-Real-IP names the client. None by default, loopback "
            "included: a client's own such headers are ignored.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(hidden=True, help="Former name of --trusted-proxy (no default now)."),
    ] = "",
    secure_cookies: Annotated[
        bool,
        typer.Option(
            help="Mark session cookies Secure even on plain http (a TLS proxy in front that "
            "does not send X-Forwarded-Proto)."
        ),
    ] = False,
    leaderboard_min_games: Annotated[
        int, typer.Option(help="Rated games an account needs to appear on a leaderboard.")
    ] = 5,
    login_attempts: Annotated[
        int, typer.Option(help="Failed log-ins per address and username within 5 minutes.")
    ] = 5,
    signups_per_hour: Annotated[
        int, typer.Option(help="Accounts one address may make per hour (0: any).")
    ] = 10,
    logins_per_minute: Annotated[
        int, typer.Option(help="Log-in attempts, good or bad, per address per minute (0: any).")
    ] = 20,
    auth_rate: Annotated[
        float,
        typer.Option(help="Password hashes (sign-ups, log-ins) per second site-wide (0: any)."),
    ] = 5.0,
    auth_burst: Annotated[int, typer.Option(help="Burst of password hashes site-wide.")] = 20,
    hash_workers: Annotated[
        int, typer.Option(help="Threads that hash passwords (about 64 MiB each while hashing).")
    ] = 1,
    hash_queue: Annotated[
        int, typer.Option(help="Hashes waiting for a thread before more get 503 (0: any).")
    ] = 8,
    shared_addresses: Annotated[
        list[str] | None,
        typer.Option(
            help="A network (CIDR) many players share, e.g. a NAT: its address does not link "
            "accounts for ratings (repeatable)."
        ),
    ] = None,
    rating_pair_games: Annotated[
        int, typer.Option(help="Rated games one pair of accounts may play together a day (0: any).")
    ] = 3,
    friends_max: Annotated[
        int, typer.Option(help="Accounts one account may follow as friends (0: any).")
    ] = 200,
    friend_adds_per_hour: Annotated[
        int, typer.Option(help="Friends one account may add per hour (0: any).")
    ] = 30,
    invites_pending: Annotated[
        int, typer.Option(help="Invitations one account may have pending at once (0: any).")
    ] = 10,
    history_snapshot_every: Annotated[
        int,
        typer.Option(
            min=0,
            help="Store a game's state every this many actions, so a hand's history replays at "
            "most this many actions before it, not the whole game (0: no snapshots).",
        ),
    ] = 500,
    log_level: Annotated[str, typer.Option(help="debug, info, warning, error.")] = "info",
) -> None:
    """Serve web tables: open http://HOST:PORT/ in a browser, create a table, share the link."""
    try:
        from sabacc.apps.server import Settings, create_app, run
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        typer.echo(
            f'sabacc serve needs the server extra: pip install "sabacc[server]" ({exc})', err=True
        )
        raise typer.Exit(2) from None
    settings = Settings(
        db_url=db,
        bot_delay=bot_delay,
        away_delay=away_delay,
        rate=rate,
        burst=burst,
        idle_evict=idle_evict,
        http_rate=http_rate,
        http_burst=http_burst,
        client_rate=client_rate,
        client_burst=client_burst,
        tables_per_hour=tables_per_hour,
        sockets_per_client=sockets_per_client,
        max_spectators=max_spectators,
        storage_timeout=storage_timeout,
        storage_workers=storage_workers,
        commit_window=commit_window,
        bot_workers=bot_workers,
        bot_budget=bot_budget,
        max_bot_tables=max_bot_tables,
        expire_days=expire_days,
        cluster=cluster,
        node=node,
        lease_ttl=lease_ttl,
        secure_cookies=secure_cookies,
        leaderboard_min_games=leaderboard_min_games,
        login_attempts=login_attempts,
        signups_per_hour=signups_per_hour,
        logins_per_minute=logins_per_minute,
        auth_rate=auth_rate,
        auth_burst=auth_burst,
        hash_workers=hash_workers,
        hash_queue=hash_queue,
        trusted_proxies=(
            *(trusted_proxy or ()),
            *([forwarded_allow_ips] if forwarded_allow_ips else []),
        ),
        shared_addresses=tuple(shared_addresses or ()),
        rating_pair_games=rating_pair_games,
        friends_max=friends_max,
        friend_adds_per_hour=friend_adds_per_hour,
        invites_pending=invites_pending,
        history_snapshot_every=history_snapshot_every,
    )
    from sabacc.apps.server.proxies import parse_networks

    try:
        parse_networks(settings.trusted_proxies)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--trusted-proxy") from None
    from sabacc.services.store import redact_url

    typer.echo(f"sabacc: serving on http://{host}:{port}/ (database {redact_url(db)})")
    run(
        create_app(settings),
        host,
        port,
        log_level=log_level,
        header_timeout=header_timeout,
    )
