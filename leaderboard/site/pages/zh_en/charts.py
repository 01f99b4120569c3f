"""The zh versus en charts: every entry's zh and en score with its interval on one row per entry,
and each model's noise curves in both languages on one chart (as the RGB paper's figure).

The first is what the zh-vs-en page opens with: a reader sees which language each entry holds up
better in, whether the difference's interval excludes 0 (the row's right-hand text, bold and
coloured only then), and the paper's rows and the trivial baselines placed against the measured
models (the paper's hollow, the baselines faint, never mixed into the measured rows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leaderboard.site.render.charts import _RC, MAX_TITLE, Series, _svg, ci_band, label, plt
from leaderboard.site.render.fmt import pct_ci, signed_pct
from leaderboard.site.render.i18n import DEFAULT, ui

ZH, EN = "#d62728", "#1f77b4"
KINDS = ("measured", "reported", "baseline")  # the bands, top to bottom
MAX_ROW_LABEL = 34
MAX_CURVES = 12  # more entries: no CI bands and no legend (the chart stays small at 100 models)


_FONT = re.compile(r"font-family: [^;\"]*(; )?")
_NO_ROTATION = re.compile(r' transform="rotate\(-0 [0-9.]+ [0-9.]+\)"')
_TEXT_GROUP = re.compile(r'<g id="text_\d+">\s*(<text [^>]*>[^<]*</text>)\s*</g>')


def _compact(svg: str) -> str:
    """One font rule for the whole chart instead of one per text element, and no identity
    rotations: a chart of 100 entries holds 200 texts, and their repeated styles were most of
    its bytes (the page's first screen loads two of these charts)."""
    fonts = ", ".join(f"'{f}'" for f in _RC["font.sans-serif"]) + ", sans-serif"
    svg = _TEXT_GROUP.sub(r"\1", _NO_ROTATION.sub("", _FONT.sub("", svg)))
    head = svg.index(">", svg.index("<svg")) + 1
    return svg[:head] + f"\n <style>text {{ font-family: {fonts}; }}</style>" + svg[head:]


@dataclass(frozen=True)
class ZhEnRow:
    """One entry of a zh-versus-en chart (fractions; CIs and n None where there are none)."""

    label: str
    kind: str  # one of KINDS
    zh: float | None
    en: float | None
    zh_ci: tuple[float, float] | None = None
    en_ci: tuple[float, float] | None = None
    diff: float | None = None
    diff_ci: tuple[float, float] | None = None
    n: tuple[int | None, int | None] = (None, None)  # questions scored, zh and en


def beyond(ci: tuple[float, float] | None) -> bool:
    """Whether a difference's interval excludes 0 (only then a language is named)."""
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


def _diff_text(r: ZhEnRow, lg: str) -> str:
    if r.diff is None:
        return ui(lg, "zhenc.no_diff")
    text = signed_pct(r.diff, lg)  # the page language's minus sign, as its prose writes it
    if r.diff_ci is not None:
        text += f" [{pct_ci(r.diff_ci, lg)}]"
    elif r.kind == "reported":
        text += ui(lg, "zhenc.no_ci")
    if r.n[0] is not None or r.n[1] is not None:
        zh, en = ("—" if n is None else n for n in r.n)
        text += ui(lg, "zhenc.n", zh=zh, en=en)
    return text


def _points(ax, rows: list[tuple[ZhEnRow, float]], lang: str, kind: str) -> None:
    """One language's marks of one band: every CI in one polyline (NaN breaks) and every point in
    one line of markers, two SVG elements however many entries (100 models stay small)."""
    color, marker = (ZH, "o") if lang == "zh" else (EN, "s")
    shift = 0.14 if lang == "zh" else -0.14
    got = [(getattr(r, lang), getattr(r, f"{lang}_ci"), y + shift) for r, y in rows]
    got = [(v, ci, y) for v, ci, y in got if v is not None]
    if not got:
        return
    alpha = 0.35 if kind == "baseline" else 1.0
    xs: list[float] = []
    yy: list[float] = []
    for _, ci, y in got:
        if ci is not None:
            xs += [100 * ci[0], 100 * ci[1], float("nan")]
            yy += [y, y, float("nan")]
    if xs:
        ax.plot(xs, yy, color=color, linewidth=1.6, alpha=alpha)
    ax.plot(
        [100 * v for v, _, _ in got],
        [y for _, _, y in got],
        marker=marker,
        markersize=5,
        markerfacecolor="none" if kind == "reported" else color,
        markeredgecolor=color,
        alpha=alpha,
        linestyle="none",
    )


def zh_en_rows(rows: list[ZhEnRow], title: str, lg: str = DEFAULT) -> str:
    """One row per entry (measured, then the paper's, then the baselines): zh (red circle) and en
    (blue square) with their 95% CIs, and zh − en with its CI and n on the right."""
    ordered = [r for k in KINDS for r in rows if r.kind == k]
    n = len(ordered)
    with plt.rc_context(_RC):
        height = max(1.8, 0.22 * n + 1.2)
        fig, ax = plt.subplots(figsize=(6.2, height), dpi=100)
        ys = [n - 1 - i for i in range(n)]
        for kind in KINDS:
            band = [(r, y) for r, y in zip(ordered, ys, strict=True) if r.kind == kind]
            for lang in ("zh", "en"):
                _points(ax, band, lang, kind)
        for r, y in zip(ordered, ys, strict=True):
            strong = beyond(r.diff_ci)
            color = (ZH if (r.diff or 0) > 0 else EN) if strong else "0.35"
            ax.text(
                1.02,
                y,
                _diff_text(r, lg),
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize=7,
                color=color,
                fontweight="bold" if strong else "normal",
                alpha=0.5 if r.kind == "baseline" else 1.0,
            )
        for k in KINDS[1:]:  # each band under a dashed line, named at its right end
            first = next((y for r, y in zip(ordered, ys, strict=True) if r.kind == k), None)
            if first is not None:
                ax.axhline(first + 0.5, color="0.6", linewidth=0.8, linestyle="--")
                ax.text(
                    1.02,
                    first + 0.5,
                    ui(lg, f"zhenc.band_{k}"),
                    transform=ax.get_yaxis_transform(),
                    va="center",
                    fontsize=6,
                    color="0.4",
                    fontstyle="italic",
                )
        ax.set_yticks([])  # the names as plain text: one SVG element each, no tick groups
        for r, y in zip(ordered, ys, strict=True):
            ax.text(
                -0.02,
                y,
                label(r.label, MAX_ROW_LABEL),
                transform=ax.get_yaxis_transform(),
                ha="right",
                va="center",
                fontsize=7,
                color="0.45" if r.kind != "measured" else "black",
                fontstyle="italic" if r.kind != "measured" else "normal",
            )
        ax.set_ylim(-0.7, max(n, 1) - 0.3)
        ax.set_xlim(0, 100)
        ax.set_xlabel(ui(lg, "zhenc.xlabel"))
        ax.set_title(label(title, MAX_TITLE), loc="left", fontsize=8.5, pad=16)
        ax.grid(True, axis="x", alpha=0.3)
        ax.plot([], [], "o", color=ZH, label="zh")
        ax.plot([], [], "s", color=EN, label="en")
        ax.plot([], [], "o", color="0.4", markerfacecolor="none", label=ui(lg, "zhenc.reported"))
        ax.legend(
            loc="lower left",
            bbox_to_anchor=(0, 1.0),
            ncol=3,
            fontsize=6.5,
            frameon=False,
            handletextpad=0.2,
            columnspacing=0.7,
        )
        head = ui(lg, "zhenc.diff_head")
        ax.text(1.02, 1.0, head, transform=ax.transAxes, fontsize=7, va="bottom")
        fig.subplots_adjust(left=0.38, right=0.7, bottom=0.7 / height, top=1 - 0.75 / height)
        return _compact(_svg(fig))


@dataclass(frozen=True)
class ModelCurves:
    """One entry's noise curves: zh and en (either may be missing), measured or reported."""

    label: str
    zh: Series | None
    en: Series | None
    reported: bool = False


def noise_both(models: list[ModelCurves], title: str, lg: str = DEFAULT) -> str:
    """Accuracy against noise rate: one colour per entry, zh solid, en dashed; the measured
    models' 95% CIs shaded, the paper's curves thin with crosses (no intervals reported)."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(7.5, 4.0), dpi=100)
        colors = plt.get_cmap("tab20" if len(models) > 10 else "tab10")
        for i, m in enumerate(models):
            color = colors(i % colors.N)
            for lang, s, style in (("zh", m.zh, "-"), ("en", m.en, "--")):
                if s is None:
                    continue
                pts = [(x, y) for x, y in zip(s.x, s.y, strict=True) if y is not None]
                if not pts:
                    continue
                xs, ys = zip(*pts, strict=True)
                name = label(m.label)
                if m.reported:
                    name = ui(lg, "chart.reported_series", name=name)
                ax.plot(
                    xs,
                    [100 * y for y in ys],
                    linestyle=style,
                    marker="x" if m.reported else "o",
                    markersize=3,
                    linewidth=0.9 if m.reported else 1.5,
                    alpha=0.7 if m.reported else 1.0,
                    color=color,
                    label=f"{name} · {lang}",
                )
                if len(models) <= MAX_CURVES:
                    ci_band(ax, s, color, alpha=0.1)
        ax.set_xlabel(ui(lg, "chart.noise_rate"))
        ax.set_ylabel(ui(lg, "chart.accuracy"))
        ax.set_ylim(0, 100)
        ax.set_xticks([0.0, 0.2, 0.4, 0.6, 0.8])
        ax.set_title(label(title, MAX_TITLE), loc="left")
        ax.grid(True, alpha=0.3)
        if len(models) > MAX_CURVES:
            ax.text(1.01, 1.0, ui(lg, "chart.many_series", n=len(models)), transform=ax.transAxes)
        elif models:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=6.5)
        fig.subplots_adjust(left=0.08, right=0.64, bottom=0.12, top=0.92)
        return _compact(_svg(fig))
