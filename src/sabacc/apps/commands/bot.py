"""``sabacc bot connect``: put a bot on a server as a bot account (docs/api.md)."""

from __future__ import annotations

import importlib
import random
from typing import Annotated, Any

import typer

BOT_HELP = (
    "A level (easy, normal, hard, expert), a bot name (random), or your own bot class as "
    "MODULE:CLASS (an importable module; the class is built as CLASS(seed=...) or CLASS(), "
    "and has act(observation, legal) like the local bots)."
)


def bot_factory(spec: str, seed: int | None = None) -> Any:
    """``factory(variant)`` -> a fresh bot of ``spec`` for a game of that variant."""
    from sabacc.services.bots import make_bot

    rng = random.Random(seed)
    if ":" in spec and not spec.split(":", 1)[1].replace(".", "").isdigit():
        module_name, _, class_name = spec.partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)

        def own(variant: str) -> Any:
            try:
                return cls(seed=rng.randrange(2**63))
            except TypeError:
                return cls()

        return own
    make_bot(spec, 0)  # an unknown name is refused now, not at the first game

    def named(variant: str) -> Any:
        return make_bot(spec, rng.randrange(2**63), variant)

    return named


def register(app: typer.Typer) -> None:
    bot = typer.Typer(help="Bots on a server: connect one to a bot account.", no_args_is_help=True)
    app.add_typer(bot, name="bot")

    @bot.command()
    def connect(
        server: Annotated[str, typer.Option("--server", help="The server's URL.")],
        token: Annotated[
            str,
            typer.Option(
                "--token", envvar="SABACC_TOKEN", help="A personal API token with the bot scope."
            ),
        ],
        bot_spec: Annotated[str, typer.Option("--bot", help=BOT_HELP)] = "easy",
        variants: Annotated[
            str, typer.Option("--variants", help="Accept challenges of these only (comma list).")
        ] = "",
        games: Annotated[int, typer.Option("--games", help="Stop after this many (0: never).")] = 0,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bots.")] = None,
        make_bot_account: Annotated[
            bool, typer.Option("--upgrade", help="Make the account a bot account first.")
        ] = False,
    ) -> None:
        """Connect a bot to a server: accept its bot account's challenges and play them."""
        from sabacc.apps.client import ApiError, BotRunner, Client
        from sabacc.core.errors import SabaccError

        try:
            factory = bot_factory(bot_spec, seed)
        except (ImportError, AttributeError, SabaccError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--bot") from None
        client = Client(server, token)
        try:
            if make_bot_account:
                client.become_bot()
            me = client.whoami()
        except (ApiError, OSError) as exc:
            typer.echo(f"cannot connect: {exc}", err=True)
            raise typer.Exit(1) from None
        if not me.get("bot"):
            typer.echo(f"{me['username']} is not a bot account (use --upgrade)", err=True)
            raise typer.Exit(1)
        from sabacc.variants.registry import lookup

        try:  # the challenges name a variant by its own name, not an alias
            wanted = tuple(lookup(v.strip()).name for v in variants.split(",") if v.strip())
        except SabaccError as exc:
            raise typer.BadParameter(str(exc), param_hint="--variants") from None
        typer.echo(f"{me['username']} is connected to {server} with {bot_spec}; Ctrl-C stops.")
        runner = BotRunner(client, factory, variants=wanted, games=games)
        try:
            runner.run()
        except KeyboardInterrupt:
            runner.stop()
        except ApiError as exc:
            typer.echo(f"refused: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"{runner.played} games played.")
