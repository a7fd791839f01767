"""Legal acts as drafters set them (office probe legal_act, 2026-12-06): a division's or an
article's label alone on its line ("CHAPTER I", "Article 1", "§ 4", "ANNEX") over its title is
one heading, whatever the label's weight; an article named by its number ("Article 3 –
Definitions") heads its numbered paragraphs and points; and a label over running text, or a
title far under it, stays apart."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.drawn_act import DrawnAct
from tests.pdf_cases import draw_paragraph
from tests.pdf_output import drawn_pdf, headings_of, markdown_of

WIDTH, HEIGHT = A4
TEXT = ("The manufacturer shall keep the technical documentation referred to in paragraph (3)(b) for ten "
        "years after the product has been placed on the market, and shall make it available to the "
        "market surveillance authorities on request.")


def _act(canvas: Any) -> DrawnAct:
    return DrawnAct(canvas, TEXT)


def test_a_division_label_over_its_title_is_one_heading() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("CHAPTER I", "Times-Roman", after=2)
        act.centred("GENERAL PROVISIONS", after=12)
        act.paragraph()
        act.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["CHAPTER I GENERAL PROVISIONS"]


def test_an_article_label_in_italics_over_its_bold_title_heads_its_numbered_paragraphs() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for number, title in (("Article 1", "Subject matter"), ("Article 2", "Obligations of importers")):
            act.centred(number, "Times-Italic", after=2)
            act.centred(title, after=8)
            act.numbered("1.")
            act.numbered("2.")

    assert headings_of(drawn_pdf(draw)) == ["Article 1 Subject matter", "Article 2 Obligations of importers"]


def test_a_paragraph_sign_over_its_title_is_one_heading() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for number, title in (("§ 4", "Scope"), ("§ 5", "Duties of the operator")):
            act.centred(number, after=2)
            act.centred(title, after=8)
            act.numbered("(1)")
            act.numbered("(2)")

    assert headings_of(drawn_pdf(draw)) == ["§ 4 Scope", "§ 5 Duties of the operator"]


def test_an_article_on_one_line_heads_its_points() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.left("Article 3 – Definitions")
        act.paragraph("For the purposes of this Regulation, the following definitions apply:")
        for k, term in enumerate(("product", "manufacturer", "recall")):
            act.numbered(f"({k + 1})", f"‘{term}’ means any item which is intended for consumers;")
        act.left("Article 4 – Penalties")
        act.numbered("(a)", "the characteristics of the product;")
        act.numbered("(b)", "the presentation of the product.")

    pdf = drawn_pdf(draw)
    markdown = markdown_of(pdf)
    assert headings_of(pdf) == ["Article 3 – Definitions", "Article 4 – Penalties"]
    assert "- (a) the characteristics of the product;" in markdown.splitlines()


def test_an_annex_label_over_its_title_heads_the_table_under_it() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.left("Article 9 – Repeal")
        act.paragraph()
        act.centred("ANNEX", after=2)
        act.centred("CORRELATION TABLE", after=10)
        rows = [("Directive 2001/95/EC", "This Regulation"), ("Article 1", "Article 1"),
                ("Article 2(1)", "Article 3"), ("Article 5", "—")]
        top = act.y + 10
        for r, (old, new) in enumerate(rows):
            canvas.setFont("Times-Bold" if r == 0 else "Times-Roman", 10)
            canvas.drawString(80, act.y, old)
            canvas.drawString(300, act.y, new)
            act.y -= 18
        for r in range(len(rows) + 1):
            canvas.line(72, top - 18 * r, 520, top - 18 * r)
        for x in (72, 290, 520):
            canvas.line(x, top, x, top - 18 * len(rows))

    pdf = drawn_pdf(draw)
    assert headings_of(pdf) == ["Article 9 – Repeal", "ANNEX CORRELATION TABLE"]
    assert "| Article 2(1) | Article 3 |" in markdown_of(pdf)


def test_a_label_over_running_text_or_far_from_a_heading_stays_apart() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("Article 7", after=6)
        act.paragraph()
        act.centred("CHAPTER II", after=40)
        act.centred("FINAL PROVISIONS", after=8)
        act.paragraph()

    headings = headings_of(drawn_pdf(draw))
    assert "CHAPTER II FINAL PROVISIONS" not in headings
    assert "FINAL PROVISIONS" in headings


def test_articles_opening_pages_at_one_height_are_no_running_header() -> None:
    """Each page opens with an article's label at the running head's height, its number its own
    ("Article 2" on page 2, "Article 4" on page 3): headings; a running title whose number goes
    up with the page is still a running line."""
    pdf = drawn_pdf(lambda canvas: _articles_opening_pages(canvas, [1, 2, 4, 6], running_title=True))
    assert headings_of(pdf) == [f"Article {n} Duties of operators under part {n}" for n in (1, 2, 4, 6)]
    assert "Consumer Product Safety Act" not in markdown_of(pdf)


def test_articles_opening_pages_apart_with_numbers_not_the_pages_are_no_running_header() -> None:
    """"Article 2" opens page 2 and "Article 6" page 4, the other pages going on with an
    article's text: their numbers lie further apart than their pages, no page numbers."""
    pdf = drawn_pdf(lambda canvas: _articles_opening_pages(canvas, [None, 2, None, 6, None]))
    assert headings_of(pdf) == [f"Article {n} Duties of operators under part {n}" for n in (2, 6)]


def test_a_running_footer_numbered_past_uncounted_plates_is_still_running() -> None:
    """Pages of text, each a full-page plate after it left unnumbered and uncounted, under a
    running footer numbered 1, 2, 3, 4 on the file's pages 1, 3, 5, 7: page numbers that fall
    behind the pages, running lines."""
    def draw(canvas: Any) -> None:
        for number in range(1, 5):
            canvas.setFont("Times-Roman", 8)
            canvas.drawString(72, 40, f"Consumer Product Safety Act, explanatory notes | {number}")
            y = HEIGHT - 72
            for _ in range(8):
                y = draw_paragraph(canvas, TEXT, 72, y, 450, "Times-Roman")
            canvas.showPage()
            if number < 4:
                canvas.rect(72, 100, 450, 640)
                canvas.drawString(72, 85, f"Plate {number}: the testing laboratory")
                canvas.showPage()

    assert "explanatory notes" not in markdown_of(drawn_pdf(draw))


def _articles_opening_pages(canvas: Any, numbers: list[int | None], running_title: bool = False) -> None:
    """A page for each of ``numbers`` opening with that article's label and title (None: a page
    going on with running text), under a running title numbered as its page when asked."""
    for page, number in enumerate(numbers, start=1):
        if running_title:
            canvas.setFont("Times-Roman", 9)
            canvas.drawString(72, HEIGHT - 40, f"Consumer Product Safety Act {page}")
        act = _act(canvas)
        if number is not None:
            act.centred(f"Article {number}", "Times-Roman", after=2)
            act.centred(f"Duties of operators under part {number}", after=8)
        else:
            act.paragraph(" ".join(TEXT.split()[page:]))  # (each page's own opening words)
        act.numbered("1.")
        act.numbered("2.")
        act.paragraph()
        canvas.showPage()


def test_a_chapter_and_a_paragraph_sign_over_a_list_on_the_first_page_are_no_front_matter() -> None:
    """On the first page, under the act's title and over the sentence opening its definitions
    (which ends in a colon: no running text by its words alone), named sections stay headings."""
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.centred("Ordinance on the Safety of Technical Equipment", size=14, after=14)
        act.centred("CHAPTER I", after=2)
        act.centred("GENERAL PROVISIONS", after=10)
        act.left("§ 1 Definitions")
        act.paragraph("For the purposes of this Ordinance, the following definitions apply:")
        for k, term in enumerate(("product", "manufacturer", "recall")):
            act.numbered(f"({chr(97 + k)})", f"“{term}” means any item which is intended for consumers "
                                             "or likely, in foreseeable conditions, to be used by them;")

    assert headings_of(drawn_pdf(draw)) == ["Ordinance on the Safety of Technical Equipment",
                                            "CHAPTER I GENERAL PROVISIONS", "§ 1 Definitions"]


def test_a_signatorys_name_in_capitals_is_no_heading_a_lettered_section_is() -> None:
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.left("B. BACKGROUND", "Times-Roman")
        act.paragraph()
        act.left("Article 9 – Entry into force")
        act.paragraph()
        act.signatures("Done at Brussels, 12 March 2024.")

    assert headings_of(drawn_pdf(draw)) == ["B. BACKGROUND", "Article 9 – Entry into force"]


def test_an_untitled_articles_label_centred_alone_over_its_text_is_a_heading() -> None:
    """An older act's articles have no title: "Article 5" in italics, centred over its
    paragraphs, heads them; the same words closing a line of text do not."""
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        for number in (5, 6):
            act.centred(f"Article {number}", "Times-Italic", after=6)
            act.numbered("1.")
            act.numbered("2.")
        act.centred("Article 7", "Times-Italic", after=6)
        act.paragraph("For the purposes of this Directive, the following definitions apply:")
        act.numbered("(a)", "‘product’ means any product intended for consumers or likely, under reasonably "
                            "foreseeable conditions, to be used by consumers;")
        act.paragraph("The obligations of importers are laid down in the provisions of")
        act.left("Article 8", "Times-Roman")
        act.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Article 5", "Article 6", "Article 7"]


def test_a_points_last_line_under_a_line_across_the_signatures_gutter_stays_in_its_point() -> None:
    """The signatures' two columns under the act's last article prove a gutter down the page;
    a point's first line crosses it, and its last word wrapped under the point's text stands
    left of it alone on its line: it ends the point, not a column of its own (legal_act-501)."""
    def draw(canvas: Any) -> None:
        act = _act(canvas)
        act.numbered("(c)", "the categories of consumers at risk when using the product, in particular "
                            "children and elderly persons.", indent=28)
        act.numbered("3.", "The manufacturer shall keep the technical documentation for ten years.")
        act.signatures("Done at Luxembourg, 3 June 2024.")

    lines = markdown_of(drawn_pdf(draw)).splitlines()
    assert "- (c) the categories of consumers at risk when using the product, in particular children and " \
           "elderly persons." in [line.strip() for line in lines]
