"""Observatory's pushes by area: another seat's submission (the cards it keeps, or a turn's
steps) changes only the top bar (its ready dot) and the line under it for everyone else, so
everyone else is pushed those two areas alone; the seat that submitted, and a step's close,
get the whole board (V2, V3; the platform's ``Areas``)."""

from __future__ import annotations

import re

import pytest

from games.observatory.rules.model import Phase
from tests.games.observatory.web_helpers import ObsRoom
from tests.support import fuzzing
from tests.support.leaks import recorded

pytestmark = pytest.mark.django_db(transaction=True)
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)


def robot_plays(seat: int):
    def step(room: ObsRoom) -> None:
        assert room.play_robot(seat).status_code == 200

    return step


def ready_dots(frame: str) -> list[str]:
    """The top bar's ready dots, seat by seat: "ready", "choosing" or ""."""
    return [
        (re.search(r"\b(ready|choosing)\b", classes) or [""])[0]
        for classes in re.findall(r'class="obs-ready-seat([^"]*)"', frame)
    ]


@pytest.mark.parametrize("phase", [Phase.CHOICE, Phase.OPENING])
def test_v3_another_seat_s_submission_reaches_the_others_as_the_top_bar_alone(phase):
    """V3: seat 1 submits (its kept cards in the Choice, its steps in a turn). Seats 2 and
    3, the spectator and a stranger get one frame holding only the top bar and the line
    under it, out of band, marked with the version it shows and the one it was changed
    from, a small part of the whole board, with seat 1's dot ready; seat 1 gets its whole
    board."""
    room = ObsRoom(3)
    for _ in range(20):
        if room.state().phase is phase:
            break
        for seat in room.waiting():
            assert room.play_robot(seat).status_code == 200
    assert room.state().phase is phase and 1 in room.waiting()
    before = room.state().version
    got = recorded(room, [robot_plays(1)], (1, 2, 3, None, "stranger"))
    after = room.state().version
    assert after == before + 1
    (own,) = got["1"][1]
    assert 'id="board"' in own
    for who in ("2", "3", "None", "stranger"):
        (frame,) = got[who][1]
        whole = got[who][0][0]
        assert 'id="board"' not in frame and "obs-seat-sheet" not in frame, who
        for area in ("status", "obs-say"):
            tag = re.search(rf'<div id="{area}"[^>]*>', frame)
            assert tag, (who, area)
            assert 'hx-swap-oob="true"' in tag.group(0) and "data-area" in tag.group(0)
            assert f'data-version="{after}"' in tag.group(0), tag.group(0)
            assert f'data-since="{before}"' in tag.group(0), tag.group(0)
        assert ready_dots(frame)[0] == "ready", (who, ready_dots(frame))
        assert len(frame) * 4 < len(whole), (who, len(frame), len(whole))
