"""Legal acts' levels and leftovers (office probe legal_act, 2026-12-07): labels of two kinds or
more nest ("Article 1" under "CHAPTER I" under "PART ONE"), numbers spelt out are numerals
("PART ONE", "CHAPTER TWO"), points hung under points nest ("(i)" under "(a)"), a centred
label under a paragraph's last full line is no line of that paragraph, and a label's numeral is
a numeral ("Part Civil" names no part)."""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdf_canvas

from tests.drawn_act import DrawnAct
from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines

WIDTH, HEIGHT = A4
TEXT = ("The manufacturer shall keep the technical documentation referred to in paragraph (3)(b) for ten "
        "years after the product has been placed on the market, and shall make it available to the "
        "market surveillance authorities on request. Where the product presents a risk, the "
        "manufacturer shall immediately take the corrective measures necessary to bring it into "
        "conformity, to withdraw it or to recall it, as appropriate.")


def _act(canvas: Any) -> DrawnAct:
    return DrawnAct(canvas, TEXT)


def _levels(markdown: str) -> dict[str, int]:
    return {line.lstrip("#").strip(): len(line) - len(line.lstrip("#"))
            for line in markdown.splitlines() if line.startswith("#")}


def _article(act: DrawnAct, number: int, title: str) -> None:
    act.centred(f"Article {number}", "Times-Italic", after=2)
    act.centred(title, after=8)
    # (Last lines of one length on every paragraph would stand like a column beside the labels.)
    act.numbered("1.", TEXT + " It shall apply from 1 January" + " of the year after" * number + ".")
    act.numbered("2.", TEXT[:-60] + " as appropriate.")


def test_articles_nest_under_their_chapters() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("CHAPTER I", "Times-Roman", after=2)
        act.centred("GENERAL PROVISIONS", after=12)
        _article(act, 1, "Subject matter")
        _article(act, 2, "Scope")
        act.centred("CHAPTER II", "Times-Roman", after=2)
        act.centred("OBLIGATIONS OF ECONOMIC OPERATORS", after=12)
        _article(act, 3, "Obligations of importers")

    levels = _levels(markdown_of(drawn_pdf(draw)))
    chapter, article = levels["CHAPTER I GENERAL PROVISIONS"], levels["Article 1 Subject matter"]
    assert levels["CHAPTER II OBLIGATIONS OF ECONOMIC OPERATORS"] == chapter < article
    assert levels["Article 2 Scope"] == levels["Article 3 Obligations of importers"] == article


def test_a_part_numbered_in_words_is_above_its_chapters() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("PART ONE", "Times-Roman", after=2)
        act.centred("PROVISIONS ON PRODUCT SAFETY", after=12)
        for number, name in (("ONE", "SCOPE"), ("TWO", "DUTIES OF THE PARTIES")):
            act.centred(f"CHAPTER {number}", "Times-Roman", after=2)
            act.centred(name, after=12)
            act.paragraph()
            act.paragraph(TEXT[:-60] + " as appropriate.")

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert list(levels) == ["PART ONE PROVISIONS ON PRODUCT SAFETY", "CHAPTER ONE SCOPE",
                            "CHAPTER TWO DUTIES OF THE PARTIES"]
    assert levels["PART ONE PROVISIONS ON PRODUCT SAFETY"] < levels["CHAPTER ONE SCOPE"] \
        == levels["CHAPTER TWO DUTIES OF THE PARTIES"]


def test_one_kind_of_label_keeps_one_level() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for number, title in ((1, "Subject matter"), (2, "Scope"), (3, "Penalties")):
            _article(act, number, title)

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert len(levels) == 3 and len(set(levels.values())) == 1


def test_points_hung_under_points_nest() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.numbered("1.", after=4)
        act.numbered("2.", "Member States shall take into account the following:", after=4)
        act.numbered("(a)", "the characteristics of the product, including its composition;", 28, after=4)
        act.numbered("(i)", "the instructions for its assembly and installation;", 56, after=4)
        act.numbered("(ii)", "the instructions for its maintenance;", 56, after=4)
        act.numbered("(b)", "the presentation of the product, its labelling and any warnings.", 28, after=4)
        act.numbered("3.", after=4)

    lines = [line for line in markdown_of(drawn_pdf(draw)).splitlines() if line.strip()]

    def indent(opening: str) -> int:
        line = next(line for line in lines if line.strip().lstrip("- ").startswith(opening))
        return len(line) - len(line.lstrip())

    assert indent("2.") < indent("(a)") == indent("(b)") < indent("(i)") == indent("(ii)")
    assert indent("3.") == indent("2.")


def test_a_centred_label_under_a_paragraphs_last_full_line_stays_apart() -> None:
    # The paragraph's last line fills the measure and ends no sentence; the label is centred
    # under it at the paragraph's line pitch, in its weight.
    words = ("Member States shall lay down the rules on penalties applicable to infringements of "
             "this Regulation and shall take all measures necessary to ensure that they are "
             "implemented, in accordance with national law and in")
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("Article 1", "Times-Italic", after=2)
        act.centred("Penalties", after=8)
        canvas.setFont("Times-Roman", 11)
        for line in wrapped_lines(words + " " + TEXT, WIDTH - 144, "Times-Roman", 11)[:4]:
            canvas.drawString(72, act.y, line)
            act.y -= 13.2
        act.centred("CHAPTER II", "Times-Roman", after=2)
        act.centred("FINAL PROVISIONS", after=12)
        act.paragraph()

    markdown = markdown_of(drawn_pdf(draw))
    assert headings_of(drawn_pdf(draw)) == ["Article 1 Penalties", "CHAPTER II FINAL PROVISIONS"]
    assert "CHAPTER II" not in next(line for line in markdown.splitlines() if line.startswith("Member"))


def test_a_word_of_numeral_letters_is_no_numeral() -> None:
    # "Part Civil" over its bold title names no part: two lines, not one labelled heading.
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("Part Civil", "Times-Roman", after=2)
        act.centred("Procedure in the courts", after=12)
        act.paragraph()
        act.paragraph()

    assert "Part Civil Procedure in the courts" not in headings_of(drawn_pdf(draw))


def test_kinds_numbered_as_one_sequence_are_siblings() -> None:
    # A form's parts: "Part A", "Section 2", "Part C" count one sequence; no kind nests.
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for title in ("Part A – Applicant details", "Section 2: Your organisation", "Part C – Declaration"):
            act.canvas.setFont("Times-Bold", 13)
            act.canvas.drawString(72, act.y, title)
            act.y -= 24
            act.paragraph()

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert len(levels) == 3 and len(set(levels.values())) == 1


def test_paragraphs_six_points_apart_in_twelve_point_type_stay_apart() -> None:
    # A preamble as Word sets it: 12-point lines 14 points apart, 6 points after each paragraph
    # (under half a size: the spacing shows only against the lines' own pitch).
    preamble = ("(Text with EEA relevance)", "THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,",
                "Having regard to the Treaty on the Functioning of the European Union, and in particular "
                "Article 114 thereof,", "Whereas:")

    def draw(canvas: Any) -> None:
        y = HEIGHT - 80
        canvas.setFont("Times-Roman", 12)
        for text in (*preamble, TEXT):
            for line in wrapped_lines(text, WIDTH - 144, "Times-Roman", 12):
                canvas.drawString(72, y, line)
                y -= 14
            y -= 6

    paragraphs = [line for line in markdown_of(drawn_pdf(draw)).splitlines() if line.strip()]
    assert paragraphs[:4] == list(preamble)
    assert paragraphs[4].startswith("The manufacturer") and paragraphs[4].endswith("as appropriate.")


# The review's misfires (2026-12-07): each rule above left alone where it does not belong.

def _body(canvas: Any, y: float, text: str = TEXT, leading: float = 13.2, x: float = 72,
          width: float = WIDTH - 144) -> float:
    canvas.setFont("Times-Roman", 11)
    for line in wrapped_lines(text, width, "Times-Roman", 11):
        canvas.drawString(x, y, line)
        y -= leading
    return y


def test_a_paragraph_at_a_larger_leading_stays_one_paragraph() -> None:
    quote = ("Members noted that the reform had been welcomed by the industry and that the figures "
             "for the first year were better than expected, although some regions reported delays "
             "in the payment of grants and a shortage of qualified staff in the local offices.")

    def draw(canvas: Any) -> None:
        y = _body(canvas, HEIGHT - 80) - 8
        y = _body(canvas, y, quote, leading=17.2, x=100, width=WIDTH - 200) - 8
        _body(canvas, y)

    paragraphs = [p for p in markdown_of(drawn_pdf(draw)).split("\n\n") if p.strip()]
    assert " ".join(quote.split()) in [" ".join(p.split()) for p in paragraphs]


def test_a_line_lowered_mid_sentence_stays_in_its_paragraph() -> None:
    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Roman", 11)
        y = HEIGHT - 80
        lines = wrapped_lines(TEXT, WIDTH - 144, "Times-Roman", 11)
        assert any(line[:1].islower() for line in lines[2:])
        lowered = next(k for k, line in enumerate(lines) if k >= 2 and line[:1].islower())
        for k, line in enumerate(lines):
            # (Word lowers a line that holds an inline picture or formula.)
            canvas.drawString(72, y - (4.5 if k == lowered else 0), line)
            y -= 13.2 + (4.5 if k == lowered else 0)

    paragraphs = [p for p in markdown_of(drawn_pdf(draw)).split("\n\n") if p.strip()]
    assert len(paragraphs) == 1


def test_a_labels_dotted_number_sets_its_depth() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for chapter in (1, 2):
            act.centred(f"Chapter {chapter}", "Times-Bold", 14, after=8)
            act.paragraph(TEXT[:-60] + " as appropriate.")
            for section in (1, 2):
                canvas.setFont("Times-Bold", 11)
                canvas.drawString(72, act.y, f"Section {chapter}.{section}")
                act.y -= 18
                act.paragraph(TEXT[:120] + ".")

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert levels["Section 1.1"] == levels["Chapter 1"] + 1 == levels["Section 2.2"]


def test_kinds_each_set_several_in_a_row_are_siblings() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for label in ("Section 1", "Section 2", "Section 3", "Part A", "Part B"):
            canvas.setFont("Times-Bold", 12)
            canvas.drawString(72, act.y, label)
            act.y -= 18
            act.paragraph(TEXT[:150] + ".")

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert len(levels) == 5 and len(set(levels.values())) == 1


def test_a_colon_in_the_next_column_does_not_unhead_a_heading() -> None:
    def draw(canvas: Any) -> None:
        y = HEIGHT - 80
        left = _body(canvas, y, TEXT, x=72, width=210)
        canvas.drawString(72, left - 6, "The committee recommends:")
        canvas.setFont("Times-Bold", 13)
        canvas.drawString(310, left - 6, "Results by region")
        _body(canvas, left - 26, TEXT, x=310, width=210)
        _body(canvas, left - 26, TEXT, x=72, width=210)

    assert "Results by region" in headings_of(drawn_pdf(draw))


def test_a_list_going_on_at_the_next_pages_margin_is_not_nested() -> None:
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    # Facing pages: the inner margin on the left of odd pages, on the right of even ones.
    for page, (margin, items) in enumerate(((72, (1, 2, 3)), (95, (4, 5)))):
        y = HEIGHT - 80
        if page == 0:
            y = _body(canvas, y, x=margin) - 8
        for number in items:
            canvas.setFont("Times-Roman", 11)
            canvas.drawString(margin, y, f"{number}.")
            y = _body(canvas, y, TEXT[:200] + ".", x=margin + 20, width=WIDTH - 2 * margin - 40) - 4
        canvas.showPage()
    canvas.save()
    markdown = markdown_of(buffer.getvalue())
    items = [line for line in markdown.splitlines() if line.lstrip()[:2] in ("4.", "5.")]
    assert items and all(not line.startswith(" ") for line in items)
