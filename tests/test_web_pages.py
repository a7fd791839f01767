"""The web-page development set (tests/web_pages.py): its truth is what Chromium prints, so a
score against it measures the reader, not the generator."""

from __future__ import annotations

import shutil

import pypdfium2
import pytest

from tests.web_pages import generate_page


def test_the_same_seed_gives_the_same_page():
    assert generate_page(7).html == generate_page(7).html
    assert generate_page(7).truth() == generate_page(7).truth()
    assert generate_page(7).truth() != generate_page(8).truth()


def test_a_spanning_header_cell_is_written_at_its_first_position():
    tables = [t for seed in range(1, 30) for t in generate_page(seed).tables]
    grouped = [t for t in tables if len(t.cells) > 2 and t.cells[1][0] == ""]
    assert grouped, "no table with a header over two rows in 29 pages"
    for table in tables:
        assert len({len(row) for row in table.cells}) == 1  # a full grid: every row as wide


@pytest.mark.system
def test_every_true_cell_and_heading_is_printed_by_chromium(tmp_path):
    if shutil.which("chromium") is None:
        pytest.skip("Chromium (Debian's chromium) is not installed: .ci/setup installs it as root")
    from tests.web_pages import print_pdf

    pages = [generate_page(seed) for seed in (1, 2, 5, 13)]
    sources = []
    for page in pages:
        path = tmp_path / f"{page.name}.html"
        path.write_text(page.html)
        sources.append(path)
    for tagged in (False, True):
        for page, pdf in zip(pages, print_pdf(sources, tmp_path / str(tagged), tagged=tagged), strict=True):
            document = pypdfium2.PdfDocument(pdf)
            text = "\n".join(p.get_textpage().get_text_range() for p in document)
            document.close()
            words = set(text.split())
            cells = [c for table in page.tables for row in table.cells for c in row if c]
            missing = [c for c in cells if not set(c.split()) <= words]
            assert not missing, (page.name, missing[:5])
            headings = [h.text for h in page.headings if not set(h.text.split()) <= words]
            assert not headings, (page.name, headings)
            assert all(set(d.split()) <= words for d in page.decoys), page.name
            # Tagged only when asked: the untagged print carries no structure tree.
            raw = pdf.read_bytes()
            assert (b"/StructTreeRoot" in raw) is tagged, (page.name, tagged)
