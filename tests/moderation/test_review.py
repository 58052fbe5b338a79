"""Flags from the log, the admins' review queue, the blocklist, and who may reach them."""

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from games.constellate import game as constellate
from games.models import Event
from moderation.apps import MODERATORS
from moderation.models import BlockedWord, Flag, ModerationAction
from tests.web.rooms import notice, post, seat_table

pytestmark = pytest.mark.django_db


def _table_with_a_constellation():
    table = seat_table(4)
    assert table.name(number=2, word="ocean").status_code == 200
    return table


def _staff(username: str, *, moderator: bool = False, superuser: bool = False) -> Client:
    user = User.objects.create_user(username, password="pw-for-tests-only", is_staff=True)
    user.is_superuser = superuser
    user.save()
    if moderator:
        user.groups.add(Group.objects.get(name=MODERATORS))
    client = Client()
    client.force_login(user)
    return client


def _flag(table, seat=3, kind="names_picture", reason="it is the sea"):
    return post(table.seats[seat], table.room, "flag", constellation=1, kind=kind, reason=reason)


def test_a_seated_player_flags_from_the_log_and_only_they_are_told_F1():
    table = _table_with_a_constellation()
    assert "Flag" in table.seats[4].get(f"/r/{table.room.code}/").content.decode()
    response = _flag(table, seat=4)
    assert response.status_code == 200
    assert "OCEAN went to the moderators" in notice(response)
    flag = Flag.objects.get()
    assert (flag.flagger_name, flag.flagger_seat, flag.kind) == ("Di", 4, "names_picture")


def test_the_flag_changes_nothing_in_the_game_F2():
    table = _table_with_a_constellation()
    before = list(Event.objects.values_list("seq", "kind", "payload"))
    state = table.state()
    assert _flag(table).status_code == 200
    assert list(Event.objects.values_list("seq", "kind", "payload")) == before
    assert table.state() == state


def test_flagging_twice_is_refused_politely_F1():
    table = _table_with_a_constellation()
    _flag(table)
    response = _flag(table)
    assert response.status_code == 409
    assert notice(response) == "You have already flagged this constellation."
    assert Flag.objects.count() == 1


def test_spectators_cannot_flag_and_nothing_is_stored_F1():
    table = _table_with_a_constellation()
    response = post(table.spectator, table.room, "flag", constellation=1, kind="other")
    assert response.status_code == 403
    assert not Flag.objects.exists()
    assert (
        '<details class="flag">'
        not in table.spectator.get(f"/r/{table.room.code}/").content.decode()
    )


def test_someone_from_another_room_cannot_flag_F1():
    table = _table_with_a_constellation()
    other = seat_table(2)
    response = post(other.seats[2], table.room, "flag", constellation=1, kind="other")
    assert response.status_code == 403
    assert not Flag.objects.exists()


@pytest.mark.parametrize(
    "data,status",
    [
        ({"constellation": "9", "kind": "other"}, 404),
        ({"constellation": "x", "kind": "other"}, 400),
        ({"constellation": "1", "kind": "bogus"}, 400),
        ({"constellation": "1", "kind": "other", "reason": "x" * 201}, 400),
    ],
    ids=["no-such-constellation", "not-a-number", "unknown-kind", "long-reason"],
)
def test_malformed_flags_are_refused_with_a_message(data, status):
    table = _table_with_a_constellation()
    response = post(table.seats[3], table.room, "flag", **data)
    assert response.status_code == status
    assert notice(response)
    assert not Flag.objects.exists()


def test_the_queue_lists_open_flags_newest_first_with_counts_for_moderators():
    table = _table_with_a_constellation()
    _flag(table, seat=3)
    _flag(table, seat=4, kind="not_a_word")
    moderator = _staff("mo", moderator=True)
    page = moderator.get("/admin/moderation/flag/?status__exact=open").content.decode()
    assert page.count("OCEAN 2") == 2
    assert page.index("Di (seat 4)") < page.index("Cy (seat 3)")  # newest first
    assert ">2</td>" in page  # two flags on that constellation
    found = moderator.get(f"/admin/moderation/flag/?q={table.room.code}").content.decode()
    assert "OCEAN 2" in found
    assert "OCEAN" not in moderator.get("/admin/moderation/flag/?q=zebra").content.decode()


def test_a_flags_page_shows_the_word_who_and_the_sky_with_the_key_when_given():
    table = _table_with_a_constellation()
    _flag(table, seat=4, reason="it is the sea")
    flag = Flag.objects.get()
    page = _staff("mo", moderator=True).get(f"/admin/moderation/flag/{flag.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    state = table.state()
    given = state.constellations[0]
    gazer = f"{table.names[given.seat]} (seat {given.seat}, {given.crew.display}&#x27;s Stargazer)"
    assert "OCEAN 2" in html and gazer in html
    assert "Di" in html and "it is the sea" in html
    for name in state.sky:
        assert name in html
    assert html.count("Gold star") >= 7 and html.count("Haze") >= 8
    assert f"/r/{table.room.code}/history/1/?step=" in html


def test_uphold_blocks_the_word_in_every_later_game_W3():
    table = _table_with_a_constellation()
    _flag(table)
    flag = Flag.objects.get()
    moderator = _staff("mo", moderator=True)
    response = moderator.post(f"/admin/moderation/flag/{flag.pk}/change/", {"_uphold": "1"})
    assert response.status_code == 302
    flag.refresh_from_db()
    assert flag.status == Flag.Status.UPHELD
    assert BlockedWord.objects.filter(word="ocean").exists()
    action = ModerationAction.objects.get()
    assert (action.verb, action.moderator.username) == ("upheld", "mo")
    later = seat_table(2)
    refused = later.name(number=1, word="Ocean")
    assert refused.status_code == 422
    assert notice(refused) == "That word is not allowed."
    assert later.state().constellations == ()


def test_bulk_dismiss_and_uphold_from_the_queue():
    table = _table_with_a_constellation()
    _flag(table, seat=3)
    _flag(table, seat=4)
    ids = [str(pk) for pk in Flag.objects.values_list("pk", flat=True)]
    moderator = _staff("mo", moderator=True)
    moderator.post("/admin/moderation/flag/", {"action": "dismiss_flags", "_selected_action": ids})
    assert set(Flag.objects.values_list("status", flat=True)) == {"dismissed"}
    assert ModerationAction.objects.filter(verb="dismissed").count() == 2
    assert not BlockedWord.objects.exists()
    moderator.post("/admin/moderation/flag/", {"action": "uphold_flags", "_selected_action": ids})
    assert BlockedWord.objects.get().word == "ocean"


def test_every_moderator_action_is_shown_on_the_flag():
    table = _table_with_a_constellation()
    _flag(table)
    flag = Flag.objects.get()
    moderator = _staff("mo", moderator=True)
    moderator.post(f"/admin/moderation/flag/{flag.pk}/change/", {"_dismiss": "1"})
    html = moderator.get(f"/admin/moderation/flag/{flag.pk}/change/").content.decode()
    assert "Dismissed" in html and "mo" in html


def test_moderators_edit_the_blocklist_and_w3_follows():
    moderator = _staff("mo", moderator=True)
    response = moderator.post(
        "/admin/moderation/blockedword/add/", {"word": "Nebula", "note": "spoils a picture"}
    )
    assert response.status_code == 302
    entry = BlockedWord.objects.get()
    assert (entry.word, entry.added_by.username) == ("nebula", "mo")
    table = seat_table(2)
    check = constellate.word_check_for(table.state())
    assert check("nebulae") == "That word is not allowed."


def test_non_staff_get_the_login_page_and_staff_without_the_group_get_nothing():
    table = _table_with_a_constellation()
    _flag(table)
    anonymous = Client().get("/admin/moderation/flag/")
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    player = table.seats[3].get("/admin/moderation/flag/")
    assert player.status_code == 302 and "/admin/login/" in player["Location"]
    bare_staff = _staff("bare")
    assert bare_staff.get("/admin/moderation/flag/").status_code == 403
    flag = Flag.objects.get()
    bare_staff.post(f"/admin/moderation/flag/{flag.pk}/change/", {"_uphold": "1"})
    flag.refresh_from_db()
    assert flag.status == Flag.Status.OPEN and not BlockedWord.objects.exists()
