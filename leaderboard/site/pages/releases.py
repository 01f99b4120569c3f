"""The Releases page (every release of the board, newest first, with what changed since the one
before it and its downloads), the line every page's footer carries naming the release, and the
release files copied into the site (releases/<id>/...).

CHANGELOG lines are quoted as written (English, marked `lang="en"`): they are the record."""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.board.cite import RGB_BIBTEX, TAG_PREFIX, release_bibtex
from leaderboard.board.load import SiteData
from leaderboard.board.release import (
    BOARD_CSV,
    BOARD_JSON,
    RELEASE_FILE,
    RELEASES_DIR,
    Changes,
    Release,
    compare,
    current_release,
    freeze,
    history,
    read_releases,
)
from leaderboard.core.schema import DIFF_LANG
from leaderboard.site.pages.release_summary import summary_html
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter, prefix_for, shown_name

PATH = "releases.md"
CHANGELOG = "CHANGELOG.md"


@dataclass(frozen=True)
class ReleaseStatus:
    """The releases of the repository and whether the board built is exactly the latest."""

    releases: tuple[Release, ...] = ()
    latest: Release | None = None
    exact: bool = False
    pending: Changes | None = None  # the changes since the latest release, when not exact
    now: Release | None = None  # the board as it is, frozen, when not exactly the latest

    @property
    def label(self) -> str | None:
        """What a download says: the release id, "<id>+changes", or None before any release."""
        if self.latest is None:
            return None
        return self.latest.id if self.exact else f"{self.latest.id}+unreleased"


def release_status(data: SiteData) -> ReleaseStatus:
    """Read releases/ of the board's repository and compare the board with the latest."""
    if data.root is None:
        return ReleaseStatus()
    releases = read_releases(data.root)
    latest, exact = current_release(data, releases)
    pending = now = None
    if latest is not None and not exact:
        # the CHANGELOG lines added since the latest release say why an entry changed
        log = data.root / CHANGELOG
        text = log.read_text(encoding="utf-8") if log.is_file() else ""
        now = freeze(data, "unreleased", latest.date, text)
        pending = compare(latest, now)
    return ReleaseStatus(releases, latest, exact, pending, now)


def release_files(status: ReleaseStatus, data: SiteData, files: dict[str, bytes]) -> None:
    """Copy every release's files into the site, releases/<id>/<file>."""
    if data.root is None:
        return
    for r in status.releases:
        folder = data.root / RELEASES_DIR / r.id
        for name in (RELEASE_FILE, BOARD_JSON, BOARD_CSV):
            if (folder / name).is_file():
                files[f"{RELEASES_DIR}/{r.id}/{name}"] = (folder / name).read_bytes()


def footer(status: ReleaseStatus, lg: str, prefix: str) -> str:
    """The line at the end of every page naming the release the page shows."""
    link = f'<a href="{prefix}releases.html">{esc(ui(lg, "release.page_link"))}</a>'
    if status.latest is None:
        text = ui(lg, "release.footer_none")
    else:
        key = "release.footer" if status.exact else "release.footer_pending"
        text = ui(
            lg,
            key,
            id=status.latest.id,
            date=status.latest.date,
            scoring=", ".join(status.latest.scoring_versions),
        )
    return f'\n\n<p class="lb-note lb-release-foot">{esc(text)} · {link}</p>\n'


def _quote(text: str) -> str:
    return f'<span class="lb-quote" lang="en">{esc(text)}</span>'


def _lang(lang: str, lg: str) -> str:
    """A score's language in the page language (zh − en, the difference, by its code)."""
    if lang in ("zh", "en", "all"):
        return ui(lg, f"lang.{lang}")
    return ui(lg, f"langcode.{lang}") if lang == DIFF_LANG else lang


def _quoted_lines(lines: tuple[str, ...]) -> str:
    """CHANGELOG lines under an item, each quoted as written (English)."""
    return "".join(f"<br>{_quote(line)}" for line in lines)


def _changes_html(c: Changes, lg: str, names: dict[str, str]) -> str:
    if c.previous is None:
        return f"<p>{esc(ui(lg, 'release.first', n=len(c.added)))}</p>"
    if c.empty:
        return f"<p>{esc(ui(lg, 'release.no_changes', previous=c.previous))}</p>"
    items = []
    if c.added:
        shown = ui(lg, "sep.list").join(names.get(k, k) for k in c.added)
        items.append(esc(ui(lg, "release.added", entries=shown)))
    if c.removed:
        shown = ui(lg, "sep.list").join(c.removed)
        items.append(esc(ui(lg, "release.removed", entries=shown)))
    # only the entries whose values moved are named; a rescore that moved none is one line
    for r in (r for r in c.rescored if r.changed):
        note = "" if r.changelog else ui(lg, "release.no_changelog")
        head = ui(
            lg, f"release.{r.reason}", entry=names.get(r.entry, r.entry), n=r.changed, note=note
        )
        items.append(esc(head) + _quoted_lines(r.changelog))
    same = [r for r in c.rescored if not r.changed]
    if same:
        lines = tuple(dict.fromkeys(line for r in same for line in r.changelog))
        note = "" if lines else ui(lg, "release.no_changelog")
        key = "release.same_values_one" if len(same) == 1 else "release.same_values"
        items.append(esc(ui(lg, key, n=len(same), note=note)) + _quoted_lines(lines))
    for m in c.moved:
        items.append(
            esc(
                ui(
                    lg,
                    "release.moved",
                    entry=names.get(m.entry, m.entry),
                    lang=_lang(m.lang, lg),
                    ability=ui(lg, f"ability.{m.ability}")
                    if m.ability != "overall"
                    else ui(lg, "col.overall"),
                    mode=ui(lg, f"modecode.{m.mode}"),
                    before=pct(m.before, lg=lg),
                    after=pct(m.after, lg=lg),
                    low=pct(m.interval[0], lg=lg),
                    high=pct(m.interval[1], lg=lg),
                )
            )
        )
    head = esc(ui(lg, "release.since", previous=c.previous))
    return f"<p>{head}</p><ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _downloads(r: Release, prefix: str) -> str:
    base = f"{prefix}{RELEASES_DIR}/{esc(r.id)}/"
    return (
        f'<a href="{base}{BOARD_CSV}">{BOARD_CSV}</a> · <a href="{base}{BOARD_JSON}">{BOARD_JSON}'
        f'</a> · <a href="{base}{RELEASE_FILE}">{RELEASE_FILE}</a>'
    )


def releases_page(ctx: Context, status: ReleaseStatus | None = None) -> str:
    """Every release, newest first, with its id, date, digest, scoring versions, data files,
    downloads, git tag and what changed since the one before; then the changes not released."""
    data, lg = ctx.data, ctx.lg
    if status is None:
        status = ctx.release if isinstance(ctx.release, ReleaseStatus) else release_status(data)
    prefix = prefix_for(PATH)
    names = {e.id: shown_name(e.id, e.results.display_name, lg) for e in data.submissions}
    for r in status.releases:
        names.update(
            {e.id: shown_name(e.id, e.display_name, lg) for e in r.entries if e.id not in names}
        )
    parts = [front_matter() + f"# {ui(lg, 'release.title')}\n", ui(lg, "release.intro") + "\n"]
    if status.pending is not None and status.latest is not None and status.now is not None:
        # as a released section reads: the reader's lines first, the record one click away
        parts.append(f"\n## {ui(lg, 'release.unreleased')}\n")
        summary = summary_html(status.latest, status.now, status.pending, lg, names)
        parts.append(
            f"\n{summary}\n\n"
            f'<details class="lb-release-details"><summary>{esc(ui(lg, "release.details_pending"))}'
            f"</summary>{_changes_html(status.pending, lg, names)}</details>\n"
        )
    if not status.releases:
        parts.append("\n" + ui(lg, "release.none") + "\n")
    previous: dict[str, Release] = {}
    for a, b in zip(status.releases, status.releases[1:], strict=False):
        previous[b.id] = a
    for r, changes in reversed(history(status.releases)):
        parts.append(f"\n## {esc(r.id)}\n")
        parts.append(f"\n<p>{esc(ui(lg, 'release.cut', date=r.date, n=len(r.entries)))}</p>\n")
        parts.append("\n" + summary_html(previous.get(r.id), r, changes, lg, names) + "\n")
        facts = ui(
            lg,
            "release.facts",
            date=r.date,
            n=len(r.entries),
            scoring=", ".join(r.scoring_versions),
            digest=r.digest,
            tag=f"{TAG_PREFIX}{r.id}",
            files=len(r.data_blob_ids),
        )
        # the record (CHANGELOG lines as written, identifiers, files) one click away
        parts.append(
            f'\n<details class="lb-release-details"><summary>{esc(ui(lg, "release.details"))}'
            f"</summary>{_changes_html(changes, lg, names)}<p>{esc(facts)}</p>"
            f"<p>{esc(ui(lg, 'release.downloads'))} {_downloads(r, prefix)}</p></details>\n"
        )
    parts.append(
        f'\n<details class="lb-release-details"><summary>{esc(ui(lg, "release.how_title"))}'
        f'</summary><pre class="lb-cmd"><code>{esc(ui(lg, "release.how"))}</code></pre>'
        "</details>\n"
    )
    return "\n".join(parts)


def cite_section(ctx: Context) -> str:
    """ "Cite this board": BibTeX for RGB and for the latest release (the home page)."""
    lg = ctx.lg
    status = ctx.release if isinstance(ctx.release, ReleaseStatus) else release_status(ctx.data)
    parts = [f"\n## {ui(lg, 'cite.heading')}\n", ui(lg, "cite.rgb") + "\n"]
    parts.append(f'\n<pre class="lb-cmd"><code>{esc(RGB_BIBTEX)}</code></pre>\n')
    if status.latest is None:
        parts.append("\n" + ui(lg, "cite.no_release") + "\n")
    else:
        key = "cite.release" if status.exact else "cite.release_pending"
        parts.append("\n" + ui(lg, key, id=status.latest.id) + "\n")
        parts.append(
            f'\n<pre class="lb-cmd"><code>{esc(release_bibtex(status.latest))}</code></pre>\n'
        )
    return "\n".join(parts)
