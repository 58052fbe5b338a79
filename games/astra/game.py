"""Astra, as the platform reads it: the one definition of this game.

Everything random is drawn here, by the server, and stored in the event that needs it (H5):
the deck's order with the Game End card's place, the Final Scoring deal and the first player
in the deal, and the two numbers an expired Dream step chooses with (Z6) in the clock's
command. A player's stars travel in one field (``chain.py``); the marking strip
(``markings.py``) is the ``mark`` preview, which records nothing (O10, U3).
"""

from __future__ import annotations

import random
from datetime import datetime

from games.codec import EventSchemas
from games.definition import (
    Action,
    Computer,
    Form,
    GameDefinition,
    HowToPlay,
    Preview,
    Screens,
    Seats,
    Table,
)
from games.inputs import BadInput, integer, one_of
from games.kit import Problem
from games.registry import register

from . import chain, how_to_play, markings, presenters
from .rules import robot
from .rules.boards import ABOVE_GAME_END, FINAL_SCORING_CARDS, PLAYER_COUNTS
from .rules.cards import CARD_COUNT
from .rules.commands import (
    Command,
    Deal,
    DiscardCards,
    Done,
    Dream,
    Expire,
    Observe,
    PickBoon,
    Rest,
    UseAbility,
)
from .rules.decide import decide
from .rules.dream import CLOCK_PICKS
from .rules.events import EVENT_TYPES
from .rules.evolve import evolve
from .rules.model import State
from .rules.view import view_for

SLUG = "astra"
MOST_VERSION = 10**9
RANDOM_PICK = 2**31  # Z6: a clock's random number is any whole number >= 0 (H5)
MOST_TARGETS = 8  # B7: an Activation names at most the cards a player may hold


# -- what the server draws ------------------------------------------------------------------


def deal_command(
    *, players: int, step_seconds: int | None, rng: random.Random | None = None
) -> Deal:
    """S2, S5, P3: the 48 cards shuffled with the Game End card's place fixed by the player
    count, a Final Scoring card for each seat, the first player."""
    rng = rng or random.SystemRandom()
    deck = list(range(1, CARD_COUNT + 1))
    rng.shuffle(deck)
    scoring = rng.sample([card.id for card in FINAL_SCORING_CARDS], players)
    return Deal(
        players=players,
        deck=tuple(deck),
        above_game_end=ABOVE_GAME_END[players],
        scoring=tuple(scoring),
        first_player=rng.randint(1, players),
        step_seconds=step_seconds,
    )


def _deal(table: Table) -> Command:
    return deal_command(players=table.players, step_seconds=table.step_seconds, rng=table.rng)


def _expire(step: int, rng: random.Random) -> Command:
    """Z2-Z7: the clock's command, with the numbers an expired Dream step chooses with."""
    return Expire(step=step, picks=tuple(rng.randrange(RANDOM_PICK) for _ in range(CLOCK_PICKS)))


# -- what a seated player sends ---------------------------------------------------------------


def _version(form: Form) -> int:
    return integer(form.get("version"), "version", 0, MOST_VERSION)


def _observe(form: Form, seat: int) -> Command:
    slot, stars = chain.one_card(chain.read(form.get(chain.FIELD)))
    return Observe(seat=seat, version=_version(form), slot=slot, stars=stars)


def _dream(form: Form, seat: int) -> Command:
    slot, stars = chain.one_card(chain.read(form.get(chain.FIELD)))
    return Dream(seat=seat, version=_version(form), slot=slot, stars=stars)


def _card(raw: str | None, label: str = "card") -> int:
    return integer(raw, label, 1, CARD_COUNT)


def _ability(form: Form, seat: int) -> Command:
    card = _card(form.get("card"))
    raw_k = form.get("k")
    k = integer(raw_k, "number of Telescopes to forge", 0, 99) if raw_k else 0
    stars = chain.read(form.get(chain.FIELD))
    return UseAbility(seat=seat, version=_version(form), card=card, stars=stars, k=k)


def _rest(form: Form, seat: int) -> Command:
    return Rest(seat=seat, version=_version(form))


def _done(form: Form, seat: int) -> Command:
    return Done(seat=seat, version=_version(form))


def cards_of(raw: str | None, label: str) -> tuple[int, ...]:
    """A list of card numbers written "3-17-40" (the strip and the forms write it)."""
    if not raw:
        return ()
    parts = raw.split("-")
    if len(parts) > CARD_COUNT:
        raise BadInput(f"Too many cards in the {label}.")
    return tuple(_card(part, label) for part in parts)


def _pick(form: Form, seat: int) -> Command:
    """D6, B7: the pick step, the box and, for an Activation, the ticked cards."""
    step = integer(form.get("step"), "pick step", 0, MOST_VERSION)
    box = integer(form.get("box"), "Boon box", 1, 4)
    targets = tuple(
        _card(raw, "card to reactivate")
        for n in range(1, MOST_TARGETS + 1)
        if (raw := form.get(f"target-{n}"))
    )
    return PickBoon(seat=seat, step=step, box=box, targets=targets)


def _discard(form: Form, seat: int) -> Command:
    """L1, U6: the held cards (``held``) and the ones ticked to keep (``keep-<card>``):
    every held card not kept is discarded."""
    held = cards_of(form.get("held"), "cards held")
    for card in held:
        one_of(form.get(f"keep-{card}") or "0", ("0", "1"), "A card is kept or not.")
    discarded = tuple(card for card in held if form.get(f"keep-{card}") != "1")
    return DiscardCards(seat=seat, version=_version(form), cards=discarded)


# -- the marking strip: one tap, recorded nowhere (O10, U3) -----------------------------------


class StepOver(BadInput):
    """A tap on a strip whose step closed meanwhile: the push brings the next."""

    status = 409


def _mark(state: State, seat: int, form: Form, now: datetime) -> markings.MarkArea:
    if _version(form) != state.version:
        raise StepOver("The table changed a moment ago: your screen shows it as it is now.")
    offered = markings.modes(state, seat)
    if not offered:
        raise StepOver("There is nothing for you to mark now.")
    mode = one_of(form.get("mode") or offered[0], offered, "That cannot be marked now.")
    to = form.get("to") or ""
    if to:
        to = one_of(to, offered, "That cannot be marked now.")
    taps = chain.read(form.get(chain.FIELD))
    add_raw = form.get("add")
    add = chain.read(add_raw) if add_raw else ()
    if len(add) > 1:
        raise BadInput("Tap one star at a time.")
    raw_open = form.get("open")
    open_slot = integer(raw_open, "slot", 1, len(state.slots)) if raw_open else None
    area = markings.tapped(
        state,
        seat,
        now,
        mode=mode,
        taps=taps,
        open_slot=open_slot,
        add=add[0] if add else None,
        undo=bool(form.get("undo")),
        clear=bool(form.get("clear")),
        to=to,
    )
    if area is None:
        raise StepOver("There is nothing for you to mark now.")
    return area


def _computer_move(state: State, seat: int, rng: random.Random) -> Command:
    return robot.move(state, seat, rng)


GAME: GameDefinition[State, Command] = register(
    GameDefinition(
        slug=SLUG,
        title="Astra",
        summary=(
            "Spend Stardust to trace the 48 constellations around the Sphere: discover a card "
            "to take its Ability, help discover one to earn its Boons."
        ),
        seats=Seats(
            min(PLAYER_COUNTS),
            max(PLAYER_COUNTS),
            mode=lambda n: "Two players, with the dreamer pen" if n == 2 else "",
        ),
        initial=State,
        decide=decide,
        evolve=evolve,
        view_for=view_for,
        event_types=EVENT_TYPES,
        event_schemas=EventSchemas(),
        deal=_deal,
        expire=_expire,
        expiry_type=Expire,
        actions={
            "observe": Action(_observe, quiet=frozenset({Problem.INVALID})),
            "dream": Action(_dream, quiet=frozenset({Problem.INVALID})),
            "ability": Action(_ability, quiet=frozenset({Problem.INVALID})),
            "rest": Action(_rest),
            "done": Action(_done),
            "pick": Action(_pick),
            "discard": Action(_discard),
        },
        previews={"mark": Preview(_mark)},
        screens=Screens.of("astra/board.html", presenters, jump_label="Jump to a turn"),
        how_to_play=HowToPlay("astra/rules.html", how_to_play.context),
        computer=Computer(robot.waiting, _computer_move),
        styles=("astra/board.css",),
        scripts=("astra/limit.js",),
    )
)

__all__ = ["GAME", "cards_of", "deal_command"]
