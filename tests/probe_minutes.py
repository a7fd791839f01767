"""Office probe class ``meeting_minutes`` (tests/office_probes.py registers it): the minutes of
a committee's or a board's meeting, the commonest record a council, a school or a company keeps
(issue 32, item 6: a development corpus that is not the test).

A document carries: the title ("Minutes of the meeting of the Planning Committee") over a line
saying when and where it was held; who was present (a "Present:" line with the names run on,
or "Present:" over a bulleted list of names), apologies and those in attendance; the agenda's
items numbered as headings ("1. Welcome and apologies", "3<tab>Budget monitoring"; heading
styles larger than the body or at its size in bold), some with numbered sub-items ("4.1"), each over
its discussion, a "Resolved:" or "Action:" line in some; an action table (number, action,
owner, due date, a status in some); the date of the next meeting and a line for the chair's
signature.  Word through LibreOffice, the looks varied by seed.

The truth: the title (level 1), the agenda items (2), sub-items (3) and the action table's
heading (2) are the headings, each followed by its text; the action table cell for cell; the
"Present:", "Apologies:" and "In attendance:" lines are ``texts``, or the names listed are
``items``.
"""

from __future__ import annotations

import random

from docx import Document
from docx.shared import Inches, Pt, RGBColor

from tests.word_parts import docx_bytes, fixed_widths, shade

Truth = dict[str, list]

_BODIES = (("Liberation Sans", 10.5), ("Liberation Serif", 11), ("DejaVu Sans", 9.5), ("Liberation Sans", 11))
_BODIES_OF = ("Planning Committee", "Board of Governors", "Audit and Risk Committee", "Parish Council",
              "Health and Safety Committee", "Board of Directors")
_PEOPLE = ("Cllr A Khan", "Cllr R Patel", "Mrs S Jones", "Mr D Okafor", "Dr H Lindqvist", "Ms L Brennan",
           "Mr T Wright", "Cllr M O'Neill", "Ms P Adeyemi", "Mr G Fraser", "Mrs E Kowalski", "Mr N Hughes")
_OFFICERS = ("J Porter (Clerk)", "K Singh (Finance Officer)", "R Evans (Head of Planning)",
             "M Clarke (Minute taker)")
_AGENDA = (
    ("Welcome and apologies", "The Chair welcomed members and noted the apologies received."),
    ("Declarations of interest", "No declarations of interest were made in respect of the items on the "
     "agenda."),
    ("Minutes of the last meeting", "The minutes of the meeting held on 14 February were agreed as a "
     "correct record and signed by the Chair."),
    ("Matters arising", "Members noted that the repairs to the pavilion roof had been completed within "
     "the budget agreed."),
    ("Budget monitoring", "The Finance Officer presented the report on spending to the end of the third "
     "quarter, which showed an underspend on staffing."),
    ("Risk register", "The committee reviewed the three risks rated red and asked for a fuller report on "
     "the cyber security risk."),
    ("Planning applications", "Members considered the two applications listed in the report and raised "
     "no objection to either."),
    ("Health and safety report", "There had been no reportable incidents since the last meeting; the fire "
     "drill in January was completed in four minutes."),
    ("Correspondence", "The Clerk reported letters from the county council about the new bus timetable "
     "and from residents about parking."),
    ("Any other business", "There was no other business."))
_SUBITEMS = (("Quarter three forecast", "The forecast outturn is within one per cent of the budget set in "
              "March."), ("Reserves policy", "Members agreed to keep the general reserve at three months of "
              "running costs."))
_ACTIONS = ("Circulate the revised budget to all members", "Obtain three quotes for the pavilion "
            "guttering", "Report on the cyber security risk", "Reply to residents about parking on "
            "Church Lane", "Update the risk register", "Book the hall for the annual meeting",
            "Arrange the fire risk assessment")


def _paragraph(document: object, text: str, bold: str = "", space_after: float = 4) -> object:
    paragraph = document.add_paragraph()  # type: ignore[attr-defined]
    if bold:
        paragraph.add_run(bold).bold = True
        paragraph.add_run(" ")
    paragraph.add_run(text)
    paragraph.paragraph_format.space_after = Pt(space_after)
    return paragraph


def _styles(document: object, seed: int) -> None:
    family, size = _BODIES[seed % len(_BODIES)]
    styles = document.styles  # type: ignore[attr-defined]
    styles["Normal"].font.name, styles["Normal"].font.size = family, Pt(size)
    colour = (RGBColor(0, 0, 0), RGBColor(0x1F, 0x3A, 0x5F), RGBColor(0x2E, 0x5E, 0x3E), RGBColor(0, 0, 0))
    # (Seeds 2, 6: the items' headings at the body's size, the sub-items' in italics too.)
    bumps = ((1, 6), (2, 0), (3, 0)) if seed % 4 == 2 else ((1, 6), (2, 1.5), (3, 0.5))
    for level, bump in bumps:
        style = styles[f"Heading {level}"]
        style.font.size = Pt(size + bump)
        style.font.name = family if seed % 2 else "Liberation Sans"
        style.font.color.rgb = colour[seed % 4]
        style.font.bold, style.font.italic = True, level == 3 and seed % 3 != 1
        style.paragraph_format.space_before, style.paragraph_format.space_after = Pt(10), Pt(3)


def _attendance(document: object, rng: random.Random, seed: int) -> Truth:
    people = rng.sample(_PEOPLE, rng.randint(5, 8))
    present = [f"{people[0]} (Chair)", *people[1:-2]]
    absent, officers = people[-2:], rng.sample(_OFFICERS, 2)
    if seed % 3 == 1:  # "Present" over a list of names (Word's bullets)
        _paragraph(document, "", bold="Present:", space_after=2)
        for name in present:
            document.add_paragraph(name, style="List Bullet").paragraph_format.space_after = Pt(0)
        lines = [f"Apologies: {', '.join(absent)}", f"In attendance: {', '.join(officers)}"]
        truth: Truth = {"items": present}
    else:
        lines = [f"Present: {', '.join(present)}", f"Apologies: {', '.join(absent)}",
                 f"In attendance: {', '.join(officers)}"]
        truth = {}
    for line in lines:
        label, _, names = line.partition(": ")
        _paragraph(document, names, bold=label + ":")
    return {**truth, "texts": lines}


def _item_heading(document: object, seed: int, number: str, text: str, level: int) -> str:
    """An agenda item's heading as the seed sets it; its text as read (a tab read as a space)."""
    if seed % 4 == 3:  # the number hanging at a tab stop
        paragraph = document.add_heading(f"{number}\t{text}", level)  # type: ignore[attr-defined]
        paragraph.paragraph_format.tab_stops.add_tab_stop(Inches(0.5))
        return f"{number} {text}"
    document.add_heading(f"{number}. {text}" if level == 2 else f"{number} {text}", level)  # type: ignore[attr-defined]
    return f"{number}. {text}" if level == 2 else f"{number} {text}"


def _agenda(document: object, rng: random.Random, seed: int) -> tuple[list[str], list[int], dict[str, str]]:
    middle = sorted(rng.sample(_AGENDA[1:-1], rng.randint(3, 6)), key=_AGENDA.index)
    chosen = [_AGENDA[0], *middle, _AGENDA[-1]]
    headings, levels, follows = [], [], {}
    for number, (title, text) in enumerate(chosen, start=1):
        heading = _item_heading(document, seed, str(number), title, 2)
        _paragraph(document, text)
        headings.append(heading)
        levels.append(2)
        follows[heading] = " ".join(text.split()[:4])
        if title == "Budget monitoring" and seed % 2 == 0:
            for k, (sub, subtext) in enumerate(_SUBITEMS, start=1):
                subheading = _item_heading(document, seed, f"{number}.{k}", sub, 3)
                _paragraph(document, subtext)
                headings.append(subheading)
                levels.append(3)
                follows[subheading] = " ".join(subtext.split()[:4])
        if rng.random() < 0.4:
            _paragraph(document, "That the report be noted.", bold="Resolved:")
    return headings, levels, follows




def _action_table(document: object, rng: random.Random, seed: int) -> list[list[str]]:
    status = seed % 2 == 1
    header = ["No.", "Action", "Owner", "Due date", *(["Status"] if status else [])]
    cells = [header]
    owners = ("JP", "KS", "RE", "Chair", "Clerk", "DO")
    for k, action in enumerate(rng.sample(_ACTIONS, rng.randint(3, 6)), start=1):
        due = f"{rng.randint(1, 28)} {rng.choice(('April', 'May', 'June'))} 2024"
        row = [str(k), action, rng.choice(owners), due]
        cells.append(row + ([rng.choice(("Open", "Done", "In progress"))] if status else []))
    table = document.add_table(rows=len(cells), cols=len(header))  # type: ignore[attr-defined]
    table.style = "Table Grid"
    fixed_widths(table, [0.45, 3.2, 0.8, 1.1, 0.9][: len(header)])
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            cell = table.cell(r, c)
            cell.paragraphs[0].add_run(text).bold = r == 0
            if r == 0 and seed % 4 in (1, 2):
                shade(cell, ("D9D9D9", "DEEAF6")[seed % 2])
    return cells


def meeting_minutes(seed: int) -> tuple[str, bytes, Truth]:
    """Minutes of a meeting: attendance, numbered agenda items as headings, an action table."""
    rng = random.Random(seed)
    document = Document()
    _styles(document, seed)
    body = rng.choice(_BODIES_OF)
    title = f"Minutes of the meeting of the {body}" if seed % 3 else f"{body}: minutes"
    document.add_heading(title, 1)
    when = (f"Held on Tuesday {rng.randint(1, 28)} March 2024 at 7.00 pm in the Council Chamber, Town Hall"
            if seed % 2 else f"Date: {rng.randint(1, 28)} March 2024, 10.00 am, Meeting Room 2 and online")
    _paragraph(document, when, space_after=8)
    truth = _attendance(document, rng, seed)
    headings, levels, follows = _agenda(document, rng, seed)
    action_title = rng.choice(("Action log", "Summary of actions", "Actions arising"))
    document.add_heading(action_title, 2)
    lead = "The actions agreed at the meeting are listed below."
    _paragraph(document, lead)
    cells = _action_table(document, rng, seed)
    document.add_paragraph()
    next_meeting = f"Date of next meeting: {rng.randint(1, 28)} May 2024 at 7.00 pm."
    _paragraph(document, next_meeting)
    _paragraph(document, "Signed ............................ (Chair)    Date ..................")
    return "docx", docx_bytes(document), {
        **truth, "headings": [title, *headings, action_title], "levels": [1, *levels, 2],
        "follows": {**follows, action_title: " ".join(lead.split()[:4])}, "tables": [cells],
        "texts": [*truth["texts"], next_meeting]}
