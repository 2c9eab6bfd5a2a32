"""``sabacc simulate``: seeded tournaments between bots, on every core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sabacc.apps.commands.common import VariantOpt
from sabacc.variants.registry import DEFAULT_VARIANT


def register(app: typer.Typer) -> None:
    @app.command()
    def simulate(
        bots: Annotated[
            str,
            typer.Option(
                "--bots",
                "-b",
                help="Comma-separated bots, one per seat, cycled to --players: difficulty "
                "levels (easy, normal, hard, expert; each the bot the variant's own level "
                "plays, as in `sabacc play`) or random.",
            ),
        ] = "easy,random",
        variant: VariantOpt = DEFAULT_VARIANT,
        players: Annotated[
            int | None,
            typer.Option("--players", "-p", help="Seats (default: the number of bots)."),
        ] = None,
        hands: Annotated[
            int, typer.Option("--hands", "-n", help="Hands to play (rounded up to whole deals).")
        ] = 1000,
        seed: Annotated[int, typer.Option(help="Master seed: same seed, same totals.")] = 0,
        workers: Annotated[
            int | None, typer.Option("--workers", "-w", help="Processes (default: every core).")
        ] = None,
        game_hands: Annotated[
            int,
            typer.Option(help="Hands per game (stacks carry over); 1 = fresh stacks every hand."),
        ] = 1,
        duplicate: Annotated[
            bool,
            typer.Option(
                "--duplicate/--no-duplicate",
                help="Replay each deal once per seat rotation (same shuffle for every seat).",
            ),
        ] = True,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="A house rule as name=value (repeatable)."),
        ] = None,
        json_out: Annotated[
            bool, typer.Option("--json", help="Print the results as JSON (no table).")
        ] = False,
        out: Annotated[
            Path | None, typer.Option("--out", help="Also write the JSON results to this file.")
        ] = None,
        plot: Annotated[
            Path | None,
            typer.Option("--plot", help="Save a PNG chart of cumulative credits per bot."),
        ] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
        engine: Annotated[
            str,
            typer.Option(
                "--engine",
                help="auto (the variant's compiled core, where it has one, when built) | python | "
                "compiled: same totals, different speed.",
            ),
        ] = "auto",
        backend: Annotated[
            str,
            typer.Option(
                "--backend",
                help="local (a process pool on this machine) | ray (a Ray cluster, see --address).",
            ),
        ] = "local",
        address: Annotated[
            str | None,
            typer.Option(
                "--address",
                help="Ray cluster to use with --backend ray (auto, ray://host:10001); "
                "default: start a local Ray instance with --workers CPUs.",
            ),
        ] = None,
    ) -> None:
        """Play bots against each other: `sabacc simulate --bots hard,easy -n 2000`."""
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.table import Table

        from sabacc.apps.commands.common import fail, get_variant, parse_options
        from sabacc.core.errors import SabaccError
        from sabacc.services.bots import make_bot
        from sabacc.services.sim import SimSpec, plot_cumulative, sabacc_pot_names, simulate
        from sabacc.services.sim_ray import RayBackend  # Ray itself is imported only when used

        v = get_variant(variant, option)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if not names:
            fail("--bots needs at least one bot name")
        seats = players if players is not None else max(2, len(names))
        if not v.info.min_players <= seats <= v.info.max_players:
            fail(
                f"{v.title} is played by {v.info.min_players}-{v.info.max_players} players, "
                f"not {seats}"
            )
        if hands < 1:
            fail("--hands must be at least 1")
        if game_hands < 1:
            fail("--game-hands must be at least 1")
        if workers is not None and workers < 1:
            fail("--workers must be at least 1")
        if backend not in ("local", "ray"):
            fail(f"--backend {backend!r}: must be local or ray")
        if address is not None and backend != "ray":
            fail("--address is for --backend ray")
        lineup = tuple(names[s % len(names)] for s in range(seats))
        try:
            for name in dict.fromkeys(lineup):
                make_bot(name, 0, v.info)
            options = parse_options(option)
            spec = SimSpec(
                v.name,
                lineup,
                hands,
                seed,
                tuple(sorted(options.items())),
                game_hands,
                duplicate,
                engine=engine,
            )
            if engine != "auto":
                from sabacc.variants.compiled import check_engine

                check_engine(engine, v.name)
            # Validate the options with the forced game length before starting workers.
            from sabacc import variant as make_variant

            make_variant(v.name, **spec.game_options())
        except SabaccError as exc:
            fail(str(exc))

        err = Console(stderr=True)
        total = spec.deals * spec.hands_per_deal
        runner: RayBackend | None = None
        if backend == "ray":
            runner = RayBackend(address, num_cpus=workers)
            try:
                workers = runner.workers
            except Exception as exc:  # connection errors come in many types
                fail(f"cannot use Ray ({'address ' + address if address else 'local'}): {exc}")
        if quiet or json_out:
            result = simulate(spec, workers, backend=runner)
        else:
            with Progress(
                TextColumn("[bold]simulating[/]"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("hands"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=err,
                transient=True,
            ) as bar:
                task = bar.add_task("hands", total=total)
                result = simulate(
                    spec, workers, backend=runner, progress=lambda n: bar.advance(task, n)
                )
        if runner is not None:
            runner.close()  # shuts down only a Ray instance it started
        data = result.to_dict()
        if out is not None:
            out.write_text(json.dumps(data, indent=1))
        if plot is not None:
            plot_cumulative(result, str(plot))
        if json_out:
            typer.echo(json.dumps(data, indent=1))
            return
        from rich import box

        console = Console()
        table = Table(
            box=box.SIMPLE_HEAD,
            title=f"{v.title}: {seats} seats, {result.hands} hands, seed {seed}"
            + ("" if not option else f", {' '.join(option)}"),
        )
        # the sabacc-pot count only for a variant that has such a pot (not Kessel's round pots)
        has_sabacc_pot = bool(sabacc_pot_names(v.name))
        columns = ["bot", "hands", "net", "per hand ± 95% CI", "win rate"]
        for col in columns + (["sabacc pots"] if has_sabacc_pot else []):
            table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
        stats = result.stats()
        for s in stats:
            half = (s.ci95[1] - s.ci95[0]) / 2
            row = [s.name, str(s.hands), f"{s.net:+d}", f"{s.per_hand:+.3f} ± {half:.3f}"]
            row.append(f"{s.win_rate:.1%}")
            table.add_row(*row, *([str(s.sabacc_wins)] if has_sabacc_pot else []))
        console.print(table)
        rate = result.hands / result.seconds if result.seconds else 0.0
        times = ", ".join(
            f"{s.name} {s.decision_ms['median']:.1f}/{s.decision_ms['p95']:.1f}" for s in stats
        )
        console.print(
            f"[dim]{result.seconds:.1f}s on {result.workers} worker(s), {rate:.0f} hands/s; "
            f"lineup {', '.join(lineup)}; duplicate deals {'on' if duplicate else 'off'}; "
            f"{game_hands} hand(s) per game; ms per decision (median/p95): {times}[/dim]",
            highlight=False,
        )
        if out is not None:
            console.print(f"JSON written to {out}")
        if plot is not None:
            console.print(f"Chart saved to {plot}")
