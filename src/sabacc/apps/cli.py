"""The ``sabacc`` command line (Typer + Rich).

Every command drives the public API only. Bad input (unknown card, impossible card count,
unknown option or variant) prints one clear line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

import sabacc
from sabacc.apps.commands.common import (
    OptionOpt,
    VariantOpt,
    err,
    fail,
    get_variant,
    parse_options,
)
from sabacc.core.errors import SabaccError
from sabacc.variants.registry import DEFAULT_VARIANT

app = typer.Typer(
    name="sabacc",
    help="Sabacc, the Star Wars card game: play, evaluate hands, replay hand histories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()

F = TypeVar("F", bound=Callable[..., Any])

# Card arguments start with '-' ("-4"): let them through as arguments, not options.
CARD_ARGS = {"ignore_unknown_options": True, "allow_extra_args": False}


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except SabaccError as exc:  # anything the commands did not catch themselves
        err.print(f"sabacc: error: {exc}", markup=False, soft_wrap=True)
        sys.exit(2)


def _print_version(value: bool) -> None:
    """``--version``: the version, the Python and which engines are built, then exit."""
    if not value:
        return
    import platform

    from sabacc.variants import compiled
    from sabacc.variants.registry import variant_names

    names = variant_names()
    built = sum(1 for name in names if compiled.available(name))
    engines = f"compiled cores for {built} of {len(names)} variants" if built else "pure Python"
    typer.echo(f"sabacc {sabacc.__version__} (Python {platform.python_version()}, {engines})")
    raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    # The options of `sabacc` itself (before any command); the help is the app's.
    return


# ---------------------------------------------------------------------- hand, showdown
@app.command(context_settings=CARD_ARGS)
def hand(
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. +4 -4 0 (Spike) or 0 2 3.")],
    variant: VariantOpt = DEFAULT_VARIANT,
    option: OptionOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Name and rank one hand: `sabacc hand --variant spike +4 -4 0`."""
    v = get_variant(variant, option)
    tokens = [t for c in cards for t in c.replace(",", " ").split()]
    try:
        parsed = v.parse_cards(tokens)
        value = v.evaluate(parsed)
    except SabaccError as exc:
        fail(str(exc))
    if json_out:
        out = {"cards": [c.code for c in parsed], **value.to_dict()}
        console.print_json(json.dumps(out))
        return
    labels = " ".join(c.label for c in parsed)
    console.print(f"[bold]{value.name}[/bold]  total {value.total:+d}  rank {value.rank}")
    console.print(f"cards: {labels}", highlight=False)


@app.command(context_settings=CARD_ARGS)
def showdown(
    hands: Annotated[list[str], typer.Argument(help='Hands, each quoted: "+4 -4 0" "+2 -2".')],
    variant: VariantOpt = DEFAULT_VARIANT,
    option: OptionOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Order hands best first, showing ties: `sabacc showdown -v spike "+4 -4 0" "+1 -1"`."""
    v = get_variant(variant, option)
    if len(hands) < 2:
        fail("showdown needs at least two hands (quote each hand)")
    parsed = []
    for i, text in enumerate(hands):
        try:
            cards = v.parse_cards(text)
            parsed.append((i, cards, v.evaluate(cards)))
        except SabaccError as exc:
            fail(f"hand {i + 1} ({text!r}): {exc}")
    # All hands come from one deck: parse them together so copies are counted across hands.
    try:
        joint = v.parse_cards(" ".join(hands))
    except SabaccError as exc:
        fail(f"these hands cannot come from one deck: {exc}")
    at = 0
    for k, (i, cards, value) in enumerate(parsed):
        parsed[k] = (i, joint[at : at + len(cards)], value)
        at += len(cards)
    ordered = sorted(parsed, key=lambda t: t[2], reverse=True)
    place = 0
    rows = []
    for k, (i, cards, value) in enumerate(ordered):
        if k == 0 or value != ordered[k - 1][2]:
            place = k + 1
        rows.append((place, i, cards, value))
    if json_out:
        out = [
            {"place": p, "hand": i + 1, "cards": [c.code for c in cs], **val.to_dict()}
            for p, i, cs, val in rows
        ]
        console.print_json(json.dumps(out))
        return
    places = [r[0] for r in rows]
    for place, i, cards, value in rows:
        tie = " (tie)" if places.count(place) > 1 else ""
        console.print(
            f"{place}. hand {i + 1}: {' '.join(c.code for c in cards):<22} "
            f"[bold]{value.name}[/bold] (total {value.total:+d}){tie}",
            highlight=False,
        )


# ---------------------------------------------------------------------- rules, options
@app.command()
def rules(variant: VariantOpt = DEFAULT_VARIANT) -> None:
    """Show a variant's rules summary."""
    v = get_variant(variant)
    console.print(f"[bold]{v.title}[/bold]")
    console.print(v.rules_text, highlight=False, markup=False)


@app.command()
def options(variant: VariantOpt = DEFAULT_VARIANT) -> None:
    """List a variant's options (house rules) with their defaults."""
    v = get_variant(variant)
    for spec in v.info.options_type.specs():
        console.print(
            f"[bold]{spec.name}[/bold] = {spec.default!r}  ({spec.describe()})  "
            f"[dim]{spec.help}[/dim]",
            highlight=False,
        )


@app.command()
def variants() -> None:
    """List the variants and their aliases."""
    for name in sabacc.variant_names():
        info = sabacc.variant(name).info
        console.print(
            f"[bold]{name}[/bold] ({', '.join(info.aliases)}): {info.summary}", highlight=False
        )


# ---------------------------------------------------------------------- replay
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the game log: en or ja.")]


def _check_lang(lang: str) -> str:
    from sabacc.services.render import LANGUAGES

    if lang not in LANGUAGES:
        fail(f"unknown language {lang!r}: choose from {', '.join(LANGUAGES)}")
    return lang


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A hand-history JSON file.", exists=False)],
    seat: Annotated[
        int | None, typer.Option(help="Tell it as this seat saw it (default: everything).")
    ] = None,
    lang: LangOpt = "en",
) -> None:
    """Tell a saved game move by move: `sabacc replay game.json`."""
    from sabacc.services.render import render_log

    _check_lang(lang)
    try:
        history = json.loads(file.read_text())
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    except json.JSONDecodeError as exc:
        fail(f"{file} is not JSON: {exc}")
    histories = history if isinstance(history, list) else [history]  # a session's games
    for number, one in enumerate(histories, 1):
        try:
            game = sabacc.replay(one)
        except SabaccError as exc:
            fail(str(exc))
        if len(histories) > 1:
            console.print(f"\n[bold]Game {number} of {len(histories)}[/bold]")
        console.print(
            f"[bold]{game.info.title}[/bold], seed {game.seed}, players: {', '.join(game.names)}"
        )
        shown = game.events if seat is None else [e.visible_to(seat) for e in game.events]
        for line in render_log(shown, game.names, viewer=seat, lang=lang, variant=game.info):
            if line:
                console.print(line, highlight=False)


# ---------------------------------------------------------------------- play
@app.command()
def play(
    variant: VariantOpt = DEFAULT_VARIANT,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats, you included.")] = 4,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="The other seats' bots, comma-separated and cycled: difficulty levels (easy, "
            "normal, hard, expert) or random. A variant whose levels play fewer distinct bots "
            "says so when the game starts (and in --setup)."
        ),
    ] = "easy",
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    option: OptionOpt = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the hand history JSON here at the end.")
    ] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="The plain prompt table (scripts, screen readers).")
    ] = False,
    setup: Annotated[
        bool, typer.Option("--setup", help="Open the settings screen before the game.")
    ] = False,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds each bot waits before acting (full-screen table).")
    ] = 0.6,
    hints: Annotated[
        bool, typer.Option("--hints", help="Show the exact odds of your options (key h).")
    ] = False,
    lang: LangOpt = "en",
    no_intro: Annotated[
        bool, typer.Option("--no-intro", help="Skip the one-screen 'how to win' at the start.")
    ] = False,
    orbits: Annotated[
        int,
        typer.Option(
            min=0,
            help="Game length: times the dealer button goes round (hands = orbits x players); "
            "0 plays until one player stands. -o game_end=... overrides it.",
        ),
    ] = 3,
    tournament: Annotated[
        str | None,
        typer.Option(
            help="Play an offline event against bots instead: sng (one table, --players "
            "seats) or mtt (multi-table, --players entries; see --table-size). The plain table.",
        ),
    ] = None,
    table_size: Annotated[
        int | None, typer.Option(help="With --tournament: seats per table.")
    ] = None,
) -> None:
    """Play a game against bots in the terminal (you are seat 1).

    Full-screen (Textual) on a terminal; the plain prompt otherwise or with --plain.
    """
    from sabacc.apps.play import PlainTable, game_length
    from sabacc.services.bots import DEFAULT_LEVEL, LEVELS, bots_for, make_bot
    from sabacc.services.bots.levels import levels_note

    if tournament is not None:
        from sabacc.apps.tournament_play import play_offline_event

        play_offline_event(
            tournament, variant, players, bots, name, seed, table_size, option, lang, hints
        )
        return

    get_variant(variant, option)  # bad options fail here with one line
    options = game_length(parse_options(option), players, orbits)
    try:
        v = sabacc.variant(variant, **options)
    except SabaccError as exc:
        fail(str(exc))
    _check_lang(lang)
    try:
        bots_for(bots)  # refuses an empty name among others
        bot_names = tuple(b.strip() for b in bots.split(",") if b.strip()) or (DEFAULT_LEVEL,)
        game = v.new_game([name, *[f"Bot {i}" for i in range(1, players)]], seed)
        # a level plays the bot this variant's bot model maps it to (as on every other path)
        seats = {
            s: make_bot(bot_names[(s - 1) % len(bot_names)], game.seed + s, game.info)
            for s in range(1, players)
        }
    except SabaccError as exc:
        fail(str(exc))
    note = levels_note(v.info, lang)
    if note and any(b.strip().lower() in LEVELS for b in bot_names):
        console.print(f"[dim]{note}[/dim]", highlight=False)
    if not plain and _full_screen_possible():
        from sabacc.apps.tui import SabaccApp, TableConfig

        levels = tuple(b.strip() for b in bots.split(",") if b.strip()) or bot_names
        config = TableConfig(v.name, players, levels, name, seed, options, bot_delay)
        tui = SabaccApp(
            config, game=game, bots=seats, setup=setup, hints=hints, lang=lang, intro=not no_intro
        )
        tui.run()
        games = tui.games or [game]
    else:
        table = PlainTable(game, human=0, bots=seats, console=console, hints=hints, lang=lang)
        try:
            table.run()
        except (KeyboardInterrupt, EOFError):
            console.print("\n[dim]Game abandoned.[/dim]")
        games = [game]
    if save is not None:
        # One game: its history; several (the full-screen table's "play again"): a list of them.
        saved: Any = games[0].history() if len(games) == 1 else [g.history() for g in games]
        save.write_text(json.dumps(saved, indent=1))
        what = "Hand history" if len(games) == 1 else f"Hand histories of {len(games)} games"
        console.print(f"{what} saved to {save}")


def _full_screen_possible() -> bool:
    """A terminal on both ends and Textual installed (the ``tui`` extra)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import textual  # noqa: F401
    except ImportError:
        return False
    return True


def _register_commands() -> None:
    from sabacc.apps.commands import register_all

    register_all(app)


_register_commands()

if __name__ == "__main__":  # pragma: no cover
    main()
