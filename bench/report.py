"""The summary table of the real-server benches of games played by seats at once:
``bench/lats_round.py`` (per round) and ``bench/observatory_turn.py`` (per turn) print the
same rows from ``lats_round.summarize``'s summary, each with a few rows of its own."""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[str, str]


def loadavg(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def print_table(
    game: str,
    result: dict,
    unit: str,
    *,
    note: str = "",
    before: Sequence[Row] = (),
    after: Sequence[Row] = (),
) -> None:
    """The table of ``result["summary"]``, counted in ``unit``s (``round``, ``turn``): its
    submissions (``note`` added to that row), the bench's own ``before`` rows, the CPU per
    submission, the answers, the close to every screen and what was pushed per ``unit``,
    then the bench's own ``after`` rows."""
    s = result["summary"]
    print()
    print(
        f"{game}, {result['seats']} seats, {s[unit + 's']} {unit}s "
        f"({result['config']}; load average before {loadavg(result['loadavg_before'])}, "
        f"after {loadavg(result['loadavg_after'])}, {result['cpus']} cores)"
    )
    rows = [
        ("submissions", f"{s['submissions']} ({s['passes']} passes), {s['errors']} errors{note}"),
        *before,
        ("server CPU per submission", f"{s['cpu_ms_per_submission']:.1f} ms"),
        (
            "  less the idle room's CPU",
            f"{s['cpu_ms_per_submission_less_idle']:.1f} ms "
            f"(idle: {s['idle_cpu_ms_per_s']:.0f} ms/s)",
        ),
        (
            "  by process",
            ", ".join(f"{k} {v:.1f} ms" for k, v in s["cpu_ms_per_submission_by_process"].items()),
        ),
        (
            "answer p50 / p95 / max",
            f"{s['answer_ms']['p50']:.1f} / {s['answer_ms']['p95']:.1f} / "
            f"{s['answer_ms']['max']:.1f} ms",
        ),
        (
            "closing answer p50 / max",
            f"{s['closing_answer_ms']['p50']:.1f} / {s['closing_answer_ms']['max']:.1f} ms",
        ),
        (
            "close to every screen p50 / p95 / max",
            f"{s['close_to_every_screen_ms']['p50']:.1f} / "
            f"{s['close_to_every_screen_ms']['p95']:.1f} / "
            f"{s['close_to_every_screen_ms']['max']:.1f} ms ({s['timeouts']} timeouts)",
        ),
        (
            f"pushed per {unit} (all sockets)",
            f"{s[f'frames_per_{unit}_all_sockets']:.0f} frames, "
            f"{s[f'pushed_kib_per_{unit}_all_sockets']:.0f} KiB",
        ),
        *after,
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
