"""The Ability phase (A1-A8) and the 16 effect kinds (K1-K18) of the 48 cards (C1-C48):
every card's kind and amount, each kind's effect with its exact numbers, the this-turn kinds
settled at the end of the turn (T3), the refusals (A8, K17, K18) changing nothing (T5), and
the clock's leftovers (Z3 with K13, Z4 after K1)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import kit
from games.astra.rules.abilities import payouts
from games.astra.rules.cards import BY_NAME, AbilityKind
from games.astra.rules.commands import Command, Done, Expire, PickBoon, Rest, UseAbility
from games.astra.rules.decide import decide
from games.astra.rules.events import (
    AbilityMarked,
    AbilityUsed,
    ActionPhaseEnded,
    CardDiscovered,
    CardGained,
    Rested,
    TurnEnded,
    TurnStarted,
)
from games.astra.rules.evolve import fold
from games.astra.rules.model import Ending, Held, Phase, Slot, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    ANA,
    BEN,
    CETUS,
    HYDRA,
    LYRA,
    NOW,
    URSA_MAJOR,
    act,
    active,
    holding,
    number,
    observe,
    observing,
    refused,
    sky,
    stored,
    with_journal,
    with_marks,
)

K = AbilityKind


def table(*cards: str, step_seconds: int | None = None, **journal: object) -> State:
    """``sky()``: three players, Ana (seat 1) to act; Ana holds ``cards``, Active, and her
    Journal is as given."""
    state = holding(sky(3, step_seconds=step_seconds), ANA, *((name, True) for name in cards))
    return with_journal(state, ANA, **journal)


def using(state: State, name: str, *stars: tuple[int, int], k: int = 0) -> UseAbility:
    assert state.active is not None
    return UseAbility(state.active, state.version, number(name), stars, k)


def use(state: State, name: str, *stars: tuple[int, int], k: int = 0) -> tuple[State, list[object]]:
    return act(state, using(state, name, *stars, k=k))


def unchanged(state: State, command: Command) -> Refusal:
    """T5: the refusal, and the table as it was (a refused command has no events)."""
    refusal = refused(state, command)
    assert fold([], state) == state
    return refusal


def turn_end(events: list[object]) -> TurnEnded:
    return next(e for e in events if isinstance(e, TurnEnded))


# -- C1-C48: every card's Ability ------------------------------------------------------------

CARD_ABILITIES = [
    ("C1", "Andromeda", K.STAR_BURST, None),
    ("C2", "Aquarius", K.GRAND_SIEVE, None),
    ("C3", "Aquila", K.WINDFALL, 4),
    ("C4", "Ara", K.FORGE, None),
    ("C5", "Argo Navis", K.THREE_LIGHTS, None),
    ("C6", "Aries", K.WINDFALL, 3),
    ("C7", "Auriga", K.FORGE, None),
    ("C8", "Boötes", K.FREE_SIGHT, None),
    ("C9", "Cancer", K.GRAND_FAME, None),
    ("C10", "Canis Major", K.FREE_SIGHT, None),
    ("C11", "Canis Minor", K.INSIGHT, None),
    ("C12", "Capricornus", K.GRAND_SIEVE, None),
    ("C13", "Cassiopeia", K.PRESENCE, None),
    ("C14", "Centaurus", K.SPARK, None),
    ("C15", "Cepheus", K.LENS, None),
    ("C16", "Cetus", K.SPARK, None),
    ("C17", "Corona Australis", K.GRAND_FAME, None),
    ("C18", "Corona Borealis", K.LENS, None),
    ("C19", "Corvus", K.PRESENCE, None),
    ("C20", "Crater", K.DEEP_POUCH, None),
    ("C21", "Cygnus", K.FULL_REST, None),
    ("C22", "Delphinus", K.WINDFALL, 3),
    ("C23", "Draco", K.THREE_LIGHTS, None),
    ("C24", "Equuleus", K.WINDFALL, 2),
    ("C25", "Eridanus", K.STAR_BURST, None),
    ("C26", "Gemini", K.DEEP_POUCH, None),
    ("C27", "Hercules", K.TWIN_LIGHTS, None),
    ("C28", "Hydra", K.GRAND_SIEVE, None),
    ("C29", "Leo", K.WINDFALL, 4),
    ("C30", "Lepus", K.THREE_LIGHTS, None),
    ("C31", "Libra", K.HARMONY, None),
    ("C32", "Lupus", K.FULL_REST, None),
    ("C33", "Lyra", K.PRESENCE, None),
    ("C34", "Ophiuchus", K.TWIN_LIGHTS, None),
    ("C35", "Orion", K.GRAND_FAME, None),
    ("C36", "Pegasus", K.COMMON_PATH, None),
    ("C37", "Perseus", K.HARMONY, None),
    ("C38", "Pisces", K.TWIN_LIGHTS, None),
    ("C39", "Piscis Austrinus", K.COMMON_PATH, None),
    ("C40", "Sagitta", K.INSIGHT, None),
    ("C41", "Sagittarius", K.FULL_REST, None),
    ("C42", "Scorpius", K.FREE_SIGHT, None),
    ("C43", "Serpens", K.SPARK, None),
    ("C44", "Taurus", K.COMMON_PATH, None),
    ("C45", "Triangulum", K.WINDFALL, 2),
    ("C46", "Ursa Major", K.FORGE, None),
    ("C47", "Ursa Minor", K.LENS, None),
    ("C48", "Virgo", K.STAR_BURST, None),
]
THIS_TURN = {K.GRAND_SIEVE, K.FREE_SIGHT, K.GRAND_FAME, K.FULL_REST, K.COMMON_PATH}


@pytest.mark.parametrize(("rule", "name", "kind", "amount"), CARD_ABILITIES)
def test_c1_c48_each_card_has_its_ability_kind_amount_and_timing(
    rule: str, name: str, kind: AbilityKind, amount: int | None
) -> None:
    """C1-C48, A3, A4: the card numbered as its C-rule has the kind, the Windfall's amount,
    and the timing (instant or this turn) the page gives it."""
    card = BY_NAME[name]
    assert f"C{card.number}" == rule
    assert (card.ability.kind, card.ability.amount) == (kind, amount)
    assert card.ability.kind.this_turn == (kind in THIS_TURN)


def test_c1_c48_a_windfall_used_gains_its_cards_amount() -> None:
    """C3, C6, C22, C24, C29, C45 (K3): 4, 3, 3, 2, 4, 2 Stardust, used for real."""
    for _, name, kind, amount in CARD_ABILITIES:
        if kind is K.WINDFALL:
            state, events = use(table(name, stardust=1), name)
            assert events == [AbilityUsed(ANA, number(name), kind, stardust=amount or 0)]
            assert state.journal(ANA).stardust == 1 + (amount or 0)


# -- A1-A8: the Ability phase -------------------------------------------------------------------


def test_a1_a2_abilities_one_at_a_time_each_card_exhausted_at_once() -> None:
    state = table("Aquila", "Cepheus", stardust=2)
    state, _ = use(state, "Cepheus")
    assert state.journal(ANA).held == (Held(number("Aquila")), Held(number("Cepheus"), False))
    state, _ = use(state, "Aquila")
    assert all(not held.active for held in state.journal(ANA).held)  # A2
    assert (state.journal(ANA).stardust, state.journal(ANA).telescopes) == (6, 1)
    assert state.phase is Phase.ABILITY  # A1: still the Ability phase
    assert unchanged(state, using(state, "Aquila")) == Refusal(
        "Aquila is Exhausted: its Ability can be used again once it is reactivated (A2).",
        Problem.CONFLICT,
    )


def test_a1_a8_only_the_active_player_uses_only_their_own_cards() -> None:
    state = holding(table("Aquila"), BEN, ("Leo", True))
    assert unchanged(state, using(state, "Leo")) == Refusal(
        "You can only use the Ability of a card you hold (A1)."
    )
    other = UseAbility(BEN, state.version, number("Leo"))
    assert decide(state, other, NOW) == Refusal(
        "It is another player's turn: only they act now (T2).", Problem.FORBIDDEN
    )
    stale = UseAbility(ANA, state.version - 1, number("Aquila"))
    assert isinstance(decide(state, stale, NOW), Refusal)  # T4


def test_a5_abilities_end_with_the_first_observe_or_rest() -> None:
    state = table("Aquila", "Leo", telescopes=1)
    observed, _ = observe(state, URSA_MAJOR, 0)
    assert observed.phase is Phase.OBSERVING
    assert unchanged(observed, using(observed, "Aquila")) == Refusal(
        "Abilities are used at the start of your turn, before its first Observe or Rest (A5).",
        Problem.CONFLICT,
    )
    state, _ = use(state, "Leo")
    rested, events = act(state, Rest(ANA, state.version))
    assert isinstance(events[0], Rested)
    assert rested.active == BEN  # the turn went on and ended
    assert rested.journal(ANA).held[0] == Held(number("Aquila"))  # Active, never used


def test_a6_a_card_gained_this_turn_is_usable_from_the_next_turn() -> None:
    """A6: Lyra, completed by Ana's Star Burst (D14), is gained in the Discovery phase after
    her Ability phase is over; it is usable on her next turn."""
    state = with_marks(table("Andromeda"), LYRA, {3: BEN})
    state, events = use(state, "Andromeda", (LYRA, 0))  # 0, then its neighbours 1 and 2
    assert events[1:] == [
        AbilityMarked(ANA, LYRA, number("Lyra"), (0, 1, 2), 1),  # star 2 is Grand (O8)
        CardDiscovered(ANA, LYRA, number("Lyra")),
    ]
    state, events = act(state, Done(ANA, state.version))  # A5: the Discovery phase runs
    assert state.phase is Phase.PICKING  # Ben marked star 3: he picks a Boon (D4)
    assert unchanged(state, using(state, "Andromeda")) == Refusal(
        "Abilities are used at the start of your turn, before its first Observe or Rest (A5).",
        Problem.CONFLICT,
    )
    state, events = act(state, PickBoon(BEN, state.picks.number if state.picks else 0, 4))
    assert CardGained(ANA, LYRA, number("Lyra")) in events
    assert state.active == BEN
    while state.active != ANA:
        state, _ = act(state, Rest(active(state), state.version))
    state, events = use(state, "Lyra")  # her next turn: usable (C33, K9)
    assert events == [AbilityUsed(ANA, number("Lyra"), K.PRESENCE, fame=0)]


def test_a8_an_ability_that_gains_nothing_may_still_be_used() -> None:
    """A8, K8, K12: Insight with the Wisdom track full and Deep Pouch with the Pouch at 12."""
    state = table("Sagitta", "Crater", wisdom=11, pouch_gains=7)
    state, events = use(state, "Sagitta")
    assert events == [AbilityUsed(ANA, number("Sagitta"), K.INSIGHT, wisdom=0)]
    state, events = use(state, "Crater")
    assert events == [AbilityUsed(ANA, number("Crater"), K.DEEP_POUCH, pouch=0)]
    assert (state.journal(ANA).wisdom, state.journal(ANA).pouch_size) == (11, 12)


# -- the instant kinds ----------------------------------------------------------------------------


def test_k3_windfall_gains_stardust_past_the_pouch_size() -> None:
    state, _ = use(table("Aquila", stardust=5), "Aquila")  # C3
    assert state.journal(ANA).stardust == 9 > state.journal(ANA).pouch_size


def test_k4_forge_turns_3_stardust_into_1_telescope_k_times() -> None:
    state, events = use(table("Ara", stardust=7), "Ara", k=2)  # C4
    assert events == [AbilityUsed(ANA, number("Ara"), K.FORGE, stardust=-6, telescopes=2)]
    assert (state.journal(ANA).stardust, state.journal(ANA).telescopes) == (1, 2)


def test_k4_a8_forge_refused_without_3_stardust_or_with_a_wrong_count() -> None:
    poor = table("Auriga", stardust=2)  # C7
    assert unchanged(poor, using(poor, "Auriga", k=1)) == Refusal(
        "A Forge turns 3 Stardust into 1 Telescope, and you have 2 (K4, A8).", Problem.CONFLICT
    )
    rich = table("Ursa Major", stardust=7)  # C46
    for k in (0, 3):
        assert unchanged(rich, using(rich, "Ursa Major", k=k)) == Refusal(
            "Name how many Telescopes to forge: 1 to 2 with 7 Stardust (K4)."
        )


def test_k8_insight_gains_1_wisdom() -> None:
    state, _ = use(table("Canis Minor", wisdom=2), "Canis Minor")  # C11
    assert (state.journal(ANA).wisdom, state.journal(ANA).card_limit) == (3, 4)


def test_k9_presence_1_fame_per_undiscovered_card_bearing_your_mark() -> None:
    state = with_marks(table("Cassiopeia"), LYRA, {0: ANA, 1: ANA})
    state = with_marks(state, HYDRA, {0: ANA})
    state = with_marks(state, CETUS, {0: BEN})
    state, events = use(state, "Cassiopeia")  # C13
    assert events == [AbilityUsed(ANA, number("Cassiopeia"), K.PRESENCE, fame=2)]
    assert state.journal(ANA).fame == 2


def test_k10_spark_marks_any_unmarked_star_free_ignoring_o3() -> None:
    state = table("Centaurus", stardust=0)  # C14
    state, events = use(state, "Centaurus", (URSA_MAJOR, 6))  # Grand, far from any mark
    assert events[1] == AbilityMarked(ANA, URSA_MAJOR, number("Ursa Major"), (6,), 1)  # O8
    assert state.slot(URSA_MAJOR).marks[6] == ANA and state.journal(ANA).stardust == 0
    assert state.journal(ANA).wisdom == 1 and state.phase is Phase.ABILITY


def test_k11_lens_gains_1_telescope() -> None:
    state, _ = use(table("Ursa Minor"), "Ursa Minor")  # C47
    assert state.journal(ANA).telescopes == 1


def test_k12_deep_pouch_gains_1_pouch_size() -> None:
    state, _ = use(table("Gemini"), "Gemini")  # C26
    assert state.journal(ANA).pouch_size == 6


def test_k15_harmony_1_fame_per_held_card_of_the_active_spheres_element() -> None:
    """K15: the marker is on Fire; Ana holds Libra (Air, this card), Aries and Leo (Fire)."""
    state = holding(table(), ANA, ("Libra", True), ("Aries", False), ("Leo", True))
    state, events = use(state, "Libra")  # C31
    assert events == [AbilityUsed(ANA, number("Libra"), K.HARMONY, fame=2)]
    state = holding(table(), ANA, ("Perseus", True), ("Triangulum", True))
    state = kit.with_changes(state, sphere=BY_NAME["Perseus"].element)  # Earth
    state, events = use(state, "Perseus")  # C37: this card included
    assert events == [AbilityUsed(ANA, number("Perseus"), K.HARMONY, fame=2)]


def test_k5_three_lights_one_legal_first_star_on_each_of_three_cards() -> None:
    state = with_marks(table("Argo Navis"), CETUS, {0: BEN})
    state, events = use(state, "Argo Navis", (LYRA, 0), (URSA_MAJOR, 0), (CETUS, 1))  # C5
    assert events[1:] == [
        AbilityMarked(ANA, LYRA, number("Lyra"), (0,), 0),
        AbilityMarked(ANA, URSA_MAJOR, number("Ursa Major"), (0,), 0),
        AbilityMarked(ANA, CETUS, number("Cetus"), (1,), 0),
    ]
    assert state.journal(ANA).stardust == 8  # free


def test_k5_k18_three_lights_refused_off_o3_or_on_the_same_card() -> None:
    state = table("Draco")  # C23
    assert unchanged(state, using(state, "Draco", (LYRA, 0), (LYRA, 1), (HYDRA, 0))) == (
        Refusal("Three Lights marks one star on each of 3 different undiscovered cards (K5).")
    )
    assert unchanged(state, using(state, "Draco", (LYRA, 0), (HYDRA, 2), (CETUS, 0))) == (
        Refusal(
            "Nothing is marked on Hydra yet: a chain on it starts at its Starting star, "
            "star 0 (O3)."
        )
    )


def test_k14_twin_lights_a_chain_of_two_or_one_star_on_each_of_two_cards() -> None:
    state, events = use(table("Hercules"), "Hercules", (URSA_MAJOR, 0), (URSA_MAJOR, 1))
    assert events[1:] == [AbilityMarked(ANA, URSA_MAJOR, number("Ursa Major"), (0, 1), 0)]
    state, events = use(table("Pisces"), "Pisces", (LYRA, 0), (HYDRA, 0))  # C38
    assert [type(e) for e in events] == [AbilityUsed, AbilityMarked, AbilityMarked]
    one = table("Ophiuchus")  # C34
    assert unchanged(one, using(one, "Ophiuchus", (LYRA, 0))) == Refusal(
        "Twin Lights marks two stars whenever two can be marked (K14)."
    )
    assert unchanged(one, using(one, "Ophiuchus", (LYRA, 0), (LYRA, 3))) == Refusal(
        "Star 3 of Lyra is not joined to star 0, the star marked just before it (O4)."
    )


def test_k18_a_marking_ability_is_checked_whole_and_refusals_change_nothing() -> None:
    state = with_marks(table("Serpens"), LYRA, {0: BEN})  # C43
    assert unchanged(state, using(state, "Serpens", (LYRA, 0))) == Refusal(
        "Star 0 of Lyra is already marked: no star is marked twice (O5)."
    )
    assert unchanged(state, using(state, "Serpens")) == Refusal(
        "Choose exactly one star to mark (K10)."
    )
    assert unchanged(state, using(state, "Serpens", (9, 0))) == Refusal(
        "There is no slot 9: the Sphere has slots 1-4."
    )
    aquila = table("Aquila")
    assert unchanged(aquila, using(aquila, "Aquila", (LYRA, 0))) == Refusal(
        "Aquila's Ability marks no star (K18)."
    )
    assert unchanged(aquila, using(aquila, "Aquila", k=1)) == Refusal(
        "Aquila's Ability converts nothing: only a Forge names a count (K4)."
    )
    assert state.journal(ANA).held[0].active  # the card stays Active after a refusal


# -- K1: Star Burst ----------------------------------------------------------------------------


def test_k1_star_burst_marks_a_star_and_its_neighbours_and_skips_the_action_phase() -> None:
    state = table("Virgo", "Aquila")  # C48
    state, events = use(state, "Virgo", (URSA_MAJOR, 3))
    assert events[1:] == [AbilityMarked(ANA, URSA_MAJOR, number("Ursa Major"), (3, 2, 4, 5), 1)]
    assert state.skipped and state.phase is Phase.ABILITY
    assert unchanged(state, observing(state, LYRA, 0)) == Refusal(
        "Your Star Burst skipped this turn's Action phase: no Observe or Rest; say Done when "
        "you have used your Abilities (K1, A5).",
        Problem.CONFLICT,
    )
    assert unchanged(state, Rest(ANA, state.version)) == refused(state, observing(state, LYRA, 0))
    state, _ = use(state, "Aquila")  # other Abilities still
    state, events = act(state, Done(ANA, state.version))
    assert events[0] == ActionPhaseEnded(ANA, Ending.DONE)
    assert isinstance(events[-1], TurnStarted) and not state.rested  # no Rest, no Dream


def test_k1_a8_star_burst_refused_with_no_undiscovered_card() -> None:
    state = table("Eridanus")  # C25
    state = kit.with_changes(state, slots=(Slot(),) * 4)
    assert unchanged(state, using(state, "Eridanus", (LYRA, 0))) == Refusal(
        "Eridanus's Ability marks a star, and no undiscovered card is on the Sphere (K1).",
        Problem.CONFLICT,
    )


def test_z4_the_clock_ends_the_ability_phase_after_a_star_burst() -> None:
    state = table("Andromeda", step_seconds=60)  # C1
    state, _ = use(state, "Andromeda", (LYRA, 0))
    state, events = act(state, Expire(state.step_started), NOW + timedelta(seconds=60))
    assert events[0] == ActionPhaseEnded(ANA, Ending.TIME_UP, by_clock=True)
    assert not any(isinstance(e, Rested) for e in events)


def test_o8_d14_marks_made_by_abilities_are_the_users_and_complete_cards() -> None:
    state = with_marks(table("Cetus"), LYRA, {0: BEN, 1: BEN, 3: BEN})  # C16
    state, events = use(state, "Cetus", (LYRA, 2))
    assert events[1:] == [
        AbilityMarked(ANA, LYRA, number("Lyra"), (2,), 1),
        CardDiscovered(ANA, LYRA, number("Lyra")),
    ]
    assert state.journal(ANA).wisdom == 1 and state.discovered == (LYRA,)
    state, _ = observe(state, URSA_MAJOR, 0)
    assert state.slot(LYRA).discovered  # waits for the Discovery phase


def test_i2_ability_events_fold_from_storage() -> None:
    start = table("Andromeda", "Cancer", "Ara", stardust=6)
    state, history = use(start, "Cancer")
    state, events = use(state, "Ara", k=1)
    history += events
    state, events = use(state, "Andromeda", (URSA_MAJOR, 3))
    history += events
    state, events = act(state, Done(ANA, state.version))
    history += events
    assert fold(stored(history), start) == state
    assert turn_end(history).fame == 1  # K7: the Grand star 3 of the Star Burst
    assert payouts(state).fame == 0  # forgotten once the next turn started (T3)


# -- the this-turn kinds (A4, T3) ------------------------------------------------------------


def test_k2_grand_sieve_returns_what_each_observe_paid_before_its_first_grand_star() -> None:
    """K2 (C2): Ursa Major 0, 1, 2, 3 reaches Grand 3 after 3 stars: 3 back; Lyra 0, 2
    reaches Grand 2 after 1: 1 back; Hydra 0, 1 reaches none: nothing back."""
    state = table("Aquarius", stardust=8, telescopes=2)
    state, events = use(state, "Aquarius")
    assert events == [AbilityUsed(ANA, number("Aquarius"), K.GRAND_SIEVE)]
    assert state.in_force == (number("Aquarius"),)
    state, _ = observe(state, URSA_MAJOR, 0, 1, 2, 3)
    state, _ = observe(state, LYRA, 0, 2)
    state, events = observe(state, HYDRA, 0, 1)
    assert turn_end(events) == TurnEnded(ANA, 0, stardust_returned=4, fame=0)
    assert state.journal(ANA).stardust == 8 - 8 + 4
    assert state.in_force == ()  # T3: forgotten


def test_k2_c12_c28_a_grand_star_first_returns_nothing_and_a_second_sieve_is_refused() -> None:
    state, _ = use(table("Capricornus", "Hydra", stardust=3), "Capricornus")
    assert unchanged(state, using(state, "Hydra")) == Refusal(
        "A Grand Sieve is already in force this turn: a second one adds nothing (K2, K17).",
        Problem.CONFLICT,
    )
    state = with_marks(state, URSA_MAJOR, {0: BEN, 1: BEN, 2: BEN})
    state, events = observe(state, URSA_MAJOR, 3, 4)
    assert turn_end(events).stardust_returned == 0


def test_k6_free_sight_an_observe_may_start_on_any_unmarked_common_star() -> None:
    """K6 (C8): Ursa Major has no mark; Ana starts on its Common star 1 (O4 after it)."""
    state = table("Boötes", "Canis Major", telescopes=1)
    assert refused(state, observing(state, URSA_MAJOR, 1, 2)) == Refusal(
        "Nothing is marked on Ursa Major yet: a chain on it starts at its Starting star, "
        "star 0 (O3)."
    )
    state, _ = use(state, "Boötes")
    assert unchanged(state, observing(state, URSA_MAJOR, 3, 4)) == Refusal(
        "Star 3 of Ursa Major is neither a Common star (Free Sight, K6) nor next to a marked "
        "star (O3)."
    )
    assert unchanged(state, using(state, "Canis Major")) == Refusal(  # C10, K17
        "A Free Sight is already in force this turn: a second one adds nothing (K6, K17).",
        Problem.CONFLICT,
    )
    state, events = observe(state, URSA_MAJOR, 1, 2, 3)
    assert state.slot(URSA_MAJOR).marks[1:4] == (ANA, ANA, ANA)
    state, _ = observe(state, HYDRA, 2, 1)  # every Observe of the turn (C42 reads the same)
    assert state.slot(HYDRA).marks[1:3] == (ANA, ANA)


def test_k7_grand_fame_pays_each_grand_star_of_the_whole_turn_and_stacks() -> None:
    """K7, K17 (C9, C35): a Spark on Grand 6 before, an Observe through Grand 3 after; two
    copies in force: 2 Fame each."""
    state = table("Centaurus", "Cancer", "Orion", stardust=5)
    state, _ = use(state, "Centaurus", (URSA_MAJOR, 6))
    state, _ = use(state, "Cancer")
    state, _ = use(state, "Orion")  # stacking: not refused
    state, events = observe(state, URSA_MAJOR, 5, 3)
    assert turn_end(events) == TurnEnded(ANA, 0, stardust_returned=0, fame=4)
    assert (state.journal(ANA).fame, state.journal(ANA).wisdom) == (4, 2)  # O8 as well


def test_k7_c17_grand_fame_pays_nothing_without_a_grand_star() -> None:
    state, _ = use(table("Corona Australis"), "Corona Australis")
    state, events = observe(state, LYRA, 0, 1)
    assert turn_end(events).fame == 0


def test_k13_full_rest_gains_the_pouch_size_on_top_of_the_stardust() -> None:
    """K13 (C21): 3 Stardust, Pouch size 5: the Rest gains 5 (a refill would gain 2)."""
    state, _ = use(table("Cygnus", "Lupus", stardust=3), "Cygnus")
    assert unchanged(state, using(state, "Lupus")) == Refusal(  # C32, K17
        "A Full Rest is already in force this turn: a second one adds nothing (K13, K17).",
        Problem.CONFLICT,
    )
    state, events = act(state, Rest(ANA, state.version))
    assert isinstance(events[0], Rested) and events[0].stardust == 5
    assert state.journal(ANA).stardust == 8 > 5  # past the Pouch size


def test_k13_full_rest_does_nothing_on_an_observe_turn() -> None:
    state, _ = use(table("Lupus", stardust=3), "Lupus")  # C32
    state, events = observe(state, LYRA, 0)
    assert turn_end(events) == TurnEnded(ANA, 0) and state.journal(ANA).stardust == 2


def test_z3_k13_the_clocks_rest_takes_the_full_rest_in_force() -> None:
    state = table("Sagittarius", stardust=6, step_seconds=60)  # C41
    state, _ = use(state, "Sagittarius")
    state, events = act(state, Expire(state.step_started), NOW + timedelta(seconds=60))
    assert isinstance(events[0], Rested) and events[0].by_clock and events[0].stardust == 5
    assert state.journal(ANA).stardust == 11


def test_k16_common_path_returns_all_paid_when_only_common_stars_were_marked() -> None:
    """K16 (C36): Ben marked Ursa Major's star 0; Ana Observes Common 1 and 2: 2 back."""
    state = with_marks(table("Pegasus", stardust=4), URSA_MAJOR, {0: BEN})
    state, _ = use(state, "Pegasus")
    state, events = observe(state, URSA_MAJOR, 1, 2)
    assert turn_end(events) == TurnEnded(ANA, 0, stardust_returned=2)
    assert state.journal(ANA).stardust == 4


def test_k16_common_path_returns_nothing_after_a_starting_star_or_a_discovery() -> None:
    state, _ = use(table("Piscis Austrinus"), "Piscis Austrinus")  # C39
    state, events = observe(state, URSA_MAJOR, 0, 1)  # a Starting star is not Common
    assert turn_end(events).stardust_returned == 0
    state = with_marks(table("Taurus"), LYRA, {0: ANA, 1: ANA, 2: ANA})  # C44
    state, _ = use(state, "Taurus")
    state, events = observe(state, LYRA, 3)  # Common, but Lyra is discovered
    assert turn_end(events).stardust_returned == 0


def test_k17_grand_sieve_and_common_path_return_each_stardust_at_most_once() -> None:
    both = with_marks(table("Aquarius", "Pegasus"), URSA_MAJOR, {0: BEN})
    both, _ = use(both, "Aquarius")
    both, _ = use(both, "Pegasus")
    _, events = observe(both, URSA_MAJOR, 1, 2)  # Common only: K16 returns all, once
    assert turn_end(events).stardust_returned == 2
    _, events = observe(both, URSA_MAJOR, 1, 2, 3, 4)  # Grand 3: K2's refund, 2
    assert turn_end(events).stardust_returned == 2


def only(state: State, slot: int) -> State:
    """The table with every slot but ``slot`` empty (the deck ran out, D13)."""
    slots = tuple(placed if n == slot else Slot() for n, placed in enumerate(state.slots, 1))
    return kit.with_changes(state, slots=slots)


def test_k5_lepus_with_one_undiscovered_card_marks_one_star() -> None:
    """K5 (C30): min(3, undiscovered cards) stars, one a card."""
    state = only(table("Lepus"), HYDRA)
    assert unchanged(state, using(state, "Lepus", (HYDRA, 0), (HYDRA, 1))) == Refusal(
        "Three Lights marks one star on each of 1 different undiscovered card (K5)."
    )
    state, events = use(state, "Lepus", (HYDRA, 0))
    assert events[1:] == [AbilityMarked(ANA, HYDRA, number("Hydra"), (0,), 0)]


def test_k14_twin_lights_marks_one_star_when_two_cannot_be_marked() -> None:
    """K14 (C27): Lyra, the only card, has one unmarked star left: one star, and Lyra is
    discovered (D14)."""
    state = with_marks(only(table("Hercules"), LYRA), LYRA, {0: BEN, 1: BEN, 2: BEN})
    state, events = use(state, "Hercules", (LYRA, 3))
    assert events[1:] == [
        AbilityMarked(ANA, LYRA, number("Lyra"), (3,), 0),
        CardDiscovered(ANA, LYRA, number("Lyra")),
    ]


def test_a7_an_ability_overrides_the_written_rule_it_contradicts() -> None:
    """A7: a Spark (K10, C16) marks past O3; a Full Rest (K13) fills past R2's cap."""
    state, _ = use(table("Cetus", "Cygnus", stardust=5), "Cetus", (URSA_MAJOR, 4))
    assert state.slot(URSA_MAJOR).marks[4] == ANA and 0 not in state.slot(URSA_MAJOR).marked
    state, _ = use(state, "Cygnus")
    state, _ = act(state, Rest(ANA, state.version))
    assert state.journal(ANA).stardust == 10 > state.journal(ANA).pouch_size
