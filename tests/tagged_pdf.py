"""Small tagged PDFs written by hand: a structure tree (``/StructTreeRoot``, ``/ParentTree``)
over marked content (``/P <</MCID 0>> BDC ... EMC``), and text marked ``/Artifact`` outside it.
reportlab cannot tag, and LibreOffice's exports (tests/test_pdf_tag_structure.py's system
test) cannot be made to contradict their page; these can.

    tagged_pdf([Node("P", [Run(0, 72, 100, "Some text")])], artifacts=[Run(0, 72, 760, "Page 1")])

Text is Helvetica (bold: Helvetica-Bold), WinAnsi characters only; ``top`` is the distance
from the page's top edge to the top of the text, in points.
"""

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


class _Writer:
    # Objects 1-5: catalog, pages, structure tree root, parent tree, fonts (5 and 6); the
    # pages, their contents and the structure elements follow.
    def __init__(self, pages: int) -> None:
        self.objects: dict[int, str] = {}
        self.next = 7
        self.page_refs = [self.allocate() for _ in range(pages)]
        self.streams: list[list[str]] = [[] for _ in range(pages)]
        self.parents: list[list[int]] = [[] for _ in range(pages)]  # by MCID: the element

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
        text = run.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        baseline = HEIGHT - run.top - 0.8 * run.size
        font = "/F2" if run.bold else "/F1"
        self.streams[run.page].append(
            f"{mark} BT {font} {run.size} Tf {run.x} {baseline} Td ({text}) Tj ET EMC")

    def finish(self, root: int) -> bytes:
        kids = " ".join(f"{ref} 0 R" for ref in self.page_refs)
        self.objects[1] = "<</Type /Catalog /Pages 2 0 R /MarkInfo <</Marked true>> /StructTreeRoot 3 0 R>>"
        self.objects[2] = f"<</Type /Pages /Kids [{kids}] /Count {len(self.page_refs)}>>"
        self.objects[3] = f"<</Type /StructTreeRoot /K [{root} 0 R] /ParentTree 4 0 R>>"
        nums = " ".join(f"{index} [{' '.join(f'{ref} 0 R' for ref in refs)}]"
                        for index, refs in enumerate(self.parents))
        self.objects[4] = f"<</Nums [{nums}]>>"
        for number, name in ((5, "Helvetica"), (6, "Helvetica-Bold")):
            self.objects[number] = (f"<</Type /Font /Subtype /Type1 /BaseFont /{name}"
                                    " /Encoding /WinAnsiEncoding>>")
        for index, ref in enumerate(self.page_refs):
            content = "\n".join(self.streams[index])
            stream = self.allocate()
            length = len(content.encode("latin-1"))
            self.objects[stream] = f"<</Length {length}>>\nstream\n{content}\nendstream"
            self.objects[ref] = (f"<</Type /Page /Parent 2 0 R /MediaBox [0 0 {WIDTH} {HEIGHT}]"
                                 f" /Resources <</Font <</F1 5 0 R /F2 6 0 R>>>> /Contents {stream} 0 R"
                                 f" /StructParents {index}>>")
        out = bytearray(b"%PDF-1.7\n")
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
