"""The web page at ``/``: paste an API key, drop files, watch their job live, search them.

The page is static (``web_assets/``: one HTML, one JS, one CSS file, no build step, no CDN)
and talks to the ``/v1`` API from the browser with the key the person pasted; nothing here
reads a key or the database.  Its answers carry a Content-Security-Policy that allows only
this origin's own script, style and requests, so that even a mistake in the page's escaping
could not run a script from the API's data.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

from app.api.openapi import Answer, documented

blueprint = Blueprint("web", __name__)

ASSETS = Path(__file__).with_name("web_assets")
# No inline script or style anywhere in the page; connect-src 'self' is the API itself.
_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
           "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
_TEXT = {"type": "string"}


def secure_page(response: Response) -> Response:
    """``response`` with the headers of every page a browser renders here (this one and the
    Swagger UI at ``/docs``, which also holds an API key): only this origin's script, style
    and requests, never framed (clickjacking), no content sniffing, no referrer."""
    response.headers["Content-Security-Policy"] = _POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _asset(name: str, mimetype: str) -> Response:
    # Revalidated on every load (ETag): a new release's page never runs last release's script.
    return secure_page(send_from_directory(ASSETS, name, mimetype=mimetype, max_age=0))


@blueprint.get("/")
@documented("The web page: upload files, follow their job live, search (no key needed to load "
            "it; it sends the key pasted into it to the /v1 routes)",
            responses={200: Answer(_TEXT, "the page", "text/html")})
def page() -> Response:
    return _asset("index.html", "text/html")


@blueprint.get("/web/page.js")
@documented("The web page's script", responses={200: Answer(_TEXT, "the script", "text/javascript")})
def page_script() -> Response:
    return _asset("page.js", "text/javascript")


@blueprint.get("/web/page.css")
@documented("The web page's style sheet", responses={200: Answer(_TEXT, "the style sheet", "text/css")})
def page_style() -> Response:
    return _asset("page.css", "text/css")
