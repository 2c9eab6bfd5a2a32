"""Kessel Sabacc shift tokens (RULES.md §4): timing, and each of the sixteen effects."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.variants.kessel.actions import ChipsMoved, DiceChoice, TokenPlayed
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.kessel.tokens import TARGETED, TOKEN_HELP, TOKENS
from tests.support import check_cards, snapshot
from tests.variants.kessel.support import (
    finish_round,
    force_dice,
    give_tokens,
    kessel,
    legal,
    play,
    rig,
    stand_all,
)


def setup(
    hands: tuple[str, str, str] = ("1s 5b", "2s 2b", "3s 4b"), **tokens: list[str]
) -> tuple[KesselGame, int, int, int]:
    """A 3-player round with these hands (in turn order) and tokens (``a=[...]``...)."""
    g = kessel(players=3, seed=1)
    a, b, c = g.order
    rig(g, {a: hands[0], b: hands[1], c: hands[2]}, sand_draw="5s 6s", blood_draw="6b 1b")
    give_tokens(g, {{"a": a, "b": b, "c": c}[k]: v for k, v in tokens.items()})
    return g, a, b, c


def put_in_pot(g: KesselGame, seat: int, amount: int) -> None:
    g.stacks[seat] -= amount
    g.committed[seat] += amount


def winners(g: KesselGame) -> list[int]:
    return [p.winners[0] for p in g.hand_results[-1].pots if p.winners]


def test_sixteen_tokens_each_with_a_one_line_effect() -> None:
    assert len(TOKENS) == len(set(TOKENS)) == 16
    assert all(TOKEN_HELP[t] and "\n" not in TOKEN_HELP[t] for t in TOKENS)
    assert {"target_tariff", "target_audit", "exhaustion", "direct_transaction"} == TARGETED


# ---------------------------------------------------------------------------- timing
class TestTiming:
    def test_once_per_game_and_at_most_one_per_turn(self) -> None:
        g, a, b, c = setup(a=["refund", "extra_refund"])
        assert "token refund" in legal(g) and "token extra_refund" in legal(g)
        play(g, f"{a} token refund")
        assert g.current_player == a and not [x for x in legal(g) if x.startswith("token")]
        assert g.tokens_used[a] == ["refund"] and g.tokens_left[a] == ["extra_refund"]
        play(g, f"{a} draw sand", f"{a} discard", f"{b} stand", f"{c} stand")
        assert legal(g) == ["stand", "draw sand", "draw blood", "draw sand discard",
                            "draw blood discard", "token extra_refund"]  # fmt: skip
        play(g, f"{a} token extra_refund", f"{a} stand", f"{b} stand", f"{c} stand")
        assert g.hand_no == 2 and g.tokens_left[a] == []
        obs = g.observation(b)
        assert obs["tokens_used"][a] == ["refund", "extra_refund"]
        assert obs["tokens_left"][a] == 0

    def test_only_at_the_start_of_the_own_turn(self) -> None:
        g, a, b, _c = setup(a=["markdown"], b=["markdown"])
        play(g, f"{a} draw sand")
        assert legal(g) == ["keep", "discard"]
        with pytest.raises(sabacc.IllegalActionError, match="at the start of your turn"):
            g.apply("token markdown")
        play(g, f"{a} keep")
        assert "token markdown" in legal(g) and g.current_player == b

    def test_a_token_not_held_is_refused_and_nothing_changes(self) -> None:
        g, _a, b, _c = setup(a=["free_draw"])
        before = snapshot(g)
        for bad in ("token embargo", f"token target_tariff {b}", "token free_draw 2"):
            with pytest.raises(sabacc.IllegalActionError):
                g.apply(bad)
        assert snapshot(g) == before

    def test_targets_are_other_players_by_seat(self) -> None:
        g, a, b, c = setup(a=["target_tariff", "exhaustion"])
        tokens = [x for x in legal(g) if x.startswith("token")]
        assert tokens == [f"token target_tariff {b}", f"token target_tariff {c}",
                          f"token exhaustion {b}", f"token exhaustion {c}"]  # fmt: skip
        with pytest.raises(sabacc.IllegalActionError):
            g.apply(f"token target_tariff {a}")

    def test_effects_last_until_the_end_of_the_round(self) -> None:
        g, a, _b, _c = setup(a=["markdown"])
        play(g, f"{a} token markdown")
        assert g.observation(None)["rules"]["markdown"]
        finish_round(g)
        assert not g.observation(None)["rules"]["markdown"]

    def test_played_tokens_are_public_events(self) -> None:
        g, a, b, c = setup(a=["target_tariff"])
        play(g, f"{a} token target_tariff {c}")
        played = [e for e in g.events_for(b) if isinstance(e, TokenPlayed)]
        assert [(e.seat, e.token, e.target) for e in played] == [(a, "target_tariff", c)]


# ---------------------------------------------------------------------------- effects
class TestChipTokens:
    def test_free_draw(self) -> None:
        g, a, _b, _c = setup(a=["free_draw"])
        g.stacks[a] = 0
        g.house = 8
        g._legal = None
        assert legal(g) == ["stand", "token free_draw"]
        play(g, f"{a} token free_draw")
        assert "draw sand" in legal(g) and g.observation(a)["draw_is_free"]
        play(g, f"{a} draw sand", f"{a} keep")
        assert g.stacks[a] == 0 and g.committed[a] == 0
        assert [x.code for x in g.hands[a]] == ["5s", "5b"]

    def test_the_next_draw_costs_again(self) -> None:
        g, a, b, c = setup(a=["free_draw"])
        play(g, f"{a} token free_draw", f"{a} stand", f"{b} draw sand", f"{b} discard")
        play(g, f"{c} stand", f"{a} draw sand", f"{a} discard")
        assert g.committed[a] == 1

    @pytest.mark.parametrize(("token", "pot", "back"), [("refund", 3, 2), ("refund", 1, 1),
                             ("extra_refund", 5, 3), ("extra_refund", 2, 2),
                             ("extra_refund", 0, 0)])  # fmt: skip
    def test_refunds(self, token: str, pot: int, back: int) -> None:
        g, a, _b, _c = setup(a=[token])
        put_in_pot(g, a, pot)
        play(g, f"{a} token {token}")
        assert g.committed[a] == pot - back and g.stacks[a] == 8 - pot + back
        moved = [e for e in g.events if isinstance(e, ChipsMoved)]
        assert [e.amount for e in moved] == ([back] if back else [])

    def test_embezzlement_skips_empty_pots_and_immune_players(self) -> None:
        g = kessel(players=4, seed=1)
        a, b, c, d = g.order
        give_tokens(g, {a: ["embezzlement"]})
        put_in_pot(g, b, 2)
        put_in_pot(g, d, 1)
        put_in_pot(g, a, 1)
        g.immune[d] = True
        play(g, f"{a} token embezzlement")
        assert [g.committed[s] for s in (a, b, c, d)] == [2, 1, 0, 1]
        assert sum(g.stacks) + sum(g.committed) == 32

    def test_general_tariff_capped_at_the_stock(self) -> None:
        g, a, b, c = setup(a=["general_tariff"])
        g.stacks[c] = 0
        g.house = 8
        play(g, f"{a} token general_tariff")
        assert (g.committed[a], g.committed[b], g.committed[c]) == (0, 1, 0)
        assert g.stacks[b] == 7

    @pytest.mark.parametrize(("stock", "paid"), [(8, 2), (1, 1)])
    def test_target_tariff(self, stock: int, paid: int) -> None:
        g, a, b, c = setup(a=["target_tariff"])
        g.house = 8 - stock
        g.stacks[c] = stock
        play(g, f"{a} token target_tariff {c}")
        assert g.committed[c] == paid and g.committed[b] == 0 and g.stacks[c] == stock - paid

    def test_general_audit_hits_only_who_has_stood(self) -> None:
        g, a, b, c = setup(a=["general_audit"])
        play(g, f"{a} draw sand", f"{a} discard", f"{b} stand", f"{c} draw blood", f"{c} keep")
        play(g, f"{a} token general_audit")
        assert (g.committed[b], g.committed[c]) == (2, 1) and g.stacks[b] == 6

    def test_target_audit_only_on_a_player_who_has_stood(self) -> None:
        g, a, b, c = setup(a=["target_audit"])
        assert not [x for x in legal(g) if x.startswith("token")]  # nobody has stood yet
        play(g, f"{a} stand", f"{b} stand", f"{c} draw sand", f"{c} discard")
        assert [x for x in legal(g) if x.startswith("token")] == [f"token target_audit {b}"]
        g.stacks[b] = 2
        g.house = 6
        play(g, f"{a} token target_audit {b}")
        assert g.committed[b] == 2 and g.stacks[b] == 0


class TestRankingTokens:
    def test_major_fraud_makes_impostors_six_without_dice(self) -> None:
        g, a, b, c = setup(("Is 6b", "1s 3b", "Ib 2s"), b=["major_fraud"])
        play(g, f"{a} stand", f"{b} token major_fraud")
        stand_all(g)
        assert g.hand_no == 2 and not [e for e in g.events if isinstance(e, DiceChoice)]
        assert winners(g) == [a]
        assert g.hand_results[-1].hands[a][1].name == "Sabacc 6/6"  # type: ignore[union-attr]
        assert g.stacks[c] == 8 - 4  # 6 against 2: difference 4

    def test_markdown_sylop_is_zero(self) -> None:
        g, a, b, c = setup(("0s 4b", "1s 4b", "2s 6b"), c=["markdown"])
        play(g, f"{a} stand", f"{b} stand", f"{c} token markdown", f"{c} stand")
        assert winners(g) == [b] and g.stacks[a] == 8 - 4

    def test_markdown_keeps_two_sylops_pure(self) -> None:
        g, a, b, c = setup(("0s 0b", "1s 1b", "2s 6b"), c=["markdown"])
        play(g, f"{a} stand", f"{b} stand", f"{c} token markdown", f"{c} stand")
        assert winners(g) == [a]

    def test_without_markdown_the_lone_sylop_pairs(self) -> None:
        g, a, _b, _c = setup(("0s 4b", "1s 4b", "2s 6b"))
        stand_all(g)
        assert winners(g) == [a]

    def test_cook_the_books(self) -> None:
        g, a, b, _c = setup(("6s 6b", "1s 1b", "2s 3b"), a=["cook_the_books"])
        play(g, f"{a} token cook_the_books")
        stand_all(g)
        assert winners(g) == [a] and g.stacks[b] == 7

    def test_cook_the_books_keeps_pure_sabacc_best(self) -> None:
        g, a, b, _c = setup(("6s 6b", "0s 0b", "2s 3b"), a=["cook_the_books"])
        play(g, f"{a} token cook_the_books")
        stand_all(g)
        assert winners(g) == [b]

    def test_prime_sabacc_dice_choice_and_rank(self) -> None:
        g, a, b, _c = setup(("5s 5b", "1s 1b", "2s 3b"), a=["prime_sabacc"])
        force_dice(g, 3, 5)
        play(g, f"{a} token prime_sabacc")
        assert g.phase == "prime" and g.current_player == a
        assert legal(g) == ["prime 3", "prime 5"] and g.observation(b)["dice"] == [3, 5]
        before = snapshot(g)
        with pytest.raises(sabacc.IllegalActionError):
            g.apply("prime 4")
        assert snapshot(g) == before
        play(g, f"{a} prime 5")
        assert g.current_player == a and g.phase == "turn"
        assert not [x for x in legal(g) if x.startswith("token")] and "draw sand" in legal(g)
        assert g.observation(None)["rules"]["prime"] == 5
        stand_all(g)
        assert winners(g) == [a]
        assert g.hand_results[-1].hands[a][1].name == "Prime Sabacc 5/5"  # type: ignore[union-attr]

    def test_the_last_prime_sabacc_counts(self) -> None:
        g, a, b, c = setup(("5s 5b", "1s 1b", "2s 2b"), a=["prime_sabacc"], c=["prime_sabacc"])
        force_dice(g, 5, 5)
        play(g, f"{a} token prime_sabacc", f"{a} prime 5", f"{a} stand", f"{b} stand")
        force_dice(g, 2, 4)
        play(g, f"{c} token prime_sabacc", f"{c} prime 2", f"{c} stand")
        assert winners(g) == [c]

    def test_prime_sabacc_stays_below_pure(self) -> None:
        g, a, b, _c = setup(("5s 5b", "0s 0b", "2s 2b"), a=["prime_sabacc"])
        force_dice(g, 5, 1)
        play(g, f"{a} token prime_sabacc", f"{a} prime 5")
        stand_all(g)
        assert winners(g) == [b]


class TestTableTokens:
    def test_immunity_blocks_other_players_tokens(self) -> None:
        g, a, b, c = setup(
            b=["immunity"],
            c=["target_tariff", "exhaustion", "direct_transaction", "target_audit"],
            a=["general_tariff"],
        )
        play(g, f"{a} stand", f"{b} token immunity", f"{b} stand")
        tokens = [x for x in legal(g) if x.startswith("token")]
        assert tokens == [f"token target_tariff {a}", f"token exhaustion {a}",
                          f"token direct_transaction {a}", f"token target_audit {a}"]  # fmt: skip
        play(g, f"{c} draw sand", f"{c} discard", f"{a} token general_tariff")
        assert g.committed[b] == 0 and g.committed[c] == 2
        assert g.observation(a)["immune"][b]

    def test_immunity_lifts_an_embargo_on_the_same_turn(self) -> None:
        g, a, b, _c = setup(a=["embargo"], b=["immunity"])
        play(g, f"{a} token embargo", f"{a} stand")
        assert legal(g) == ["stand", "token immunity"]
        play(g, f"{b} token immunity")
        assert "draw sand" in legal(g)

    def test_embargo_on_an_immune_player_does_nothing(self) -> None:
        g, a, b, _c = setup(b=["immunity"], a=["embargo"])
        g.immune[b] = True
        play(g, f"{a} token embargo", f"{a} stand")
        assert "draw sand" in legal(g)

    def test_exhaustion(self) -> None:
        g, a, b, _c = setup(a=["exhaustion"])
        play(g, f"{a} token exhaustion {b}")
        assert [x.code for x in g.hands[b]] == ["5s", "6b"]
        assert g.sand_discard[-1].code == "2s" and g.blood_discard[-1].code == "2b"
        assert g.observation(a)["seats"][b]["known_cards"] == []
        assert g.observation(b)["you"]["cards"] == ["5s", "6b"]
        dealt = [e for e in g.events_for(a) if e.type == "dealt"][-1]
        assert dealt.cards is None and g.current_player == a  # type: ignore[attr-defined]
        check_cards(g)

    def test_direct_transaction_swaps_hands_and_both_know(self) -> None:
        g, a, b, c = setup(("1s 6b", "3s 3b", "2s 4b"), a=["direct_transaction"])
        play(g, f"{a} token direct_transaction {b}")
        assert [x.code for x in g.hands[a]] == ["3s", "3b"]
        assert [x.code for x in g.hands[b]] == ["1s", "6b"]
        assert g.observation(a)["seats"][b]["known_cards"] == ["1s", "6b"]
        assert g.observation(b)["seats"][a]["known_cards"] == ["3s", "3b"]
        assert g.observation(c)["seats"][a]["known_cards"] == []
        # b draws and keeps a Sand card: a no longer knows it (it left face up).
        play(g, f"{a} stand", f"{b} draw sand", f"{b} keep")
        assert g.observation(a)["seats"][b]["known_cards"] == ["6b"]
        stand_all(g)
        assert winners(g) == [a]

    def test_embargo(self) -> None:
        g, a, b, c = setup(a=["embargo"])
        play(g, f"{a} token embargo")
        assert g.observation(c)["embargoed"][b]
        play(g, f"{a} draw sand", f"{a} discard")
        assert legal(g) == ["stand"]
        with pytest.raises(sabacc.IllegalActionError, match="can: stand"):
            g.apply("draw sand")
        play(g, f"{b} stand", f"{c} draw blood", f"{c} discard")
        assert g.current_player == a
        play(g, f"{a} stand")
        assert "draw sand" in legal(g)

    def test_embargo_with_no_next_turn_this_round_lapses(self) -> None:
        g = kessel(players=2, seed=1, turns=1)
        a, b = g.order
        give_tokens(g, {b: ["embargo"]})
        play(g, f"{a} draw sand", f"{a} discard", f"{b} token embargo", f"{b} stand")
        assert g.hand_no == 2 and not any(g.embargoed)
        assert "draw sand" in legal(g)


@pytest.mark.parametrize(
    ("setup_moves", "action", "reason"),
    [
        ([], "token embargo", "you do not hold embargo"),
        (["{a} token refund"], "token extra_refund", "one per turn"),
        (["{a} token refund", "{a} stand", "{b} stand", "{c} stand"], "token refund", "once per"),
        ([], "token target_tariff", "needs a target seat"),
        ([], "token refund 1", "refund takes no target"),
        ([], "token target_tariff {a}", "not another player"),
        ([], "token target_tariff 7", "not another player"),
        ([], "token target_audit {b}", "has not stood this round"),
        (["{a} draw sand"], "token refund", "at the start of your turn"),
    ],
)
def test_refused_tokens_say_why(setup_moves: list[str], action: str, reason: str) -> None:
    g, a, b, c = setup(a=["refund", "extra_refund", "target_tariff", "target_audit"])
    seats = {"a": a, "b": b, "c": c}
    play(g, *(m.format(**seats) for m in setup_moves))
    if g.current_player != a:  # a new round: a's turn comes again
        while g.current_player != a:
            g.apply("stand")
    before = snapshot(g)
    with pytest.raises(sabacc.IllegalActionError, match=reason):
        g.apply(action.format(**seats))
    assert snapshot(g) == before


def test_refused_draws_say_why() -> None:
    g, a, b, _c = setup(a=["embargo"])
    play(g, f"{a} token embargo", f"{a} stand")
    with pytest.raises(sabacc.IllegalActionError, match="an Embargo is on you"):
        g.apply("draw sand")
    play(g, f"{b} stand")
    g.stacks[g.order[2]] = 0
    with pytest.raises(sabacc.IllegalActionError, match="no chips left"):
        g.apply("draw blood")
