"""``sabacc odds``: exact hand probabilities, and the odds of each card option for a hand."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sabacc.apps.commands.common import VariantOpt
from sabacc.variants.registry import DEFAULT_VARIANT

if TYPE_CHECKING:
    from sabacc.engine.variant import VariantInfo


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
        pile: Annotated[
            list[str] | None,
            typer.Option(
                help="Cards on one of the variant's piles, as NAME=CARDS (repeatable): "
                '--pile sun="+2 -7 +1" (Surabat\'s face-up Sun), --pile moon=+3 (a Moon card '
                "you put there); Kessel: --pile 'sand discard=4s'. A wrong name lists them.",
            ),
        ] = None,
        sun: Annotated[str | None, typer.Option(hidden=True, help="--pile sun=CARDS.")] = None,
        moon: Annotated[str | None, typer.Option(hidden=True, help="--pile moon=CARDS.")] = None,
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
        # The groups of cards given, in order: the hand, other seen cards, the discard top and
        # each named pile's cards (the old --sun and --moon name their piles).
        named = {"sun": sun, "moon": moon}
        texts = {"hand": hand, "seen": seen, "tops": discard}
        texts |= {name: text for name, text in named.items() if text}
        texts |= dict(_pile_arg(arg) for arg in pile or ())
        piles = _table_piles(v.info, [k for k in texts if k not in ("hand", "seen", "tops")])
        groups = {k: t.replace(",", " ").split() for k, t in texts.items() if t}
        # Parse every card together so the deck's copy limits hold across the groups.
        tokens = [t for words in groups.values() for t in words]
        try:
            parsed = v.parse_cards(tokens) if tokens else []
        except SabaccError as exc:
            fail(str(exc))
        values: dict[str, list[int]] = {}
        codes: dict[str, list[str]] = {}
        i = 0
        for k in texts:
            n = len(groups.get(k, []))
            values[k] = [c.value for c in parsed[i : i + n]]
            codes[k] = [c.code for c in parsed[i : i + n]]
            i += n
        # Face-up tops, given by --discard or by their piles' names (Kessel's two discards).
        tops = codes["tops"] + [codes[k][-1] for k, spot in piles.items() if spot == "top"]
        if len(tops) > v.info.odds.discard_piles:
            fail(f"--discard takes {v.info.odds.discard_piles} card(s): one per face-up pile")
        for name, spot in piles.items():
            if spot != "spread" and len(values[name]) > 1:
                fail(f"--pile {name} takes one card (its top)")
        console = Console()

        def pct(p: Fraction) -> str:
            return f"{float(p):.2%}"

        def frac(p: Fraction) -> str:
            return f"{p.numerator}/{p.denominator}"

        if hand is None:
            try:
                shown = [x for k in texts if k != "hand" for x in values[k]]
                shown_codes = [x for k in texts if k != "hand" for x in codes[k]]
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
            by_codes = improve_odds_codes(v.name, codes["hand"], codes["seen"], tops, options)
            results = (
                by_codes
                if by_codes is not None
                else improve_odds(
                    v.name,
                    values["hand"],
                    values["seen"],
                    options=options,
                    **_pile_odds(values["tops"], {name: values[name] for name in piles}, piles),
                )
            )
            current = v.evaluate(parsed[: len(values["hand"])])
        except SabaccError as exc:
            fail(str(exc))
        if json_out:
            out = {
                "variant": v.name,
                "hand": groups["hand"],
                "current": {"name": current.name, "total": current.total, "rank": current.rank},
                "seen": groups.get("seen", []),
                "options": [r.to_dict() for r in results],
            }
            typer.echo(json.dumps(out, indent=1))
            return
        table = Table(
            title=f"{v.title}: {' '.join(groups['hand'])} is {current.name} "
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


def _pile_arg(arg: str) -> tuple[str, str]:
    """``NAME=CARDS`` of a ``--pile`` option."""
    from sabacc.apps.commands.common import fail

    name, sep, cards = arg.partition("=")
    if not sep or not name.strip():
        fail(f"--pile takes NAME=CARDS, not {arg!r}")
    return name.strip().lower(), cards


def _table_piles(info: VariantInfo, names: list[str]) -> dict[str, str]:
    """How each named pile's cards count for the odds, by the variant's declared piles:
    ``"spread"`` (every card can be taken), ``"top"`` (a face-up pile's top) or ``"known"``
    (a face-down pile's top card this seat knows)."""
    from sabacc.apps.commands.common import fail

    spots: dict[str, str] = {}
    for pile in info.piles:
        if pile.face_up:
            spots[pile.name] = "spread" if pile.spread else "top"
        elif pile.known_key is not None:
            spots[pile.name] = "known"
    found: dict[str, str] = {}
    for name in names:
        if name not in spots:
            offered = ", ".join(spots) or "none"
            fail(f"{info.title} has no pile {name!r} whose cards you can see (piles: {offered})")
        found[name] = spots[name]
    return found


def _pile_odds(
    discard: list[int], cards: dict[str, list[int]], spots: dict[str, str]
) -> dict[str, Any]:
    """The keyword arguments of :func:`~sabacc.services.odds.improve_odds` for the cards given
    on the table's piles (the face-up pile's top, a spread pile, a known face-down top)."""
    top = discard[0] if discard else None
    spread: list[int] = []
    known: int | None = None
    for name, spot in spots.items():
        given = cards[name]
        if spot == "spread":
            spread += given
        elif spot == "top" and given and top is None:
            top = given[-1]
        elif spot == "known" and given:
            known = given[-1]
    return {"discard_top": top, "sun": spread, "moon_top": known}
