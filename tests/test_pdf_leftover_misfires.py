"""Ordinary pages reviewers drew: a newsletter's headline that is a whole sentence, set large
and bold over its story, is a heading (one sentence set so right under a title is its
standfirst, but under a chapter's bare label its title); a form's "Signature" and "Date"
labels set in its headings' face at the page's end are no headings (its "Declaration" over the
declaration's text is); an agenda's lines, a time then a title, are lines, not a table of two
columns -- a timetable with its header row, or with more columns, stays a table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pdf_cases import draw_paragraph
from tests.pdf_output import drawn_pdf, headings_of, markdown_of, markdown_table

STORY = ("The parish council met on Tuesday and agreed the budget for the coming year, with money set aside "
         "for the playground and the path by the river. Residents are welcome to read the minutes online, "
         "and the clerk will answer questions at the next open meeting in the village hall.")
HEADLINES = ["Council approves the new library budget for next year.",
             "Residents plan a summer fete on the green.", "Road works will close the high street in May."]


def _newsletter(canvas: Any, headlines: list[str], size: float = 16.0) -> None:
    """A masthead, then each headline at ``size`` points, bold, over its story at 10."""
    canvas.setFont("Helvetica-Bold", 24)
    canvas.drawString(60.0, 790.0, "Parish News")
    y = 760.0
    for headline in headlines:
        canvas.setFont("Helvetica-Bold", size)
        canvas.drawString(60.0, y, headline)
        y = draw_paragraph(canvas, STORY, 60.0, y - size - 4.0, 450.0) - 14.0


def test_a_headline_shaped_as_a_sentence_set_large_over_its_story_is_a_heading() -> None:
    assert headings_of(drawn_pdf(_newsletter, HEADLINES)) == ["Parish News", *HEADLINES]


def test_a_sentence_set_a_little_larger_over_text_is_no_headline() -> None:
    # (At 11 points over 10 it is an emphasised statement, not a headline.)
    assert headings_of(drawn_pdf(_newsletter, HEADLINES[2:], 11.0)) == ["Parish News"]


STORY_ON = ("Work on the new library began in the spring and the builders expect to finish before winter. "
            "The shelves, the reading room and the children's corner will open first, and the archive later.")
SET_LARGE = "Nobody expected so many people to come along on the opening day."


def _set_large_between(canvas: Any, font: str, above: str) -> None:
    """A story's title, then ``SET_LARGE`` at 14 points in ``font`` as far from the block
    over it as from the story's text under it (baselines 24 points apart): a standfirst under
    the title (``above`` "title") or a pull quote between the story's paragraphs ("story")."""
    canvas.setFont("Helvetica-Bold", 22)
    canvas.drawString(60.0, 790.0, "Library Reopens")
    y = 766.0
    if above == "story":
        y = draw_paragraph(canvas, STORY, 60.0, y, 450.0) + 8.0 - 24.0 + 13.0
    canvas.setFont(font, 14)
    canvas.drawString(60.0, y, SET_LARGE)
    y = draw_paragraph(canvas, STORY_ON, 60.0, y - 24.0, 450.0)
    draw_paragraph(canvas, STORY, 60.0, y, 450.0)


@pytest.mark.parametrize(("font", "above"), [("Helvetica-Bold", "story"), ("Times-Italic", "title"),
                                             ("Helvetica-Bold", "title")])
def test_a_sentence_set_large_as_far_from_the_block_above_as_from_the_text_is_no_headline(
        font: str, above: str) -> None:
    # (A headline sits closer to its story than to what stands over it.)
    assert headings_of(drawn_pdf(_set_large_between, font, above)) == ["Library Reopens"]


STANDFIRST = "Hundreds of readers came along on the first day of the reopened library."


def _title_over_standfirst(canvas: Any, font: str, headlines: int) -> None:
    """A title at 24 points, then ``headlines`` sentences at 14 points in ``font``, each right
    over its story's text and closer to it than to the block above (a standfirst when one,
    under the title; a newsletter's headlines, under the masthead and the stories, when more)."""
    canvas.setFont("Helvetica-Bold", 24)
    canvas.drawString(60.0, 790.0, "Library Reopens")
    y = 746.0
    for _ in range(headlines):
        canvas.setFont(font, 14)
        canvas.drawString(60.0, y, STANDFIRST)
        y = draw_paragraph(canvas, STORY_ON, 60.0, y - 18.0, 450.0, font="Times-Roman")
        y = draw_paragraph(canvas, STORY, 60.0, y, 450.0, font="Times-Roman") - 20.0


@pytest.mark.parametrize("font", ["Helvetica", "Helvetica-Oblique"])
def test_a_sentence_set_large_right_under_the_title_is_its_standfirst_not_a_headline(font: str) -> None:
    # (It sits closer to the text under it than to the title, as a headline does; but it is
    # the only sentence in its face, in the regular weight, right under a larger heading.)
    assert headings_of(drawn_pdf(_title_over_standfirst, font, 1)) == ["Library Reopens"]
    # Headlines set alike, one over each story, stay headlines.
    headlines = ["Library Reopens", STANDFIRST, STANDFIRST]
    assert headings_of(drawn_pdf(_title_over_standfirst, font, 2)) == headlines


SHORT_STANDFIRST = "Readers came back in their hundreds."


@pytest.mark.parametrize("size", [10.0, 12.0, 13.0])
def test_a_short_bold_sentence_right_under_the_title_is_its_standfirst(size: float) -> None:
    # (Set at the body's size or a little larger, as a headline is not: bold, the one sentence
    # set so.  Headlines set alike over each story stay headlines.)
    def draw(canvas: Any, headlines: int) -> None:
        canvas.setFont("Helvetica-Bold", 24)
        canvas.drawString(60.0, 790.0, "Library Reopens")
        y = 760.0
        for _ in range(headlines):
            canvas.setFont("Times-Bold", size)
            canvas.drawString(60.0, y, SHORT_STANDFIRST)
            y = draw_paragraph(canvas, STORY_ON, 60.0, y - size - 6.0, 450.0, font="Times-Roman")
            y = draw_paragraph(canvas, STORY, 60.0, y, 450.0, font="Times-Roman") - 20.0

    assert headings_of(drawn_pdf(draw, 1)) == ["Library Reopens"]
    if size > 10.0:
        assert headings_of(drawn_pdf(draw, 2)) == ["Library Reopens", SHORT_STANDFIRST, SHORT_STANDFIRST]


def test_a_sentence_set_large_under_a_chapters_bare_label_is_its_title() -> None:
    # ("Chapter 2" has no title but the sentence under it: no standfirst.)
    title = "Why the rivers are rising, and what it means for the towns."

    def draw(canvas: Any) -> None:
        canvas.setFont("Helvetica-Bold", 24)
        canvas.drawString(60.0, 790.0, "Chapter 2")
        canvas.setFont("Helvetica", 16)
        canvas.drawString(60.0, 747.0, title)
        y = draw_paragraph(canvas, STORY_ON, 60.0, 726.0, 450.0, font="Times-Roman")
        draw_paragraph(canvas, STORY, 60.0, y, 450.0, font="Times-Roman")

    assert headings_of(drawn_pdf(draw)) == ["Chapter 2", title]


def test_a_lone_stories_bold_headline_under_the_masthead_stays_a_heading() -> None:
    # (Bold, as headlines are: no standfirst, though the only sentence in its face.)
    assert headings_of(drawn_pdf(_newsletter, HEADLINES[:1])) == ["Parish News", HEADLINES[0]]


DECLARATION = ("I declare that the information I have given on this form is true and complete to the "
               "best of my knowledge, and I understand that a false statement may lead to my application "
               "being refused.")


def _form(canvas: Any, labels: list[str]) -> None:
    """An application form: sections headed at 14 points bold, then ``labels`` in the same
    face, each beside a line to sign or date on, at the page's end."""
    y = 790.0
    sections = [("Application Form", STORY), ("Personal Details", STORY), ("Declaration", DECLARATION)]
    for heading, text in sections:
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(60.0, y, heading)
        y = draw_paragraph(canvas, text, 60.0, y - 20.0, 450.0) - 16.0
    for label in labels:
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(60.0, y, label)
        canvas.line(160.0, y - 2.0, 360.0, y - 2.0)
        y -= 32.0


def test_a_forms_labels_in_its_headings_face_at_the_pages_end_are_no_headings() -> None:
    assert headings_of(drawn_pdf(_form, ["Signature", "Date"])) \
        == ["Application Form", "Personal Details", "Declaration"]


def test_one_heading_ending_a_page_keeps_its_place() -> None:
    # (Its text may follow on the next page.)
    assert headings_of(drawn_pdf(_form, ["Next Steps"])) \
        == ["Application Form", "Personal Details", "Declaration", "Next Steps"]


def _foot_headings(canvas: Any, under: str = "") -> None:
    """A chapter's section and its first sub-section headed in one face (14 points bold) at a
    page's foot, their text opening the next page; or (``under`` "table", "figure") over a
    table of figures or a figure's frame and caption that end the page."""
    y = 790.0
    for heading, text in [("Introduction", STORY), ("Background", STORY)]:
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(60.0, y, heading)
        y = draw_paragraph(canvas, text, 60.0, y - 20.0, 450.0) - 16.0
    for heading in ("Methods", "Sampling"):
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(60.0, y, heading)
        y -= 30.0
    canvas.setFont("Helvetica", 10)
    if under == "table":
        for row in (["Month", "2024", "2025"], ["January", "1,200", "1,350"], ["February", "400", "420"],
                    ["March", "310", "330"], ["Total", "1,910", "2,100"]):
            for x, text in zip((60.0, 260.0, 360.0), row, strict=True):
                canvas.drawString(x, y, text)
            y -= 16.0
        return
    if under == "figure":
        canvas.rect(60.0, y - 180.0, 400.0, 180.0)
        canvas.drawString(60.0, y - 196.0, "Figure 1: Visitors by month")
        return
    canvas.showPage()
    draw_paragraph(canvas, DECLARATION, 60.0, 790.0, 450.0)


@pytest.mark.parametrize("under", ["", "table", "figure"])
def test_headings_at_a_pages_foot_over_text_on_the_next_page_or_a_table_are_headings(under: str) -> None:
    assert headings_of(drawn_pdf(_foot_headings, under)) \
        == ["Introduction", "Background", "Methods", "Sampling"]


AGENDA = [("09:00", "Welcome and introductions from the chair"),
          ("09:30", "Keynote: Building better libraries"), ("10:30", "Coffee break"),
          ("11:00", "Panel: How councils fund local services"),
          ("12:30", "Lunch in the main hall"), ("13:30", "Workshop: Writing a grant application"),
          ("15:00", "Closing remarks")]


def _agenda(canvas: Any, header: list[str], rules: str = "", pitch: float = 18.0,
            story_gap: float | None = None) -> None:
    """An agenda's lines, a time a tab before a title, ``pitch`` apart; with ``header`` (two or
    three column heads) a timetable, its third column a room; with ``rules`` horizontal rules
    across it ("frame": over the first row and under the last, "rows": under every row); with
    ``story_gap`` a paragraph that far under the last line's baseline."""
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(60.0, 790.0, "Conference Agenda")
    y = 760.0
    columns = [60.0, 120.0, 400.0]
    if header:
        canvas.setFont("Helvetica-Bold", 10)
        for x, text in zip(columns, header, strict=False):
            canvas.drawString(x, y, text)
        y -= pitch
    if rules == "frame":
        canvas.line(56.0, y + 13.0, 460.0, y + 13.0)
    canvas.setFont("Helvetica", 10)
    for at, (time, title) in enumerate(AGENDA):
        cells = [time, title, f"Room {at % 3 + 1}"][:max(2, len(header))]
        for x, text in zip(columns, cells, strict=False):
            canvas.drawString(x, y, text)
        if rules == "rows" or rules == "frame" and at == len(AGENDA) - 1:
            canvas.line(56.0, y - 5.0, 460.0, y - 5.0)
        y -= pitch
    if story_gap is not None:
        draw_paragraph(canvas, STORY, 60.0, y + pitch - story_gap, 450.0)


def test_an_agendas_times_and_titles_are_lines_not_a_table() -> None:
    markdown = markdown_of(drawn_pdf(_agenda, []))
    assert "|" not in markdown
    assert "09:30 Keynote: Building better libraries\n\n10:30 Coffee break" in markdown


@pytest.mark.parametrize("header", [["Time", "Session"], ["Time", "Session", "Room"]])
def test_a_timetable_with_its_header_is_a_table(header: list[str]) -> None:
    rows = [[time, title, f"Room {at % 3 + 1}"][:len(header)] for at, (time, title) in enumerate(AGENDA)]
    assert markdown_table([header, *rows]) in markdown_of(drawn_pdf(_agenda, header))


def _events_beside_text(canvas: Any) -> None:
    """A left column of events, each time alone on its line over the event's title and a note,
    beside a right column of running text opening level with the first time."""
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(50.0, 800.0, "What's On")
    y = 770.0
    for time, title in AGENDA[2:5]:
        canvas.setFont("Helvetica", 10)
        for text in (time, title.split(":")[0], "Free entry, all welcome."):
            canvas.drawString(50.0, y, text)
            y -= 13.0
        y -= 7.0
    y = draw_paragraph(canvas, STORY, 300.0, 770.0, 240.0)
    draw_paragraph(canvas, DECLARATION, 300.0, y, 240.0)


def test_a_time_alone_in_its_column_is_no_agenda_line_with_the_next_columns_text() -> None:
    markdown = markdown_of(drawn_pdf(_events_beside_text))
    assert "10:30 The parish" not in markdown
    assert " ".join(STORY.split()) in " ".join(markdown.split())


@pytest.mark.parametrize("rules", ["frame", "rows"])
def test_times_and_events_set_between_rules_are_a_table(rules: str) -> None:
    # (A report's log of times and events, no header row, ruled as a table: drawn as one.)
    assert markdown_table(list(map(list, AGENDA))) in markdown_of(drawn_pdf(_agenda, [], rules))


@pytest.mark.parametrize(("pitch", "gap"), [(18.0, 14.0), (13.0, 13.0)])
def test_an_agendas_lines_stay_apart_from_each_other_and_the_text_after(pitch: float, gap: float) -> None:
    # (Typed single-spaced at the text's own leading, or a paragraph set closer under the last
    # line than the lines stand apart: each line is one, as a table's row would have been.)
    paragraphs = markdown_of(drawn_pdf(_agenda, [], pitch=pitch, story_gap=gap)).split("\n\n")
    assert [f"{time} {title}" for time, title in AGENDA] == paragraphs[1:-1], paragraphs
    assert paragraphs[-1] == STORY
