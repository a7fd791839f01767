"""Headings real reports set that the heading rules used to miss (issue 32's heading recall),
one test per rule, each on a small PDF drawn here with the impostor its rule must still leave
alone beside the real heading (so a rule that takes everything fails too).  The rules were
tuned on the tuning files of bench/data/heading_labels_icdar.json (ICDAR 2013's US reports)."""

from __future__ import annotations

import pytest

from extractors import pdf_words
from tests.test_pdf_structure import SENTENCES, make_pdf, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:3])
MORE = " ".join(SENTENCES[3:])


def headings_of(markdown: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown.split("\n") if line.startswith("#")]


def _descriptor(name: str, stem_v: int) -> bytes:
    return (f"/BaseFont /{name} /FontDescriptor << /Type /FontDescriptor /FontName /{name} /Flags 32 "
            f"/StemV {stem_v} /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 718 /Descent -207 "
            "/CapHeight 718 >> /").encode()


@pytest.mark.parametrize("name", ["Helvetica", "MyriadPro-Regular"])
def test_a_regular_font_whose_stem_width_says_bold_is_read_regular(name):
    """The body's font descriptor gives a stem width that PDFium turns into a bold weight
    (StemV 200: weight 940), as producers of real reports write it (ICDAR 2013's us-019,
    us-026, us-031a: their whole body read as bold).  A name that says the regular face
    ("-Regular") or is a core face's bare name outweighs it: the body is regular, and the
    bold body-size heading is bolder than it."""
    body1, after1 = paragraph(100, TEXT)
    body2, _ = paragraph(after1 + 34, MORE)
    data = make_pdf([(72, 60, "Annual survey of members", 18, "Helvetica-Bold"), *body1,
                     (72, after1 + 16, "Results by region", 10, "Helvetica-Bold"), *body2])
    plain = b"/BaseFont /Helvetica /"
    assert data.count(plain) == 1
    data = data.replace(plain, _descriptor(name, 200))
    assert headings_of(markdown_of(data)) == ["Annual survey of members", "Results by region"]


def test_font_names_outweigh_a_stem_width_only_when_they_say_regular():
    face = pdf_words._REGULAR_NAMES
    assert face.search("agaramondpro-regular") and face.search("timesnewromanpsmt")
    assert face.search("times-roman") and not face.search("nimbusromno9l-medi")
    assert "helvetica" in pdf_words._CORE_FACES and "brandsans" not in pdf_words._CORE_FACES


def test_a_bold_title_over_bullets_of_prose_heads_them():
    """A bold body-size title over a bulleted list whose items are sentences wrapped over
    lines ("HIGHLIGHTS" over a report's findings): a section written as bullets, its
    heading.  A bold line over bullets of a few words each stays their label."""
    lines: list[tuple] = [(72, 60, "Disability in the United States", 18, "Helvetica-Bold")]
    body, top = paragraph(100, TEXT)
    lines += body
    lines.append((72, top + 14, "HIGHLIGHTS", 10, "Helvetica-Bold"))
    top += 30
    for sentence in (SENTENCES[0] + " " + SENTENCES[1], SENTENCES[2] + " " + SENTENCES[3]):
        item, after = paragraph(top, sentence, x=86, width_chars=70)
        lines += [(72, top, "\u2022", 10), *item]
        top = after + 4
    body, top = paragraph(top + 10, MORE)
    lines += body
    lines.append((72, top + 14, "Main changes", 10, "Helvetica-Bold"))
    top += 30
    for item in ("New regional breakdown", "Revised population estimates"):
        lines += [(72, top, "\u2022", 10), (86, top, item, 10)]
        top += 14
    assert headings_of(markdown_of(make_pdf(lines))) == ["Disability in the United States", "HIGHLIGHTS"]
