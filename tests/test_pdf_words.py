"""The PDF word reader's shortcuts (extractors/pdf_words.py) give what the plain ways give:
a word built without the frozen dataclass's ``__init__``, the page's characters fetched
by the bare PDFium calls, styles looked up once per text object and font."""

from __future__ import annotations

import io
from dataclasses import fields

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from reportlab.pdfgen import canvas

from extractors.pdf_words import Word, _new_word, _page_units, read_layouts


def test_a_word_built_fast_is_the_word_built_plainly() -> None:
    values = ("Total", 1.5, 2.25, 30.0, 12.0, 9.5, True, True, "Helvetica-Bold", 7)
    assert [f.name for f in fields(Word)] == \
        ["text", "x0", "top", "x1", "bottom", "size", "bold", "italic", "font", "line"]
    fast, plain = _new_word(*values), Word(*values)
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)


def _pdf() -> bytes:
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(400, 300))
    page.setFont("Helvetica-Bold", 14)
    page.drawString(40, 250, "Quarterly results")
    page.setFont("Helvetica", 10)
    page.drawString(40, 220, "Region   North   South")
    page.setFont("Times-Italic", 10)
    page.drawString(40, 200, "naïve café – 12 500 €")
    page.save()
    return out.getvalue()


def test_words_carry_the_style_of_their_text_object_and_font() -> None:
    (layout,) = read_layouts(_pdf())
    by_text = {w.text: w for w in layout.words}
    assert by_text["Quarterly"].bold and by_text["Quarterly"].size == 14
    assert not by_text["North"].bold and not by_text["North"].italic
    assert by_text["café"].italic and "Times" in by_text["café"].font
    assert [w.text for w in layout.words if w.line == by_text["Region"].line] == ["Region", "North", "South"]


def test_the_page_text_in_one_call_is_the_text_character_by_character() -> None:
    pdf = pdfium.PdfDocument(_pdf())
    textpage = pdf[0].get_textpage()
    count = pdfium_c.FPDFText_CountChars(textpage.raw)
    units = _page_units(textpage.raw, count)
    assert len(units) == count + 1
    assert units[:count] == [pdfium_c.FPDFText_GetUnicode(textpage.raw, i) & 0xFFFF for i in range(count)]
