"""The key without colour, on a Stargazer's 390x844 phone (K4): each kind of card (Gold star,
Teal star, Haze, Cloud, Comet) has its own frame, told apart by its border style or width,
and its own shape on a badge whose colours stand at least 4.5:1 (WCAG) from each other;
the comet is the loudest, with the thickest frame and the largest shape; the picture keeps
the middle of the card. A Spotter's dark cards all wear the same plain frame.

Screenshots of the Stargazer's screen as it is and in greyscale (Chromium's emulated
achromatopsia, through the DevTools protocol: the page's Content-Security-Policy refuses a
stylesheet injected inline) go under test-artifacts/screenshots/; docs/screenshots/ keeps
copies (constellate-key-390.png, constellate-key-greyscale-390.png, and the Before Dawn
pair constellate-key-dawn-390.png, constellate-key-dawn-greyscale-390.png)."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import KEYS, PHONE, Table
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots"

# For each kind, one dark card of it on this screen: its frame, its badge, the picture's box.
MARKS = """kinds => Object.fromEntries(kinds.map((kind) => {
    const card = document.querySelector(`#sky .card.key-${kind}:not(.lit)`);
    if (!card) return [kind, null];
    const frame = getComputedStyle(card), badge = card.querySelector('.badge');
    const mark = getComputedStyle(badge), box = (el) => {
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    return [kind, {
        style: frame.borderTopStyle, width: parseFloat(frame.borderTopWidth),
        frameColour: frame.borderTopColor, frameImage: frame.borderImageSource,
        symbol: parseFloat(mark.fontSize), colour: mark.color, badge: mark.backgroundColor,
        badgeBox: box(badge), picture: box(card.querySelector('img')),
    }];
}))"""


def rgb(css: str) -> tuple[float, float, float, float]:
    found = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", css)
    assert found, css
    r, g, b, a = found.groups()
    return float(r), float(g), float(b), float(a if a is not None else 1)


def luminance(css: str) -> float:
    """WCAG 2's relative luminance of an opaque colour: what a greyscale screen keeps."""
    *channels, alpha = rgb(css)
    assert alpha == 1, f"{css} is not opaque"
    srgb = [c / 255 for c in channels]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def overlap(a: dict, b: dict) -> float:
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0, width) * max(0, height)


def marks(page: Page) -> dict[str, dict]:
    return {k: v for k, v in page.evaluate(MARKS, list(KEYS)).items() if v}


def screenshots(page: Page, name: str) -> None:
    """The screen as it is, then as a greyscale screen shows it (the same pixels' luminance)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(  # the pictures in view have loaded (they load lazily)
        """() => [...document.querySelectorAll('#sky img')].every((img) =>
            img.getBoundingClientRect().top > innerHeight || (img.complete && img.naturalWidth))"""
    )
    page.screenshot(path=str(SHOTS / f"{name}-390.png"))
    devtools = page.context.new_cdp_session(page)
    devtools.send("Emulation.setEmulatedVisionDeficiency", {"type": "achromatopsia"})
    try:
        page.screenshot(path=str(SHOTS / f"{name}-greyscale-390.png"))
    finally:
        devtools.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        devtools.detach()


def waiting_stargazer(table: Table) -> Page:
    """The Stargazer who is not naming now: the whole sky in view, no keyboard over it."""
    pages = [
        p
        for p in table.pages
        if table.is_stargazer(p) and p.locator("#panel:not([hidden])").count() == 0
    ]
    assert pages
    return pages[0]


def test_it_tells_every_kind_of_the_key_apart_without_colour_on_a_phone(tables):
    rivalry: Table = tables(4, viewport=PHONE)
    rivalry.join_and_sit()
    rivalry.start()
    gazer = waiting_stargazer(rivalry)
    found = marks(gazer)
    screenshots(gazer, "constellate-key")
    assert set(found) == {"gold", "teal", "haze", "comet"}, found

    # A Spotter's dark cards say nothing: one plain frame for all, no badge (K4, K5).
    spotter = rivalry.seat(3).page
    plain = spotter.locator("#sky .card:not(.lit)").evaluate_all(
        """cards => cards.map((c) => {
            const s = getComputedStyle(c);
            return [s.borderTopStyle, s.borderTopWidth, s.borderTopColor, s.backgroundColor];
        })"""
    )
    assert len(plain) == 24 and len({tuple(p) for p in plain}) == 1, set(map(tuple, plain))
    assert spotter.locator("#sky .badge").count() == 0

    dawn: Table = tables(2, viewport=PHONE)
    dawn.join_and_sit()
    dawn.start()
    gazer = dawn.seat(1).page
    found |= {"cloud": marks(gazer)["cloud"]}
    screenshots(gazer, "constellate-key-dawn")
    assert set(found) == set(KEYS)

    page_background = gazer.evaluate("getComputedStyle(document.body).backgroundColor")
    for kind, mark in found.items():
        # The shape stands out from its badge, whatever the screen does with colour.
        assert contrast(mark["colour"], mark["badge"]) >= 4.5, (kind, mark)
        assert mark["symbol"] >= 20 and mark["badgeBox"]["width"] >= 30, (kind, mark)
        # The frame stands out from the night around the card (WCAG's 3:1 for a graphic).
        if kind == "comet":
            assert "repeating-linear-gradient" in mark["frameImage"], mark
        else:
            assert contrast(mark["frameColour"], page_background) >= 3, (kind, mark)
        # The picture stays: big enough, and the badge covers little of it.
        picture = mark["picture"]
        assert picture["width"] >= 50 and picture["height"] >= 50, (kind, picture)
        covered = overlap(picture, mark["badgeBox"]) / (picture["width"] * picture["height"])
        assert covered <= 0.25, (kind, covered)

    for (one, a), (other, b) in itertools.combinations(found.items(), 2):
        assert (a["style"], a["width"]) != (b["style"], b["width"]), (one, other, a, b)
    comet = found.pop("comet")
    assert all(comet["width"] > m["width"] for m in found.values()), comet
    assert all(comet["symbol"] > m["symbol"] for m in found.values()), comet
    assert all(comet["badgeBox"]["width"] > m["badgeBox"]["width"] for m in found.values())
    rivalry.no_reloads()
    dawn.no_reloads()
