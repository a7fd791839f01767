"""A table in one column of a two-column Word section, exported untagged by LibreOffice
(tests/office_probes.two_column_section, seed 2): its rows are further apart than the prose
lines beside it, which overlap them by half a line and more and were taken into its rows as a
column of text; the section's two columns of prose under it, their lines interleaved, ran on
from it, so that no table was found and its cells came out as paragraphs of one word.  The
prose column beside it, on baselines of its own, is the page's next column (cut away however
many figures stand beside it), and the block of lines is cut where two lines of two pieces of
prose side by side begin.  (reportlab's glyph boxes, all of a font's height, do not give the
interleaving LibreOffice's ink boxes do: the document is typeset.)"""

from __future__ import annotations

import shutil

import pytest

from bench.icdar_tables import markdown_tables
from tests.pdf_output import markdown_of


@pytest.mark.system
def test_a_table_beside_prose_in_a_two_column_section_is_the_table_alone(tmp_path):
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from tests.office_documents import convert
    from tests.office_probes import two_column_section

    _, data, truth = two_column_section(2)
    source = tmp_path / "section.docx"
    source.write_bytes(data)
    [pdf] = convert([source], tmp_path / "plain")
    markdown = markdown_of(pdf.read_bytes())
    assert markdown_tables(markdown) == truth["tables"], markdown
    assert "Spending stayed within the budget" in markdown  # (the prose beside it stays text)
