"""`rgb-leaderboard site build|serve`: render the static leaderboard site from submissions/."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.cli.arguments import command_group
from leaderboard.core.errors import LeaderboardError


def _warn(message: str) -> None:
    typer.secho(f"warning: {message}", fg=typer.colors.YELLOW, err=True)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    site_app = command_group("Build or serve the static leaderboard site (mkdocs-material).")
    app.add_typer(site_app, name="site")

    @site_app.command("build")
    def build(
        repo: Path = typer.Option(
            Path("."), "--repo", help="Repository root holding submissions/ and site/."
        ),
        out: Path | None = typer.Option(None, "--out", help="Output folder (default: site/build)."),
        no_strict: bool = typer.Option(
            False, "--no-strict", help="Do not fail on mkdocs warnings."
        ),
    ) -> None:
        """Validate every submissions/<id>/results.json and build the site into site/build/."""
        # deferred: the site pulls in matplotlib and mkdocs, which `--help` should not wait for
        from leaderboard.site.build import build_site

        target = build_site(repo, out, strict=not no_strict, warn=_warn)
        typer.echo(f"site built: {target}/index.html")

    @site_app.command("serve")
    def serve(
        repo: Path = typer.Option(
            Path("."), "--repo", help="Repository root holding submissions/ and site/."
        ),
        port: int = typer.Option(8000, "--port", help="Port on 127.0.0.1."),
        no_build: bool = typer.Option(False, "--no-build", help="Serve site/build as it is."),
    ) -> None:
        """Build the site, then serve it on http://127.0.0.1:PORT/ until Ctrl-C."""
        # deferred: matplotlib and mkdocs, as in `site build`
        from leaderboard.site.build import build_site
        from leaderboard.site.serve import make_server

        target = (repo / "site" / "build") if no_build else build_site(repo, warn=_warn)
        if not (target / "index.html").is_file():
            raise LeaderboardError(
                f"{target}/index.html is missing: run `rgb-leaderboard site build` first "
                "(or drop --no-build)."
            )
        server = make_server(target, port)
        typer.echo(
            f"serving {target} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)"
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
