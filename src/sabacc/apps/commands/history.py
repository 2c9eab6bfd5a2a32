"""``sabacc history``: check hand-history files against the format (docs/history-format.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    history = typer.Typer(
        help="Hand histories: validate files, print the format's JSON Schema.",
        no_args_is_help=True,
    )
    app.add_typer(history, name="history")

    @history.command()
    def validate(
        files: Annotated[list[Path], typer.Argument(help="Hand-history JSON files.")],
        replay: Annotated[
            bool, typer.Option(help="Replay each game too (--no-replay: the shape only).")
        ] = True,
        json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Check hand-history files: `sabacc history validate game.json`.

        Exit status 0 if every file is valid, 1 if one is not (each problem printed with its
        place in the document), 2 if a file cannot be read or is not JSON."""
        from sabacc.apps.commands.common import fail
        from sabacc.services import hand_history

        report: dict[str, list[str]] = {}
        for file in files:
            try:
                doc = json.loads(file.read_bytes())
            except OSError as exc:
                fail(f"cannot read {file}: {exc.strerror}")
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                fail(f"{file} is not JSON: {exc}")
            report[str(file)] = [str(p) for p in hand_history.validate(doc, replay=replay)]
        if json_out:
            typer.echo(json.dumps({"valid": not any(report.values()), "files": report}, indent=1))
        else:
            for name, problems in report.items():
                typer.echo(f"{name}: {'invalid' if problems else 'valid'}")
                for p in problems:
                    typer.echo(f"  {p}")
        if any(report.values()):
            raise typer.Exit(1)

    @history.command()
    def schema() -> None:
        """Print the hand-history format's JSON Schema."""
        from sabacc.services import hand_history

        typer.echo(json.dumps(hand_history.schema(), indent=2, ensure_ascii=False))
