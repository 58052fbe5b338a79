"""The kit the rules share, on a tiny clocked game of its own: the clock's guards, the
refusals and their words, the fold and the hidden repr."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from games import kit
from games.kit import Problem, Refusal

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@kit.hiding("secret")
@dataclass(frozen=True)
class Table:
    version: int = 0
    dealt: bool = True
    ended: bool = False
    step_started: int = 3
    deadline: datetime | None = NOW
    players: int = 3
    secret: str = "the key"


def test_a_deadline_is_the_steps_seconds_after_now_or_none_with_the_clock_off() -> None:
    assert kit.deadline_after(90, NOW) == NOW + timedelta(seconds=90)
    assert kit.deadline_after(None, NOW) is None


def test_time_is_up_at_the_deadline_itself() -> None:
    second = timedelta(seconds=1)
    assert kit.time_is_up(Table(), NOW - second) is None
    assert kit.time_is_up(Table(), NOW, called="turn") == Refusal(
        "Time is up for this turn.", Problem.CONFLICT
    )
    assert kit.time_is_up(Table(deadline=None), NOW + second) is None


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        (Table(dealt=False), "Not dealt."),
        (Table(ended=True), "The game is over."),
        (Table(), "Time is up for this step."),
    ],
)
def test_a_player_acts_only_between_the_deal_and_the_end_before_the_deadline(
    table: Table, reason: str
) -> None:
    assert kit.in_play(table, NOW, undealt="Not dealt.") == Refusal(reason, Problem.CONFLICT)


def test_a_player_in_time_is_in_play() -> None:
    assert kit.in_play(Table(), NOW - timedelta(seconds=1), undealt="Not dealt.") is None


@pytest.mark.parametrize(
    ("table", "step", "reason"),
    [
        (Table(dealt=False), 3, "The game is not running."),
        (Table(ended=True), 3, "The game is not running."),
        (Table(), 2, "That turn is already over."),
        (Table(deadline=None), 3, "This turn has no clock."),
        (Table(deadline=NOW + timedelta(seconds=1)), 3, "This turn still has time."),
    ],
)
def test_the_clock_expires_only_the_step_still_running_once_its_time_is_up(
    table: Table, step: int, reason: str
) -> None:
    refusal = kit.expiry_refused(table, step, NOW, called="turn")
    assert refusal == Refusal(reason, Problem.CONFLICT)


def test_the_clock_expires_the_running_step_at_its_deadline() -> None:
    assert kit.expiry_refused(Table(), 3, NOW) is None


def expired(table: Table) -> kit.Decision:
    return kit.expiry_refused(table, table.step_started, NOW) or ["expired"]


def test_a_due_step_expires_before_anything_else() -> None:
    assert kit.expire_if_due(Table(), NOW, expired) == ["expired"]


@pytest.mark.parametrize(
    "table", [Table(deadline=NOW + timedelta(seconds=1)), Table(deadline=None), Table(ended=True)]
)
def test_nothing_expires_before_its_deadline_without_a_clock_or_after_the_end(
    table: Table,
) -> None:
    assert kit.expire_if_due(table, NOW, expired) == []


def test_a_refused_expiry_expires_nothing() -> None:
    refused = Refusal("no", Problem.CONFLICT)
    assert kit.expire_if_due(Table(), NOW, lambda table: refused) == []


def test_a_command_against_a_replaced_version_is_stale() -> None:
    assert kit.stale(4, 4, "Changed.") is None
    assert kit.stale(3, 4, "Changed.") == Refusal("Changed.", Problem.CONFLICT)


@pytest.mark.parametrize("seat", [0, 4, -1])
def test_a_seat_outside_one_to_n_is_not_in_the_game(seat: int) -> None:
    refusal = Refusal("That seat is not in this game.", Problem.FORBIDDEN)
    assert kit.seat_refused(Table(), seat) == refusal


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_seats_one_to_n_are_in_the_game(seat: int) -> None:
    assert kit.seat_refused(Table(), seat) is None


def test_a_refusal_is_invalid_unless_it_says_otherwise() -> None:
    assert Refusal("Out of range.").problem is Problem.INVALID


def test_the_problem_kinds_keep_the_values_the_edges_map_to_status_codes() -> None:
    assert [p.value for p in Problem] == ["forbidden", "conflict", "invalid", "word"]


def test_the_fold_evolves_from_the_initial_state_or_a_given_one() -> None:
    fold = kit.make_fold(lambda t, e: kit.with_changes(t, version=t.version + 1), Table)
    assert fold(["a", "b"]).version == 2
    assert fold(["c"], Table(version=5)).version == 6


def test_a_cheap_copy_changes_only_what_it_names() -> None:
    table = Table()
    copy = kit.with_changes(table, version=7)
    assert copy == Table(version=7) and table.version == 0 and type(copy) is Table


def test_a_hidden_field_never_shows_in_a_repr() -> None:
    shown = repr(Table())
    assert "the key" not in shown and "secret=<hidden>" in shown and "players=3" in shown


def test_hiding_a_field_the_class_lacks_fails_at_once() -> None:
    with pytest.raises(AssertionError):
        kit.hiding("nothing")(Table)
