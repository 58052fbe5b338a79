"""A game's HTML writes its numbers as digits (games/fragments.py): the version a page keeps
and sends back, a game's number, a card's index are read by the page's script and the
server, never localized, and cost no locale lookups."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from django.template import engines
from django.test import override_settings
from jinja2 import DebugUndefined

from games.fragments import Presented, render_fragment, render_fragments
from games.jinja import environment

STATUS = "constellate/board.jinja#status"  # an area: its marks (area_marks) and numbers


def _status(**board: object) -> SimpleNamespace:
    fields: dict[str, object] = {
        "version": 12345,
        "ended": False,
        "dark_stars": (("gold", 1234),),
        "rivalry": True,
        "banks": (),
        "my_turn": True,
    }
    return SimpleNamespace(**{**fields, **board})


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_a_fragments_numbers_are_digits_whatever_the_number_format() -> None:
    html = render_fragment(STATUS, {"board": _status(), "game": 67890})
    assert 'data-version="12345"' in html and 'data-game="67890"' in html
    assert "Gold: 1234 dark" in html
    django_way = engines["django"].from_string("{{ n }}").render({"n": 1234})
    assert django_way == "1,234"  # what Django would have written into the board


def test_an_area_pushed_alone_says_what_it_changed_from() -> None:
    context = {"board": _status(version=7), "game": 3, "area_oob": True, "since": 6}
    html = render_fragment(STATUS, context)
    assert 'data-area data-version="7" data-game="3" data-since="6" hx-swap-oob="true"' in html
    within = render_fragment(STATUS, {"board": _status(version=7), "game": 3})
    assert 'data-area data-version="7" data-game="3">' in within and "data-since" not in within


def test_a_presenter_reads_in_a_template_as_a_plain_object_would() -> None:
    @dataclass(frozen=True)
    class Plain:
        word: str = "ORION"
        count: int = 2

    @dataclass(frozen=True)
    class Read(Presented, Plain):
        pass

    page = "{{ clue.word }} {{ clue.count }} [{{ clue.missing }}] [{{ clue.0 }}]"
    template = engines["django"].from_string(page)
    assert template.render({"clue": Read()}) == template.render({"clue": Plain()})
    assert template.render({"clue": Read()}) == "ORION 2 [] []"


def test_a_jinja_board_escapes_what_a_player_wrote() -> None:
    """Constellate's board is Jinja2 (games/jinja.py), autoescaped as Django's boards are:
    a player's name and a notice reach the page as text, never as markup."""
    line = SimpleNamespace(
        crew="gold", number=1, word="ORION", count=2, giver="<b>Zed</b>", touches=(),
        comet=("<i>owl</i>",), ended="", can_flag=False,
    )  # fmt: skip
    html = render_fragment("constellate/line.jinja", {"line": line})
    assert "by &lt;b&gt;Zed&lt;/b&gt;" in html and "<b>" not in html
    assert "&lt;i&gt;owl&lt;/i&gt;" in html and "<i>" not in html
    notice = render_fragment("constellate/board.jinja#notice", {"message": "<script>x</script>"})
    assert "&lt;script&gt;x&lt;/script&gt;" in notice and "<script>" not in notice


def test_several_areas_render_as_each_alone_would() -> None:
    context = {"board": _status(version=9), "game": 4, "area_oob": True, "since": 8}
    together = render_fragments("constellate/board.jinja", ("status", "sky_version"), context)
    alone = [
        render_fragment(f"constellate/board.jinja#{a}", context) for a in ("status", "sky_version")
    ]
    assert together == "".join(alone)
    assert together.count('data-since="8" hx-swap-oob="true"') == 2


def test_the_jinja_boards_escape_and_leave_a_missing_value_empty_whatever_the_options() -> None:
    """Escaping and Django's silent empty value are the environment's own, not options a
    setting could change (Django's backend passes DebugUndefined with DEBUG on, which would
    print its text into a board)."""
    env = environment(autoescape=False, undefined=DebugUndefined)
    assert env.autoescape is True
    page = env.from_string("[{{ name }}][{{ board.missing }}]")
    assert page.render(name="<b>Zed</b>", board=SimpleNamespace()) == "[&lt;b&gt;Zed&lt;/b&gt;][]"
