"""The three star charts and their nine constellation cards, read once from ``charts.json``
(data, drawn as text: ``*`` a star, ``.`` an empty space, north at the top).

A card's difficulty is measured, not declared: ``difficulty(card)`` is the number of the
board's 25 spaces where its shape can *not* start (25 less its placements: a sprawling shape
fits in few places) plus one for every star with no orthogonal neighbour in the shape (a
lone star cannot be built up by sliding tiles beside it). Each chart's cards are listed
easiest first, and the tests hold them to it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .geometry import ORTHOGONAL, normal, placements
from .model import SPACES, Card, Cell, Tile

DATA = Path(__file__).with_name("charts.json")


@dataclass(frozen=True)
class Chart:
    colour: Tile
    title: str
    note: str
    cards: tuple[Card, ...]


def parse_pattern(rows: list[str]) -> tuple[Cell, ...]:
    return normal((r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "*")


def _load() -> dict[Tile, Chart]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    charts = {}
    for chart in raw["charts"]:
        colour = Tile(chart["colour"])
        cards = tuple(
            Card(id=card["id"], name=card["name"], cells=parse_pattern(card["pattern"]))
            for card in chart["cards"]
        )
        charts[colour] = Chart(colour, chart["title"], chart["note"], cards)
    return charts


CHARTS: dict[Tile, Chart] = _load()
RECOMMENDED = Tile.ORANGE  # the seed: play a first game with the orange chart
CARDS: dict[str, Card] = {card.id: card for chart in CHARTS.values() for card in chart.cards}


def loose_stars(cells: tuple[Cell, ...]) -> int:
    stars = set(cells)
    return sum(1 for r, c in stars if not any((r + dr, c + dc) in stars for dr, dc in ORTHOGONAL))


def difficulty(card: Card) -> int:
    return SPACES - len(placements(card.cells)) + loose_stars(card.cells)
