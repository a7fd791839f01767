"""A legal act's page drawn top down (reportlab), for the tests of legal acts' structure
(tests/test_pdf_legal_acts.py, tests/test_pdf_legal_levels.py)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import wrapped_lines

WIDTH, HEIGHT = A4


class DrawnAct:
    """A page of an act written top down in 11-point Times: centred lines, lines flush left,
    numbered paragraphs and plain ones (``text`` by default)."""

    def __init__(self, canvas: Any, text: str) -> None:
        self.canvas, self.y, self.text = canvas, HEIGHT - 80, text

    def centred(self, text: str, font: str = "Times-Bold", size: float = 11, after: float = 4) -> None:
        self.canvas.setFont(font, size)
        self.canvas.drawCentredString(WIDTH / 2, self.y, text)
        self.y -= size * 1.2 + after

    def left(self, text: str, font: str = "Times-Bold", size: float = 11, after: float = 6) -> None:
        self.canvas.setFont(font, size)
        self.canvas.drawString(72, self.y, text)
        self.y -= size * 1.2 + after

    def numbered(self, number: str, text: str | None = None, indent: float = 0, after: float = 6) -> None:
        """A paragraph whose number hangs ``indent`` points in, left of its text."""
        self.canvas.setFont("Times-Roman", 11)
        self.canvas.drawString(72 + indent, self.y, number)
        for line in wrapped_lines(text or self.text, WIDTH - 144 - 28 - indent, "Times-Roman", 11):
            self.canvas.drawString(100 + indent, self.y, line)
            self.y -= 13.2
        self.y -= after

    def paragraph(self, text: str | None = None, after: float = 6) -> None:
        self.canvas.setFont("Times-Roman", 11)
        for line in wrapped_lines(text or self.text, WIDTH - 144, "Times-Roman", 11):
            self.canvas.drawString(72, self.y, line)
            self.y -= 13.2
        self.y -= after

    def signatures(self, done: str) -> None:
        """The closing formula, then two institutions' signatures in two columns on a tab stop,
        as a Word drafter sets them."""
        self.left(done, "Times-Roman", after=8)
        for left, right in (("For the European Parliament", "For the Council"),
                            ("The President", "The President"), ("R. METSOLA", "M. NOVAK")):
            self.canvas.setFont("Times-Roman", 11)
            self.canvas.drawString(72, self.y, left)
            self.canvas.drawString(320, self.y, right)
            self.y -= 15.8
