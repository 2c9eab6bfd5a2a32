"""The base Game protocol (engine/game.py) through Corellian Spike and the public API.

Covers: new_game / variant, the decision protocol, illegal actions, observations and event
visibility, clone, game end modes, eliminations and leftover pots.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import sabacc
from sabacc.core import events as ev
from sabacc.engine.game import Game
from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeOptions
from tests.support import (
    arrange,
    check_cards,
    check_credits,
    check_private,
    choose,
    choose_small,
    do,
    passive,
    playout,
    set_stacks,
    snapshot,
    to_phase,
)


def spike(players: int = 3, seed: int = 11, **options: Any) -> SpikeGame:
    game = sabacc.new_game("spike", players=players, seed=seed, **options)
    assert isinstance(game, SpikeGame)
    return game


# ---------------------------------------------------------------------------- API
class TestApi:
    @pytest.mark.parametrize(
        "name", ["corellian_spike", "spike", "corellian-spike", "Corellian Spike", " SPIKE "]
    )
    def test_names_and_aliases(self, name: str) -> None:
        g = sabacc.new_game(name, players=4, seed=7)
        assert g.variant == "corellian_spike"
        assert g.num_players == 4 and g.seed == 7
        assert isinstance(g, sabacc.Game)

    def test_default_variant_and_players(self) -> None:
        g = sabacc.new_game(seed=1)
        assert g.variant == "corellian_spike" and g.num_players == 4

    def test_options_as_keywords(self) -> None:
        g = spike(players=4, seed=7, rounds=2, gain_fee=1, betting="fixed")
        assert (g.options.rounds, g.options.gain_fee, g.options.betting) == (2, 1, "fixed")

    def test_text_option_values_are_converted(self) -> None:
        g = spike(players=2, seed=1, rounds="2", min_bet="none")
        assert g.options.rounds == 2 and g.options.min_bet is None

    def test_same_seed_same_game(self) -> None:
        a = sabacc.new_game("spike", players=4, seed=7)
        b = sabacc.new_game("spike", players=4, seed=7)
        assert a.full_state() == b.full_state()
        c = sabacc.new_game("spike", players=4, seed=8)
        assert a.full_state()["hands"] != c.full_state()["hands"]

    def test_no_seed_picks_one_and_records_it(self) -> None:
        g = sabacc.new_game("spike", players=2)
        assert isinstance(g.seed, int)
        assert sabacc.new_game("spike", players=2, seed=g.seed).full_state() == g.full_state()

    def test_variant_object(self) -> None:
        v = sabacc.variant("spike")
        assert v.name == "corellian_spike" and v.title == "Corellian Spike"
        assert len(v.deck) == 62
        assert isinstance(v.options, SpikeOptions)
        assert v.options.rounds == 3 and v.options.true_tie == "blind_draw"
        assert [c.code for c in v.parse_cards("+4 -4 0")] == ["+4c", "-4c", "0"]
        assert v.evaluate("+4 -4 0").name == "Yee-Haa"
        assert v.evaluate(["+4", "-4", "0"]).rank == 4
        assert v.evaluate(v.parse_cards("0 0")).name == "Pure Sabacc"
        assert v.evaluate("+4 -4 0") > v.evaluate("+2 -2")
        assert "Spike" in v.rules_text or "spike" in v.rules_text.lower()
        g = sabacc.variant("spike", rounds=1).new_game(players=2, seed=3)
        assert isinstance(g.options, SpikeOptions) and g.options.rounds == 1

    def test_variant_evaluate_needs_cards(self) -> None:
        with pytest.raises(sabacc.CardParseError):
            sabacc.variant("spike").evaluate("")

    def test_variant_names(self) -> None:
        assert "corellian_spike" in sabacc.variant_names()

    @pytest.mark.parametrize("name", ["pazaak", "", "spikes", "sabacc_royale"])
    def test_unknown_variant(self, name: str) -> None:
        with pytest.raises(sabacc.UnknownVariantError, match="unknown variant"):
            sabacc.new_game(name, players=2)
        with pytest.raises(sabacc.UnknownVariantError):
            sabacc.variant(name)
        assert issubclass(sabacc.UnknownVariantError, ValueError)

    def test_unknown_option(self) -> None:
        with pytest.raises(sabacc.OptionError, match="unknown option 'nope'"):
            sabacc.new_game("spike", players=2, nope=1)
        with pytest.raises(sabacc.OptionError):
            sabacc.variant("spike", fold_fee=1)  # a classic option, not a Spike one

    @pytest.mark.parametrize(
        "options",
        [
            {"rounds": 0},
            {"rounds": "three"},
            {"rounds": True},
            {"rounds": 2.5},
            {"ante": -1},
            {"sabacc_ante": -1},
            {"buy_in": 0},
            {"betting": "limit"},
            {"min_bet": 0},
            {"max_raises": -1},
            {"gain_fee": -1},
            {"swap_fee": "x"},
            {"hand_cap": 1},
            {"hand_cap": 9},
            {"true_tie": "coin"},
            {"game_end": "never"},
            {"game_end": "hands:0"},
            {"game_end": "hands:x"},
            {"game_end": 3},
            {"max_hands": 0},
            {"final_pot": "burn"},
            {"ante": 0, "sabacc_ante": 0, "game_end": "last_standing"},
        ],
    )
    def test_bad_option_values(self, options: dict[str, Any]) -> None:
        with pytest.raises(sabacc.OptionError):
            sabacc.new_game("spike", players=2, seed=1, **options)
        assert issubclass(sabacc.OptionError, ValueError)


# ---------------------------------------------------------------------------- protocol
class TestProtocol:
    def test_first_decision(self) -> None:
        g = sabacc.new_game("spike", players=2, seed=7)
        assert g.current_player == 1  # left of the dealer (seat 0)
        assert not g.is_over and g.outcome is None
        actions = g.legal_actions()
        assert sabacc.Stand() in actions and sabacc.Gain() in actions
        assert all(g.is_legal(a) for a in actions)
        assert all(g.is_legal(str(a)) for a in actions)
        assert not g.is_legal("check") and not g.is_legal("nonsense")

    def test_apply_returns_and_appends_events(self) -> None:
        g = spike()
        n = len(g.events)
        out = g.apply("gain")
        assert out and g.events[n:] == out
        assert isinstance(out[0], ev.Acted) and out[0].seat == 1
        out2 = g.apply(sabacc.Stand(), seat=2)
        assert g.events[-len(out2) :] == out2
        assert g.actions == [(1, "gain"), (2, "stand")]

    def test_apply_accepts_text_in_any_case_and_spacing(self) -> None:
        g = spike()
        g.apply("  GAIN ")
        g.apply("Pass")  # alias of stand
        assert g.actions == [(1, "gain"), (2, "stand")]

    def test_legal_actions_list_every_bet_size(self) -> None:
        g = spike()
        to_phase(g, "betting")
        acts = g.legal_actions()
        assert [str(a) for a in acts[:2]] == ["check", "junk"]
        assert acts[2:] == [sabacc.Bet(i) for i in range(1, 99)]

    def test_game_runs_to_the_end(self) -> None:
        g = spike(players=4, seed=3)
        n = playout(g, random.Random(1), check=check_credits)
        assert n > 0 and g.is_over
        assert g.current_player is None
        assert g.legal_actions() == [] and not g.is_legal("stand")
        assert g.phase == "over"
        assert isinstance(g.events[-1], ev.GameEnded)

    def test_payoffs_and_outcome(self) -> None:
        g = spike(players=4, seed=3)
        playout(g, random.Random(2))
        assert sum(g.payoffs) == 0  # final_pot=split
        assert g.payoffs == [s - 100 for s in g.stacks]
        out = g.outcome
        assert out is not None
        assert list(out.stacks) == g.stacks and list(out.payoffs) == g.payoffs
        assert sorted(out.standings) == [0, 1, 2, 3]
        assert [out.stacks[s] for s in out.standings] == sorted(g.stacks, reverse=True)
        best = max(g.stacks)
        assert out.winners == tuple(s for s in out.standings if g.stacks[s] == best)
        assert out.hands_played == g.hand_no == len(g.hand_results)
        d = out.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert g.events[-1] == ev.GameEnded(tuple(g.stacks), tuple(g.payoffs))

    def test_hand_results(self) -> None:
        g = spike(players=3, seed=3)
        passive(g)
        r = g.hand_results[0]
        assert r.hand == 1 and r.dealer == 0 and r.reason == "showdown"
        assert sum(r.net) + (g.sabacc_pot - 3) == 0
        d = r.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert set(d["hands"]) == {"0", "1", "2"}


# ---------------------------------------------------------------------------- illegal
class TestIllegal:
    def assert_refused(self, g: Game, action: object, match: str | None = None, **kw: int) -> None:
        before = snapshot(g)
        with pytest.raises(sabacc.IllegalActionError, match=match):
            g.apply(action, **kw)  # type: ignore[arg-type]
        assert snapshot(g) == before

    def test_wrong_phase(self) -> None:
        g = spike()
        self.assert_refused(g, "check", "not allowed now \\(card phase\\)")
        self.assert_refused(g, "bet 3", "card phase")
        self.assert_refused(g, "junk")
        to_phase(g, "betting")
        self.assert_refused(g, "stand", "betting phase")
        self.assert_refused(g, "gain")

    def test_message_lists_what_is_allowed(self) -> None:
        g = spike()
        to_phase(g, "betting")
        with pytest.raises(sabacc.IllegalActionError) as info:
            g.apply("call")
        msg = str(info.value)
        assert "Player 2 can: check, junk, bet 1-98" in msg

    def test_bet_out_of_range(self) -> None:
        g = spike()
        to_phase(g, "betting")
        self.assert_refused(g, "bet 0", "out of range")
        self.assert_refused(g, "bet 99", "out of range")
        self.assert_refused(g, "bet -3")
        g.apply("bet 5")
        self.assert_refused(g, "raise 0", "out of range")
        self.assert_refused(g, "raise 94", "out of range")
        self.assert_refused(g, "bet 5")

    def test_out_of_turn(self) -> None:
        g = spike()
        self.assert_refused(g, "stand", "not Player 3's turn: Player 2 is to act", seat=2)
        self.assert_refused(g, "stand", "turn", seat=0)
        self.assert_refused(g, "stand", "turn", seat=17)
        g.apply("stand", seat=1)
        assert g.current_player == 2

    def test_out_of_turn_with_a_seat_that_is_not_a_number(self) -> None:
        g = spike()
        self.assert_refused(g, "stand", "turn", seat="2")  # type: ignore[arg-type]

    def test_swap_of_a_card_not_held(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c"})
        self.assert_refused(g, "swap draw +3")
        self.assert_refused(g, "swap discard -1")

    def test_malformed_actions(self) -> None:
        g = spike()
        for text in [
            "",
            "fly",
            "bet",
            "bet five",
            "raise 1 2",
            "swap +4",
            "swap hand +4",
            "swap draw four",
            "gain gain",
            "stand now",
        ]:
            self.assert_refused(g, text)
        self.assert_refused(g, 42)
        self.assert_refused(g, None)

    def test_after_game_over(self) -> None:
        g = spike(players=2, game_end="hands:1")
        passive(g)
        assert g.is_over
        self.assert_refused(g, "stand", "game is over")
        self.assert_refused(g, "check", "game is over")

    def test_is_legal_never_raises(self) -> None:
        g = spike()
        for text in ["", "bet", "swap draw", "42", "bet 1", "stand", "gain"]:
            assert isinstance(g.is_legal(text), bool)

    def test_illegal_during_random_play_leaves_state_unchanged(self) -> None:
        g = spike(players=4, seed=5)
        rng = random.Random(5)
        probes = [
            "check",
            "stand",
            "call",
            "bet 1",
            "bet 1000",
            "raise 1",
            "gain",
            "swap draw +10",
            "swap discard -10",
            "junk",
            "call hand",
            "discard +1",
        ]
        while not g.is_over:
            for p in probes:
                if not g.is_legal(p):
                    self.assert_refused(g, p)
            wrong = (g.current_player + 1) % g.n  # type: ignore[operator]
            self.assert_refused(g, g.legal_actions()[0], seat=wrong)
            g.apply(choose(rng, g))


# ---------------------------------------------------------------------------- observation
class TestObservation:
    def test_json_serialisable_for_every_viewer(self) -> None:
        g = spike(players=4, seed=8)
        rng = random.Random(8)
        while not g.is_over:
            for viewer in [*range(g.n), None]:
                obs = g.observation(viewer)
                assert json.loads(json.dumps(obs)) == obs
            g.apply(choose(rng, g))
        obs = g.observation(0)
        assert obs["is_over"] and obs["outcome"]["payoffs"] == g.payoffs

    def test_own_cards_only(self) -> None:
        g = spike(players=3)
        arrange(g, hands={0: "+1c +2c", 1: "+3c +4c", 2: "+5c +6c"}, discard="-9t")
        mine = {0: ["+1c", "+2c"], 1: ["+3c", "+4c"], 2: ["+5c", "+6c"]}
        for seat in range(3):
            obs = g.observation(seat)
            assert obs["you"]["cards"] == mine[seat]
            assert obs["you"]["total"] == sum(int(c[:-1]) for c in mine[seat])
            text = json.dumps(obs)
            for other in range(3):
                if other != seat:
                    for code in mine[other]:
                        assert code not in text
            assert [s["cards"] for s in obs["seats"]] == [2, 2, 2]
        spectator = json.dumps(g.observation(None))
        assert "you" not in g.observation(None)
        for codes in mine.values():
            for code in codes:
                assert code not in spectator
        assert g.observation(None)["discard_top"] == "-9t"

    @pytest.mark.parametrize("variant", ["spike", "classic", "surabat", "kessel"])
    def test_no_such_seat_is_refused_not_read(self, variant: str) -> None:
        # -1 once read as the last seat's hand (a leak through a bad argument).
        g = sabacc.new_game(variant, players=3, seed=2)
        for bad in (-1, 3, 99, True, "0", 1.0):
            with pytest.raises(IndexError):
                g.observation(bad)  # type: ignore[arg-type]
        seat: Any = np.int64(2)  # NumPy integers are accepted as seats
        assert g.observation(seat)["you"] == g.observation(2)["you"]

    def test_legal_shown_only_to_the_player_to_act(self) -> None:
        g = spike()
        assert g.observation(1)["legal"]["actions"][0] == "stand"
        assert g.observation(2)["legal"] == {"actions": [], "bet": None, "raise": None}
        assert g.observation(None)["legal"]["actions"] == []

    def test_events_for_hides_other_seats_cards(self) -> None:
        g = spike()
        arrange(g, hands={1: "+3c +4c"}, draw="+7c +8c")
        g.apply("gain")
        g.apply("swap draw " + sabacc.core.cards.signed(g.hands[2][0].value))
        dealt = [e for e in g.events if isinstance(e, ev.Dealt)]
        for e in g.events_for(0):
            if isinstance(e, ev.Dealt):
                assert (e.cards is not None) == (e.seat == 0)
            if isinstance(e, ev.CardTaken):
                assert e.card is None
            if isinstance(e, ev.Acted):
                assert e.public in ("gain",) or e.public.startswith("swap")
        own = [e for e in g.events_for(1) if isinstance(e, ev.CardTaken)]
        assert own[0].card == "+7c"
        assert all(e.cards is None for e in g.events_for(None) if isinstance(e, ev.Dealt))
        assert len(g.events_for(0)) == len(g.events)
        assert g.events_for(0, since=len(g.events) - 2) == [e.visible_to(0) for e in g.events[-2:]]
        assert dealt  # the original events keep the cards
        assert all(e.cards is not None for e in dealt)

    def test_no_leaks_during_random_games(self) -> None:
        for players, seed in ((2, 1), (5, 2), (8, 3)):
            g = spike(players=players, seed=seed)
            rng = random.Random(seed)
            while not g.is_over:
                check_private(g)
                g.apply(choose_small(rng, g))
            assert g.hand_no >= 2

    def test_status(self) -> None:
        g = spike()
        to_phase(g, "betting")
        set_stacks(g, [98, 98, 5])
        do(g, "1 bet 10", "2 call")  # seat 2 all-in for less
        statuses = [s["status"] for s in g.observation(None)["seats"]]
        assert statuses == ["active", "active", "all_in"]
        do(g, "0 junk")
        statuses = [s["status"] for s in g.observation(None)["seats"]]
        assert statuses == ["junked", "active", "all_in"]

    def test_full_state_has_every_card(self) -> None:
        g = spike()
        fs = g.full_state()
        n = sum(len(h) for h in fs["hands"]) + len(fs["draw"]) + len(fs["muck"])
        assert n + len(fs["observation"]["discard_pile"]) == 62


# ---------------------------------------------------------------------------- clone
class TestClone:
    def test_clone_plays_on_identically(self) -> None:
        for seed in range(4):
            g = spike(players=4, seed=seed)
            rng = random.Random(seed)
            for _ in range(30):
                g.apply(choose_small(rng, g))
            c = g.clone()
            assert snapshot(c) == snapshot(g)
            r1, r2 = random.Random(99), random.Random(99)
            while not g.is_over:
                a, b = choose_small(r1, g), choose_small(r2, c)
                assert a == b
                assert g.apply(a) == c.apply(b)
                assert snapshot(c) == snapshot(g)
            assert c.is_over and c.payoffs == g.payoffs

    def test_clone_without_logs(self) -> None:
        g = spike(players=3, seed=4)
        c = g.clone(log=False)
        assert c.events == [] and c.actions == []
        rng1, rng2 = random.Random(1), random.Random(1)
        while not g.is_over:
            g.apply(choose(rng1, g))
            c.apply(choose(rng2, c))
            assert c.stacks == g.stacks and c.full_state()["hands"] == g.full_state()["hands"]
        assert c.events == []

    def test_mutating_the_clone_leaves_the_original_stacks_and_cards(self) -> None:
        g = spike(players=4, seed=6)
        before = (g.stacks[:], g.full_state()["hands"], g.sabacc_pot, len(g.events))
        c = g.clone()
        playout(c, random.Random(3))
        assert (g.stacks, g.full_state()["hands"], g.sabacc_pot, len(g.events)) == before
        assert not g.is_over and g.current_player == 1
        c.rng.random()
        assert g.rng.getstate() != c.rng.getstate()

    def test_clone_does_not_share_public_knowledge(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c"}, discard="+9t")
        g.apply("swap discard +1")  # seat 1 now holds the publicly known +9t
        before = snapshot(g)
        c = g.clone()
        do(c, "2 stand", "0 stand", "1 junk")  # the clone's seat 1 junks: its hand is mucked
        assert g.observation(0)["seats"][1]["known_cards"] == ["+9t"]
        assert snapshot(g) == before

    def test_clone_is_independent_during_random_play(self) -> None:
        for seed in range(6):
            g = spike(players=4, seed=seed)
            rng = random.Random(seed)
            while not g.is_over:
                before = snapshot(g)
                c = g.clone()
                for _ in range(12):
                    if c.is_over:
                        break
                    c.apply(choose_small(rng, c))
                assert snapshot(g) == before
                g.apply(choose_small(rng, g))


# ---------------------------------------------------------------------------- game end
def play_passively(g: Game) -> None:
    while not g.is_over:
        passive(g)


class TestGameEnd:
    @pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
    def test_orbit_plays_one_hand_per_player(self, players: int) -> None:
        g = spike(players=players, seed=players)
        assert g.options.game_end == "orbit"
        play_passively(g)
        starts = [e for e in g.events if isinstance(e, ev.HandStarted)]
        assert [e.dealer for e in starts] == list(range(players))
        assert g.outcome is not None and g.outcome.hands_played == players

    @pytest.mark.parametrize("n", [1, 2, 7])
    def test_hands_n(self, n: int) -> None:
        g = spike(players=3, game_end=f"hands:{n}")
        play_passively(g)
        assert g.hand_no == n
        assert len(g.hand_results) == n

    def test_max_hands_caps_the_orbit(self) -> None:
        g = spike(players=5, max_hands=2)
        play_passively(g)
        assert g.hand_no == 2

    def test_last_standing(self) -> None:
        g = spike(players=3, seed=4, game_end="last_standing", buy_in=8)
        rng = random.Random(4)
        while not g.is_over:
            g.apply(choose_small(rng, g))
            check_credits(g)
        alive = [s for s in range(3) if not g.out[s]]
        assert len(alive) <= 1
        assert g.hand_no > 3  # more than an orbit
        eliminated = [e.seat for e in g.events if isinstance(e, ev.Eliminated)]
        assert sorted(eliminated) == sorted(set(range(3)) - set(alive))
        assert sum(g.payoffs) == 0

    def test_last_standing_goes_past_an_orbit(self) -> None:
        g = spike(players=2, seed=1, game_end="last_standing", buy_in=40)
        play_passively(g)
        assert g.hand_no > 2
        assert sum(not o for o in g.out) == 1
        winner = next(s for s in range(2) if not g.out[s])
        assert g.outcome is not None and g.outcome.standings[0] == winner

    def test_eliminated_player_who_cannot_ante(self) -> None:
        g = spike(players=3)
        total = set_stacks(g, [98, 98, 1])
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        passive(g)
        assert g.hand_no == 2
        assert g.out == [False, False, True]
        elim = [e for e in g.events if isinstance(e, ev.Eliminated)]
        assert elim == [ev.Eliminated(2, 1)]
        assert g.events[g.events.index(elim[0]) + 1] == ev.HandStarted(2, 1, (0, 1))
        assert g.hands[2] == [] and g.stacks[2] == 1 and g.committed[2] == 0
        assert g.observation(0)["seats"][2]["status"] == "out"
        seen = set()
        while not g.is_over:
            seen.add(g.current_player)
            passive(g)
        assert 2 not in seen
        # The dealer token skips seat 2: dealers 0, 1, then back to 0 ends the orbit.
        assert g.hand_no == 2
        assert g.total_credits() == total

    def test_eliminated_when_exactly_short_of_both_antes(self) -> None:
        g = spike(players=3, ante=2, sabacc_ante=2)
        set_stacks(g, [196, 196, 3])
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        passive(g)
        assert g.out == [False, False, True]

    def test_stack_exactly_the_antes_is_dealt_in(self) -> None:
        g = spike(players=3)
        set_stacks(g, [98, 98, 2])
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        passive(g)
        assert g.out == [False, False, False]
        assert g.stacks[2] == 0 and g.in_hand[2]

    def test_game_ends_when_one_player_is_left(self) -> None:
        g = spike(players=2, game_end="hands:10")
        set_stacks(g, [98, 1])
        to_phase(g, "betting")
        do(g, "1 junk")
        assert g.is_over and g.hand_no == 1
        assert g.out == [False, True]

    def test_final_pot_split(self) -> None:
        g = spike(players=3, game_end="hands:1")
        arrange(g, hands={1: "+9c +8c", 2: "+1c +2c", 0: "+5c +1s"})
        play_passively(g)
        awarded = [e for e in g.events if isinstance(e, ev.PotAwarded) and e.pot == "final"]
        assert len(awarded) == 1 and awarded[0].amount == 3 and awarded[0].shares == (1, 1, 1)
        assert sum(g.payoffs) == 0
        assert g.sabacc_pot == 0 and g.house == 0

    def test_final_pot_house(self) -> None:
        g = spike(players=3, game_end="hands:1", final_pot="house")
        arrange(g, hands={1: "+9c +8c", 2: "+1c +2c", 0: "+5c +1s"})
        play_passively(g)
        assert g.house == 3 and g.sabacc_pot == 0
        assert ev.PotCarried("house", 3) in g.events
        assert sum(g.payoffs) == -3
        assert g.total_credits() == 300

    def test_final_pot_split_only_among_players_left(self) -> None:
        g = spike(players=3, game_end="hands:2")
        set_stacks(g, [98, 98, 1])
        arrange(g, hands={1: "+9c +8c", 2: "+1c +2c", 0: "+5c +1s"})
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        passive(g)
        assert g.out[2]
        arrange(g, hands={1: "+9c +8c", 0: "+5c +1s"})
        play_passively(g)
        final = [e for e in g.events if isinstance(e, ev.PotAwarded) and e.pot == "final"]
        assert len(final) == 1 and set(final[0].seats) == {0, 1}
        assert final[0].amount == 5  # 3 + 2 antes
        assert g.stacks[2] == 1

    def test_nothing_left_nothing_awarded(self) -> None:
        g = spike(players=2, game_end="hands:1")
        arrange(g, hands={1: "+1c -1c", 0: "+5c +1s"})
        play_passively(g)
        assert not any(isinstance(e, ev.PotAwarded) and e.pot == "final" for e in g.events)


def test_invariants_over_many_games() -> None:
    for seed in range(6):
        g = spike(players=2 + seed, seed=seed, gain_fee=1, swap_fee=2)

        def check(x: Game) -> None:
            check_credits(x)
            check_cards(x)

        playout(g, random.Random(seed), check=check)
        assert sum(g.payoffs) == 0


# ---------------------------------------------------------------------------- determinize
class TestDeterminize:
    def midgame(self) -> Game:
        g = spike(players=4, seed=12)
        arrange(g, hands={1: "+1c +2c", 2: "+3c +4c", 3: "+5c +6c", 0: "+7c +8c"}, discard="-9t")
        do(g, "1 swap discard +1")  # seat 1 holds the public -9t
        return g

    def test_keeps_what_the_viewer_knows(self) -> None:
        g = self.midgame()
        d = g.determinize(0, random.Random(1))
        check_cards(d)
        assert [c.code for c in d.hands[0]] == ["+7c", "+8c"]
        assert d.discard == g.discard  # type: ignore[attr-defined]
        assert "-9t" in [c.code for c in d.hands[1]]
        assert [len(h) for h in d.hands] == [len(h) for h in g.hands]
        assert d.stacks == g.stacks and d.current_player == g.current_player == 2
        # The player to act keeps its own options.
        assert g.determinize(2, random.Random(1)).legal_actions() == g.legal_actions()
        # The hidden cards were moved around.
        assert d.full_state()["hands"] != g.full_state()["hands"] or d.draw != g.draw  # type: ignore[attr-defined]

    def test_leaves_the_original_alone(self) -> None:
        g = self.midgame()
        before = snapshot(g)
        d = g.determinize(2, random.Random(1))
        playout(d, random.Random(2))
        assert snapshot(g) == before

    def test_deterministic_in_the_rng(self) -> None:
        g = self.midgame()
        a = g.determinize(3, random.Random(7))
        b = g.determinize(3, random.Random(7))
        assert a.full_state() == b.full_state()
        assert a.rng.getstate() == b.rng.getstate()

    def test_depends_only_on_the_viewers_information(self) -> None:
        g = self.midgame()
        other = g.clone()
        # Exchange a hidden card of seat 2 with a draw pile card: seat 0 cannot tell.
        other.hands[2][0], other.draw[-1] = other.draw[-1], other.hands[2][0]  # type: ignore[attr-defined]
        assert other.full_state() != g.full_state()
        assert other.observation(0) == g.observation(0)
        a = g.determinize(0, random.Random(3))
        b = other.determinize(0, random.Random(3))
        assert a.full_state() == b.full_state()

    def test_determinized_games_play_on(self) -> None:
        g = self.midgame()
        for k in range(3):
            d = g.determinize(k, random.Random(k))
            playout(d, random.Random(k), check=check_credits)
            assert d.is_over


def test_a_buy_in_that_cannot_cover_the_antes_is_refused() -> None:
    with pytest.raises(sabacc.OptionError, match="cannot cover the antes"):
        sabacc.new_game("spike", players=2, seed=1, buy_in=1)
    assert sabacc.new_game("spike", players=2, seed=1, buy_in=2).hand_no == 1
