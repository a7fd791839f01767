"""Extraction fidelity per category and throughput per track, on ../shared/corpus.

    .venv/bin/python -m bench.extract            # fidelity table + throughput table
    .venv/bin/python -m bench.extract --quick    # fewer throughput repetitions

Fidelity: bag-of-words recall/precision of pagemill's Markdown against the corpus's ground
truth (docling's reviewed Markdown, unstructured's test expectations); character error rate
on the OCR pages with exact transcriptions.  Throughput: pages per second of each track, in
one run, side by side with docling's model-free PDF pipeline on the same born-digital PDFs
(unstructured's ``fast`` PDF strategy needs the ``unstructured[pdf]`` extra, which replaces
the CPU torch stack; it is reported as not run when absent).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.fidelity import bag_of_words, cer  # noqa: E402
from extractors import ExtractionError, extract  # noqa: E402
from extractors.base import ExtractOptions  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DOCLING = CORPUS / "docling"
OPTIONS = ExtractOptions()


def _text(path: Path, **overrides: object) -> tuple[str, int]:
    result = extract(path.read_bytes(), filename=path.name, options=replace(OPTIONS, **overrides))
    return result.markdown, result.page_count or 1


def _docling_pairs(kind: str, suffix_in_truth: bool) -> list[tuple[Path, Path]]:
    pairs = []
    for source in sorted((DOCLING / kind / "sources").iterdir()):
        name = f"{source.name}.md" if suffix_in_truth else f"{source.stem}.md"
        truth = DOCLING / kind / "groundtruth" / name
        if truth.exists():
            pairs.append((source, truth))
    return pairs


def _email_pairs() -> list[tuple[Path, str]]:
    expected = json.loads((CORPUS / "unstructured" / "expected_from_tests.json").read_text())
    pairs = []
    for relative, spec in expected.items():
        if relative.endswith((".eml", ".msg")) and isinstance(spec.get("elements"), list):
            pairs.append((CORPUS / "unstructured" / relative, "\n".join(e[1] for e in spec["elements"])))
    return pairs


def fidelity() -> list[tuple[str, int, float, float, str]]:
    rows = []
    categories = {
        "born-digital PDF": _docling_pairs("pdf", False),
        "DOCX": _docling_pairs("docx", True),
        "PPTX": _docling_pairs("pptx", True),
        "XLSX": _docling_pairs("xlsx", True),
        "HTML": _docling_pairs("html", True),
    }
    for category, pairs in categories.items():
        scores = []
        for source, truth in pairs:
            try:
                text, _ = _text(source)
            except ExtractionError:
                text = ""
            scores.append(bag_of_words(text, truth.read_text()))
        rows.append((category, len(pairs), statistics.mean(s[0] for s in scores),
                     statistics.mean(s[1] for s in scores), ""))
    mail = [(bag_of_words(_text(source)[0], truth)) for source, truth in _email_pairs()]
    rows.append(("e-mail (EML/MSG)", len(mail), statistics.mean(s[0] for s in mail),
                 statistics.mean(s[1] for s in mail), "precision counts the header block"))
    return rows


def ocr_error_rates() -> list[tuple[str, float, str]]:
    rows = []
    truth_dir = DOCLING / "ocr" / "groundtruth" / "tesseract" / "full_page"
    for source in sorted((DOCLING / "ocr" / "sources").glob("ocr_test*.pdf")):
        truth = truth_dir / f"{source.stem}.tesseract.full_page.md"
        text, _ = _text(source)
        rows.append((f"docling/ocr/{source.name}", cer(text, truth.read_text()), "scanned PDF"))
    webp = DOCLING / "webp" / "sources" / "webp-test.webp"
    webp_truth = DOCLING / "webp" / "groundtruth" / "tesseract" / "full_page"
    truth_file = next(webp_truth.glob("*.md"), None)
    if truth_file:
        rows.append(("docling/webp/webp-test.webp", cer(_text(webp)[0], truth_file.read_text()), "image"))
    for source in sorted((CORPUS / "tesseract-ocr-test").glob("*")):
        if source.suffix not in (".tif", ".png"):
            continue
        truth = source.with_suffix(".txt")
        if not truth.exists():
            truth = CORPUS / "tesseract-ocr-test" / "phototest.txt"
        rows.append((f"tesseract-ocr-test/{source.name}", cer(_text(source)[0], truth.read_text()), "image"))
    return rows


def _pages_per_second(files: list[Path], run, repeat: int) -> tuple[float, int]:
    pages = 0
    elapsed = []
    for _ in range(repeat):
        started = time.perf_counter()
        pages = sum(run(path) for path in files)
        elapsed.append(time.perf_counter() - started)
    return pages / min(elapsed), pages


# Run in another interpreter: unstructured[pdf] installs a torchvision that breaks the CPU
# torch stack of pagemill's own environment, so it gets a venv of its own (--unstructured-python).
_UNSTRUCTURED_SCRIPT = """
import json, sys, time
import spacy
import unstructured.nlp.tokenize as tokenize
# Offline, en_core_web_sm cannot be downloaded and fast PDF partitioning returns nothing;
# the same blank pipeline pagemill uses keeps the comparison fair.
nlp = spacy.blank("en")
nlp.add_pipe("sentencizer")
tokenize._get_nlp = lambda: nlp
from unstructured.partition.pdf import partition_pdf
import pypdfium2
files = sys.argv[2:]
repeat = int(sys.argv[1])
partition_pdf(filename=files[0], strategy="fast")
best = None
for _ in range(repeat):
    started = time.perf_counter()
    texts = {f: "\\n\\n".join(str(e) for e in partition_pdf(filename=f, strategy="fast")) for f in files}
    elapsed = time.perf_counter() - started
    best = elapsed if best is None else min(best, elapsed)
pages = sum(len(pypdfium2.PdfDocument(f)) for f in files)
print(json.dumps({"seconds": best, "pages": pages, "texts": texts}))
"""

UNSTRUCTURED_PYTHON: str | None = None


def _unstructured_fast(files: list[Path], repeat: int) -> tuple[str, str, float, int]:
    import subprocess

    if not UNSTRUCTURED_PYTHON:
        return ("unstructured fast: not run (pass --unstructured-python)", "", 0.0, 0)
    proc = subprocess.run([UNSTRUCTURED_PYTHON, "-c", _UNSTRUCTURED_SCRIPT, str(repeat),
                           *map(str, files)], capture_output=True, text=True, timeout=1800,
                          env={**os.environ, "UNSTRUCTURED_DISABLE_NOTICE": "1"})
    if proc.returncode != 0:
        return (f"unstructured fast: failed ({proc.stderr.strip().splitlines()[-1][:80]})", "", 0.0, 0)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    UNSTRUCTURED_TEXTS.update(out["texts"])
    return ("unstructured `partition_pdf(strategy=\"fast\")`", "born-digital PDFs",
            out["pages"] / out["seconds"], out["pages"])


UNSTRUCTURED_TEXTS: dict[str, str] = {}


def throughput(repeat: int) -> list[tuple[str, str, float, int]]:
    born_digital = [s for s, _ in _docling_pairs("pdf", False)]
    born_digital += sorted((CORPUS / "unstructured" / "pdf").glob("multi-column*.pdf"))
    scans = sorted((DOCLING / "ocr" / "sources").glob("*.pdf"))
    rows = []
    extract(born_digital[0].read_bytes())  # warm-up: imports and language profiles

    def fast(path: Path) -> int:
        return _text(path, ocr_engines=())[1]

    def routed(path: Path) -> int:
        return _text(path)[1]

    rate, pages = _pages_per_second(born_digital, fast, repeat)
    rows.append(("fast track (pdfium text layer + quality score)", "born-digital PDFs", rate, pages))
    rate, pages = _pages_per_second(born_digital, routed, 1)
    rows.append(("pagemill routed (weak pages OCRed)", "born-digital PDFs", rate, pages))

    from docling.datamodel.base_models import InputFormat
    from docling.document_converter import DocumentConverter
    try:
        from docling.document_converter import NativePdfFormatOption

        converter = DocumentConverter(format_options={InputFormat.PDF: NativePdfFormatOption()})

        def native(path: Path) -> int:
            result = converter.convert(str(path))
            result.document.export_to_markdown()
            return len(result.document.pages)

        native(born_digital[0])
        rate, pages = _pages_per_second(born_digital, native, repeat)
        rows.append(("docling NativePdfPipeline (model-free)", "born-digital PDFs", rate, pages))
    except ImportError as exc:
        rows.append((f"docling native pipeline not run: {exc}", "", 0.0, 0))
    rows.append(_unstructured_fast(born_digital, repeat))

    rate, pages = _pages_per_second(scans, routed, 1)
    rows.append(("OCR track (render 200 dpi + Tesseract)", "image-only PDFs", rate, pages))
    rate, pages = _pages_per_second(
        [CORPUS / "tesseract-ocr-test" / "phototest.tif"],
        lambda p: _text(p, ocr_engines=("rapidocr",))[1], 1)
    rows.append(("OCR: RapidOCR only", "phototest.tif", rate, pages))
    return rows


def quality_calibration() -> list[tuple[str, int, float, float, float, int]]:
    """Score distributions of text that must pass and text that must be OCRed or rejected."""
    import random

    from extractors.pdf_text import read_text_layer
    from extractors.quality import assess

    good = []
    for source, _ in _docling_pairs("pdf", False):
        good += [assess(p.markdown).score for p in read_text_layer(source.read_bytes()).pages
                 if len(p.markdown) >= OPTIONS.min_chars_per_page]
    for path in sorted((CORPUS / "unstructured" / "pdf").glob("*.pdf")):
        try:
            pages = read_text_layer(path.read_bytes()).pages
        except ExtractionError:
            continue
        good += [assess(p.markdown).score for p in pages if len(p.markdown) >= OPTIONS.min_chars_per_page]
    ocr = [assess(_text(p)[0]).score for p in sorted((CORPUS / "tesseract-ocr-test").glob("*.tif"))]
    rng = random.Random(7)
    truth = [p.read_text() for p in sorted((CORPUS / "tesseract-ocr-test").glob("*.txt"))]
    # Broken font encodings: each letter consistently mapped to another glyph.
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    garbled = []
    for text in truth:
        shuffled = "".join(rng.sample(alphabet, len(alphabet)))
        garbled.append(assess(text.lower().translate(str.maketrans(alphabet, shuffled))).score)
    cid = [assess(" ".join(f"(cid:{rng.randint(1, 300)})" for _ in range(200))).score]
    rows = []
    groups = (("PDF text layers (should pass)", good), ("Tesseract OCR of test pages (should pass)", ocr),
              ("letter-substituted text (must fail)", garbled), ("(cid:N) glyph dumps (must fail)", cid))
    for name, scores in groups:
        below = sum(1 for s in scores if s < OPTIONS.quality_threshold)
        rows.append((name, len(scores), min(scores), statistics.median(scores), max(scores), below))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--quality", action="store_true", help="only the quality-score calibration")
    parser.add_argument("--unstructured-python", default=None,
                        help="python of a venv with unstructured[pdf], for its fast strategy side by side")
    args = parser.parse_args()
    global UNSTRUCTURED_PYTHON
    UNSTRUCTURED_PYTHON = args.unstructured_python
    print(f"| quality score (threshold {OPTIONS.quality_threshold}) | n | min | median | max | below |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, low, mid, high, below in quality_calibration():
        print(f"| {name} | {n} | {low:.2f} | {mid:.2f} | {high:.2f} | {below} |")
    print()
    if args.quality:
        return
    print("| category | files | BoW recall | BoW precision | note |")
    print("|---|---:|---:|---:|---|")
    for category, n, recall, precision, note in fidelity():
        print(f"| {category} | {n} | {recall:.3f} | {precision:.3f} | {note} |")
    print()
    print("| OCR page | CER | kind |")
    print("|---|---:|---|")
    for name, rate, kind in ocr_error_rates():
        print(f"| {name} | {rate:.2%} | {kind} |")
    print()
    print("| track | files | pages/s | pages |")
    print("|---|---|---:|---:|")
    for track, files, rate, pages in throughput(1 if args.quick else 3):
        print(f"| {track} | {files} | {rate:.1f} | {pages} |")
    if UNSTRUCTURED_TEXTS:
        print()
        print("| born-digital PDFs with ground truth | BoW recall | BoW precision |")
        print("|---|---:|---:|")
        pairs = _docling_pairs("pdf", False)
        for name, texts in (("pagemill", {str(s): _text(s)[0] for s, _ in pairs}),
                            ("unstructured fast", UNSTRUCTURED_TEXTS)):
            scores = [bag_of_words(texts.get(str(s), ""), t.read_text()) for s, t in pairs]
            print(f"| {name} | {statistics.mean(x[0] for x in scores):.3f} "
                  f"| {statistics.mean(x[1] for x in scores):.3f} |")


if __name__ == "__main__":
    main()
