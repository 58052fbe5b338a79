"""Picking a name at a table where others join at the same moment: what a person typed
stays in the field while the lobby re-renders around it, and a refused name is explained
right under the field, on a phone's first screen, with the name still there to fix."""

from __future__ import annotations

import pytest

from tests.e2e.browser import PHONE

pytestmark = pytest.mark.e2e


def test_a_half_typed_name_survives_others_joining_and_a_refusal_is_read_beside_it(tables):
    table = tables(2, viewport=PHONE)
    ada, bo = table.people
    bo.page.fill("#name", "Bo the")  # still typing when Ada's join re-renders the lobby
    ada.page.fill("#name", "Ada")
    ada.page.get_by_role("button", name="Join").click()
    bo.page.locator(".spectators").get_by_text("1 watching").wait_for()
    assert bo.page.input_value("#name") == "Bo the"

    lookalike = "\u0410da"  # a Cyrillic A: reads as "Ada"
    bo.page.fill("#name", lookalike)
    bo.page.get_by_role("button", name="Join").click()
    notice = bo.page.locator("#lobby-notice")
    notice.get_by_text("looks just like Ada").wait_for()
    assert bo.page.input_value("#name") == lookalike  # nothing typed is lost
    box = notice.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box  # no scrolling
    field = bo.page.locator("#name").bounding_box()
    assert field is not None and 0 < box["y"] - field["y"] < 200  # beside the field
