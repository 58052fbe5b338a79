"""Astra's final scoring (F1-F9): worked example 3 line by line, each rule with its own
numbers, the holdings no game can reach refused, and properties that hold for any player."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.astra.rules.boards import FINAL_SCORING_CARDS, card_limit, elements_fame
from games.astra.rules.cards import BY_NAME, CARDS, Card, Element
from games.astra.rules.scoring import (
    HeldCard,
    Holdings,
    MarkedCard,
    ScoreSheet,
    score,
    winners,
)

FS = {card.id: card for card in FINAL_SCORING_CARDS}  # FS1 Fire+Water ... FS6 Air+Earth (M10)
FIRE, WATER, AIR, EARTH = Element.FIRE, Element.WATER, Element.AIR, Element.EARTH


def active(*names: str) -> tuple[HeldCard, ...]:
    return tuple(HeldCard(BY_NAME[name], active=True) for name in names)


def exhausted(*names: str) -> tuple[HeldCard, ...]:
    return tuple(HeldCard(BY_NAME[name], active=False) for name in names)


def marked(**stars: int) -> tuple[MarkedCard, ...]:
    return tuple(MarkedCard(BY_NAME[name], n) for name, n in stars.items())


def of(element: Element, count: int) -> tuple[HeldCard, ...]:
    """The first ``count`` cards of ``element`` in number order, Active."""
    cards = [card for card in CARDS if card.element is element][:count]
    assert len(cards) == count
    return tuple(HeldCard(card, active=True) for card in cards)


def player(
    scoring_card: str = "FS1",
    *,
    fame: int = 0,
    held: tuple[HeldCard, ...] = (),
    marked: tuple[MarkedCard, ...] = (),
    pouch_gains: int = 0,
    wisdom: int = 11,
    stardust: int = 0,
    telescopes: int = 0,
) -> Holdings:
    """A player with nothing but what is given; Wisdom 11 (card limit 8) unless given, so any
    held cards fit."""
    return Holdings(
        fame=fame,
        scoring_card=FS[scoring_card],
        held=held,
        marked=marked,
        pouch_gains=pouch_gains,
        wisdom=wisdom,
        stardust=stardust,
        telescopes=telescopes,
    )


def sheet(scoring_card: str = "FS1", **given: Any) -> ScoreSheet:
    return score(player(scoring_card, **given))


# -- worked example 3 ------------------------------------------------------------------------------

MATTHEW = Holdings(
    fame=37,
    scoring_card=FS["FS2"],
    held=(
        *active("Aquila"),
        *exhausted("Libra"),
        *active("Gemini", "Taurus", "Lupus", "Cetus"),
        *exhausted("Lyra"),
        *active("Crater"),
    ),
    marked=marked(Draco=2, Hydra=3),
    pouch_gains=3,
    wisdom=11,
    stardust=7,
    telescopes=2,
)


def test_f1_f8_example_3_matthew_scores_108_line_by_line() -> None:
    """F1-F8, worked example 3: 37 in play + marked stars 2 + Active cards 23 + rows 19 +
    columns 9 (Elements 28) + Pouch size 8 + card limit 8 + Stardust 2 = 108."""
    result = score(MATTHEW)
    assert result.lines == {
        "J5": 37,
        "F2": 2,
        "F3": 23,
        "F4": 19,
        "F5": 9,
        "F6": 8,
        "F7": 8,
        "F8": 2,
    }
    assert result.elements == 28
    assert result.rows == ((FIRE, 1), (WATER, 3), (AIR, 4), (EARTH, 2))
    assert result.total == 108


def test_f1_example_3_the_cards_listed_in_another_order_score_108_too() -> None:
    """F1, worked example 3: the same cards and marks, listed backwards, score the same."""
    backwards = replace(MATTHEW, held=MATTHEW.held[::-1], marked=MATTHEW.marked[::-1])
    assert score(backwards) == score(MATTHEW)


# -- F1 ------------------------------------------------------------------------------------------


def test_f1_the_final_score_is_fame_in_play_plus_every_line() -> None:
    """F1: 10 in play + F2 3 marks -> 1 + F3 Orion 2 + F4 Fire 2 marks -> 2 (Water's pre-mark
    alone 0) + F5 0 + F6 7 + F7 3 + F8 5 Stardust -> 1 = 26."""
    result = score(
        Holdings(
            fame=10,
            scoring_card=FS["FS1"],
            held=active("Orion"),
            marked=marked(Leo=3),
            pouch_gains=2,
            wisdom=1,
            stardust=5,
        )
    )
    assert list(result.lines.values()) == [10, 1, 2, 2, 0, 7, 3, 1]
    assert result.total == 26


def test_f1_j5_fame_in_play_is_added_as_it_is_with_no_upper_bound() -> None:
    """F1, J5: Fame past the printed track's 90 is kept whole."""
    assert sheet(fame=95, wisdom=0).total == 95 + 5 + 2
    assert sheet(fame=0, wisdom=0).total == 5 + 2


# -- F2 ------------------------------------------------------------------------------------------


def test_f2_marks_are_summed_over_the_cards_then_halved_rounding_down() -> None:
    """F2: 1 mark on each of three cards is 3 marks -> 1 Fame (halving each card first would
    give 0); 2 + 3 -> 2; 7 on one card -> 3; none -> 0."""
    assert sheet(marked=marked(Draco=1, Hydra=1, Leo=1)).marked_stars == 1
    assert sheet(marked=marked(Draco=2, Hydra=3)).marked_stars == 2
    assert sheet(marked=marked(Taurus=7)).marked_stars == 3
    assert sheet(marked=marked(Draco=1)).marked_stars == 0
    assert sheet().marked_stars == 0


def test_f2_a_card_on_the_sphere_with_none_of_the_players_marks_counts_nothing() -> None:
    """F2: only the player's own marks count (dreamer and other seats' marks are not passed
    in); a card the player never marked adds 0."""
    assert sheet(marked=marked(Draco=0, Hydra=3)).marked_stars == 1


def test_f2_o12_a_card_every_star_of_which_is_marked_is_not_undiscovered() -> None:
    """F2, O12: a discovered card is no longer undiscovered, so marks on all of Lyra's 4 stars
    cannot be scored as marks on an undiscovered card."""
    with pytest.raises(ValueError, match="O12"):
        player(marked=marked(Lyra=4))
    assert sheet(marked=marked(Lyra=3)).marked_stars == 1


# -- F3 ------------------------------------------------------------------------------------------


def test_f3_active_cards_score_their_final_scoring_fame() -> None:
    """F3, M4: Taurus 6 + Aquila 5 + Lupus 1 (M4's floor) = 12."""
    assert sheet(held=active("Taurus", "Aquila", "Lupus")).active_cards == 12


def test_f3_exhausted_cards_give_nothing_here() -> None:
    """F3: Taurus Active 6; Aquila and Libra Exhausted add nothing."""
    assert sheet(held=active("Taurus") + exhausted("Aquila", "Libra")).active_cards == 6
    assert sheet(held=exhausted("Aquila", "Libra")).active_cards == 0


# -- F4 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", sorted(FS))
def test_f4_m10_each_scoring_card_pre_marks_its_two_rows(card: str) -> None:
    """F4, M10: with no card held, the two pre-marked rows have 1 mark each (worth 0), the
    other two none; the lone column of 2 marks scores nothing (F5)."""
    pairs = {
        "FS1": {FIRE, WATER},
        "FS2": {FIRE, AIR},
        "FS3": {FIRE, EARTH},
        "FS4": {WATER, AIR},
        "FS5": {WATER, EARTH},
        "FS6": {AIR, EARTH},
    }
    result = sheet(card, wisdom=0)
    assert dict(result.rows) == {row: int(row in pairs[card]) for row in (FIRE, WATER, AIR, EARTH)}
    assert (result.element_rows, result.element_columns) == (0, 0)


def test_f4_a_card_of_a_pre_marked_element_marks_the_second_spot() -> None:
    """F4: on FS2 (Fire and Air pre-marked) one Fire card makes Fire 2 marks -> 2; one Water
    card makes Water 1 mark -> 0."""
    assert sheet("FS2", held=of(FIRE, 1)).element_rows == 2
    assert sheet("FS2", held=of(WATER, 1)).element_rows == 0


@pytest.mark.parametrize("cards", range(0, 9))
def test_f4_a_row_scores_the_number_over_its_rightmost_mark(cards: int) -> None:
    """F4, M10: on FS2, Air pre-marked plus ``cards`` Air cards is cards + 1 marks, scoring
    0, 2, 6, 11, 16, 21, 25, 29, 33; without a pre-mark (FS1) the same cards score one spot
    less."""
    expected = (0, 2, 6, 11, 16, 21, 25, 29, 33)
    on_fs2 = sheet("FS2", held=of(AIR, cards))
    assert dict(on_fs2.rows)[AIR] == cards + 1
    assert on_fs2.element_rows == expected[cards]  # Fire's lone pre-mark adds 0
    assert sheet("FS1", held=of(AIR, cards)).element_rows == (0, *expected)[cards]


def test_f4_a_row_reaching_9_marks_scores_33() -> None:
    """F4, M10: FS2's Air pre-mark and 8 Air cards (card limit 8) fill all 9 spots: 33; the
    first column then holds only Fire and Air, 2 marks, worth nothing (F5)."""
    result = sheet("FS2", held=of(AIR, 8))
    assert dict(result.rows) == {FIRE: 1, WATER: 0, AIR: 9, EARTH: 0}
    assert (result.element_rows, result.element_columns, result.elements) == (33, 0, 33)


def test_f4_exhausted_cards_mark_their_rows_too() -> None:
    """F4: every held card marks its row, Active or Exhausted: Libra and Lyra Exhausted on FS2
    make Air 2 -> 2 and Water 1 -> 0, the same as Active; F3 is what tells them apart."""
    tired = sheet("FS2", held=exhausted("Libra", "Lyra"))
    fresh = sheet("FS2", held=active("Libra", "Lyra"))
    assert dict(tired.rows) == {FIRE: 1, WATER: 1, AIR: 2, EARTH: 0}
    assert tired.element_rows == fresh.element_rows == 2
    assert tired.element_columns == fresh.element_columns == 3  # column 1: Fire, Water, Air
    assert (tired.active_cards, fresh.active_cards) == (0, 4 + 1)


# -- F5 ------------------------------------------------------------------------------------------


def test_f5_a_column_of_3_marks_scores_3() -> None:
    """F5: FS1 (Fire, Water) and one Air card: column 1 holds Fire, Water, Air -> 3; every row
    has 1 mark -> 0."""
    result = sheet("FS1", held=of(AIR, 1))
    assert (result.element_rows, result.element_columns) == (0, 3)


def test_f5_a_column_of_4_marks_scores_6() -> None:
    """F5: FS1 and one Air and one Earth card: column 1 has 4 marks -> 6."""
    result = sheet("FS1", held=of(AIR, 1) + of(EARTH, 1))
    assert (result.element_rows, result.element_columns) == (0, 6)


def test_f5_columns_of_2_or_1_marks_score_nothing() -> None:
    """F5: FS1 alone has column 1 at 2 marks -> 0; FS1 with 3 Fire cards has Fire 4 marks:
    columns 2-4 hold 1 mark each -> 0."""
    assert sheet("FS1").element_columns == 0
    result = sheet("FS1", held=of(FIRE, 3))
    assert (result.element_rows, result.element_columns) == (11, 0)


def test_f5_every_column_is_scored_not_only_the_first() -> None:
    """F5: FS1 with a Fire, a Water, two Air and two Earth cards: rows 2, 2, 2, 2 -> 8;
    columns 1 and 2 each hold 4 marks -> 12. With one Earth card fewer, column 2 holds 3
    -> 3 (and Earth 1 mark -> 0): rows 6, columns 9."""
    full = of(FIRE, 1) + of(WATER, 1) + of(AIR, 2) + of(EARTH, 2)
    result = sheet("FS1", held=full)
    assert (result.element_rows, result.element_columns, result.elements) == (8, 12, 20)
    result = sheet("FS1", held=full[:-1])
    assert (result.element_rows, result.element_columns) == (6, 9)


def test_f4_f5_the_elements_line_is_what_boards_gives_for_the_held_elements() -> None:
    """F4, F5: the two lines add up to ``boards.elements_fame`` (worked example 3: 28)."""
    elements = [held.card.element for held in MATTHEW.held]
    assert score(MATTHEW).elements == elements_fame(FS["FS2"], elements) == 28


# -- F6, F7, F8 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("gains", "fame"), [(0, 5), (1, 6), (3, 8), (7, 12), (9, 12)])
def test_f6_j3_the_pouch_size_scores_itself(gains: int, fame: int) -> None:
    """F6, J3: Pouch size 5 + gains, at most 12 (gains past 12 are lost)."""
    assert sheet(pouch_gains=gains).pouch_size == fame


@pytest.mark.parametrize(("wisdom", "fame"), [(0, 2), (1, 3), (2, 3), (3, 4), (11, 8), (14, 8)])
def test_f7_j4_the_card_limit_scores_itself(wisdom: int, fame: int) -> None:
    """F7, J4: card limit 2 + ceil(Wisdom / 2), at most 8."""
    assert sheet(wisdom=wisdom).card_limit == fame


@pytest.mark.parametrize(
    ("stardust", "fame"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (7, 2), (8, 2), (9, 3), (29, 9)]
)
def test_f8_one_fame_for_every_third_stardust_rounding_down(stardust: int, fame: int) -> None:
    """F8: floor(Stardust / 3); Stardust may exceed the Pouch size (J1)."""
    assert sheet(stardust=stardust, pouch_gains=0).leftover_stardust == fame


def test_f8_telescopes_score_nothing() -> None:
    """F8: 0 or 20 Telescopes, the same sheet."""
    assert sheet(telescopes=20) == sheet(telescopes=0)
    assert score(replace(MATTHEW, telescopes=0)).total == 108


# -- F9 ------------------------------------------------------------------------------------------


def test_f9_the_highest_final_score_wins() -> None:
    """F9: seat 2 with 108 beats 107 and 50."""
    sheets = {1: sheet(fame=100, wisdom=0), 2: score(MATTHEW), 3: sheet(fame=43, wisdom=0)}
    assert [s.total for s in sheets.values()] == [107, 108, 50]
    assert winners(sheets) == (2,)


def test_f9_a_tie_shares_the_victory_with_no_tie_break() -> None:
    """F9: seats 1 and 3 both reach 108 by different lines (all Fame in play against Matthew's
    mix, more cards, more Stardust): both win; seat 2 with 107 does not."""
    plain = sheet(fame=101, wisdom=0)
    assert plain.total == 108 and plain.elements == 0
    sheets = [plain, sheet(fame=100, wisdom=0), score(MATTHEW)]
    assert winners(sheets) == (1, 3)


def test_f9_seats_are_as_given_and_all_equal_all_win() -> None:
    """F9: a mapping keeps its seats; three equal totals are three winners; no sheet, none."""
    same = sheet(fame=20)
    assert winners({2: same, 4: same, 5: same}) == (2, 4, 5)
    assert winners({}) == ()


# -- what no game reaches -------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["fame", "pouch_gains", "wisdom", "stardust", "telescopes"])
def test_j1_j5_a_negative_journal_count_is_refused(field: str) -> None:
    """J1-J5: every count in the Journal is a whole number >= 0."""
    negative: dict[str, Any] = {field: -1}
    with pytest.raises(ValueError, match="never negative"):
        replace(player(), **negative)


def test_l3_more_cards_than_the_card_limit_is_refused() -> None:
    """L3: with no Wisdom the limit is 2, so a third held card is refused; with 1 Wisdom (3)
    it is scored."""
    three = active("Orion", "Leo", "Lyra")
    with pytest.raises(ValueError, match="L3"):
        player(held=three, wisdom=0)
    assert sheet(held=three, wisdom=1).active_cards == 2 + 2 + 1


def test_m1_a_card_held_twice_or_both_held_and_on_the_sphere_is_refused() -> None:
    """M1: each card exists once: it is held once, or lies on the Sphere, never both."""
    with pytest.raises(ValueError, match="M1"):
        player(held=active("Lyra") + exhausted("Lyra"))
    with pytest.raises(ValueError, match="M1"):
        player(held=active("Lyra"), marked=marked(Lyra=1))


# -- properties ------------------------------------------------------------------------------------


@st.composite
def holdings(draw: st.DrawFn, room: int = 0) -> Holdings:
    """Any player the game can reach, with ``room`` cards to spare under the card limit."""
    wisdom = draw(st.integers(0, 14))
    order = draw(st.permutations(CARDS))
    held_count = draw(st.integers(0, card_limit(wisdom) - room))
    marked_count = draw(st.integers(0, 6))
    on_sphere = order[held_count : held_count + marked_count]
    return Holdings(
        fame=draw(st.integers(0, 150)),
        scoring_card=draw(st.sampled_from(FINAL_SCORING_CARDS)),
        held=tuple(HeldCard(card, draw(st.booleans())) for card in order[:held_count]),
        marked=tuple(MarkedCard(card, draw(st.integers(0, card.stars - 1))) for card in on_sphere),
        pouch_gains=draw(st.integers(0, 10)),
        wisdom=wisdom,
        stardust=draw(st.integers(0, 40)),
        telescopes=draw(st.integers(0, 10)),
    )


@given(holdings())
def test_f1_property_the_total_is_the_sum_of_the_lines(player: Holdings) -> None:
    """F1: for any player, total = Fame in play + F2 + ... + F8, and F4 + F5 is what
    ``boards.elements_fame`` gives for the held cards' Elements."""
    result = score(player)
    assert result.total == sum(result.lines.values())
    assert result.fame_in_play == player.fame
    elements = [held.card.element for held in player.held]
    assert result.elements == elements_fame(player.scoring_card, elements)


@given(holdings(room=1), st.data())
def test_f4_f5_property_a_further_held_card_never_lowers_the_element_lines(
    player: Holdings, data: st.DataObject
) -> None:
    """F4, F5: one more card, Active or Exhausted, never lowers the rows, the columns, nor
    (F3) the Active cards; the other lines are unchanged."""
    used = {held.card for held in player.held} | {m.card for m in player.marked}
    card: Card = data.draw(st.sampled_from([c for c in CARDS if c not in used]))
    more = replace(player, held=(*player.held, HeldCard(card, data.draw(st.booleans()))))
    before, after = score(player), score(more)
    assert after.element_rows >= before.element_rows
    assert after.element_columns >= before.element_columns
    assert after.active_cards >= before.active_cards
    assert sum(k for _, k in after.rows) == sum(k for _, k in before.rows) + 1
    same = ("J5", "F2", "F6", "F7", "F8")
    assert [after.lines[r] for r in same] == [before.lines[r] for r in same]


@given(holdings(), st.data())
def test_f1_property_scoring_does_not_depend_on_the_order_cards_are_listed(
    player: Holdings, data: st.DataObject
) -> None:
    """F1-F8: the held cards and the marked cards in any order give the same sheet."""
    shuffled = replace(
        player,
        held=tuple(data.draw(st.permutations(player.held))),
        marked=tuple(data.draw(st.permutations(player.marked))),
    )
    assert score(shuffled) == score(player)
