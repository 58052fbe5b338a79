"""Look at the Stars' pushes by area: another seat's Confirm changes only the top bar and the
score strip for everyone else, so everyone else is pushed those two areas alone; the seat that
confirmed, and a round's close, get the whole board (V2, V3; the platform's ``Areas``). The
frames are read as each socket receives them (``tests.support.leaks.recorded``)."""

from __future__ import annotations

import re

import pytest

from tests.games.lookatthestars.test_leaks import robot_submits
from tests.games.lookatthestars.test_web import Room3
from tests.support import fuzzing
from tests.support.leaks import recorded

pytestmark = pytest.mark.django_db(transaction=True)
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

OTHERS = ("2", "3", "None", "stranger")  # every socket but the confirming seat's


def attributes(frame: str, element_id: str) -> str:
    """The opening tag of the element ``element_id`` in ``frame``."""
    found = re.search(rf'<[a-z]+ id="{element_id}"[^>]*>', frame)
    assert found, (element_id, frame[:300])
    return found.group(0)


def scores(frame: str) -> dict[str, str]:
    """The score strip's seats and their round status, as a player reads them."""
    strip = frame[frame.index('id="lats-scores"') :]
    strip = strip[: strip.index("</ol>")]
    names = [n.removesuffix(" (you)") for n in re.findall(r'lats-score-name">([^<]*)<', strip)]
    statuses = [
        re.sub(r"<[^>]+>", "", item).strip().split()[-1]
        for item in re.findall(r"<li[^>]*>(.*?)</li>", strip, flags=re.S)
    ]
    return dict(zip(names, statuses, strict=True))


def test_v3_another_seat_s_confirm_reaches_the_others_as_the_top_bar_and_score_strip_alone():
    """V3, R6: seat 1 confirms. Seats 2 and 3, the spectator and a stranger get one frame
    holding only the top bar ("1/3 done") and the score strip (Ada done), each out of band,
    marked with the version it shows and the one it was changed from, and a tenth of the
    whole board's bytes at most; seat 1 gets its whole board (its own board with its
    drawing, U10)."""
    room = Room3(3)
    before = room.state().version
    got = recorded(room, [robot_submits(1)], (1, 2, 3, None, "stranger"))
    after = room.state().version
    assert after == before + 1
    (own,) = got["1"][1]
    assert 'id="board"' in own and "Your board, with this round" in own
    for who in OTHERS:
        (frame,) = got[who][1]  # one frame for the change
        whole = got[who][0][0]  # the whole view the socket was sent on connect
        assert 'id="board"' not in frame, who
        assert "<svg" not in frame, who  # no star board is sent again
        for area in ("status", "lats-scores"):
            tag = attributes(frame, area)
            assert 'hx-swap-oob="true"' in tag and "data-area" in tag, (who, tag)
            assert f'data-version="{after}"' in tag and f'data-since="{before}"' in tag, tag
        assert "1/3 done" in frame, who
        assert scores(frame) == {"Ada": "done", "Bo": "drawing", "Cy": "drawing"}, who
        assert len(frame) * 10 < len(whole), (who, len(frame), len(whole))


def test_v2_a_round_s_close_brings_everyone_the_whole_board():
    """V2, R5: the last Confirm closes the round: every socket, the others' too, gets the
    whole board (the boards change), none an area alone."""
    room = Room3(2)
    got = recorded(room, [robot_submits(1), robot_submits(2)], (1, 2, None, "stranger"))
    assert room.state().round_number == 2
    for who in ("1", "None", "stranger"):
        (frame,) = got[who][2]
        assert frame.lstrip().startswith('<section id="board"'), who
        assert "Round 2 of 18" in frame and "Round 1 (" in frame, who
