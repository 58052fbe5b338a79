"""Observatory: a turn of 5 seats closing, on the real server (issue 18).

    .venv/bin/python bench/observatory_turn.py          # embedded default, 5 seats, 6 turns
    .venv/bin/python bench/observatory_turn.py --config scale --turns 12

The same measurement as ``bench/lats_round.py`` (whose functions it uses), for Observatory:
it starts the real server (``bench/server.py``), makes one room of Observatory over HTTP
(create, join, sit, start) with a websocket per seated player, and plays the game's steps
where every seat acts at once. First the setup choice (G3): every seat keeps what the
computer player keeps (``POST play/choose``, ``keep-1`` .. ``keep-6``); it is shown but not
counted. Then turns (and a Night's opening, N8, which is played the same way): before each
one the bench reads the game's state (through Django, on the bench's database) and asks the
computer player (``rules/robot.py:move``) for every seat's submission, which all the seats
send (``POST play/submit`` with ``round`` and ``plan``, the steps as ``plan.write`` writes
them; an empty plan is a pass) spread evenly over ``--spread`` seconds (1 s), in a random
order. Between turns, the draft (G5, G6) is played by the drafting seat's computer pick
(``POST play/pick``), one pick at a time, each waited for on every screen; not measured.

Per turn it measures:

* the server's CPU per turn and per submission: all server processes (daphne, q2 and its
  workers, the clock tick; PostgreSQL and Redis in the scale-out configuration), from the
  turn's first POST until its close reached every screen; also less the idle CPU of the
  open room (measured for a few seconds before the choice);
* each submission's answer: from sending its POST to having the answer;
* the turn's close to every screen: from sending the LAST submission of the turn to the
  moment every one of the room's websockets holds a board whose ``data-version`` is at least
  the closing answer's.

A warm-up turn (``--warmup``) is played after the choice and not counted. A game that ends
is restarted by the host (a rematch). Results: a table, and a JSON file under
``bench/results/`` (gitignored). Like ``bench/lats_round.py``, it measures this checkout's
server only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import report  # noqa: E402
from bench.lats_round import (  # noqa: E402
    VERSION,
    Table,
    close,
    every_screen,
    game_id_of,
    idle_cpu,
    make_table,
    play_round,
    rematch,
    summarize,
    use_bench_database,
)
from bench.load import pct  # noqa: E402
from bench.server import ROOT, SERVER_ROOT, Server, serve  # noqa: E402

KIND = "observatory"


# -- the game's state and the computer's moves, in the bench process ---------------------------


def current(code: str):
    from django.db import close_old_connections

    from games.observatory.game import GAME

    close_old_connections()
    return GAME.current(game_id_of(code))


def form_of(command) -> tuple[str, dict]:
    """The action and form a browser sends for the computer's command (as the game's web
    tests do)."""
    from games.observatory import plan
    from games.observatory.rules.commands import Choose, Pick, Submit

    if isinstance(command, Choose):
        return "choose", {
            "round": command.round,
            **{f"keep-{n}": card for n, card in enumerate(command.keep, start=1)},
        }
    if isinstance(command, Pick):
        fields: dict = {"version": command.version, "take": command.take.source.value}
        if command.take.slot is not None:
            fields["slot"] = command.take.slot
        return "pick", fields
    assert isinstance(command, Submit)
    return "submit", {"round": command.round, "plan": plan.write(command.steps)}


def robot_moves(
    step: dict, code: str, seats: int
) -> tuple[int, dict[int, tuple[str, dict]]] | None:
    """The running step's number and every waiting seat's (action, form), the computer
    player's choice; what the step is goes into ``step``. None once the game has ended."""
    from games.observatory.rules import robot
    from games.observatory.rules.model import Phase

    state = current(code)
    if state.ended:
        return None
    assert state.phase in (Phase.CHOICE, Phase.OPENING, Phase.TURN), state.phase
    moves = {}
    for seat in range(1, seats + 1):
        if robot.waiting(state, seat):
            moves[seat] = form_of(robot.move(state, seat))
    number = next(int(form["round"]) for _, form in moves.values())
    step.update(
        phase=state.phase.value,
        night=state.night,
        turn=state.turn,
        waiting=len(moves),
        passes=sum(1 for action, form in moves.values() if action == "submit" and not form["plan"]),
        plan_words=sum(len(form.get("plan", "").split()) for _, form in moves.values()),
    )
    return number, moves


def draft_pick(code: str) -> tuple[int, tuple[str, dict]] | None:
    """The drafting seat and its computer pick; None when nobody is drafting."""
    from games.observatory.rules import robot
    from games.observatory.rules.model import Phase

    state = current(code)
    if state.ended or state.phase is not Phase.DRAFT:
        return None
    seat = state.drafter
    return seat, form_of(robot.move(state, seat))


# -- the room ---------------------------------------------------------------------------------


async def drafts(table: Table, timeout: float) -> int:
    """Play the draft, if one runs, pick by pick (each on every screen before the next)."""
    picks = 0
    while (planned := await asyncio.to_thread(draft_pick, table.code)) is not None:
        seat, (action, form) = planned
        player = table.seats[seat - 1]
        response = await player.http.post(
            f"/r/{table.code}/play/{action}", data=form, headers=player.headers()
        )
        assert response.status_code == 200, (seat, form, response.text[:300])
        found = VERSION.search(response.content)
        if found:
            await every_screen(table, int(found.group(1)), timeout)
        picks += 1
    return picks


async def play(server: Server, args: argparse.Namespace) -> dict:
    table = await make_table(server.urls[0], args.seats, kind=KIND)
    await asyncio.sleep(1.0)
    idle = await idle_cpu(server, args.idle)
    rng = random.Random(args.seed)
    turns: list[dict] = []
    played = 0
    while played < args.warmup + args.turns:
        picks = await drafts(table, args.timeout)
        step: dict = {}
        result = await play_round(
            table, server, args.spread, rng, args.timeout, plan=partial(robot_moves, step)
        )
        if result is None:  # the game is over: a rematch
            await rematch(table)
            continue
        result.update(step, draft_picks_before=picks)
        choice = step["phase"] == "choice"
        result["warmup"] = choice or played < args.warmup
        turns.append(result)
        if not choice:
            played += 1
        print(turn_row(result), flush=True)
        await asyncio.sleep(args.pause)
    await close(table)
    return {"idle_cpu_per_s": idle, "rounds": turns}


# -- the report ---------------------------------------------------------------------------------


def turn_row(r: dict) -> str:
    if r["phase"] == "choice":
        what = "setup choice (not counted)"
    else:
        when = "opening" if r["phase"] == "opening" else f"turn {r['turn']}"
        what = f"night {r['night']} {when}"
        what += " (warm-up)" if r["warmup"] else ""
    close_ms = r["close_to_every_screen_ms"]
    return (
        f"{what:<30} | {r['waiting']} sent ({r['passes']} passes), "
        f"answers p50 {statistics.median(r['answers_ms']):6.0f} "
        f"max {max(r['answers_ms']):6.0f} ms | "
        f"close to every screen {'timeout' if close_ms is None else f'{close_ms:6.0f} ms'} | "
        f"cpu {r['cpu_s'] * 1000:6.0f} ms | {r['frames']} frames {r['frame_bytes'] / 1024:.0f} KiB"
        f"{' | drafted ' + str(r['draft_picks_before']) if r['draft_picks_before'] else ''}"
        f"{' | errors ' + str(r['errors']) if r['errors'] else ''}"
    )


def summarize_turns(played: dict, seats: int) -> dict:
    """``bench/lats_round.py``'s summary of the counted turns, with the CPU per turn."""
    summary = summarize(played, seats)
    counted = [r for r in played["rounds"] if not r["warmup"]]
    cpu = sum(r["cpu_s"] for r in counted)
    window = sum(r["window_s"] for r in counted)
    idle = played["idle_cpu_per_s"]
    summary["turns"] = summary.pop("rounds")
    summary["cpu_ms_per_turn"] = cpu * 1000 / len(counted)
    summary["cpu_ms_per_turn_less_idle"] = (cpu - idle * window) * 1000 / len(counted)
    summary["cpu_ms_per_turn_p50_max"] = (
        pct([r["cpu_s"] * 1000 for r in counted], 50),
        max(r["cpu_s"] * 1000 for r in counted),
    )
    summary["draft_picks"] = sum(r["draft_picks_before"] for r in played["rounds"])
    summary["pushed_kib_per_turn_all_sockets"] = summary.pop("pushed_kib_per_round_all_sockets")
    summary["frames_per_turn_all_sockets"] = summary.pop("frames_per_round_all_sockets")
    return summary


def print_table(result: dict) -> None:
    s = result["summary"]
    per_turn = [
        (
            "server CPU per turn",
            f"{s['cpu_ms_per_turn']:.0f} ms (p50 {s['cpu_ms_per_turn_p50_max'][0]:.0f}, "
            f"max {s['cpu_ms_per_turn_p50_max'][1]:.0f})",
        ),
        ("  less the idle room's CPU", f"{s['cpu_ms_per_turn_less_idle']:.0f} ms"),
    ]
    report.print_table(
        "Observatory",
        result,
        "turn",
        note=f"; {s['draft_picks']} draft picks between turns (not measured)",
        before=per_turn,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--turns", type=int, default=6, help="measured turns")
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1, help="turns played first, not counted")
    parser.add_argument(
        "--spread", type=float, default=1.0, help="seconds over which a turn's seats submit"
    )
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between turns")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of idle CPU measured")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds a turn's close may take to arrive"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if SERVER_ROOT != ROOT:
        raise SystemExit(
            "bench/observatory_turn.py measures this checkout only (BENCH_SERVER_ROOT)"
        )
    result: dict = {
        "config": args.config,
        "seats": args.seats,
        "spread_s": args.spread,
        "loadavg_before": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    with serve(args.config) as server:
        use_bench_database(server)
        played = asyncio.run(play(server, args))
        result["loadavg_after"] = os.getloadavg()
    result["summary"] = summarize_turns(played, args.seats)
    result["turns"] = played["rounds"]
    out = args.json or ROOT / "bench" / "results" / (
        f"observatory-turn-{args.config}-s{args.seats}-{int(time.time())}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print_table(result)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
