"""The web page at ``/`` in a real browser: headless Chromium (Debian's ``chromium`` package)
driven by Playwright for Python, against ``pagemill serve --no-worker`` and a worker process on
the test database.

In a narrow window, a person tabs through the page, pastes a key, drops a file on the page
(and takes it out again), chooses files through the file input (two samples, one named in
HTML, a broken PDF), submits them as one job and watches them reach ``completed`` (the broken
one ``failed``, with its error) live: the job's Server-Sent Events, read with the key in the
Authorization header.  Then a search shows a highlighted hit and its Markdown; a wide window
shows the job as a table; after a reload (key and job kept in the tab's session storage) and
"Forget key", a search hit's Markdown is found from the hit alone.  Nothing the API returned
ran as markup, and nothing is wider than the window.  Screenshots are saved as test artefacts
(``tests/artifacts/``, or ``$PAGEMILL_TEST_ARTIFACTS``), the last one whether the test passes
or not.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, free_port, start_serve, terminate

CHROMIUM = Path(os.environ.get("PAGEMILL_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(os.environ.get("PAGEMILL_TEST_ARTIFACTS") or ROOT / "tests" / "artifacts")
SAMPLES = ROOT / "samples"
# Generous: the first document of a fresh worker loads the embedding model.
DOCUMENT_TIMEOUT_MS = 300_000
STEP_TIMEOUT_MS = 60_000
# A file name and text written to run script if the page ever used them as markup.
# Single quotes: browsers send a double quote in a multipart filename as %22.
HOSTILE_NAME = "<img src=x onerror='window.__injected=1'>.md"
# Sniffed as a PDF (accepted), unreadable as one: the document fails, and the page says why.
BROKEN_PDF = b"%PDF-1.4\nnot really"
HOSTILE_TEXT = (b"# Injected <script>window.__injected=2</script>\n\n"
                b"Durable queues and <b onmouseover=\"window.__injected=3\">leases</b> are safe here.\n")

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                               "(pip install playwright; the browser is Debian's chromium)")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, as .ci/setup does as root)",
                allow_module_level=True)

expect = sync_api.expect
expect.set_options(timeout=STEP_TIMEOUT_MS)



@pytest.fixture
def api_base(test_env: dict[str, str], worker: Any, tmp_path: Path) -> Iterator[str]:
    """``pagemill serve --no-worker`` on a free port; the session's worker does the work."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "serve.log"
    proc = start_serve(test_env, port, log_path)
    try:
        yield base
    finally:
        terminate(proc)
        print(f"pagemill serve log: {log_path}")


def _tab_order(page: Any, stops: int) -> list[str]:
    """The ids (or tag names) of the first ``stops`` elements Tab moves the focus to."""
    order = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    return order


def _fits_the_window(page: Any) -> None:
    """Nothing sticks out sideways: the narrow window needs no horizontal scrolling."""
    wide = page.evaluate("""() => [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName}#${e.id}.${e.className}`)""")
    assert not wide, f"wider than the window: {wide}"


def _states_seen(page: Any) -> list[str]:
    return list(page.evaluate("window.__statesSeen || []"))


# Records every document state the page shows, in order, as it shows it: evidence that the
# states arrived while the job ran (printed, not asserted: how fast a worker is is not a test).
_WATCH_STATES = """
window.__statesSeen = [];
new MutationObserver(() => {
  for (const row of document.querySelectorAll("article.job tr[data-document]")) {
    const state = row.querySelector(".state");
    const seen = row.dataset.document + ": " + (state ? state.textContent : "");
    if (!window.__statesSeen.includes(seen)) window.__statesSeen.push(seen);
  }
}).observe(document.getElementById("jobs"), {subtree: true, childList: true, characterData: true});
"""


def test_page_uploads_follows_live_and_searches(api_base: str, key: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screenshot = ARTIFACTS / "web-page.png"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=["--no-sandbox"])
        # A phone's width: the page's narrow layout (every document row a labelled card).
        page = browser.new_page(viewport={"width": 420, "height": 900})
        page.set_default_timeout(STEP_TIMEOUT_MS)
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
                if message.type == "error" else None)
        streams: list[dict[str, str]] = []
        page.on("request", lambda request: streams.append(request.headers)
                if request.url.endswith("/events") else None)
        try:
            _use_the_page(page, api_base, key, streams)
        finally:
            page.screenshot(path=str(screenshot), full_page=True)
            print(f"screenshot: {screenshot}")
            print("console errors and page errors:", problems)
            browser.close()
        assert not problems, problems


def _use_the_page(page: Any, base: str, key: str, streams: list[dict[str, str]]) -> None:
    page.goto(f"{base}/")
    expect(page).to_have_title("pagemill")
    _tab_through(page)
    _enter_key(page, key)
    _drop_and_remove_a_file(page)
    _upload_and_follow(page, key, streams)
    _search_and_open_markdown(page)
    _wide_window(page)
    _reload_forget_and_find(page, key)


def _tab_through(page: Any) -> None:
    """The keyboard reaches every control in reading order (the disabled submit is skipped)."""
    order = _tab_order(page, 12)
    wanted = ["api-key", "forget-key", "files", "clear-files", "query", "mode"]
    positions = [order.index(name) for name in wanted if name in order]
    assert len(positions) == len(wanted) and positions == sorted(positions), order


def _enter_key(page: Any, key: str) -> None:
    field = page.get_by_label("Key (kept in this tab's session storage only)")
    field.fill(key)
    field.press("Enter")
    expect(page.locator("#key-status")).to_have_text(re.compile("Key accepted"))


def _drop_and_remove_a_file(page: Any) -> None:
    """A file dropped on the zone joins the files to send, and can be taken out again."""
    dropped = page.evaluate_handle("""() => {
        const files = new DataTransfer();
        files.items.add(new File(["dropped text"], "dropped.txt", {type: "text/plain"}));
        return files;
    }""")
    page.locator("#drop-zone").dispatch_event("drop", {"dataTransfer": dropped})
    expect(page.locator("#chosen li")).to_have_text([re.compile("dropped.txt")])
    page.get_by_role("button", name="Remove dropped.txt").click()
    expect(page.locator("#chosen li")).to_have_count(0)
    expect(page.locator("#files")).to_be_focused()


def _upload_and_follow(page: Any, key: str, streams: list[dict[str, str]]) -> None:
    """Two samples, a file named in HTML and a broken PDF through the file input, as one job,
    followed live until the three good ones are completed and the broken one failed with its
    error code."""
    page.evaluate(_WATCH_STATES)
    # As payloads (Playwright takes paths or payloads, not both): the samples' own bytes.
    files: list[Any] = [{"name": path.name, "mimeType": mime, "buffer": path.read_bytes()}
                        for path, mime in ((SAMPLES / "durable-queues.md", "text/markdown"),
                                           (SAMPLES / "maintenance-report.pdf", "application/pdf"))]
    files.append({"name": HOSTILE_NAME, "mimeType": "text/markdown", "buffer": HOSTILE_TEXT})
    files.append({"name": "bad.pdf", "mimeType": "application/pdf", "buffer": BROKEN_PDF})
    page.locator("#files").set_input_files(files)
    expect(page.locator("#chosen li")).to_have_count(4)
    page.get_by_role("button", name="Submit as one job").click()
    expect(page.locator("#upload-status")).to_have_text(re.compile(r"Job .* accepted"))

    job = page.locator("article.job")
    for name in ("durable-queues.md", "maintenance-report.pdf", HOSTILE_NAME):
        row = job.locator(f'tr[data-document="{name}"]')
        expect(row.locator(".state")).to_have_text("completed", timeout=DOCUMENT_TIMEOUT_MS)
        expect(row.locator('td[data-label="Extractor"]')).not_to_have_text("—")
    broken = job.locator('tr[data-document="bad.pdf"]')
    expect(broken.locator(".state")).to_have_text("failed", timeout=DOCUMENT_TIMEOUT_MS)
    expect(broken.locator('td[data-label="Error"]')).to_contain_text("corrupt")
    # The stream's end event, not a poll, ended the view; it carried the key in its header.
    expect(job.locator(".connection")).to_have_text("Finished: completed_with_errors.")
    expect(job.locator(".summary")).to_contain_text("3 of 4 completed · 1 failed")
    assert streams and all(h.get("authorization") == f"Bearer {key}" for h in streams), streams
    print("document states as the page showed them:", _states_seen(page))
    _fits_the_window(page)
    assert job.locator(f'tr[data-document="{HOSTILE_NAME}"] td').first.inner_text() == HOSTILE_NAME


def _search_and_open_markdown(page: Any) -> None:
    """With the keyboard: the query, Enter; a highlighted hit; its Markdown."""
    page.get_by_label("Mode").select_option("hybrid")
    page.get_by_role("searchbox", name="Query").fill("durable queues lease")
    page.get_by_role("searchbox", name="Query").press("Enter")
    expect(page.locator("#search-status")).to_have_text(re.compile(r"\d+ result\(s\)"))
    hit = page.locator('li.hit[data-document="durable-queues.md"]')
    expect(hit.locator("mark").first).to_be_visible()
    marked = [text.lower() for text in hit.locator("mark").all_inner_texts()]
    assert any(word in marked for word in ("durable", "queues", "lease")), marked
    expect(hit.locator(".facts-line")).to_contain_text("BM25 rank")

    hit.get_by_role("link").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#document-view")).to_be_visible()
    expect(page.locator("#document-markdown")).to_contain_text("Durable queues on PostgreSQL")
    expect(page.locator("#document-heading")).to_be_focused()
    # Just before a reload: a full-page screenshot resizes the viewport for a moment, which
    # can move what a click right after it aims at.
    midway = ARTIFACTS / "web-page-job-search-markdown.png"
    page.screenshot(path=str(midway), full_page=True)
    print(f"screenshot: {midway}")


def _wide_window(page: Any) -> None:
    """A wide window shows the documents as a table with its column headers; back to narrow."""
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.locator("article.job thead th").first).to_be_visible()
    _fits_the_window(page)
    page.set_viewport_size({"width": 420, "height": 900})
    expect(page.locator("article.job thead th").first).to_be_hidden()


def _reload_forget_and_find(page: Any, key: str) -> None:
    """A reload keeps the key and the job (session storage).  Forgetting the key drops all
    that was read with it; with the key given again, a search hit's Markdown is found from
    the client's document id alone, and the file named in HTML stays text."""
    page.reload()
    expect(page.locator("#api-key")).to_have_value(key)
    expect(page.locator("article.job .summary")).to_contain_text("3 of 4 completed")
    page.get_by_role("button", name="Forget key").click()
    expect(page.locator("article.job")).to_have_count(0)
    expect(page.locator("#api-key")).to_have_value("")
    assert page.evaluate("sessionStorage.length") == 0
    page.locator("#api-key").fill(key)
    page.get_by_role("button", name="Use key").click()
    expect(page.locator("#key-status")).to_have_text(re.compile("Key accepted"))

    page.get_by_label("Mode").select_option("bm25")
    page.get_by_role("searchbox", name="Query").fill("leases")
    page.get_by_role("button", name="Search").click()
    hostile_hit = page.locator(f'li.hit[data-document="{HOSTILE_NAME}"]')
    expect(hostile_hit.locator("mark")).to_have_text(["leases"])
    link = hostile_hit.locator("h3 a")
    assert (link.get_attribute("href") or "").startswith("#find="), link.get_attribute("href")
    link.click()
    expect(page.locator("#document-markdown")).to_contain_text("<script>window.__injected=2</script>")
    assert page.evaluate("location.hash").startswith("#document=")
    assert page.evaluate("window.__injected") is None
    _fits_the_window(page)
    page.get_by_role("link", name="Back to search").click()
    expect(page.locator("#document-view")).to_be_hidden()
