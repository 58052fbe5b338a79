"""Random legal 2-5 player games (T1-T3, A*, K*, O*, R*, D*, L*, E*, F*, J*, V*, Z*, I2, I3),
played half by the computer player (``robot``, issue 19: greedy, so games go where people
take them: cards discovered, Boons picked, card limits reached) and half by a random
legal-move chooser, so that odd moves stay covered: sometimes an Active card's Ability with
random legal choices (A1-A8, K1-K18; Done after a Star Burst); Observe a legal chain or
Rest; another Observe or Done; the first Boon open to the picker; discard the newest cards;
a random tied card and chain for the dreamer (V6-V8). With the clock on, some steps are left
to expire instead (Z3-Z7, the Dream's random numbers drawn by the test as the server would,
H5). Every game ends (E1-E7); at every step the stored events, folded, equal the live state;
no Journal leaves its track (J1-J5); every card is in exactly one place (M1, I3); the end
records every seat's score and the winners (F9)."""

from __future__ import annotations

import random
from datetime import datetime

from hypothesis import given, note, settings

from games.astra.rules import robot
from games.astra.rules.abilities import ability_refused, twin_possible
from games.astra.rules.boards import POUCH_GAINS_TO_TOP, WISDOM_GAINS_TO_TOP
from games.astra.rules.cards import BY_NUMBER, AbilityKind
from games.astra.rules.commands import (
    Command,
    DiscardCards,
    Done,
    Dream,
    Expire,
    Observe,
    PickBoon,
    Rest,
    UseAbility,
)
from games.astra.rules.discovery import exhausted, needs_choice, open_boxes
from games.astra.rules.dream import dream_cards, dream_chains
from games.astra.rules.events import (
    AbilityMarked,
    BoonsCrossed,
    CardGained,
    GameEnded,
    GameEndExposed,
    StarsMarked,
    TurnStarted,
)
from games.astra.rules.evolve import fold
from games.astra.rules.marking import first_stars, next_stars
from games.astra.rules.model import Phase, State
from tests.games.astra.flow_helpers import NOW, playing, random_tables, stored

CARDS = 48
# D11, L1: the discoverer may hold more than the limit until every discovered card is taken
DISCOVERING = (Phase.PICKING, Phase.DISCOVERY, Phase.DISCARDING)
ROBOT_SHARE = 0.5  # the commands the robot makes; the random chooser makes the rest


def chain(state: State, slot: int, rng: random.Random) -> tuple[int, ...]:
    """A random legal chain on the card in ``slot`` (O3-O7), paid from the Pouch (O6)."""
    placed = state.slot(slot)
    card, marked = placed.constellation, placed.marked
    budget = state.journal(state.active or 0).stardust
    stars: list[int] = []
    while len(stars) < budget:
        options = sorted(next_stars(card, marked, stars))
        if not options or (stars and rng.random() < 0.25):
            break
        stars.append(rng.choice(options))
    return tuple(stars)


def ability(state: State, seat: int, rng: random.Random) -> UseAbility | None:
    """A random Active card's Ability with random legal choices (None: none is legal now)."""
    cards = [held.card for held in state.journal(seat).held if held.active]
    if not cards:
        return None
    card = rng.choice(cards)
    stars = ability_stars(state, BY_NUMBER[card].ability.kind, rng)
    stardust = state.journal(seat).stardust
    k = rng.randint(1, stardust // 3) if stardust >= 3 else 1
    if BY_NUMBER[card].ability.kind is not AbilityKind.FORGE:
        k = 0
    if ability_refused(state, seat, card, stars, k) is not None:
        return None
    return UseAbility(seat, state.version, card, stars, k)


def ability_stars(
    state: State, kind: AbilityKind, rng: random.Random
) -> tuple[tuple[int, int], ...]:
    """K1, K5, K10, K14: random stars the kind may mark (none for the other kinds)."""
    slots = list(state.undiscovered())
    if not slots:
        return ()

    def first(slot: int) -> int:
        placed = state.slot(slot)
        return rng.choice(sorted(first_stars(placed.constellation, placed.marked)))

    match kind:
        case AbilityKind.STAR_BURST | AbilityKind.SPARK:
            slot = rng.choice(slots)
            placed = state.slot(slot)
            unmarked = [n for n in range(placed.constellation.stars) if n not in placed.marked]
            return ((slot, rng.choice(unmarked)),)
        case AbilityKind.THREE_LIGHTS:
            return tuple((slot, first(slot)) for slot in rng.sample(slots, min(3, len(slots))))
        case AbilityKind.TWIN_LIGHTS:
            if len(slots) >= 2:
                return tuple((slot, first(slot)) for slot in rng.sample(slots, 2))
            placed = state.slot(slots[0])
            card, marked = placed.constellation, placed.marked
            for star in sorted(first_stars(card, marked)):
                after = sorted(next_stars(card, marked, (star,)))
                if after:
                    return ((slots[0], star), (slots[0], rng.choice(after)))
            assert not twin_possible(state)
            return ((slots[0], first(slots[0])),)
    return ()


def choose(state: State, rng: random.Random) -> Command:
    """A legal command for whoever must act now."""
    seat = state.active
    assert seat is not None
    if state.phase is Phase.PICKING:
        assert state.picks is not None
        picker = state.picks.waiting[0]
        slot = next(s for s in state.slots if s.discovered)
        box = open_boxes(state, picker, slot)[0]  # the first Boon open to the picker (V3)
        targets: tuple[int, ...] = ()
        if needs_choice(state, picker, slot, box):
            targets = exhausted(state, picker)[: slot.boon(box).amount]
        return PickBoon(picker, state.picks.number, box, targets)
    if state.phase is Phase.DREAMING:  # V6-V8: a random tied card and legal chain
        slot_number = rng.choice(dream_cards(state))
        stars = rng.choice(dream_chains(state, slot_number))
        return Dream(seat, state.version, slot_number, stars)
    if state.phase is Phase.DISCARDING:
        journal = state.journal(seat)
        newest = journal.held[journal.card_limit :]
        return DiscardCards(seat, state.version, tuple(held.card for held in newest))
    journal = state.journal(seat)
    can_observe = journal.stardust > 0 and bool(state.undiscovered())
    if state.phase is Phase.OBSERVING:
        if can_observe and journal.telescopes and rng.random() < 0.7:
            slot_number = rng.choice(state.undiscovered())
            return Observe(seat, state.version, slot_number, chain(state, slot_number, rng))
        return Done(seat, state.version)
    assert state.phase is Phase.ABILITY, state.phase
    use = ability(state, seat, rng) if rng.random() < 0.4 else None
    if use is not None:
        return use
    if state.skipped:  # K1, A5: no Action this turn
        return Done(seat, state.version)
    if can_observe and rng.random() < 0.7:
        slot_number = rng.choice(state.undiscovered())
        return Observe(seat, state.version, slot_number, chain(state, slot_number, rng))
    return Rest(seat, state.version)


def check_invariants(state: State, events: list[object]) -> None:
    for seat in state.seats:
        journal = state.journal(seat)
        assert journal.stardust >= 0 and journal.telescopes >= 0 and journal.fame >= 0  # J1, J2, J5
        assert 0 <= journal.pouch_gains <= POUCH_GAINS_TO_TOP  # J3
        assert 0 <= journal.wisdom <= WISDOM_GAINS_TO_TOP  # J4
        if not (state.phase in DISCOVERING and seat == state.active):
            assert len(journal.held) <= journal.card_limit  # L3: checked once all are taken
    places = [
        *state.deck,
        *state.discard,
        *(slot.card for slot in state.slots if slot.card is not None),
        *(held.card for journal in state.journals for held in journal.held),
    ]
    assert sorted(places) == list(range(1, CARDS + 1))  # M1, I3: every card in one place
    assert 0 <= state.above_game_end <= len(state.deck)  # H2
    for event in events:
        if isinstance(event, StarsMarked):
            assert event.stardust == len(event.stars) >= 1 and event.wisdom >= 0  # O1, O6, O8
        if isinstance(event, AbilityMarked):  # K18, O8: free marks, Wisdom on the track
            assert event.stars and 0 <= event.wisdom <= len(event.stars)


def next_command(state: State, rng: random.Random) -> tuple[Command, datetime]:
    """The robot's move for a seat it waits on or the random chooser's command, at NOW; or,
    for a step on the clock, sometimes its expiry at the deadline, with two random numbers
    for a Dream (Z6, H5)."""
    if state.deadline is not None and rng.random() < 0.3:
        picks = (rng.randrange(2**32), rng.randrange(2**32))
        return Expire(state.step_started, picks), state.deadline
    if rng.random() < ROBOT_SHARE:
        return robot.move(state, rng.choice(robot.seats_waiting(state)), rng), NOW
    return choose(state, rng), NOW


@settings(max_examples=16, deadline=None)
@given(table=random_tables())
def test_t1_e7_v5_z3_random_legal_games_always_end_and_their_stored_events_fold_to_the_live_state(
    table: tuple[State, random.Random],
) -> None:
    start, rng = table
    players = start.players
    state, replayed, history = start, start, []
    for state, events in playing(start, rng, next_command):
        history += events
        replayed = fold(stored(events), replayed)
        assert replayed == state  # the fold of the stored events is the live state
        check_invariants(state, events)
    assert state.ended and state.phase is Phase.ENDED  # E7: every game ends
    assert fold(stored(history), start) == state
    exposed = [e for e in history if isinstance(e, GameEndExposed)]
    assert len(exposed) == 1  # E2: once
    turns = [e for e in history if isinstance(e, TurnStarted)]
    assert turns[-1].turn == exposed[0].last_turn  # E3-E5: the game ends after the last turn
    ended = history[-1]
    assert isinstance(ended, GameEnded) and len(ended.scores) == players
    best = max(score.total for score in ended.scores)
    assert ended.winners == tuple(s.seat for s in ended.scores if s.total == best)  # F9
    for score in ended.scores:
        assert score.fame_in_play == state.journal(score.seat).fame
    held = {h.card for journal in state.journals for h in journal.held}
    for event in history:
        if isinstance(event, CardGained):  # D10, L2: a card taken is held or discarded
            assert event.card in held or event.card in state.discard
        if isinstance(event, BoonsCrossed):  # D6: each box crossed once
            assert len(set(event.crossed)) == len(event.crossed)
    note(f"{players} players, {turns[-1].turn + 1} turns, {len(history)} events")
