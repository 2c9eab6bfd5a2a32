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
    )
    typer.echo(f"sabacc: serving on http://{host}:{port}/ (database {db})")
    run(create_app(settings), host, port, log_level=log_level)
