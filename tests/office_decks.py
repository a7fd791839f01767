"""PowerPoint decks typeset by LibreOffice Impress, as pagemill converts PPTX itself and as users'
decks arrive exported to PDF (the probes' ``slide_deck`` class, tests/office_probes.py)."""

from __future__ import annotations

from pathlib import Path

from tests.office_documents import libreoffice_pdf


def convert(paths: list[Path], outdir: Path, tagged: bool = False, timeout: float = 600) -> list[Path]:
    """Each PPTX in `paths` as PDF in `outdir` (same stem), in one LibreOffice Impress run with a
    private profile: tagged (structure tree, /MarkInfo) with an outline when asked, else neither
    (as the Writer probes are exported)."""
    options = {"UseTaggedPDF": tagged, "ExportBookmarks": tagged}
    return libreoffice_pdf(paths, outdir, "impress_pdf_Export", options, timeout)
