"""Cards, decks and the card notation of docs/rules.md ("Card notation", "Reference figures")."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.cards import signed
from sabacc.variants.classic.rules import CLASSIC_DECK
from sabacc.variants.corellian_spike.rules import SPIKE_DECK


class TestSpikeDeck:
    def test_composition(self) -> None:
        assert len(SPIKE_DECK) == 62
        assert sorted({c.id for c in SPIKE_DECK.cards}) == list(range(62))
        values = Counter(c.value for c in SPIKE_DECK.cards)
        assert values[0] == 2
        for v in range(1, 11):
            assert values[v] == values[-v] == 3
        assert set(values) == set(range(-10, 11))
        staves = Counter(c.suit for c in SPIKE_DECK.cards)
        assert staves == {"c": 20, "s": 20, "t": 20, None: 2}

    def test_codes(self) -> None:
        codes = [c.code for c in SPIKE_DECK.cards]
        assert len(set(codes)) == 61  # the two Sylops share the code "0"
        assert "+10c" in codes and "-2t" in codes and "+5s" in codes and "0" in codes
        sylops = [c for c in SPIKE_DECK.cards if c.value == 0]
        assert [c.code for c in sylops] == ["0", "0"] and sylops[0] != sylops[1]
        assert sylops[0].label == "0 (Sylop)"
        assert str(SPIKE_DECK.cards[0]) == SPIKE_DECK.cards[0].code

    def test_signed(self) -> None:
        assert [signed(v) for v in (7, -3, 0, 10)] == ["+7", "-3", "0", "+10"]
        assert SPIKE_DECK.format_value(4) == "+4" and SPIKE_DECK.format_value(0) == "0"

    def test_variant_deck_is_the_spike_deck(self) -> None:
        assert sabacc.variant("spike").deck is SPIKE_DECK


class TestSpikeNotation:
    @pytest.mark.parametrize(
        ("token", "code"),
        [
            ("+7", "+7c"),
            ("-3", "-3c"),
            ("+10c", "+10c"),
            ("-2t", "-2t"),
            ("+5s", "+5s"),
            ("+5S", "+5s"),
            ("0", "0"),
            (" +4 ", "+4c"),
        ],
    )
    def test_accepted(self, token: str, code: str) -> None:
        cards = SPIKE_DECK.parse_cards([token])
        assert [c.code for c in cards] == [code]

    def test_value_only_and_staves_have_the_same_value(self) -> None:
        for token in ("+4", "+4c", "+4s", "+4t"):
            assert SPIKE_DECK.parse_value(token) == 4

    @pytest.mark.parametrize(
        "token", ["+11", "-11", "+4x", "+4cc", "16f", "7f", "x", "", "++4", "Sylop", "+4 c", "0c"]
    )
    def test_unknown_card_names_the_token(self, token: str) -> None:
        with pytest.raises(sabacc.CardParseError) as info:
            SPIKE_DECK.parse_cards([token])
        assert repr(token.strip()) in str(info.value) or repr(token) in str(info.value)
        assert isinstance(info.value, ValueError)

    @pytest.mark.parametrize(
        ("text", "bad"),
        [
            ("+4 +4 +4 +4", "'+4'"),
            ("0 0 0", "'0'"),
            ("+4c +4c", "'+4c'"),
            ("-4 -4s -4 -4", "'-4'"),
            ("+4c +4 +4 +4", "'+4'"),
        ],
    )
    def test_too_many_copies(self, text: str, bad: str) -> None:
        with pytest.raises(sabacc.CardParseError, match="too many copies") as info:
            SPIKE_DECK.parse_cards(text)
        assert bad in str(info.value)

    def test_all_copies_are_distinct_cards(self) -> None:
        cards = SPIKE_DECK.parse_cards("+4 +4 +4")
        assert sorted(c.code for c in cards) == ["+4c", "+4s", "+4t"]
        assert [c.code for c in SPIKE_DECK.parse_cards("0 0")] == ["0", "0"]
        assert len({c.id for c in SPIKE_DECK.parse_cards("0 0")}) == 2

    def test_exact_codes_are_served_before_value_only(self) -> None:
        # "+4 +4c": the value-only token must not take the circle the exact token asks for.
        cards = SPIKE_DECK.parse_cards("+4 +4c +4 ")
        assert [c.code for c in cards][1] == "+4c"
        assert sorted(c.code for c in cards) == ["+4c", "+4s", "+4t"]

    def test_commas_and_sequences(self) -> None:
        assert [c.code for c in SPIKE_DECK.parse_cards("+1c,-2t, 0")] == ["+1c", "-2t", "0"]
        assert [c.code for c in SPIKE_DECK.parse_cards(["+1c", "-2t"])] == ["+1c", "-2t"]
        assert SPIKE_DECK.parse_cards("") == []

    def test_variant_parse_cards(self) -> None:
        v = sabacc.variant("corellian_spike")
        assert [c.value for c in v.parse_cards("+4 -4 0")] == [4, -4, 0]
        with pytest.raises(sabacc.CardParseError, match="'\\+11'"):
            v.parse_cards("+4 +11")

    @given(st.lists(st.sampled_from(range(62)), unique=True, max_size=12), st.data())
    @settings(max_examples=200, deadline=None)
    def test_round_trip(self, ids: list[int], data: st.DataObject) -> None:
        cards = [SPIKE_DECK.cards[i] for i in ids]
        # Exact codes give back the same physical cards (the Sylops are interchangeable).
        parsed = SPIKE_DECK.parse_cards(" ".join(c.code for c in cards))
        assert [c.code for c in parsed] == [c.code for c in cards]
        assert len({c.id for c in parsed}) == len(parsed)
        # Value-only notation gives the same values.
        tokens = [signed(c.value) for c in cards]
        assert [c.value for c in SPIKE_DECK.parse_cards(tokens)] == [c.value for c in cards]


class TestClassicDeck:
    def test_composition(self) -> None:
        assert len(CLASSIC_DECK) == 76
        counts = CLASSIC_DECK.value_counts
        assert all(counts[v] == 4 for v in range(1, 16))
        faces = (0, -2, -8, -11, -13, -14, -15, -17)
        assert all(counts[v] == 2 for v in faces)
        assert set(counts) == set(range(1, 16)) | set(faces)

    @pytest.mark.parametrize(
        ("token", "code", "name"),
        [
            ("7f", "7f", ""),
            ("11c", "11c", ""),
            ("15s", "15s", "Ace of Sabres"),
            ("12t", "12t", "Commander of Staves"),
            ("0", "0", "The Idiot"),
            ("-2", "-2", "Queen of Air and Darkness"),
            ("-17", "-17", "The Star"),
        ],
    )
    def test_notation(self, token: str, code: str, name: str) -> None:
        [card] = CLASSIC_DECK.parse_cards([token])
        assert (card.code, card.name) == (code, name)

    def test_value_only(self) -> None:
        assert [c.value for c in CLASSIC_DECK.parse_cards("7 7 7 7")] == [7, 7, 7, 7]

    @pytest.mark.parametrize("token", ["16f", "7x", "-3", "-7f", "16", "0f"])
    def test_unknown(self, token: str) -> None:
        with pytest.raises(sabacc.CardParseError, match=repr(token).replace("+", "\\+")):
            CLASSIC_DECK.parse_cards([token])

    @pytest.mark.parametrize("text", ["0 0 0", "7 7 7 7 7", "7f 7f", "-2 -2 -2"])
    def test_too_many(self, text: str) -> None:
        with pytest.raises(sabacc.CardParseError, match="too many copies"):
            CLASSIC_DECK.parse_cards(text)


class TestReferenceFigures:
    """docs/rules.md "Reference figures", counted exactly over the deck."""

    def test_spike_first_two_cards(self) -> None:
        v = sabacc.variant("spike")
        pairs = list(combinations(SPIKE_DECK.cards, 2))
        assert len(pairs) == 1891
        pure = sum(1 for a, b in pairs if v.evaluate([a, b]).name == "Pure Sabacc")
        zero = sum(1 for a, b in pairs if a.value + b.value == 0)
        assert Fraction(pure, len(pairs)) == Fraction(1, 1891)
        assert Fraction(zero, len(pairs)) == Fraction(91, 1891)

    def test_classic_first_two_cards(self) -> None:
        pairs = list(combinations(CLASSIC_DECK.cards, 2))
        assert len(pairs) == 2850
        p23 = sum(1 for a, b in pairs if a.value + b.value == 23)
        p0 = sum(1 for a, b in pairs if a.value + b.value == 0)
        assert Fraction(p23, 2850) == Fraction(64, 2850)
        assert Fraction(p0, 2850) == Fraction(49, 2850)

    def test_classic_idiots_array(self) -> None:
        idiot = [c for c in CLASSIC_DECK.cards if c.value == 0]
        twos = [c for c in CLASSIC_DECK.cards if c.value == 2]
        threes = [c for c in CLASSIC_DECK.cards if c.value == 3]
        arrays = len(idiot) * len(twos) * len(threes)
        total = len(list(combinations(range(76), 3)))
        assert Fraction(arrays, total) == Fraction(32, 70300)
