"""Headings at the body's size and weight set apart by a colour alone or by small capitals alone
(tests/office_probes.py's ``accent_headings``: web pages' and Word's body-size heading styles),
on small PDFs drawn here with the impostors a colour marks in real reports beside them: a link,
a key figure, a pull quote, a single coloured kicker, a paragraph set wholly in colour.  The
words carry colour and small capitals only where they open a short line or the line after one
(extractors.pdf_words._read_accents): the reader's test holds it to that."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from extractors import pdf_words
from extractors.pdf_words import read_layouts
from tests.test_pdf_structure import HEIGHT, SENTENCES, WIDTH, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:3])
MORE = " ".join(SENTENCES[3:])
BLACK, GREEN, BLUE = (0.0, 0.0, 0.0), (0.04, 0.43, 0.24), (0.0, 0.2, 0.8)

# A run of a line: its text, size, font and fill colour; a line is its runs, set one after the
# other on one baseline (a small-capitals title is its capital then its smaller capitals).
Run = tuple[str, float, str, tuple[float, float, float]]


def _pdf(lines: list[tuple[float, float, list[Run]]]) -> bytes:
    """One page; each line (x, top, runs) drawn top-down, its baseline a size below its top."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    for x, top, runs in lines:
        text = pdf.beginText(x, HEIGHT - top - max(size for _, size, _, _ in runs))
        for words, size, font, colour in runs:
            text.setFont(font, size)
            text.setFillColorRGB(*colour)
            text.textOut(words)
        pdf.drawText(text)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _plain(top: float, text: str, colour: tuple[float, float, float] = BLACK,
           font: str = "Times-Roman") -> tuple[list[tuple[float, float, list[Run]]], float]:
    lines, after = paragraph(top, text)
    return [(x, y, [(words, size, font, colour)]) for x, y, words, size in lines], after


def _small_caps(title: str, size: float = 10.0) -> list[Run]:
    """A title in small capitals as a word processor sets them: its capitals at its size, its
    lower-case letters as capitals at 0.8 of it."""
    runs: list[Run] = []
    for ch in title:
        small = ch.islower() or ch == " "
        run_size = 0.8 * size if small else size
        if runs and runs[-1][1] == run_size:
            runs[-1] = (runs[-1][0] + ch.upper(), run_size, "Times-Roman", BLACK)
        else:
            runs.append((ch.upper(), run_size, "Times-Roman", BLACK))
    return runs


def headings_of(markdown: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown.split("\n") if line.startswith("#")]


def _document(titles: list[list[Run]], extra: list[tuple[float, float, list[Run]]] | None = None,
              start: float = 60.0) -> tuple[list[tuple[float, float, list[Run]]], float]:
    """A title over an opening paragraph, then each of ``titles`` over two paragraphs."""
    lines: list[tuple[float, float, list[Run]]] = [(72, start, [("Village hall annual report", 18,
                                                                  "Helvetica-Bold", BLACK)])]
    body, top = _plain(start + 40, TEXT)
    lines += body
    for title in titles:
        lines.append((72, top + 14, title))
        body, top = _plain(top + 34, TEXT)
        lines += body
        body, top = _plain(top + 6, MORE)
        lines += body
    return lines + (extra or []), top


def test_body_size_titles_in_a_colour_of_their_own_head_their_text():
    """Three titles in the body's size and weight, green over black running text: headings
    (Chromium's ``h2 { color: ... }``).  A link's colour on a line of its own (lower case), a
    coloured key figure ("£4.2 million raised"), an italic pull quote in colour over running
    text: none of them a heading, each set twice."""
    titles = [[(t, 10, "Times-Roman", GREEN)] for t in ("Summary", "Progress this year", "Looking ahead")]
    lines, top = _document(titles)
    for _ in range(2):
        for impostor in ([("www.villagehall.org/report", 10, "Times-Roman", BLUE)],
                         [("\u00a34.2 million raised", 10, "Times-Roman", GREEN)],
                         [("Our volunteers made it happen", 10, "Times-Italic", GREEN)]):
            lines.append((72, top + 14, impostor))
            body, top = _plain(top + 34, SENTENCES[4])
            lines += body
    assert headings_of(markdown_of(_pdf(lines))) == \
        ["Village hall annual report", "Summary", "Progress this year", "Looking ahead"]


def test_a_colour_is_no_heading_style_alone_once_or_over_text_of_its_own_colour():
    """One coloured line over running text is a kicker or a link, not a heading style (two or
    more set alike are); nor are coloured lines over paragraphs set in the same colour (a
    coloured box's lines: not set apart from the text after them), nor lines in a near-black
    beside black text (a producer's "registration black", 0x231F20: one colour to the eye)."""
    once, _ = _document([[("Summary", 10, "Times-Roman", GREEN)], [("Background", 10, "Times-Roman", BLACK)]])
    assert headings_of(markdown_of(_pdf(once))) == ["Village hall annual report"]
    near_black = (0x23 / 255, 0x1F / 255, 0x20 / 255)
    shades, _ = _document([[("Summary", 10, "Times-Roman", near_black)],
                           [("Background", 10, "Times-Roman", near_black)]])
    assert headings_of(markdown_of(_pdf(shades))) == ["Village hall annual report"]
    lines: list[tuple[float, float, list[Run]]] = [(72, 60, [("Village hall annual report", 18,
                                                               "Helvetica-Bold", BLACK)])]
    body, top = _plain(100, TEXT + " " + MORE)
    lines += body
    for title in ("Summary", "Looking ahead"):
        lines.append((72, top + 14, [(title, 10, "Times-Roman", BLUE)]))
        body, top = _plain(top + 34, MORE, colour=BLUE)
        lines += body
    assert headings_of(markdown_of(_pdf(lines))) == ["Village hall annual report"]


def test_body_size_titles_in_small_capitals_head_their_text():
    """Titles in small capitals at the body's size (Word's ``small_caps``: "PROGRESS THIS
    YEAR", its capital at 10 points, the rest at 8): headings, at one level below the title
    whatever their words (the line is at its capitals' size, not its small capitals').  A
    drop cap (a paragraph's first letter set three times the body) is no small capitals."""
    titles = [_small_caps(t) for t in ("Summary", "Progress this year", "Looking ahead")]
    drop = [(72, 0.0, [("T", 30, "Times-Roman", BLACK), ("he council met twice in the year", 10,
                                                           "Times-Roman", BLACK)])]
    lines, top = _document(titles)
    lines += [(x, top + 20, runs) for x, _, runs in drop]
    body, _ = _plain(top + 52, MORE)
    lines += body
    markdown = markdown_of(_pdf(lines))
    assert headings_of(markdown) == ["Village hall annual report", "SUMMARY", "PROGRESS THIS YEAR",
                                     "LOOKING AHEAD"]
    marks = [line.split()[0] for line in markdown.split("\n") if line.startswith("#")]
    assert marks == ["#", "##", "##", "##"]


@pytest.mark.parametrize("small_caps", [False, True])
def test_colour_and_small_capitals_are_read_only_where_short_lines_open(small_caps):
    """The reader reads a colour for the first word of each short line and of the line after
    it (the body's colour), small capitals for a short line's first word; never for the words
    inside a line nor for the first word of a long line after a long line (a call per
    character, or per word, would slow the fast track)."""
    title = _small_caps("Progress this year") if small_caps \
        else [("Progress this year", 10, "Times-Roman", GREEN)]
    lines, _ = _document([title])
    words = read_layouts(_pdf(lines))[0].words
    read = [w for w in words if w.colour != -1]
    opening = next(w for w in words if w.text.lower() == "progress")
    assert opening.colour == (0x000000 if small_caps else 0x0A6E3D) and opening.small_caps == small_caps
    assert [w.small_caps for w in words].count(True) == int(small_caps)
    line_starts = {w.line: w for w in reversed(words)}
    assert len(read) < len(line_starts) < len(words) // 4
    assert all(w is line_starts[w.line] for w in read)
    assert pdf_words._ACCENT_LINE_WORDS == 8


def test_small_capitals_are_capitals_at_most_a_little_smaller_on_the_capital_s_baseline():
    """A word's letters after its capital read as small capitals when set at 0.6 to 0.9 of its
    size on its baseline: not an initial set twice the text's size before it ("THE", its "T"
    at 20 points), nor letters raised off the baseline (a superscript's)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    for top, runs, rise in ((100, [("P", 10), ("ROGRESS", 8)], 0), (140, [("T", 20), ("HE", 10)], 0),
                            (180, [("M", 10), ("ARKED", 8)], 4)):
        text = pdf.beginText(72, HEIGHT - top)
        for at, (letters, size) in enumerate(runs):
            text.setFont("Times-Roman", size)
            text.setRise(rise if at else 0)
            text.textOut(letters)
        pdf.drawText(text)
    pdf.showPage()
    pdf.save()
    words = read_layouts(buffer.getvalue())[0].words
    assert {w.text: w.small_caps for w in words} == {"PROGRESS": True, "THE": False, "MARKED": False}


def test_coloured_lines_spaced_as_the_paragraphs_round_them_are_no_headings():
    """Lines in a colour of their own set alike over running text but spaced as its paragraphs
    are (no more space over them than under them): a quote's credit, a speaker's name over a
    speech, a "Find out more" link under a news item.  Body-size titles set apart by a colour
    have space before them (Word's heading styles, a web page's h2-h6), as the three of the
    first test do."""
    lines: list[tuple[float, float, list[Run]]] = [(72, 60, [("Village hall annual report", 18,
                                                               "Helvetica-Bold", BLACK)])]
    body, top = _plain(100, TEXT)
    lines += body
    for credit in ("Sarah Jones, volunteer", "Tom Patel, parent", "Grace Lee, school governor"):
        lines.append((72, top + 6, [(credit, 10, "Times-Roman", GREEN)]))
        body, top = _plain(top + 24, TEXT)
        lines += body
    assert headings_of(markdown_of(_pdf(lines))) == ["Village hall annual report"]
