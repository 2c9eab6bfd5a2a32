"""``sabacc tournament simulate``: a whole event of bots, or many (the structure simulator)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from sabacc.apps.commands.common import OptionOpt, VariantOpt
from sabacc.variants.registry import DEFAULT_VARIANT

FORMAT_HELP = "cantina | sng | mtt | swiss | arena"


def register(app: typer.Typer) -> None:
    tournament = typer.Typer(
        help="Tournaments: simulate events of bots and their structure.", no_args_is_help=True
    )
    app.add_typer(tournament, name="tournament")

    @tournament.command()
    def simulate(
        format_: Annotated[str, typer.Option("--format", "-f", help=FORMAT_HELP)] = "sng",
        variant: VariantOpt = DEFAULT_VARIANT,
        players: Annotated[int, typer.Option("--players", "-p", help="Entries.")] = 6,
        bots: Annotated[
            str,
            typer.Option(
                "--bots", "-b", help="Comma-separated bot levels, cycled over the players."
            ),
        ] = "easy",
        seed: Annotated[int, typer.Option(help="Seed: same seed, same event.")] = 0,
        seeds: Annotated[
            int, typer.Option(help="Events to play (seed, seed+1...): the structure report.")
        ] = 1,
        table_size: Annotated[int | None, typer.Option(help="Seats per table.")] = None,
        stack: Annotated[int | None, typer.Option(help="Starting stack.")] = None,
        hands_per_level: Annotated[
            int | None, typer.Option(help="Level length in event hands (default: the variant's).")
        ] = None,
        rounds: Annotated[int, typer.Option(help="Swiss rounds.")] = 3,
        duration: Annotated[
            int | None, typer.Option(help="Arena length in event hands (default 240).")
        ] = None,
        orbits: Annotated[int | None, typer.Option(help="Cantina game's cap in orbits.")] = None,
        rebuy_levels: Annotated[
            int, typer.Option(help="Rebuys (and an add-on) until the end of this level.")
        ] = 0,
        pot_at_close: Annotated[
            str, typer.Option(help="Pots left when a table's game closes: split | house.")
        ] = "split",
        option: OptionOpt = None,
        lang: Annotated[str, typer.Option(help="en | ja")] = "en",
        json_out: Annotated[bool, typer.Option("--json", help="Print JSON, no tables.")] = False,
        out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
        log: Annotated[
            bool, typer.Option("--log/--no-log", help="One event: print its feed too.")
        ] = False,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Local processes.")] = 1,
        ray: Annotated[bool, typer.Option("--ray", help="Run the seeds as Ray tasks.")] = False,
        address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
    ) -> None:
        """Play a whole event of bots: `sabacc tournament simulate --format mtt -p 30`."""
        from sabacc.apps.commands.common import fail, get_variant, parse_options
        from sabacc.core.errors import SabaccError
        from sabacc.services.bots.levels import LEVELS
        from sabacc.services.tournament import EventConfig, default_schedule
        from sabacc.services.tournament.simulate import (
            EventSpec,
            run_seeds,
            simulate_event,
            structure_report,
        )

        v = get_variant(variant, option)
        levels = tuple(b.strip().lower() for b in bots.split(",") if b.strip())
        unknown = [b for b in levels if b not in LEVELS]
        if not levels or unknown:
            fail(f"--bots: levels among {', '.join(LEVELS)}, not {', '.join(unknown) or 'none'}")
        if players < 2:
            fail("--players must be at least 2")
        if seeds < 1 or workers < 1:
            fail("--seeds and --workers must be at least 1")
        if lang not in ("en", "ja"):
            fail("--lang: en or ja")
        try:
            schedule = default_schedule(v.info, hands=hands_per_level)
            config = EventConfig(
                format=format_,
                variant=v.name,
                options=parse_options(option),
                schedule=schedule,
                table_size=table_size,
                starting_stack=stack,
                rounds=rounds,
                duration_hands=duration,
                orbits=orbits,
                rebuy_until_level=rebuy_levels,
                add_on=rebuy_levels > 0,
                pot_at_close=pot_at_close,
                seats=players if format_ in ("sng", "cantina") else None,
            ).resolved()
            spec = EventSpec(config, players, levels)
            if seeds == 1:
                report = simulate_event(spec, seed)
                data: dict[str, Any] = {**report}
                if not log:
                    data.pop("log")
            else:
                reports = run_seeds(spec, range(seed, seed + seeds), workers, address, use_ray=ray)
                data = {"structure": structure_report(reports), "events": reports}
        except SabaccError as exc:
            fail(str(exc))
        if out is not None:
            out.write_text(json.dumps(data, indent=1, ensure_ascii=False))
        if json_out:
            typer.echo(json.dumps(data, indent=1, ensure_ascii=False))
            return
        from sabacc.apps.tournament_view import print_event, print_structure

        if seeds == 1:
            print_event(config, data, lang, report["log"] if log else None)
        else:
            print_structure(config, players, data["structure"], lang)
