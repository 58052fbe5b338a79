"""A seated player's action sent over the room's socket (lobby/socket_actions.py): taken as
its POST would be, every screen pushed the change, the sender alone answered with the
notice; refused with a notice and nothing changed when it cannot be taken or read (T3, T4,
K4, K5)."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import given
from hypothesis import strategies as st

from games.constellate.rules import Key
from games.inputs import BadInput
from lobby import consumers, socket_actions
from lobby.views import SLOW_DOWN
from tests.realtime.test_pushes import WAIT, open_socket, pushed_at, run, spotting_table
from tests.support.cache import clear_cache
from tests.web.rooms import REFUSED_WORD, dark_card_findings, events, seat_table

pytestmark = pytest.mark.django_db(transaction=True)

VERSION = re.compile(r'data-version="(\d+)"')
NOTICE = re.compile(r'<p id="notice" class="notice( error)?"[^>]*>(.*?)</p>', re.S)


def frame(act: str, **fields: object) -> str:
    return json.dumps({"act": act, "fields": [[k, str(v)] for k, v in fields.items()]})


async def notice_of(socket: WebsocketCommunicator) -> tuple[bool, str]:
    """The next frame, which must be this socket's answer: (an error?, its text)."""
    answer = await socket.receive_from(timeout=WAIT)
    found = NOTICE.match(answer)
    assert found, answer[:300]
    return bool(found.group(1)), found.group(2).strip()


async def answer_and_push(socket: WebsocketCommunicator, version: int) -> tuple[str, str]:
    """The sender's notice and the push of its change to ``version`` (or later: a touch may
    end the turn, and the next begin), in whichever order
    they come (the push may overtake the answer): (the notice's frame, the push's)."""
    answer = push = None
    while answer is None or push is None:
        got = await socket.receive_from(timeout=WAIT)
        if got.startswith('<p id="notice"'):  # a push's panel may hold the notice too
            assert answer is None, "the sender is answered once"
            answer = got
        elif max(map(int, VERSION.findall(got)), default=0) >= version:
            push = got
    return answer, push


def test_a_touch_over_the_socket_reaches_every_screen_and_answers_its_sender():
    """K4/K5 hold for the push of a socket's touch: the Spotters, the spectator and a
    stranger see no dark card's key; the sender gets the emptied notice, once."""
    table = spotting_table()

    async def scenario():
        sockets = {n: (await open_socket(c, table.room.code))[0] for n, c in table.seats.items()}
        sockets["spectator"] = (await open_socket(table.spectator, table.room.code))[0]
        sockets["stranger"] = (await open_socket(None, table.room.code))[0]
        spotter = await sync_to_async(table.spotter)()
        before = await sync_to_async(table.state)()
        card = (await sync_to_async(table.dark_own)())[0]

        await sockets[spotter].send_to(frame("touch", version=before.version, card=card))
        answer, own = await answer_and_push(sockets[spotter], before.version + 1)
        error, text = NOTICE.search(answer).groups()
        assert not error and text.strip() == ""  # taken: the notice emptied
        assert 'id="board"' not in answer  # the change comes with the push, not twice

        state = await sync_to_async(table.state)()
        assert state.version == before.version + 1 and card in state.lit
        for who, socket in sockets.items():
            pushed = await pushed_at(socket, state.version) if who != spotter else own
            assert f'data-version="{state.version}"' in pushed, who
            if who not in (1, 2):  # every seat but the Stargazers'
                assert not dark_card_findings(pushed, state), who
        assert await sockets[spotter].receive_nothing(timeout=0.3)  # nothing twice
        for socket in sockets.values():
            await socket.disconnect()

    run(scenario)


def test_a_refused_word_is_told_to_its_sender_alone_and_changes_nothing():
    """T3 over the socket: the reason to the Stargazer's socket, nothing to anyone else."""
    table = seat_table(4)

    async def scenario():
        sockets = {n: (await open_socket(c, table.room.code))[0] for n, c in table.seats.items()}
        gazer = await sync_to_async(table.stargazer)()
        before = await sync_to_async(table.state)()
        stored = await sync_to_async(events)()

        word = frame("name", version=before.version, word=REFUSED_WORD, number=1)
        await sockets[gazer].send_to(word)
        error, reason = await notice_of(sockets[gazer])
        assert error and reason
        for socket in sockets.values():
            assert await socket.receive_nothing(timeout=0.3)
        assert (await sync_to_async(table.state)()).version == before.version
        assert await sync_to_async(events)() == stored

        accepted = await sync_to_async(table.word)()
        await sockets[gazer].send_to(frame("name", version=before.version, word=accepted, number=1))
        await answer_and_push(sockets[gazer], before.version + 1)
        state = await sync_to_async(table.state)()
        for n, socket in sockets.items():
            if n != gazer:
                assert accepted.upper() in await pushed_at(socket, state.version)  # T4
        for socket in sockets.values():
            await socket.disconnect()

    run(scenario)


def test_a_stale_touch_is_refused_with_the_board_as_it_is_now():
    """A touch from a version already past (another touch came first) is refused, and the
    sender gets the board it should have seen."""
    table = spotting_table()

    async def scenario():
        spotter = await sync_to_async(table.spotter)()
        socket, _ = await open_socket(table.seats[spotter], table.room.code)
        old = (await sync_to_async(table.state)()).version
        first, second = (await sync_to_async(table.dark_own)())[:2]
        assert (await sync_to_async(table.touch)(first)).status_code == 200
        await pushed_at(socket, old + 1)

        await socket.send_to(frame("touch", version=old, card=second))
        board = await socket.receive_from(timeout=WAIT)
        assert 'id="board"' in board and f'data-version="{old + 1}"' in board  # as it is now
        assert (await notice_of(socket))[0]  # then the reason, an error
        assert (await sync_to_async(table.state)()).version == old + 1
        await socket.disconnect()

    run(scenario)


def test_only_seated_players_act_over_the_socket():
    table = spotting_table()

    async def scenario():
        for client in (table.spectator, None):
            socket, _ = await open_socket(client, table.room.code)
            before = await sync_to_async(table.state)()
            card = (await sync_to_async(table.dark)(Key.HAZE))[0]
            await socket.send_to(frame("touch", version=before.version, card=card))
            assert await notice_of(socket) == (True, "Only seated players can do that.")
            assert (await sync_to_async(table.state)()).version == before.version
            await socket.disconnect()

    run(scenario)


def test_a_player_s_socket_reads_its_session_once_not_for_every_action():
    """The socket knows its browser's identity from connecting (an identity is never
    changed or taken back); its actions are still that seat's, and refused for a stranger
    whose session has none."""
    table = spotting_table()
    reads: list[str | None] = []
    real = socket_actions.identity_of_session

    def counted(session_key):
        reads.append(session_key)
        return real(session_key)

    async def scenario():
        spotter = await sync_to_async(table.spotter)()
        socket, _ = await open_socket(table.seats[spotter], table.room.code)
        stranger, _ = await open_socket(None, table.room.code)
        with mock.patch.object(socket_actions, "identity_of_session", counted):
            for _ in range(2):
                before = await sync_to_async(table.state)()
                card = (await sync_to_async(table.dark_own)())[0]
                await socket.send_to(frame("touch", version=before.version, card=card))
                await answer_and_push(socket, before.version + 1)
            assert reads == []  # the player's socket read it on connecting
            await stranger.send_to(frame("touch", version=before.version, card=card))
            while not (got := await stranger.receive_from(timeout=WAIT)).startswith("<p id"):
                pass  # the two touches' pushes
            assert "Only seated players can do that." in got
            assert len(reads) == 1  # a browser with none may have one since: read now
        assert len((await sync_to_async(table.state)()).lit) >= 2
        await socket.disconnect()
        await stranger.disconnect()

    run(scenario)


@pytest.mark.parametrize(
    "sent",
    [
        "{",
        '{"act": "touch"}',
        '{"act": "touch", "fields": {"card": "3"}}',
        '{"act": "touch", "fields": [["card", 3]]}',
        '{"act": "touch", "fields": [["card"]]}',
        '{"act": "../touch", "fields": []}',
        '{"act": "touch", "fields": [], "seat": "1"}',
        '{"act": "stop", "act": "touch", "fields": []}',  # which one? neither
        '{"act": "touch", "fields": [["card", "\\ud800"]]}',  # no form sends half a character
        '{"act": "touch", "fields": ' + "[" * 3000 + "]" * 3000 + "}",  # nested past reading
        '{"act": "touch", "fields": [["card", "' + "9" * 9000 + '"]]}',
    ],
)
def test_a_frame_that_cannot_be_read_is_refused_and_the_socket_lives_on(sent: str):
    table = spotting_table()

    async def scenario():
        spotter = await sync_to_async(table.spotter)()
        socket, _ = await open_socket(table.seats[spotter], table.room.code)
        stored = await sync_to_async(events)()
        await socket.send_to(sent)
        assert await notice_of(socket) == (True, socket_actions.UNREADABLE)
        assert await sync_to_async(events)() == stored
        before = await sync_to_async(table.state)()
        card = (await sync_to_async(table.dark_own)())[0]
        await socket.send_to(frame("touch", version=before.version, card=card))
        await answer_and_push(socket, before.version + 1)  # still heard
        assert (await sync_to_async(table.state)()).version == before.version + 1
        await socket.disconnect()

    run(scenario)


def test_a_browser_has_one_allowance_of_actions_whichever_way_they_come(settings):
    table = spotting_table()
    clear_cache()  # the table's own joins, seats and word are not counted
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": (2, 600)}

    async def scenario():
        spotter = await sync_to_async(table.spotter)()
        socket, _ = await open_socket(table.seats[spotter], table.room.code)
        first, second = (await sync_to_async(table.dark_own)())[:2]
        assert (await sync_to_async(table.touch)(first)).status_code == 200  # one by POST
        version = (await sync_to_async(table.state)()).version
        await socket.send_to(frame("touch", version=version, card=second))  # one by socket
        await answer_and_push(socket, version + 1)
        version = (await sync_to_async(table.state)()).version
        await socket.send_to(frame("stop", version=version))  # over, before it is read
        assert await notice_of(socket) == (True, SLOW_DOWN)
        assert (await sync_to_async(table.state)()).version == version
        await socket.disconnect()

    run(scenario)


def test_a_socket_flooding_actions_is_slowed_down_before_any_is_run(settings):
    """Counted by the socket itself, on the event loop: past the allowance, no thread, no
    session read, no database; the shared count per browser is not even reached."""
    table = spotting_table()
    clear_cache()
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": (3, 600)}

    async def scenario():
        spotter = await sync_to_async(table.spotter)()
        socket, _ = await open_socket(table.seats[spotter], table.room.code)
        stored = await sync_to_async(events)()
        for _ in range(3):
            await socket.send_to('{"act": "touch"}')  # unreadable, refused on its thread
            assert await notice_of(socket) == (True, socket_actions.UNREADABLE)
        with mock.patch.object(consumers, "_answer_action", mock.AsyncMock()) as thread:
            await socket.send_to(frame("touch", version=0, card=0))
            assert await notice_of(socket) == (True, SLOW_DOWN)
            thread.assert_not_awaited()
        assert await sync_to_async(events)() == stored
        await socket.disconnect()

    run(scenario)


# -- the frame's reader, on its own --------------------------------------------------------


def test_a_frame_is_read_into_the_form_its_post_would_send():
    action, data = socket_actions.read_action(
        '{"act": "name", "fields": [["word", "Ocean"], ["number", "2"], ["version", "7"]]}'
    )
    assert action == "name"
    assert data.dict() == {"word": "Ocean", "number": "2", "version": "7"}
    with pytest.raises(AttributeError):
        data["word"] = "changed"  # what was read stays as it was sent


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
def test_any_frame_is_read_or_refused_with_a_message_never_anything_else(text: str):
    try:
        action, data = socket_actions.read_action(text)
    except BadInput as error:
        assert error.message == socket_actions.UNREADABLE
        return
    assert socket_actions.ACTION.fullmatch(action)
    assert all(isinstance(v, str) for values in data.lists() for v in values[1])


def test_a_socket_s_actions_and_pushes_skip_channels_per_message_hops():
    """An action over the socket, and the push of it to every socket, are handled without
    channels' ``close_old_connections`` hop to its one database thread (a wait behind every
    other socket's database work there) and without its session middleware's wrapper of
    each send (a websocket never saves a session): the touch is taken, every screen is
    pushed it, and the sender is still known as its seat (its session read on connecting)."""
    table = spotting_table()
    hops: list[str] = []
    wrapped: list[dict] = []

    async def closed_connections() -> None:
        hops.append("close_old_connections")

    async def session_send(self, message: dict) -> None:
        wrapped.append(message)

    async def scenario():
        sockets = {n: (await open_socket(c, table.room.code))[0] for n, c in table.seats.items()}
        spotter = await sync_to_async(table.spotter)()
        before = await sync_to_async(table.state)()
        card = (await sync_to_async(table.dark_own)())[0]
        with (
            mock.patch("channels.consumer.aclose_old_connections", closed_connections),
            mock.patch("channels.sessions.InstanceSessionWrapper.send", session_send),
        ):
            await sockets[spotter].send_to(frame("touch", version=before.version, card=card))
            await answer_and_push(sockets[spotter], before.version + 1)
            for n, socket in sockets.items():
                if n != spotter:
                    assert f'data-version="{before.version + 1}"' in await pushed_at(
                        socket, before.version + 1
                    )
        assert card in (await sync_to_async(table.state)()).lit
        assert hops == [] and wrapped == []
        for socket in sockets.values():
            await socket.disconnect()

    run(scenario)
