"""The seams moderation uses instead of imports: a game's moderation hook, the blocklist
handed through games.flags, and each game's warm_up run at server start."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import format_html

from games import flags, registry
from games.constellate import clues
from games.models import Game
from games.registry import all_game_types, game_type
from moderation import services
from moderation.models import BlockedWord
from moderation.services import FlagRefusal, flag_constellation
from tests.support.toy import toy_definition


def test_constellate_flags_its_constellations_and_under_one_sky_has_no_hook():
    assert game_type("constellate").moderation is not None
    assert game_type("underonesky").moderation is None


@pytest.mark.django_db
def test_a_game_without_a_hook_refuses_every_flag_with_the_generic_message():
    game = Game.objects.create(kind="underonesky")
    with pytest.raises(FlagRefusal) as refusal:
        flag_constellation(game_id=game.pk, seat=1, name="Ann", constellation=1)
    assert (refusal.value.message, refusal.value.status) == (flags.NO_TEXTS, 409)


@pytest.mark.django_db  # (the tests without a database run with no blocklist: conftest)
def test_the_clue_check_reads_the_blocklist_the_platform_was_given():
    assert clues.blocklist_provider() is flags.blocked_words
    flags.provide_blocked_words(lambda: frozenset({"nebula"}))
    try:
        assert clues.check_clue("nebulae", []) == "That word is not allowed."
    finally:
        flags.provide_blocked_words(services.blocked_words)


@pytest.mark.django_db
def test_the_moderation_app_provides_its_blocked_words_to_the_platform():
    BlockedWord.objects.create(word="Comet")
    assert "comet" in flags.blocked_words()


def test_every_game_has_a_warm_up_and_constellate_loads_its_word_data():
    assert all(callable(kind.warm_up) for kind in all_game_types())
    assert game_type("constellate").warm_up is clues.warm_up


# -- any game: a test-only game with a hook of its own -----------------------------------------


class MottoModeration:
    """A test game whose seats 1 and 2 each wrote a public motto."""

    already_flagged = "You have already flagged this motto."
    panel_heading = "The mottoes when it was written"
    panel_label = "Mottoes"
    styles = ("mottoes/review.css",)
    mottoes = {1: "ONWARD", 2: "UPWARD"}

    def flaggable(self, state, seat, number):
        if seat not in (1, 2):
            raise flags.FlagRefused("Only the writers can flag a motto.", 403)
        if number not in self.mottoes:
            raise flags.FlagRefused("There is no such motto.", 404)
        return flags.FlaggableText(number=number, text=self.mottoes[number], event_seq=0)

    def title(self, state, number):
        return f"motto {number}: {self.mottoes[number]}"

    def given_by(self, state, number, names):
        return f"seat {number}"

    def panel_html(self, state, number):
        return format_html("<ul class=mottoes><li>{}</li></ul>", " / ".join(self.mottoes.values()))


@pytest.fixture
def mottoes(monkeypatch):
    kind = toy_definition("mottoes", moderation=MottoModeration())
    monkeypatch.setitem(registry._registry, "mottoes", kind)
    return Game.objects.create(kind="mottoes")


@pytest.mark.django_db
def test_any_game_with_a_hook_is_flagged_and_reviewed_by_its_own_rules(mottoes):
    with pytest.raises(FlagRefusal) as refusal:
        flag_constellation(game_id=mottoes.pk, seat=3, name="Eve", constellation=1)
    assert refusal.value.message == "Only the writers can flag a motto."
    flag = flag_constellation(game_id=mottoes.pk, seat=2, name="Bo", constellation=1)
    assert (flag.word, flag.constellation, flag.event_seq) == ("ONWARD", 1, 0)
    with pytest.raises(FlagRefusal) as refusal:
        flag_constellation(game_id=mottoes.pk, seat=2, name="Bo", constellation=1)
    assert refusal.value.message == "You have already flagged this motto."
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="pw-for-tests-only"))
    page = admin.get(f"/admin/moderation/flag/{flag.pk}/change/").content.decode()
    assert "The mottoes when it was written" in page and "<label>Mottoes:</label>" in page
    assert "<ul class=mottoes><li>ONWARD / UPWARD</li></ul>" in page
    assert "motto 1: ONWARD" in page and "seat 1" in page
    assert "/static/mottoes/review.css" in page
    queue = admin.get("/admin/moderation/flag/").content.decode()
    assert "motto 1: ONWARD" in queue
