"""``sabacc odds``: exact hand probabilities, and the odds of each card option for a hand."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from sabacc.apps.commands.common import VariantOpt
from sabacc.variants.registry import DEFAULT_VARIANT


def register(app: typer.Typer) -> None:
    @app.command(context_settings={"ignore_unknown_options": True})
    def odds(
        variant: VariantOpt = DEFAULT_VARIANT,
        cards: Annotated[
            int, typer.Option("--cards", "-k", help="Cards dealt (distribution mode).")
        ] = 2,
        hand: Annotated[
            str | None,
            typer.Option(help='Your hand, quoted: --hand "+4 -2" (shows your options\' odds).'),
        ] = None,
        seen: Annotated[
            str | None,
            typer.Option(help='Other cards you can see (discard pile, known cards): "-3 +7".'),
        ] = None,
        discard: Annotated[
            str | None,
            typer.Option(
                help="The discard top (adds the options that take it; Kessel: one per family)."
            ),
        ] = None,
        sun: Annotated[
            str | None, typer.Option(help='Surabat: the face-up Sun cards, "+2 -7 +1".')
        ] = None,
        moon: Annotated[
            str | None, typer.Option(help="Surabat: the Moon top, if you put it there.")
        ] = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="A house rule as name=value (repeatable)."),
        ] = None,
        json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Exact odds: `sabacc odds -v spike --cards 2`, `sabacc odds -v spike --hand "+4 -2"`."""
        from fractions import Fraction

        from rich.console import Console
        from rich.table import Table

        from sabacc.apps.commands.common import fail, get_variant, parse_options
        from sabacc.core.errors import SabaccError
        from sabacc.services.odds import hand_distribution, improve_odds, improve_odds_codes

        v = get_variant(variant, option)
        options = parse_options(option)
        groups = {"hand": hand, "seen": seen, "discard": discard, "sun": sun, "moon": moon}
        texts = {k: t.replace(",", " ").split() for k, t in groups.items() if t}
        # Parse every card together so the deck's copy limits hold across the groups.
        tokens = [t for k in ("hand", "seen", "discard", "sun", "moon") for t in texts.get(k, [])]
        try:
            parsed = v.parse_cards(tokens) if tokens else []
        except SabaccError as exc:
            fail(str(exc))
        values: dict[str, list[int]] = {}
        i = 0
        for k in ("hand", "seen", "discard", "sun", "moon"):
            n = len(texts.get(k, []))
            values[k] = [c.value for c in parsed[i : i + n]]
            i += n
        codes = {k: [c.code for c in parsed[: len(texts.get("hand", []))]] for k in ("hand",)}
        i = len(codes["hand"])
        for k in ("seen", "discard", "sun", "moon"):
            n = len(texts.get(k, []))
            codes[k] = [c.code for c in parsed[i : i + n]]
            i += n
        for k in ("discard", "moon"):
            most = v.info.odds.discard_piles if k == "discard" else 1
            if len(values[k]) > most:
                fail(f"--{k} takes one card")
        console = Console()

        def pct(p: Fraction) -> str:
            return f"{float(p):.2%}"

        def frac(p: Fraction) -> str:
            return f"{p.numerator}/{p.denominator}"

        if hand is None:
            try:
                shown = values["seen"] + values["discard"] + values["sun"] + values["moon"]
                shown_codes = codes["seen"] + codes["discard"] + codes["sun"] + codes["moon"]
                dist = hand_distribution(v.name, cards, shown, options, shown_codes)
            except SabaccError as exc:
                fail(str(exc))
            if json_out:
                typer.echo(json.dumps(dist.to_dict(), indent=1))
                return
            unseen = len(v.deck) - len(dist.seen)
            title = f"{v.title}: {cards} card(s) from {unseen} unseen, {dist.outcomes:,} hands"
            table = Table(title=title)
            for col in ("hand", "hands", "probability", "exact"):
                table.add_column(col, justify="left" if col == "hand" else "right")
            for name, count in dist.names.items():
                p = Fraction(count, dist.outcomes)
                table.add_row(name, f"{count:,}", pct(p), frac(p))
            console.print(table)
            totals = Table(title="totals")
            for col in ("total", "hands", "probability", "exact"):
                totals.add_column(col, justify="right")
            for total, count in sorted(dist.totals.items()):
                p = Fraction(count, dist.outcomes)
                totals.add_row(f"{total:+d}" if total else "0", f"{count:,}", pct(p), frac(p))
            console.print(totals)
            return
        if not values["hand"]:
            fail("--hand needs at least one card")
        try:
            by_codes = improve_odds_codes(
                v.name, codes["hand"], codes["seen"], codes["discard"], options
            )
            results = (
                by_codes
                if by_codes is not None
                else improve_odds(
                    v.name,
                    values["hand"],
                    values["seen"],
                    discard_top=values["discard"][0] if values["discard"] else None,
                    sun=values["sun"],
                    moon_top=values["moon"][0] if values["moon"] else None,
                    options=options,
                )
            )
            current = v.evaluate(parsed[: len(values["hand"])])
        except SabaccError as exc:
            fail(str(exc))
        if json_out:
            out = {
                "variant": v.name,
                "hand": texts["hand"],
                "current": {"name": current.name, "total": current.total, "rank": current.rank},
                "seen": texts.get("seen", []),
                "options": [r.to_dict() for r in results],
            }
            typer.echo(json.dumps(out, indent=1))
            return
        table = Table(
            title=f"{v.title}: {' '.join(texts['hand'])} is {current.name} "
            f"(total {current.total:+d})"
        )
        for col in ("option", "better", "same", "worse", "sabacc", "likeliest result"):
            left = col in ("option", "likeliest result")
            table.add_column(col, justify="left" if left else "right")
        for r in results:
            likely = max(r.names.items(), key=lambda kv: kv[1]) if r.names else ("", Fraction(0))
            table.add_row(
                r.action + ("" if r.known else " (?)"),
                pct(r.better),
                pct(r.same),
                pct(r.worse),
                pct(r.sabacc),
                f"{likely[0]} {pct(likely[1])}",
            )
        console.print(table)
        console.print(
            "[dim](?) the card is unknown: equally likely to be any card you have not seen. "
            "sabacc = the hand would also win the sabacc pot.[/dim]"
        )
