"""Exact odds: docs/rules.md reference figures, brute force on small cases, option odds, CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app
from sabacc.services.odds import (
    count_multisets,
    deck_counts,
    hand_distribution,
    hand_label,
    hand_odds,
    improve_odds,
    multisets,
    option_odds,
    remove_values,
)

runner = CliRunner()


def test_rules_reference_figures() -> None:
    spike = hand_distribution("spike", 2)
    assert spike.p_name("Pure Sabacc") == Fraction(1, 1891)
    assert spike.p_total(0) == Fraction(91, 1891)
    classic2 = hand_distribution("classic", 2)
    assert classic2.p_total(23) == Fraction(64, 2850)
    assert classic2.p_total(0) == Fraction(49, 2850)
    classic3 = hand_distribution("classic", 3)
    assert classic3.p_name("Idiot's Array") == Fraction(32, 70300)


def brute_force(variant: str, k: int, seen: list[str]) -> tuple[Counter[str], Counter[int], int]:
    v = sabacc.variant(variant)
    removed = {c.id for c in v.parse_cards(seen)} if seen else set()
    deck = [c for c in v.deck.cards if c.id not in removed]
    names: Counter[str] = Counter()
    totals: Counter[int] = Counter()
    n = 0
    for combo in itertools.combinations(deck, k):
        hv = v.evaluate(list(combo))
        names[hand_label(v.name, hv)] += 1
        totals[hv.total] += 1
        n += 1
    return names, totals, n


@pytest.mark.parametrize(
    ("variant", "k", "seen"),
    [
        ("corellian_spike", 1, []),
        ("corellian_spike", 2, []),
        ("corellian_spike", 2, ["0", "+3", "-3", "+3"]),
        ("corellian_spike", 3, ["0", "+10", "-10", "+10", "-10", "+5"]),
        ("surabat_cycle", 2, ["-1"]),
        ("classic", 2, ["0", "2", "15"]),
        ("classic", 3, ["-17", "-17", "0", "11", "11", "11", "11", "12"]),
    ],
)
def test_distribution_matches_brute_force(variant: str, k: int, seen: list[str]) -> None:
    v = sabacc.variant(variant)
    seen_values = [c.value for c in v.parse_cards(seen)] if seen else []
    dist = hand_distribution(variant, k, seen_values)
    names, totals, n = brute_force(variant, k, seen)
    assert dist.outcomes == n
    assert dist.names == dict(names)
    assert dist.totals == dict(totals)
    assert sum(dist.names.values()) == n


def test_multisets_weights_add_up() -> None:
    counts = deck_counts("spike")
    for k in (1, 2, 3):
        items = list(multisets(counts, k))
        assert len(items) == count_multisets(counts, k)
        assert sum(w for _, w in items) == __import__("math").comb(62, k)


def brute_option(
    variant: str, hand: list[int], seen: list[int], replace: int | None
) -> Counter[str]:
    """Outcome counts of drawing one unseen card (optionally replacing a hand card)."""
    v = sabacc.variant(variant)
    pool = Counter(v.deck.value_counts)
    for x in [*hand, *seen]:
        pool[x] -= 1
    out: Counter[str] = Counter()
    base = list(hand)
    if replace is not None:
        base.remove(replace)
    current = v.evaluate(
        [str(x) if variant == "classic" else f"{x:+d}" if x else "0" for x in hand]
    )
    for value, copies in pool.items():
        for _ in range(copies):
            new = [*base, value]
            codes = [str(x) if variant == "classic" else f"{x:+d}" if x else "0" for x in new]
            hv = v.evaluate(codes)
            out["better" if hv > current else "same" if hv == current else "worse"] += 1
    return out


@pytest.mark.parametrize(
    ("variant", "hand", "seen"),
    [
        ("corellian_spike", [4, -2], [3, -9, 1]),
        ("corellian_spike", [0, 5, -5], [0]),
        ("classic", [10, 9, 3], [-17]),
    ],
)
def test_option_odds_match_brute_force(variant: str, hand: list[int], seen: list[int]) -> None:
    results = {r.action: r for r in improve_odds(variant, hand, seen)}
    gain = brute_option(variant, hand, seen, None)
    n = sum(gain.values())
    assert results["gain"].better == Fraction(gain["better"], n)
    assert results["gain"].worse == Fraction(gain["worse"], n)
    for v in set(hand):
        if variant == "classic" and len(hand) < 3:
            continue
        swap = brute_option(variant, hand, seen, v)
        r = results[f"swap draw {v:+d}" if v else "swap draw 0"]
        assert r.better == Fraction(swap["better"], n)
        assert r.same == Fraction(swap["same"], n)
    assert results["stand"].same == 1


def test_known_cards_and_surabat_options() -> None:
    spike = {r.action: r for r in improve_odds("spike", [4, -2], discard_top=2)}
    assert spike["swap discard +4"].sabacc == 1  # -2 +2: a Sabacc
    assert spike["swap discard -2"].worse == 1  # +4 +2
    surabat = {r.action: r for r in improve_odds("surabat", [4, -2, 5], sun=[-7, 1, -9])}
    assert surabat["gain -7"].sabacc == 1 and surabat["gain -7"].known
    assert surabat["gain +1"].worse == 1
    capped = {r.action: r for r in improve_odds("surabat", [4, -2, 5, 1, 1], sun=[-9])}
    assert capped["gain -9"].better == 1  # at the cap: gain, then the best discard (-1 left)


def test_option_odds_from_observations() -> None:
    for variant in sabacc.variant_names():
        game = sabacc.new_game(variant, players=3, seed=4)
        for _ in range(60):
            if game.is_over:
                break
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            odds = option_odds(obs)
            words = {a.split(" ")[0] for a in obs["legal"]["actions"]}
            if words & {"stand", "gain", "swap", "discard"}:
                assert odds, (variant, obs["phase"])
                for r in odds:
                    assert r.better + r.same + r.worse == 1
                    assert sum(r.names.values()) == 1
            else:
                assert odds == []
            game.apply(game.legal_actions()[0])


def test_hand_odds() -> None:
    game = sabacc.new_game("spike", players=2, seed=1)
    seat = game.current_player
    assert seat is not None
    h = hand_odds(game.observation(seat))
    assert h is not None and h.win + h.tie + h.lose == 1


def test_errors() -> None:
    from sabacc.core.errors import SabaccError

    with pytest.raises(SabaccError):
        remove_values(deck_counts("spike"), [0, 0, 0])
    with pytest.raises(SabaccError):
        hand_distribution("spike", 9)
    with pytest.raises(SabaccError):
        hand_distribution("spike", 0)


# ---------------------------------------------------------------------------------- CLI


def test_cli_odds_json() -> None:
    result = runner.invoke(app, ["odds", "-v", "spike", "--cards", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["outcomes"] == 1891
    hands = {h["name"]: h for h in data["hands"]}
    assert hands["Pure Sabacc"]["p"] == "1/1891"
    totals = {t["total"]: t for t in data["totals"]}
    assert totals[0]["p"] == "91/1891"
    result = runner.invoke(app, ["odds", "-v", "classic", "-k", "3", "--json"])
    hands = {h["name"]: h for h in json.loads(result.stdout)["hands"]}
    assert Fraction(hands["Idiot's Array"]["p"]) == Fraction(32, 70300)


def test_cli_odds_hand() -> None:
    result = runner.invoke(
        app,
        ["odds", "-v", "spike", "--hand", "+4 -2", "--seen", "-9 +1", "--discard", "+3", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    actions = [o["action"] for o in data["options"]]
    assert "gain" in actions and "swap discard +4" in actions and "swap draw -2" in actions
    gain = next(o for o in data["options"] if o["action"] == "gain")
    assert (
        Fraction(gain["better"]["p"]) + Fraction(gain["same"]["p"]) + Fraction(gain["worse"]["p"])
        == 1
    )
    table = runner.invoke(app, ["odds", "-v", "spike", "--hand", "+4 -2"])
    assert table.exit_code == 0 and "swap draw +4" in table.stdout
    dist = runner.invoke(app, ["odds", "-v", "classic", "--seen", "0 0"])
    assert dist.exit_code == 0 and "Pure Sabacc" in dist.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["-v", "spike", "--hand", "+11"],
        ["-v", "spike", "--hand", "0 0", "--seen", "0"],
        ["-v", "spike", "--cards", "12"],
        ["-v", "nope"],
        ["-v", "spike", "--discard", "+1 +2", "--hand", "+3"],
    ],
)
def test_cli_odds_errors(args: list[str]) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output


def test_play_hints_table() -> None:
    from rich.console import Console

    from sabacc.apps.play import hints_table

    console = Console(width=100, record=True)
    for variant in sabacc.variant_names():
        game = sabacc.new_game(variant, players=2, seed=8)
        for _ in range(12):
            if game.is_over:
                break
            seat = game.current_player
            assert seat is not None
            console.print(hints_table(game.observation(seat)))
            game.apply(game.legal_actions()[0])
    text = console.export_text()
    assert "Odds of your options" in text and "Your hand" in text


def test_cli_play_with_hints() -> None:
    result = runner.invoke(
        app,
        ["play", "--plain", "--hints", "--bots", "heuristic", "-p", "2", "--seed", "3"],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "Odds of your options (exact)" in result.stdout
    assert "sabacc" in result.stdout and "Final standings" in result.stdout


def test_cli_odds_cards_on_named_piles() -> None:
    # The variant's declared piles take cards by name: the same odds as the old flags, Kessel's
    # two face-up discards by their names as by --discard; a wrong name or two cards on a top
    # are refused with the piles listed.
    def odds(*args: str) -> Any:
        result = runner.invoke(app, ["odds", *args, "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    hand = ["--hand", "+4 -2 +5"]
    named = odds("-v", "surabat", *hand, "--pile", "sun=-7 +1 -9", "--pile", "moon=+3")
    assert named == odds("-v", "surabat", *hand, "--sun", "-7 +1 -9", "--moon", "+3")
    actions = [o["action"] for o in named["options"]]
    assert "gain -7" in actions and "swap moon +4" in actions
    assert odds("-v", "spike", "--hand", "+4 -2", "--pile", "discard=+3") == odds(
        "-v", "spike", "--hand", "+4 -2", "--discard", "+3"
    )
    both = ["--pile", "sand discard=4s", "--pile", "blood discard=1b"]
    assert odds("-v", "kessel", "--hand", "3s 5b", *both) == odds(
        "-v", "kessel", "--hand", "3s 5b", "--discard", "4s 1b"
    )
    wrong = runner.invoke(app, ["odds", "-v", "surabat", *hand, "--pile", "draw=+3"])
    assert wrong.exit_code != 0 and "sun, moon, discard" in wrong.output
    two = runner.invoke(app, ["odds", "-v", "surabat", *hand, "--pile", "moon=+3 -4"])
    assert two.exit_code != 0 and "takes one card" in two.output
