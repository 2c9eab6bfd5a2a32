"""The one renderer: every event of every variant has a real line, in English and Japanese."""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app as cli_app
from sabacc.apps.play import PlainTable
from sabacc.core import events as ev
from sabacc.core.actions import Action, Junk
from sabacc.engine.game import Game
from sabacc.services.messages import CATALOGUE, LANGUAGES
from sabacc.services.render import (
    action_label,
    award_reason,
    describe_event,
    events_json,
    glossary_lines,
    paid_reason,
    render_log,
    vocabulary,
    vocabulary_json,
)
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.registry import lookup, variant_names

NAMES = ["Han", "Lando", "Chewie", "Qi'ra"]
#: Events every variant's games produce (rarer ones are covered by the synthetic set below).
COMMON = {"hand_started", "anted", "dealt", "acted", "paid", "pot_awarded", "hand_ended"}


def _random_game(variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = sabacc.new_game(variant, players=NAMES[: rng.choice([2, 3, 4])], seed=seed)
    steps = 0
    while not game.is_over and steps < 4000:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return game


@functools.cache
def _played(variant: str) -> tuple[Game, ...]:
    return tuple(_random_game(variant, seed) for seed in range(12))


def _all_subclasses(cls: type[ev.Event]) -> Iterator[type[ev.Event]]:
    """Every event class in use (``slots=True`` leaves the pre-slots copies behind: skipped)."""
    for sub in cls.__subclasses__():
        if getattr(sys.modules[sub.__module__], sub.__name__, None) is sub:
            yield sub
        yield from _all_subclasses(sub)


def _sample(cls: type[ev.Event], hand: str = "Pure Sabacc", **fields: object) -> Iterator[ev.Event]:
    """Instances of an event class with plausible values (every reason its renderer knows)."""
    base: dict[str, object] = {
        "hand": 2,
        "dealer": 1,
        "seats": (0, 1),
        "seat": 1,
        "main": 1,
        "sabacc": 1,
        "count": 2,
        "cards": ("+4c", "-4s"),
        "card": "+3t",
        "pile": "discard",
        "public": "stand",
        "action": "stand",
        "source": "draw",
        "shown": False,
        "amount": 5,
        "pot": "main",
        "reason": "deal",
        "dice": (2, 2),
        "shift": True,
        "roller": 0,
        "name": hand,
        "total": 0,
        "rank": 11,
        "shares": (3, 2),
        "stack": 0,
        "net": (5, -5),
        "stacks": (105, 95),
        "payoffs": (5, -5),
        "lost": "+2c",
        "got": "-7s",
        # variants' own event fields (Kessel's tokens, dice and losses)
        "purpose": "Is",
        "token": "target_tariff",
        "target": 0,
        "to": "stock 1",
        "penalty": 2,
    }
    reasons = {ev.Paid: "call", ev.PotAwarded: f"best hand: {hand}", ev.HandEnded: "showdown"}
    values = dict(base)
    for f in dataclasses.fields(cls):
        if f.name == "reason":
            default = f.default if isinstance(f.default, str) else None
            values["reason"] = default or reasons.get(cls, "deal")
    yield cls(**{f.name: fields.get(f.name, values[f.name]) for f in dataclasses.fields(cls)})


def _event_classes(variant: str) -> set[type[ev.Event]]:
    """The core events and the variant's own (defined beside its game)."""
    module = lookup(variant).game_type.__module__
    return {c for c in _all_subclasses(ev.Event) if c.__module__ in (ev.__name__, module)}


def _synthetic(variant: str) -> list[ev.Event]:
    """One of every event class (core and the variant's own), every payment and award reason."""
    out: list[ev.Event] = []
    hand = lookup(variant).text.glossary["en"][0].name  # a hand of this variant
    for cls in sorted(_event_classes(variant), key=lambda c: c.__name__):
        out.extend(_sample(cls, hand))
    for reason in ("call", "bet 5", "raise 3", "gain fee", "swap fee", "fold fee", "bomb out"):
        out.extend(_sample(ev.Paid, reason=reason))
    out.extend(_sample(ev.Paid, reason="caller did not win", pot="sabacc"))
    for reason in (
        f"best hand: {hand}",
        f"won with {hand}",
        "everyone else junked",
        "pots left at game end are split",
        "tie on 21, split (no cards left for sudden demise)",
        "tie on 21, all bombed out in sudden demise: split",
        f"tie on 21, sudden demise won with {hand}",
        "tie on 21, sudden demise still tied: split with 22",
    ):
        out.extend(_sample(ev.PotAwarded, reason=reason, seats=(0,), shares=(5,)))
        out.extend(_sample(ev.PotAwarded, reason=reason, pot="side 1"))
    for pot in ("sabacc", "house", "side 2"):
        out.extend(_sample(ev.PotCarried, pot=pot))
    for reason in ("shift", "sudden_demise"):
        out.extend(_sample(ev.Dealt, reason=reason, cards=None, count=1))
    out.extend(_sample(ev.Anted, sabacc=0))
    out.extend(_sample(ev.Anted, main=0))
    out.extend(_sample(ev.Anted, main=0, sabacc=0))
    for text in (
        "gain",
        "gain +3",
        "swap discard -3",
        "swap draw +4",
        "exchange",
        "swap moon",
        "discard +5",
        "check",
        "call",
        "call (all-in)",
        "bet 5",
        "bet 7 (all-in)",
        "raise 2",
        "junk",
        "call hand",
    ):
        out.extend(_sample(ev.Acted, public=text, action=text))
        out.extend(_sample(ev.Acted, public=text, action=None))
    if variant == "classic":
        out.extend(_sample(ev.HandEnded, net=(0, 0)))
    return [e.visible_to(0) if i % 2 else e for i, e in enumerate(out)]


_PLACEHOLDER = re.compile(r"[{}]|\bNone\b|\b(label|did|paid|reason|pot|phase|hand)\.[a-z_]+")
#: Card codes, which lines write as they are: signed values with a stave letter, and every
#: other code of a registered deck (Kessel's Impostors "Is" and "Ib").
_OTHER_CODES = sorted(
    rf"\b{re.escape(c.code)}\b"
    for name in variant_names()
    for c in lookup(name).deck.cards
    if not c.code[:1].isdigit() and c.code[:1] not in "+-"
)
_CODE = re.compile("|".join([r"[+-]?\d+[a-z]?", *_OTHER_CODES]))
#: Latin words left in a Japanese line once names and card codes are taken out.
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _assert_real_line(line: str | None, lang: str, names: list[str]) -> None:
    assert line, "every event has a line"
    assert not _PLACEHOLDER.search(line), line
    if lang == "ja":
        rest = line
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, "")
        rest = _CODE.sub("", rest)
        assert not _LATIN_WORD.search(rest), f"untranslated English in {line!r}"
    if lang == "en":
        assert "You pays" not in line and "You's" not in line and "You is" not in line


@pytest.mark.parametrize("variant", variant_names())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_played_event_has_a_line(variant: str, lang: str) -> None:
    seen: set[str] = set()
    for game in _played(variant):
        for viewer in (None, 0, 1):
            shown = [e.visible_to(viewer) for e in game.events]
            lines = render_log(shown, game.names, viewer=viewer, lang=lang, variant=game.info)
            for i, (event, line) in enumerate(zip(shown, lines, strict=True)):
                seen.add(event.type)
                if line is None:  # said by the next line: a bet, call or raise payment, or
                    # an action the variant's next event says in full (Kessel's tokens, a
                    # draw and its chip)
                    if isinstance(event, ev.Acted):
                        head = (event.action or event.public).split(" ", 1)[0]
                        assert lookup(variant).text.messages["en"].get(f"said_by.{head}")
                        continue
                    assert isinstance(event, ev.Paid)
                    if paid_reason(event.reason) not in ("paid.call", "paid.bet", "paid.raise"):
                        said = lines[i + 1]  # the action's line, with the amount
                        own = lookup(variant).text.messages["en"]
                        assert said and str(event.amount) in said, (event, said)
                        assert f"{shown[i + 1].type}.paid" in own
                    continue
                _assert_real_line(line, lang, game.names)
    # Every variant tells these; antes only where the variant has them.
    assert seen >= COMMON - (set() if "ante" in lookup(variant).options_type.names() else {"anted"})


@pytest.mark.parametrize("variant", variant_names())
def test_every_reason_the_engines_give_is_known(variant: str) -> None:
    for game in _played(variant):
        for event in game.events:
            if isinstance(event, ev.Paid):
                assert paid_reason(event.reason) is not None, event.reason
            if isinstance(event, ev.PotAwarded):
                assert award_reason(event.reason) is not None, event.reason


@pytest.mark.parametrize("variant", variant_names())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_class_and_reason_has_a_line(variant: str, lang: str) -> None:
    events = _synthetic(variant)
    assert {type(e) for e in events} >= _event_classes(variant)
    for viewer in (None, 0, 1):
        for event in events:
            line = describe_event(event, NAMES[:2], viewer=viewer, lang=lang, variant=variant)
            _assert_real_line(line, lang, NAMES[:2])


def test_second_person_for_the_viewer() -> None:
    paid = ev.Paid(0, 5, "sabacc", "caller did not win")
    assert describe_event(paid, NAMES, viewer=0) == (
        "You pay 5 to the sabacc pot: you called the hand and did not win"
    )
    assert describe_event(paid, NAMES, viewer=1) == (
        "Han pays 5 to the sabacc pot: called the hand and did not win"
    )
    assert describe_event(ev.HandStarted(1, 0, (0, 1)), NAMES, viewer=0) == (
        "── Hand 1: you deal ──"
    )
    assert describe_event(paid, NAMES, viewer=0, lang="ja").startswith("あなたは 5 を")


def test_a_bet_and_its_payment_make_one_line() -> None:
    events = [ev.Paid(1, 5, "main", "raise 3"), ev.Acted(1, "raise 3", "raise 3")]
    assert render_log(events, NAMES) == [None, "Lando raises by 3, putting in 5"]
    events = [ev.Paid(1, 4, "main", "call"), ev.Acted(1, "call (all-in)", "call")]
    assert render_log(events, NAMES, viewer=1) == [None, "You call 4"]
    # A payment that is not the next action's own keeps its line.
    events = [ev.Paid(1, 2, "main", "gain fee"), ev.Acted(1, "gain", "gain")]
    assert render_log(events, NAMES)[0] == "Lando pays a gain fee of 2 to the main pot"


def test_each_variant_speaks_its_own_words() -> None:
    classic, spike = vocabulary("classic"), vocabulary("corellian_spike")
    assert (classic.label("junk"), spike.label("junk")) == ("fold", "junk")
    assert (classic.label("stand"), spike.label("stand")) == ("pass", "stand")
    shift = ev.DiceRolled((2,), True, 0)
    assert "Sabacc Shift" in describe_event(shift, NAMES, variant="corellian_spike")
    assert "Sabacc Shift" not in describe_event(shift, NAMES, variant="classic")
    assert action_label("junk", classic) == "fold"
    assert action_label("swap discard -3", spike) == "swap with discard -3"
    assert action_label("call", spike, to_call=4) == "call 4"
    assert vocabulary("classic", "ja").phase("drawing") == "ドローフェイズ"
    terms = vocabulary_json("classic")
    assert terms["labels"]["en"]["junk"] == "fold" and terms["labels"]["ja"]["junk"] == "フォールド"


@pytest.mark.parametrize("variant", variant_names())
def test_every_hand_name_is_translated_and_in_the_glossary(variant: str) -> None:
    info = lookup(variant)
    ja = vocabulary(variant, "ja")
    names = {
        e.name
        for game in _played(variant)
        for e in game.events
        if isinstance(e, ev.Revealed) and not e.name.lstrip("-").isdigit()
    }
    for name in names:
        assert not _LATIN_WORD.search(ja.hand(name)), name
    for lang in LANGUAGES:
        glossary = info.text.glossary[lang]
        assert glossary and all(g.name and g.definition and g.example for g in glossary)
        assert len(glossary) == len(info.text.glossary["en"])


def test_the_glossary_reads_as_lines() -> None:
    lines = glossary_lines("corellian_spike")
    assert lines[0] == "Hands, best first:"
    assert "  Pure Sabacc: exactly two cards, both Sylops (e.g. 0 0)" in lines
    assert glossary_lines("classic", "ja")[1].startswith("  イディオット・アレイ：")


def test_both_catalogues_have_the_same_keys() -> None:
    en, ja = CATALOGUE["en"], CATALOGUE["ja"]
    assert {k for k in en if not k.endswith(".you")} == set(ja)
    for lang in ("en", "ja"):
        for variant in variant_names():
            own = lookup(variant).text.messages.get(lang, {})
            other = "ja" if lang == "en" else "en"
            theirs = lookup(variant).text.messages.get(other, {})
            # (the Japanese rules page, menu line and option help translate VariantInfo's
            # rules_text, summary and the options' help: their English lives there)
            docs = {
                k for k in own if k in ("rules", "summary") or k.startswith(("help.", "option."))
            }
            base = {k for k in own if not k.endswith(".you") and not k.startswith("hand.")} - (
                docs if lang == "ja" else set()
            )
            assert base <= set(theirs) | set(CATALOGUE[other]), (variant, lang)


@settings(max_examples=30, deadline=None)
@given(
    variant=st.sampled_from(variant_names()),
    seed=st.integers(0, 10_000),
    lang=st.sampled_from(LANGUAGES),
)
def test_lines_never_leak_what_the_viewer_cannot_see(variant: str, seed: int, lang: str) -> None:
    game = _random_game(variant, seed)
    sent = events_json(game.events, game.names, viewer=1, variant=game.info)
    for event, message in zip(game.events, sent, strict=True):
        shown = event.visible_to(1)
        if shown is event:
            continue
        for name in event.private:
            secret = getattr(event, name)
            if isinstance(secret, str) and secret not in json.dumps(shown.to_dict()):
                for text in message["text"].values():
                    assert text is None or secret not in text.split(" ")


# ---------------------------------------------------------------------- the classic caller
def _caller_loses() -> Game:
    """A classic game where seat 0 (Han) calls the hand and does not win."""
    for seed in range(400):
        game = sabacc.new_game("classic", players=NAMES[:3], seed=seed, game_end="hands:1")
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            calls = [a for a in legal if isinstance(a, CallHand)]
            rest: list[Action] = [a for a in legal if not isinstance(a, CallHand | Junk)]
            if game.current_player == 0 and calls:
                game.apply(calls[0])
            else:
                game.apply(rng.choice(rest or legal))
        if any(isinstance(e, ev.Paid) and e.reason == "caller did not win" for e in game.events):
            return game
    raise AssertionError("no seed gave a losing caller")  # pragma: no cover


def _payment(game: Game) -> ev.Paid:
    return next(
        e for e in game.events if isinstance(e, ev.Paid) and e.reason == "caller did not win"
    )


def test_the_losing_caller_pays_with_a_line_in_the_plain_prompt() -> None:
    game = _caller_loses()
    paid = _payment(game)
    replayed = sabacc.replay(game.history())
    out = io.StringIO()
    table = PlainTable(
        replayed, human=0, bots={}, console=Console(file=out, width=200, color_system=None)
    )
    table.show_events()
    want = f"You pay {paid.amount} to the sabacc pot: you called the hand and did not win"
    assert want in out.getvalue()
    out = io.StringIO()
    PlainTable(
        replayed, human=0, bots={}, console=Console(file=out, width=200), lang="ja"
    ).show_events()
    assert f"あなたは {paid.amount} をサバックポットに払う" in out.getvalue()


def test_the_losing_caller_pays_with_a_line_in_replay(tmp_path: Path) -> None:
    game = _caller_loses()
    paid = _payment(game)
    f = tmp_path / "called.json"
    f.write_text(json.dumps(game.history()))
    res = CliRunner().invoke(cli_app, ["replay", str(f)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert f"Han pays {paid.amount} to the sabacc pot: called the hand and did not win" in (
        res.stdout
    )
    res = CliRunner().invoke(cli_app, ["replay", "--seat", "0", str(f)], env={"COLUMNS": "200"})
    assert f"You pay {paid.amount} to the sabacc pot: you called" in res.stdout


def test_the_losing_caller_pays_with_a_line_in_the_web_messages() -> None:
    """The server sends ``events_json`` (apps/server/tables.py): each event with its lines."""
    game = _caller_loses()
    paid = _payment(game)
    for viewer, en in (
        (0, f"You pay {paid.amount} to the sabacc pot: you called the hand and did not win"),
        (1, f"Han pays {paid.amount} to the sabacc pot: called the hand and did not win"),
        (None, f"Han pays {paid.amount} to the sabacc pot: called the hand and did not win"),
    ):
        sent = events_json(game.events, game.names, viewer=viewer, variant=game.info)
        lines = [m["text"] for m in sent if m["type"] == "paid" and m["reason"] == paid.reason]
        assert lines and lines[0]["en"] == en and lines[0]["ja"]


def test_a_kessel_token_is_said_once_by_its_token_line() -> None:
    from sabacc.variants.kessel.actions import TokenPlayed

    acted = ev.Acted(1, "token immunity", "token immunity")
    lines = render_log([acted, TokenPlayed(1, "immunity", None)], NAMES, variant="kessel")
    assert lines[0] is None and lines[1] is not None and "Immunity" in lines[1]
    alone = render_log([acted], NAMES, variant="kessel")  # nothing after it: its own line
    assert alone[0] and "Immunity" in alone[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_kessel_draw_and_its_keep_are_one_line_each(lang: str) -> None:
    # A draw was told in three lines (draws / pays 1 chip / takes the card) and a keep in
    # two: one line per action now, the chip it cost in it.
    checked = 0
    for game in _played("kessel"):
        for viewer in (None, 0):
            shown = [e.visible_to(viewer) for e in game.events]
            lines = render_log(shown, game.names, viewer=viewer, lang=lang, variant=game.info)
            for i, event in enumerate(shown):
                if not isinstance(event, ev.Acted) or event.public.split(" ")[0] not in (
                    "draw", "keep", "discard",
                ):  # fmt: skip
                    continue
                own = [i]  # the action's own events: its seat's, until the next action
                for j in range(i + 1, len(shown)):
                    nxt = shown[j]
                    if not isinstance(nxt, ev.Paid | ev.CardTaken | ev.CardDiscarded):
                        break
                    if nxt.seat != event.seat:
                        break
                    own.append(j)
                said = [line for j in own if (line := lines[j]) is not None]
                assert len(said) == 1, said
                paid = [e for j in own if isinstance(e := shown[j], ev.Paid)]
                for payment in paid:
                    assert str(payment.amount) in said[0]
                checked += 1
    assert checked


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("viewer", [0, None])
def test_a_shift_that_deals_a_card_back_does_not_say_it_became_itself(
    lang: str, viewer: int | None
) -> None:
    """N16: "11♥ becomes 11♥": a classic shift may deal a player's own card back; the line
    says the card came back (to the player, and in a full history)."""
    from sabacc.variants.classic.rules import CardSwapped

    back = describe_event(
        CardSwapped(0, "11c", "11c", "shift"), ["Han", "Lando"], viewer=viewer, lang=lang,
        variant="classic",
    )  # fmt: skip
    changed = describe_event(
        CardSwapped(0, "11c", "7s", "shift"), ["Han", "Lando"], viewer=viewer, lang=lang,
        variant="classic",
    )  # fmt: skip
    assert back != changed
    assert {"en": "becomes", "ja": "に"}[lang] not in back.split("：")[-1], back
    assert {"en": "deals it back", "ja": "同じ札が戻る"}[lang] in back, back
