"""Small builders for Astra's rules tests: a table dealt from a deck the test chooses (the
tables many tests share: ``sky``, ``at_the_limit``, ``dream_step``), commands by the active
seat against the version it sees (T4), their events folded in, a Journal or a card's marks
set for a test, the events stored and read back through the codec, and a whole game played
by a chooser (``playing``)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime

from hypothesis import strategies as st

from games import kit
from games.astra.rules.boards import ABOVE_GAME_END, FINAL_SCORING_CARDS
from games.astra.rules.cards import BY_NAME, CARDS
from games.astra.rules.commands import Command, Deal, Done, Observe, Rest
from games.astra.rules.decide import decide
from games.astra.rules.events import EVENT_TYPES, ActionPhaseEnded, Rested
from games.astra.rules.evolve import fold
from games.astra.rules.model import LEAST, MOST, Held, Journal, Phase, Slot, State
from games.codec import EventCodec
from games.kit import Refusal

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
CODEC = EventCodec(EVENT_TYPES)
DECK = tuple(card.number for card in CARDS)  # number order: Andromeda on top
SCORING = tuple(card.id for card in FINAL_SCORING_CARDS)  # FS1..FS6
ANA, BEN, CLEO, DAN = 1, 2, 3, 4  # the seats, as the worked examples name them
SKY = ("Leo", "Lyra", "Ursa Major", "Hydra", "Cetus")  # ``sky()``: Leo discarded, then slots
LYRA, URSA_MAJOR, HYDRA, CETUS = 1, 2, 3, 4  # the slots of ``sky()``
MOST_COMMANDS = 5000  # far more than any game takes: a game that runs past it never ends


def number(name: str) -> int:
    return BY_NAME[name].number


def deck_from(*names: str) -> tuple[int, ...]:
    """A whole deck with these cards on top, in this order, then the rest in number order:
    the first is discarded (S3), the next go to slots 1, 2, ... (S6)."""
    top = tuple(number(name) for name in names)
    return (*top, *(n for n in DECK if n not in top))


def dealing(
    players: int,
    *,
    deck: tuple[int, ...] = DECK,
    first_player: int = 1,
    step_seconds: int | None = None,
) -> Deal:
    return Deal(
        players=players,
        deck=deck,
        above_game_end=ABOVE_GAME_END.get(players, 0),
        scoring=SCORING[:players],
        first_player=first_player,
        step_seconds=step_seconds,
    )


def deal(
    players: int,
    *,
    deck: tuple[int, ...] = DECK,
    first_player: int = 1,
    step_seconds: int | None = None,
    now: datetime = NOW,
) -> State:
    """Dealt: the first player's first turn is open (S8)."""
    state, _ = act(
        State(),
        dealing(players, deck=deck, first_player=first_player, step_seconds=step_seconds),
        now,
    )
    return state


def sky(players: int = 3, *more: str, step_seconds: int | None = None) -> State:
    """Seat 1 first: Leo discarded (the marker on Fire); Lyra, Ursa Major, Hydra and Cetus
    in slots 1-4; with more players, ``more`` in the next slots (then the deck's number
    order)."""
    return deal(players, deck=deck_from(*SKY, *more), step_seconds=step_seconds)


def at_the_limit(step_seconds: int | None = None) -> State:
    """Four players (``sky``, Orion in slot 5); Ana holds Lupus (Active) and Aries
    (Exhausted) at her limit 2 and marked all of Cetus (slot 4) but star 6."""
    state = with_marks(
        sky(4, "Orion", step_seconds=step_seconds), CETUS, dict.fromkeys(range(6), ANA)
    )
    return holding(state, ANA, ("Lupus", True), ("Aries", False))


def dream_step(step_seconds: int | None = None) -> State:
    """Two players: Ara discarded (Fire); Draco (Ben's star 0), Leo and Hydra in slots 1-3;
    Ana rests, the marker moves to Air (2 stars), and the Dream step opens on Leo or Hydra,
    the unmarked cards with the most stars (V6, V7)."""
    state = deal(2, deck=deck_from("Ara", "Draco", "Leo", "Hydra"), step_seconds=step_seconds)
    state = with_marks(state, 1, {0: BEN})
    state, _ = act(state, Rest(ANA, state.version))
    assert state.phase is Phase.DREAMING
    return state


def shuffled(players: int, seed: int, clock: int | None = None) -> tuple[State, random.Random]:
    """A table dealt from the deck shuffled by ``seed``, the first player drawn by it too,
    and the game's random numbers, from the same seed."""
    rng = random.Random(seed)
    deck = tuple(rng.sample(DECK, len(DECK)))
    first = rng.randint(1, players)
    return deal(players, deck=deck, first_player=first, step_seconds=clock), rng


@st.composite
def random_tables(draw: st.DrawFn) -> tuple[State, random.Random]:
    """A table for a random game: 2-5 players, any deck order and first player, the clock
    off or at 60 s; and the game's random numbers."""
    players = draw(st.integers(LEAST, MOST))
    deck = tuple(draw(st.permutations(DECK)))
    first = draw(st.integers(1, players))
    clock = draw(st.sampled_from([None, 60]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return deal(players, deck=deck, first_player=first, step_seconds=clock), rng


Chooser = Callable[[State, random.Random], tuple[Command, datetime]]


def playing(
    state: State, rng: random.Random, chooser: Chooser, most: int = MOST_COMMANDS
) -> Iterator[tuple[State, list[object]]]:
    """The game from ``state`` to its end, a step a command: the chooser's command at the
    time it gives (accepted: ``act`` asserts it), the state after it and its events."""
    for _ in range(most):
        if state.ended:
            return
        command, now = chooser(state, rng)
        state, events = act(state, command, now)
        yield state, events
    raise AssertionError(f"the game did not end in {most} commands")


def played_out(state: State, rng: random.Random, chooser: Chooser) -> State:
    """The game from ``state`` played to its end by the chooser (``playing``)."""
    last = deque(playing(state, rng, chooser), maxlen=1)
    return last[0][0] if last else state


def stored(events: Iterable[object]) -> list[object]:
    return [CODEC.decode(*CODEC.encode(event)) for event in events]


def act(state: State, command: Command, now: datetime = NOW) -> tuple[State, list[object]]:
    """The state after ``command`` (which must be accepted) and its events."""
    decision = decide(state, command, now)
    assert isinstance(decision, list), decision
    return fold(decision, state), decision


def action_of(events: list[object]) -> list[object]:
    """The Action phase's events: up to the one that ends it (``ActionPhaseEnded`` or
    ``Rested``); what follows is the rest of the turn, made by itself (D1-D14, T3)."""
    for n, event in enumerate(events, 1):
        if isinstance(event, ActionPhaseEnded | Rested):
            return events[:n]
    return events


def action_ended(state: State, command: Command) -> tuple[State, list[object]]:
    """The table just after ``command`` ended the Action phase, before the rest of the turn
    goes on by itself (the Action phase's own rules are tested there)."""
    _, events = act(state, command)
    events = action_of(events)
    return fold(events, state), events


def refused(state: State, command: Command, now: datetime = NOW) -> Refusal:
    decision = decide(state, command, now)
    assert isinstance(decision, Refusal), decision
    return decision


def active(state: State) -> int:
    assert state.active is not None
    return state.active


def observing(state: State, slot: int, *stars: int) -> Observe:
    """The active seat's Observe against the version it sees."""
    return Observe(active(state), state.version, slot, stars)


def observe(state: State, slot: int, *stars: int) -> tuple[State, list[object]]:
    return act(state, observing(state, slot, *stars))


def rest(state: State) -> tuple[State, list[object]]:
    return act(state, Rest(active(state), state.version))


def done(state: State) -> tuple[State, list[object]]:
    return act(state, Done(active(state), state.version))


def with_journal(state: State, seat: int, **changes: object) -> State:
    """The state with one seat's Journal changed (a position the test needs)."""
    journal: Journal = kit.with_changes(state.journal(seat), **changes)
    journals = tuple(journal if s == seat else state.journal(s) for s in state.seats)
    return kit.with_changes(state, journals=journals)


def holding(state: State, seat: int, *cards: tuple[str, bool]) -> State:
    """The seat holds these cards (name, Active?), in this order of gain."""
    held = tuple(Held(number(name), is_active) for name, is_active in cards)
    return with_journal(state, seat, held=held)


def with_marks(state: State, slot: int, marks: Mapping[int, int]) -> State:
    """The card in ``slot`` with these stars marked (star -> seat, or DREAMER)."""
    placed = state.slot(slot)
    new = tuple(marks.get(star, mark) for star, mark in enumerate(placed.marks))
    slots = tuple(
        Slot(placed.card, new) if n == slot else other for n, other in enumerate(state.slots, 1)
    )
    return kit.with_changes(state, slots=slots)
