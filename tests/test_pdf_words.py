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
        ["text", "x0", "top", "x1", "bottom", "size", "bold", "italic", "font", "line", "colour",
         "small_caps"]
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


def _tracked(draw: list[tuple[str, float, float]]) -> list[str]:
    """The words read from lines drawn with letter spacing: (text, font size, spacing in
    points) each, one under the other."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(500, 400))
    for row, (text, size, spacing) in enumerate(draw):
        line = page.beginText(40, 360 - 40 * row)
        line.setFont("Helvetica-Bold", size)
        line.setCharSpace(spacing)
        line.textOut(text)
        page.drawText(line)
    page.save()
    (layout,) = read_layouts(out.getvalue())
    return [w.text for w in layout.words]


def test_letter_spaced_words_are_read_whole() -> None:
    # A report's kicker and a spaced-out heading: every letter is drawn apart by tracking,
    # PDFium puts a space between them; the words between the wider gaps are the words.
    assert _tracked([("GOVERNANCE", 8, 2.5), ("STRATEGIC REPORT", 10, 3.0), ("Our people", 12, 1.5),
                     ("OUR PEOPLE", 12, 3.0)]) == \
        ["GOVERNANCE", "STRATEGIC", "REPORT", "Our", "people", "OUR", "PEOPLE"]


def test_an_apostrophe_or_hyphen_tracked_inside_a_spaced_word_stays_in_it() -> None:
    # "CHAIR'S STATEMENT" set with tracking: the apostrophe is drawn apart as the letters
    # are, and so is a hyphen; each is read inside its word, not as a word between two.
    assert _tracked([("CHAIR'S STATEMENT", 12, 7.2), ("WELL-BEING", 10, 6.0)]) == \
        ["CHAIR'S", "STATEMENT", "WELL-BEING"]


def test_letters_in_narrow_cells_and_spaced_digits_stay_apart() -> None:
    # Single letters centred in narrow columns (a row of code cells) stand at gaps that vary
    # with their widths, and digits (one-digit cells of a dense table look like tracked
    # digits): neither is a spelled-out word.
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(500, 400))
    page.setFont("Helvetica", 9)
    for centre, text in zip((46, 58, 70, 82, 94), "YNWIM", strict=True):
        page.drawCentredString(centre, 300, text)
    for x, text in zip((40, 48, 56, 64, 72), "31415", strict=True):
        page.drawString(x, 260, text)
    page.save()
    (layout,) = read_layouts(out.getvalue())
    assert [w.text for w in layout.words] == list("YNWIM") + list("31415")


def test_one_letter_words_a_space_apart_stay_words() -> None:
    # One-letter words in a sentence ("the marks A B C D and E") and a grid's labels in a
    # listing stand as evenly apart as tracked letters: the space the text holds between them
    # says they are words, and so, where the producer wrote no spaces (TeX, a browser: PDFium
    # puts them in), do the sentence's longer words standing as close beside them.
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(500, 400))
    page.setFont("Helvetica", 10)
    page.drawString(40, 360, "the marks A B C D and E")
    page.setFont("Courier", 10)
    page.drawString(40, 330, "A B C D E F G H")
    page.setFont("Times-Roman", 10)
    x = 40.0
    for word in "the options a b c d are".split():
        page.drawString(x, 300, word)
        x += page.stringWidth(word, "Times-Roman", 10) + 2.5
    page.save()
    (layout,) = read_layouts(out.getvalue())
    assert [w.text for w in layout.words] == \
        "the marks A B C D and E".split() + list("ABCDEFGH") + "the options a b c d are".split()


def test_a_raised_footnote_number_is_a_superscript_digit() -> None:
    # A statistical table's note markers: a small digit raised after a year ("2023" and a
    # raised "1") or a label, as Word and a browser set them, reads as Unicode's superscript
    # digit (as an ordinary digit it made another figure: "20231"); a subscript, a digit of
    # the same size set level, and a small digit on the baseline stay ordinary digits.
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(500, 400))
    for y, pieces in ((360, [("2023", 10, 0), ("1", 6, 4)]), (340, [("Central", 10, 0), ("23", 6, 4.5)]),
                      (320, [("CO", 10, 0), ("2", 6, -2)]), (300, [("2023", 10, 0), ("1", 10, 0)]),
                      (280, [("Area", 10, 0), ("5", 7, 0)])):
        text = page.beginText(40, y)
        for piece, size, rise in pieces:
            text.setFont("Helvetica", size)
            text.setRise(rise)
            text.textOut(piece)
        page.drawText(text)
    page.save()
    (layout,) = read_layouts(out.getvalue())
    assert [w.text for w in layout.words] == ["2023\u00b9", "Central\u00b2\u00b3", "CO2", "20231", "Area5"]
