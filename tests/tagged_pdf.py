"""Small tagged PDFs written by hand: a structure tree (``/StructTreeRoot``, ``/ParentTree``)
over marked content (``/P <</MCID 0>> BDC ... EMC``), and text marked ``/Artifact`` outside it.
reportlab cannot tag, and LibreOffice's exports (tests/test_pdf_tag_structure.py's system
test) cannot be made to contradict their page; these can.

    tagged_pdf([Node("P", [Run(0, 72, 100, "Some text")])], artifacts=[Run(0, 72, 760, "Page 1")])

Text is Helvetica (bold: Helvetica-Bold); ``top`` is the distance from the page's top edge to
the top of the text, in points.  A run holding characters WinAnsi lacks (Hebrew, Arabic, Thai,
CJK) is drawn in a Helvetica whose ``/ToUnicode`` map gives them for the codes of its accented
letters: the glyphs are Latin, the text layer is the run's text, each character with its
glyph's box (MAPPED_WIDTH thousandths of an em wide for the first twenty-two).  A
right-to-left run is given as it is drawn, in visual order (left to right).  ``text_pdf``
draws runs with no structure tree and no marks (an untagged page)."""

from __future__ import annotations

from dataclasses import dataclass, field

WIDTH, HEIGHT = 612.0, 792.0


@dataclass(frozen=True)
class Run:
    """A line of text drawn on page ``page`` (0-based) at (``x``, ``top``)."""

    page: int
    x: float
    top: float
    text: str
    size: float = 10.0
    bold: bool = False


@dataclass(frozen=True)
class Fill:
    """A grey rectangle filled on page ``page`` from (``x0``, ``top``) to (``x1``, ``bottom``):
    what a striped table row's background draws."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass
class Node:
    """A structure element: its type (``P``, ``Table``, ``TD``, ``L``...), its children
    (elements, or runs and fills drawn under it as marked content) and its attributes (``ColSpan``)."""

    kind: str
    children: list[Node | Run | Fill] = field(default_factory=list)
    attributes: dict[str, int] = field(default_factory=dict)


def tagged_pdf(tree: list[Node], artifacts: list[Run] | None = None, pages: int = 1,
               lines: list[tuple[float, float, float, float]] | None = None) -> bytes:
    """A PDF of ``pages`` pages drawing the runs of ``tree`` (one document element holds it)
    as marked content, ``artifacts`` as artifacts and ``lines`` ((x0, top, x1, bottom), top
    measured from the page's top edge) as artifact strokes on the first page."""
    writer = _Writer(pages)
    document = Node("Document", list(tree))
    root_ref = writer.element(document, parent=3)
    for run in artifacts or []:
        writer.draw(run, "/Artifact BMC")
    for x0, top, x1, bottom in lines or []:
        writer.streams[0].append(f"/Artifact BMC 0.5 w {x0} {HEIGHT - top} m {x1} {HEIGHT - bottom} l S EMC")
    return writer.finish(root_ref)


def text_pdf(runs: list[Run], pages: int = 1) -> bytes:
    """An untagged PDF of ``pages`` pages drawing ``runs``."""
    writer = _Writer(pages)
    for run in runs:
        writer.draw(run, "")
    return writer.finish(None)


# The codes a run's characters beyond WinAnsi are drawn with, each mapped to its character by
# the font's /ToUnicode: accented letters, those of one width first (PDFium's boxes follow the
# glyphs' widths, whatever the font's /Widths say: twenty-two characters a letter-spaced test
# word may use come out evenly spaced).
_EVEN_CODES = [*range(0xE0, 0xE6), *range(0xE8, 0xEC), *range(0xF0, 0xF7), *range(0xF9, 0xFD), 0xFE]
_MAPPED_CODES = _EVEN_CODES + [code for code in [*range(0xC0, 0x100), *range(0xA1, 0xC0)]
                               if code not in _EVEN_CODES]
MAPPED_WIDTH = 556  # (the width of those glyphs in Helvetica)


class _Writer:
    # Objects 1-5: catalog, pages, structure tree root, parent tree, fonts (5 and 6); the
    # pages, their contents and the structure elements follow.
    def __init__(self, pages: int) -> None:
        self.objects: dict[int, str] = {}
        self.next = 7
        self.page_refs = [self.allocate() for _ in range(pages)]
        self.streams: list[list[str]] = [[] for _ in range(pages)]
        self.parents: list[list[int]] = [[] for _ in range(pages)]  # by MCID: the element
        self.mapped: dict[str, int] = {}  # a character beyond WinAnsi -> its code in /F3

    def allocate(self) -> int:
        self.next += 1
        return self.next - 1

    def element(self, node: Node, parent: int) -> int:
        ref = self.allocate()
        kids: list[str] = []
        page: int | None = None
        for child in node.children:
            if isinstance(child, Run | Fill):
                mcid = len(self.parents[child.page])
                self.parents[child.page].append(ref)
                self.draw(child, f"/{node.kind} <</MCID {mcid}>> BDC")
                kids.append(f"<</Type /MCR /Pg {self.page_refs[child.page]} 0 R /MCID {mcid}>>")
                page = child.page if page is None else page
            else:
                kids.append(f"{self.element(child, ref)} 0 R")
        attributes = "".join(f" /{name} {value}" for name, value in node.attributes.items())
        owner = f" /A <</O /Table{attributes}>>" if attributes else ""
        where = f" /Pg {self.page_refs[page]} 0 R" if page is not None else ""
        self.objects[ref] = (f"<</Type /StructElem /S /{node.kind} /P {parent} 0 R{where}{owner}"
                             f" /K [{' '.join(kids)}]>>")
        return ref

    def draw(self, run: Run | Fill, mark: str) -> None:
        if isinstance(run, Fill):
            self.streams[run.page].append(f"{mark} 0.9 g {run.x0} {HEIGHT - run.bottom} {run.x1 - run.x0}"
                                          f" {run.bottom - run.top} re f 0 g EMC")
            return
        baseline = HEIGHT - run.top - 0.8 * run.size
        try:
            run.text.encode("cp1252")
            text = "(" + run.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"
            font = "/F2" if run.bold else "/F1"
        except UnicodeEncodeError:
            text = "<" + "".join(f"{self.code(ch):02X}" for ch in run.text) + ">"
            font = "/F3"
        end = " EMC" if mark else ""
        self.streams[run.page].append(
            f"{mark} BT {font} {run.size} Tf {run.x} {baseline} Td {text} Tj ET{end}")

    def code(self, ch: str) -> int:
        """The code of ``ch`` in /F3: an ASCII character its own, any other one of _MAPPED_CODES."""
        if " " <= ch <= "~":
            return ord(ch)
        if ch not in self.mapped:
            self.mapped[ch] = _MAPPED_CODES[len(self.mapped)]
        return self.mapped[ch]

    def finish(self, root: int | None) -> bytes:
        """The PDF's bytes: tagged with the structure element ``root`` at the top, or untagged."""
        kids = " ".join(f"{ref} 0 R" for ref in self.page_refs)
        if root is None:
            self.objects[1] = "<</Type /Catalog /Pages 2 0 R>>"
        else:
            self.objects[1] = ("<</Type /Catalog /Pages 2 0 R /MarkInfo <</Marked true>>"
                               " /StructTreeRoot 3 0 R>>")
            self.objects[3] = f"<</Type /StructTreeRoot /K [{root} 0 R] /ParentTree 4 0 R>>"
            nums = " ".join(f"{index} [{' '.join(f'{ref} 0 R' for ref in refs)}]"
                            for index, refs in enumerate(self.parents))
            self.objects[4] = f"<</Nums [{nums}]>>"
        self.objects[2] = f"<</Type /Pages /Kids [{kids}] /Count {len(self.page_refs)}>>"
        for number, name in ((5, "Helvetica"), (6, "Helvetica-Bold")):
            self.objects[number] = (f"<</Type /Font /Subtype /Type1 /BaseFont /{name}"
                                    " /Encoding /WinAnsiEncoding>>")
        fonts = "/F1 5 0 R /F2 6 0 R"
        if self.mapped:
            fonts += f" /F3 {self.mapped_font()} 0 R"
        for index, ref in enumerate(self.page_refs):
            content = "\n".join(self.streams[index])
            stream = self.allocate()
            length = len(content.encode("latin-1"))
            self.objects[stream] = f"<</Length {length}>>\nstream\n{content}\nendstream"
            self.objects[ref] = (f"<</Type /Page /Parent 2 0 R /MediaBox [0 0 {WIDTH} {HEIGHT}]"
                                 f" /Resources <</Font <<{fonts}>>>> /Contents {stream} 0 R"
                                 f" /StructParents {index}>>")
        out = bytearray(b"%PDF-1.7\n")
        for number in (3, 4):  # (no structure tree: two free objects)
            self.objects.setdefault(number, "null")
        offsets: dict[int, int] = {}
        for number in sorted(self.objects):
            offsets[number] = len(out)
            out += f"{number} 0 obj\n{self.objects[number]}\nendobj\n".encode("latin-1")
        start = len(out)
        count = max(self.objects) + 1
        out += f"xref\n0 {count}\n0000000000 65535 f \n".encode()
        for number in range(1, count):
            entry = f"{offsets[number]:010d} 00000 n \n" if number in offsets else "0000000000 65535 f \n"
            out += entry.encode()
        out += f"trailer\n<</Size {count} /Root 1 0 R>>\nstartxref\n{start}\n%%EOF\n".encode()
        return bytes(out)

    def mapped_font(self) -> int:
        """/F3: Helvetica with a /ToUnicode map of its ASCII codes and of self.mapped."""
        pairs = [(code, ch) for code, ch in ((c, chr(c)) for c in range(0x20, 0x7F))]
        pairs += [(code, ch) for ch, code in self.mapped.items()]
        lines = [f"<{code:02X}> <{ch.encode('utf-16-be').hex().upper()}>" for code, ch in pairs]
        chunks = [lines[i:i + 100] for i in range(0, len(lines), 100)]
        body = "".join(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar\n" for chunk in chunks)
        cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Mapped def"
                " /CMapType 2 def 1 begincodespacerange <00> <FF> endcodespacerange\n"
                f"{body}endcmap CMapName currentdict /CMap defineresource pop end end")
        stream = self.allocate()
        self.objects[stream] = f"<</Length {len(cmap)}>>\nstream\n{cmap}\nendstream"
        font = self.allocate()
        widths = " ".join([str(MAPPED_WIDTH)] * 224)
        self.objects[font] = ("<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding"
                              f" /FirstChar 32 /LastChar 255 /Widths [{widths}] /ToUnicode {stream} 0 R>>")
        return font
