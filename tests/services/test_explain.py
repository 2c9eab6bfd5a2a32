"""The showdown explanation: what decided each pot, penalties, carries, nets (EN and JA)."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.core import events as ev
from sabacc.engine.game import Game
from sabacc.services.bots import decide, make_bot
from sabacc.services.explain import deciding_tiebreak, explain_hand
from sabacc.services.render import vocabulary


def _play(variant: str, seed: int, game_end: str = "hands:1") -> Game:
    game = sabacc.new_game(variant, players=3, seed=seed, game_end=game_end)
    assert isinstance(game, Game)
    bots = [make_bot("heuristic", s) for s in range(3)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game), seat=seat)
    return game


def test_the_deciding_tiebreak_comes_from_the_variant() -> None:
    spike = sabacc.variant("spike")
    info = spike.info
    assert deciding_tiebreak(info, spike.evaluate("+2 +2 -4 0"), spike.evaluate("+4 -4 0")) == (
        "lower_pattern"
    )
    assert deciding_tiebreak(info, spike.evaluate("+1 +2"), spike.evaluate("-1 -2")) == ("positive")
    assert deciding_tiebreak(info, spike.evaluate("+5 -5"), spike.evaluate("+3 +4")) == "rank"
    assert deciding_tiebreak(info, spike.evaluate("+5 -5"), spike.evaluate("-5 +5")) is None
    classic = sabacc.variant("classic")
    assert deciding_tiebreak(classic.info, classic.evaluate("11c 9s"), classic.evaluate("7f 8f"))
    assert (
        deciding_tiebreak(classic.info, classic.evaluate("11c 9s"), classic.evaluate("7f 8f"))
        == "higher_total"
    )


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_every_pot_winner_is_explained_with_each_players_net(variant: str) -> None:
    game = _play(variant, 3, "hands:3")
    events = game.events_for(0)
    for result in game.hand_results:
        lines = explain_hand(game.info, result, game.names, events, viewer=0)
        assert len(lines) >= len(result.pots) + 1
        assert lines[-1].startswith("Net this hand: ")
        for seat in result.hands:
            who = "you" if seat == 0 else game.names[seat]
            assert f"{who} {result.net[seat]:+d}" in lines[-1]
        ja = explain_hand(game.info, result, game.names, events, viewer=0, lang="ja")
        assert len(ja) == len(lines) and ja[-1].startswith("このハンドの収支")


def test_a_called_hand_not_won_shows_the_callers_penalty() -> None:
    game = _play("classic", 19)
    paid = [e for e in game.events if isinstance(e, ev.Paid) and e.reason == "caller did not win"]
    assert paid
    caller = paid[0].seat
    lines = explain_hand(game.info, game.hand_results[0], game.names, game.events_for(caller),
                         viewer=caller)  # fmt: skip
    assert any(f"You pay {paid[0].amount} to the sabacc pot" in line for line in lines)


def test_a_bomb_out_is_spelled_out() -> None:
    game = _play("classic", 11)
    paid = [e for e in game.events if isinstance(e, ev.Paid) and e.reason == "bomb out"]
    assert paid
    lines = explain_hand(game.info, game.hand_results[0], game.names, game.events)
    assert any("bombed out and pays" in line for line in lines)


@pytest.mark.parametrize("variant", ["spike", "classic"])
def test_the_last_hand_settles_instead_of_carrying(variant: str) -> None:
    game = _play(variant, 5, "hands:2")
    last = game.hand_results[-1]
    lines = explain_hand(game.info, last, game.names, game.events_for(0), viewer=0)
    assert not any("carries over" in line for line in lines)
    if any(isinstance(e, ev.PotAwarded) and e.pot == "final" for e in game.events):
        assert any("final hand" in line for line in lines)
        assert any("is split" in line for line in lines)


def test_kessel_losers_pots_penalties_and_eliminations_are_spelled_out() -> None:
    """No betting pots: each best hand takes its own pot back (explained against the best
    loser), each loser's pot and penalty is a line, and a player left with no chips is out."""
    from sabacc.variants.kessel.actions import ChipsLost

    game = _play("kessel", 3, "last_standing")
    events = game.events_for(0)
    seen_out = False
    for result in game.hand_results:
        lines = explain_hand(game.info, result, game.names, events, viewer=0)
        lost = [e for e in _hand_events(events, result.hand) if isinstance(e, ChipsLost)]
        for e in lost:
            who = "You lose your" if e.seat == 0 else f"{game.names[e.seat]} loses their"
            assert f"{who} round pot ({e.pot}) + penalty {e.penalty}" in lines
        for pot in result.pots:
            for seat in pot.winners:
                who = "You win" if seat == 0 else f"{game.names[seat]} wins"
                assert any(f"{who} the round pot ({pot.amount})" in line for line in lines)
        assert not any("(+0)" in line or "(+1)" in line for line in lines[:-1])  # no totals
        seen_out = seen_out or any("no chips left" in line for line in lines)
    assert seen_out, "a last-standing game eliminates someone"


def test_kessel_and_coruscant_tiebreaks_are_their_own_words() -> None:
    kessel = sabacc.variant("kessel")
    info = kessel.info
    assert deciding_tiebreak(info, kessel.evaluate("1s 1b"), kessel.evaluate("3s 3b")) == (
        "pair_or_difference"
    )
    assert deciding_tiebreak(info, kessel.evaluate("3s 3b"), kessel.evaluate("2s 3b")) == "rank"
    assert deciding_tiebreak(info, kessel.evaluate("2s 3b"), kessel.evaluate("4s 3b")) == (
        "lower_card"
    )
    coruscant = sabacc.variant("coruscant_shift", target=5, target_suit="circle")
    c = coruscant.info
    on, off = coruscant.evaluate("+2c +3c"), coruscant.evaluate("+2c +4c")
    assert deciding_tiebreak(c, on, off) == "rank"  # On Target over Off Target
    near, far = coruscant.evaluate("+2c +4c"), coruscant.evaluate("+9c")
    assert deciding_tiebreak(c, near, far) == "closer_to_target"
    suited, plain = coruscant.evaluate("+2c +3c"), coruscant.evaluate("+2s +3s")
    assert deciding_tiebreak(c, suited, plain) == "more_of_suit"
    for v in (info, c):
        for lang in ("en", "ja"):
            vocab = vocabulary(v, lang)
            for name in v.tiebreaks:
                assert vocab.has_own(f"tiebreak.{name}"), (v.name, lang, name)


def _hand_events(events: list[ev.Event], hand: int) -> list[ev.Event]:
    out: list[ev.Event] = []
    current = 0
    for e in events:
        if isinstance(e, ev.HandStarted):
            current = e.hand
        elif current == hand:
            out.append(e)
    return out


@pytest.mark.parametrize(
    ("lang", "plain", "cooked"),
    [
        ("en", "the lower pair wins", "Cook the Books was played: the higher pair wins"),
        ("ja", "低いペアが勝ち", "粉飾決算が出たので高いペアが勝ち"),
    ],
)
def test_a_kessel_pair_is_explained_by_the_token_that_reversed_the_order(
    lang: str, plain: str, cooked: str
) -> None:
    """N4: "6/6 beats 4/4: the better pair wins" read as a mistake (a lower pair is better);
    with Cook the Books played the reason names the token, without it says the lower pair."""
    from sabacc.engine.game import HandResult, PotResult
    from sabacc.variants.kessel.actions import TokenPlayed
    from sabacc.variants.kessel.hands import Rules, hand_value, kessel_deck

    info = sabacc.variant("kessel").info
    deck = kessel_deck()

    def explained(winner: str, loser: str, rules: Rules, events: list[ev.Event]) -> list[str]:
        win, lose = deck.parse_cards(winner.split()), deck.parse_cards(loser.split())
        result = HandResult(
            hand=1,
            dealer=0,
            reason="showdown",
            pots=(PotResult("pot 0", 4, (0,), (4,), "best hand"),),
            hands={
                0: (tuple(winner.split()), hand_value(win, rules)),
                1: (tuple(loser.split()), hand_value(lose, rules)),
            },
            carried={},
            net=(0, -2),
        )
        started = ev.HandStarted(hand=1, dealer=0, seats=(0, 1))
        ended = ev.HandEnded(hand=1, reason="showdown", net=(0, -2))
        return explain_hand(info, result, ["Han", "Lando"], [started, *events, ended], lang=lang)

    cooked_lines = explained(
        "6s 6b", "4s 4b", Rules(cook_the_books=True), [TokenPlayed(1, "cook_the_books", None)]
    )
    assert cooked in cooked_lines[0], cooked_lines
    plain_lines = explained("2s 2b", "4s 4b", Rules(), [])
    assert plain in plain_lines[0] and cooked not in plain_lines[0], plain_lines
