"""`cost`: what an entry's run cost, per machine that produced its answers (seconds per answer,
tokens per answer, peak memory, the CPU or GPU), computed by leaderboard.board.cost from the
entry's own records, so a submitter can plan a run on a similar machine."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.cost import AnswerCost, MachineCost, entry_cost, hours_for
from leaderboard.board.load import load_entry
from leaderboard.cli.arguments import submission_folders

PLAN_ANSWERS = 1000  # the "hours per 1,000 answers" column: a unit a plan multiplies


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def _row(label: str, c: AnswerCost) -> str:
    return (
        f"| {label} | {c.answers:,} | {c.errors} | {_num(c.median_s, '.2f')} | "
        f"{_num(c.mean_s, '.2f')} | {_num(hours_for(c, PLAN_ANSWERS), '.2f')} | "
        f"{_num(c.mean_prompt_tokens, ',.0f')} | {_num(c.mean_completion_tokens, '.1f')} |"
    )


def _mib(value: float | None) -> str:
    return "not recorded" if value is None else f"{value:,.0f} MiB"


def _flags(build: str) -> str:
    """llama.cpp's system info as the names of the features it has ("AVX2 FMA ... REPACK")."""
    on = [part.split("=")[0].strip() for part in build.split("|") if part.strip().endswith("= 1")]
    return " ".join(name.split(":")[-1].strip() for name in on)


def render_cost(entry_id: str, machines: list[MachineCost]) -> str:
    """One block per machine: where, how sure, peak memory, then a markdown table (all answers
    and each language)."""
    if not machines:
        return f"{entry_id}: no predictions"
    lines = [f"{entry_id} ({machines[0].engine})"]
    for m in machines:
        flags = f"; llama.cpp built with {_flags(m.build)}" if m.build else ""
        how = {
            "invocations": "from the invocation history",
            "last invocation": "results.json names one device, its last invocation's: "
            "earlier invocations did not record theirs",
            "unattributed": "no recorded invocation covers these answers",
        }[m.attributed]
        gpu = f", peak GPU {_mib(m.peak_gpu_mib)}" if m.peak_gpu_mib is not None else ""
        lines += [
            f"\n{m.device}{flags}",
            f"  ({how}); peak RSS {_mib(m.peak_rss_mib)}{gpu}",
            "",
            "| answers | n | errors | median s/answer | mean s/answer | "
            f"h per {PLAN_ANSWERS:,} | prompt tokens (mean) | completion tokens (mean) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            _row("all", m.all),
            *(_row(lang, c) for lang, c in m.langs),
        ]
    return "\n".join(lines)


def cost_cmd(
    submissions: list[Path] | None = typer.Argument(
        None, help="Submission folders (default: every submissions/*/ with a results.json)."
    ),
) -> None:
    """Print what each entry's answers cost, per machine: seconds and tokens per answer, hours per
    1,000 answers, peak memory, the CPU or GPU (from the predictions and the provenance)."""
    for i, folder in enumerate(submission_folders(submissions)):
        entry = load_entry(folder)
        typer.echo(("\n" if i else "") + render_cost(entry.id, entry_cost(entry)))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `cost`."""
    app.command("cost")(cost_cmd)
