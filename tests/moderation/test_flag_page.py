"""The flag's page in the admin shows what it showed before moderation learnt no game:
the headings, labels and values of its fieldsets (the sky panel included) are compared with
a page recorded from the Constellate-only code (flag_page.golden.json)."""

import json
import random
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.constellate.game import GAME
from games.constellate.rules import Name
from moderation.services import flag_constellation

GOLDEN = Path(__file__).with_name("flag_page.golden.json")
PART = re.compile(
    r'<h2 id="fieldset-[^"]*" class="fieldset-heading">(?P<heading>.*?)</h2>'
    r'|<label>(?P<label>.*?)</label>\s*<div class="readonly">(?P<value>.*?)</div>\s*</div>',
    re.S,
)


def flag_page_parts(html: str) -> list[list[str]]:
    """The page's fieldsets as [heading] and [label, value] rows, in order."""
    start, end = html.index('<fieldset class="module aligned'), html.index('id="actions-heading"')
    parts = []
    for match in PART.finditer(html[start:end]):
        if match["heading"] is not None:
            parts.append([match["heading"]])
        else:
            parts.append([match["label"], match["value"]])
    return parts


@pytest.mark.django_db
def test_the_flags_page_shows_the_same_fieldsets_and_sky_panel_as_before():
    game, outcome = GAME.start(players=4, rng=random.Random(5))
    state = outcome.state
    gazer = 1 if state.crew.value == "gold" else 2
    GAME.act(game.pk, Name(gazer, "ocean", 2, state.version))
    flag = flag_constellation(
        game_id=game.pk, seat=3, name="Cy", constellation=1, kind="names_picture", reason="the sea"
    )
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="pw-for-tests-only"))
    page = admin.get(f"/admin/moderation/flag/{flag.pk}/change/").content.decode()
    assert flag_page_parts(page) == json.loads(GOLDEN.read_text())
