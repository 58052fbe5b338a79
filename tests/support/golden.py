"""Golden games: a whole recorded game of each game, its event log as stored, and what
replaying it must show. ``tests/games/test_golden.py`` replays the logs;
``scripts/record_golden.py`` records them (once) and regenerates the expectations.

A log is JSON: the game's kind, the seat names, and every event as stored (kind, schema,
payload, actor_seat). An expectation is the final state as JSON and, for every step of
the replay, the sentence ``screens.describe`` says and a digest of
``screens.history_board``'s HTML.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games import store
from games.codec import to_json
from games.models import Event, Game
from games.registry import game_type

FOLDER = Path(__file__).resolve().parent.parent / "games" / "golden"
GAMES = ("constellate", "underonesky")  # one whole game of each, by kind
ROOM_CODE = "star-gaze-tent-nest"
STORED_AT = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)  # not part of a replay


@dataclass(frozen=True)
class Log:
    kind: str
    names: dict[int, str]
    events: list[dict[str, Any]]  # kind, schema, payload, actor_seat


def log_path(kind: str) -> Path:
    return FOLDER / f"{kind}.events.json"


def expectation_path(kind: str) -> Path:
    return FOLDER / f"{kind}.expected.json"


def log_of(game: Game, names: dict[int, str]) -> Log:
    """A stored game's events, exactly as the rows hold them."""
    rows = Event.objects.filter(game=game).order_by("seq")
    events = [
        {"kind": kind, "schema": schema, "payload": payload, "actor_seat": seat}
        for kind, schema, payload, seat in rows.values_list(
            "kind", "schema", "payload", "actor_seat"
        )
    ]
    return Log(kind=game.kind, names=names, events=events)


def read_log(kind: str) -> Log:
    raw = json.loads(log_path(kind).read_text(encoding="utf-8"))
    names = {int(seat): name for seat, name in raw["names"].items()}
    return Log(kind=raw["kind"], names=names, events=raw["events"])


def write_log(log: Log) -> None:
    raw = {"kind": log.kind, "names": log.names, "events": log.events}
    _write(log_path(log.kind), raw, one_per_line="events")


def stored(log: Log) -> Game:
    """The log's events inserted as rows of a new game, as an old database holds them."""
    game = Game.objects.create(kind=log.kind, version=len(log.events))
    Event.objects.bulk_create(
        Event(
            game=game,
            seq=seq,
            kind=event["kind"],
            schema=event["schema"],
            payload=event["payload"],
            actor_seat=event["actor_seat"],
            created_at=STORED_AT,
        )
        for seq, event in enumerate(log.events, start=1)
    )
    return game


def expectation(game: Game, names: dict[int, str]) -> dict[str, Any]:
    """What the replay of a stored game shows: folded by ``store.replay`` (the codec's
    read path, upcasts included), drawn by the game's own replay screens."""
    screens = game_type(game.kind).screens
    states = store.replay(game)
    steps = [
        {
            "step": step,
            "happened": screens.describe(states[step - 1], states[step], names),
            "board_sha256": _digest(screens.history_board(states[step], names, ROOM_CODE)),
        }
        for step in range(1, len(states))
    ]
    return {"kind": game.kind, "final_state": to_json(states[-1]), "steps": steps}


def read_expectation(kind: str) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads(expectation_path(kind).read_text(encoding="utf-8"))
    return expected


def write_expectation(kind: str, expected: dict[str, Any]) -> None:
    _write(expectation_path(kind), expected, one_per_line="steps")


def _digest(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()


def _write(path: Path, raw: dict[str, Any], *, one_per_line: str) -> None:
    """JSON with one event (or step) per line: a diff shows which one changed."""
    items = raw[one_per_line]
    head = {k: v for k, v in raw.items() if k != one_per_line}
    lines = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in items]
    body = json.dumps(head, indent=1, sort_keys=True, ensure_ascii=False)[:-2]
    text = body + f',\n "{one_per_line}": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"
    json.loads(text)  # still JSON
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
