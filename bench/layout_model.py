"""Would rapid-layout's offline CDLA layout model improve pagemill's PDF structure? An evaluation
(issue 18, item 7), pagemill's model-free heuristics and the model side by side in one run.

    .venv/bin/python -m pip install rapid-layout        # not a project dependency (evaluation only)
    nice -n 10 .venv/bin/python -m bench.layout_model               # 5 reports from seed 1, dpi 100 and 150
    nice -n 10 .venv/bin/python -m bench.layout_model -n 8 --seed 40 --dpi 150 --json

The model is `rapid_layout/models/layout_cdla.onnx` from the wheel, loaded by path (so nothing can be
downloaded at run time; run with `HTTPS_PROXY=http://127.0.0.1:9` to prove it), on onnxruntime with one
thread (the fast track is single-threaded too). Its classes: text, title, figure, figure_caption,
table, table_caption, header, footer, reference, equation. A region's text is the text layer's
words (`extractors.pdf_words.read_layouts`, PDF points, top-left origin) whose centre lies in the
region's box scaled by 72/dpi.

(a) generated reports (`tests.pdf_reports.generate_report`), each page rendered with pypdfium2 at
    each dpi:
    - heading P/R/F1: `title` regions against the true headings, scored by
      `bench.pdf_structure._score_headings` (the model has no levels: every title is level 1, so
      level accuracy is not reported for it); the heuristics' numbers are
      `bench.pdf_structure.measure_reports` on the same seeds;
    - tables: word F1 = multiset overlap of the words of true table cells with the words in
      `table` regions (for the heuristics, the words of their Markdown pipe-table cells), micro
      over reports; tables found = true tables with at least half their words in one region (the
      heuristics': `tables_found`, at least half their cells in one pipe table). The model gives
      a box, not cells: the heuristics' cell F1 has no model counterpart;
    - running lines: header regions whose text is the running header, footer regions whose text
      is the page's footer, over 2 x pages; "other header/footer regions" counts regions of those
      classes holding anything else. The heuristics' figure is `running_removed` (running lines
      kept out of the body).
(b) docling's PDFs (`../shared/corpus/docling/pdf/sources`, ground truth Markdown in
    `groundtruth/`): per file heading recall (ground-truth heading lines among the emitted ones,
    `bench.pdf_structure.heading_key` on both sides, each used once) and how many headings each side
    emitted; the heuristics' row is `bench.pdf_structure.measure_docling`. Also the model as a veto:
    the heuristics' headings kept only where the model calls the same text a title.
(c) scanned pages: the first `--scans` reports rendered at 150 dpi, greyed, turned 0.4 degrees,
    blurred, noised and JPEG-compressed, put into an image-only PDF. The model runs on the images;
    its regions are scored against the born-digital page's words (the scan has no text layer, so
    this measures detection alone, text from an oracle). The heuristics get the scanned PDF through
    `extractors.router.extract` with tesseract OCR and are scored like (a) (running lines by
    `bench.pdf_structure._score_text`). Their numbers are whatever OCR structure the working tree has.
(d) cost: import + load seconds, render and inference seconds per page (median), peak RSS growth
    over the model runs (ru_maxrss before the model is imported, after loading, after (a) and after
    (b); the model parts run first, before any heuristics, so the peak is the model's), and the
    fast track's pages/s
    (`extract` with `ocr_engines=()`, best of `--repeat`) on the same PDFs (reports + docling).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("text", "title", "figure", "figure_caption", "table", "table_caption", "header", "footer",
           "reference", "equation")
_SCAN_DPI = 150


@dataclass(frozen=True)
class Region:
    label: str
    score: float
    box: tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, top-left origin


@dataclass
class LayoutModel:
    """rapid-layout's CDLA model from inside the wheel, with the time each call took."""

    engine: Any = None
    load_seconds: float = 0.0
    infer_seconds: dict[int, list[float]] = field(default_factory=dict)  # by dpi
    render_seconds: dict[int, list[float]] = field(default_factory=dict)

    def load(self) -> None:
        started = time.perf_counter()
        import logging

        import rapid_layout  # type: ignore[import-untyped]  # evaluation only: not a dependency

        model = Path(rapid_layout.__file__).parent / "models" / "layout_cdla.onnx"
        if not model.exists():
            raise SystemExit(f"rapid-layout's wheel has no {model}: it would download it")
        self.engine = rapid_layout.RapidLayout(
            model_type="pp_layout_cdla", model_dir_or_path=str(model),
            engine_cfg={"intra_op_num_threads": 1, "inter_op_num_threads": 1},
        )
        for name in list(logging.root.manager.loggerDict):
            if name.startswith("rapid_layout"):
                logging.getLogger(name).setLevel(logging.WARNING)
        self.load_seconds = time.perf_counter() - started

    def regions(self, image: Any, dpi: int) -> list[Region]:
        started = time.perf_counter()
        out = self.engine(image)
        self.infer_seconds.setdefault(dpi, []).append(time.perf_counter() - started)
        if out.boxes is None:
            return []
        scale = 72.0 / dpi
        return [Region(str(label), float(score), (b[0] * scale, b[1] * scale, b[2] * scale, b[3] * scale))
                for b, label, score in zip(out.boxes, out.class_names, out.scores, strict=True)]

    def page_regions(self, data: bytes, dpi: int) -> list[list[Region]]:
        """Every page of a PDF, rendered at `dpi`, through the model."""
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(data)
        try:
            pages = []
            for page in pdf:
                started = time.perf_counter()
                image = page.render(scale=dpi / 72).to_numpy()  # BGR, what rapid-layout expects
                self.render_seconds.setdefault(dpi, []).append(time.perf_counter() - started)
                pages.append(self.regions(image, dpi))
            return pages
        finally:
            pdf.close()


def region_text(region: Region, words: list[Any], slack: float = 1.0) -> str:
    """The text-layer words whose centre lies in the region, grown along their lines to the
    neighbours closer than a space or so (the model's boxes often cut a line's first or last
    word: "The" of "The Birth of Word Processing"), in PDFium's reading order."""
    x0, top, x1, bottom = region.box
    inside = {i for i, w in enumerate(words)
              if x0 - slack <= (w.x0 + w.x1) / 2 <= x1 + slack
              and top - slack <= (w.top + w.bottom) / 2 <= bottom + slack}
    grown = True
    while grown:
        grown = False
        for i in list(inside):
            for j in (i - 1, i + 1):
                if j in inside or not 0 <= j < len(words) or words[j].line != words[i].line:
                    continue
                a, b = sorted((words[i], words[j]), key=lambda w: w.x0)
                if b.x0 - a.x1 <= 0.6 * (a.bottom - a.top):
                    inside.add(j)
                    grown = True
    return " ".join(words[i].text for i in sorted(inside))


def _words_of(texts: Iterable[str]) -> list[str]:
    from bench.pdf_structure import normalise

    return [w for t in texts for w in normalise(t).split()]


# ---------------------------------------------------------------- (a) and (c): reports


@dataclass
class ReportScore:
    """Counts summed over reports for one side (micro averages at the end)."""

    tally: Any
    counts: Counter[str] = field(default_factory=Counter)

    def summary(self) -> dict[str, Any]:
        from bench.pdf_structure import _prf

        c, t = self.counts, self.tally.counts
        headings = _prf(t["heading_tp"], t["heading_pred"], t["heading_truth"])
        tables = _prf(c["table_word_tp"], c["table_word_pred"], c["table_word_truth"])
        return {
            "heading_precision": headings["precision"], "heading_recall": headings["recall"],
            "heading_f1": headings["f1"], "table_word_precision": tables["precision"],
            "table_word_recall": tables["recall"], "table_word_f1": tables["f1"],
            "tables_found": c["table_found"] / c["table_truth"] if c["table_truth"] else 0.0,
            "table_regions_false": c["table_region_false"],
            "running_detected": c["running_found"] / c["running_expected"] if c["running_expected"] else 0.0,
            "running_regions_other": c["running_other"],
            "running_removed": (1 - t["running_found"] / t["running_expected"]) if t["running_expected"]
            else None,
            "table_words_by_label": {label: round(c[f"table_words_in_{label}"] / c["table_word_truth"], 3)
                                     for label in CLASSES if c[f"table_words_in_{label}"]}
            if c["table_word_truth"] else {},
            "failures": {k: v for k, v in self.tally.failures.items() if k.startswith("heading")},
        }


def _new_score() -> ReportScore:
    from bench.pdf_structure import Tally

    return ReportScore(Tally())


def _score_table_words(report: Any, emitted: list[list[str]], score: ReportScore) -> None:
    """`emitted`: the words of each emitted table (a region, or a Markdown pipe table)."""
    from bench.pdf_structure import _overlap

    truth = [_words_of(c for row in t.cells for c in row) for t in report.tables]
    free = list(range(len(emitted)))
    for words in truth:
        best = max(free, key=lambda i: _overlap(words, emitted[i]), default=None)
        shared = _overlap(words, emitted[best]) if best is not None else 0
        if best is not None and shared:
            free.remove(best)
        score.counts["table_found"] += int(shared >= len(words) / 2)
        score.counts["table_truth"] += 1
    all_truth = [w for words in truth for w in words]
    all_emitted = [w for words in emitted for w in words]
    score.counts["table_word_tp"] += _overlap(all_truth, all_emitted)
    score.counts["table_word_truth"] += len(all_truth)
    score.counts["table_word_pred"] += len(all_emitted)
    score.counts["table_region_false"] += sum(1 for i in free if emitted[i])


def score_model_report(report: Any, pages: list[list[Region]], layouts: list[Any],
                       score: ReportScore) -> None:
    from bench.pdf_structure import MarkdownShape, _overlap, _score_headings, normalise

    titles: list[tuple[str, int]] = []
    tables: list[list[str]] = []
    for number, (regions, layout) in enumerate(zip(pages, layouts, strict=True), start=1):
        ordered = sorted(regions, key=lambda r: (r.box[1], r.box[0]))
        titles += [(region_text(r, layout.words), 1) for r in ordered if r.label == "title"]
        tables += [_words_of([region_text(r, layout.words)]) for r in ordered if r.label == "table"]
        running = {normalise(report.header), normalise(report.footers[number - 1])}
        found = {normalise(region_text(r, layout.words)) for r in regions if r.label in ("header", "footer")}
        score.counts["running_found"] += len(running & found)
        score.counts["running_other"] += len(found - running)
        score.counts["running_expected"] += 2
    _score_headings(report, MarkdownShape(headings=[t for t in titles if t[0]]), score.tally)
    _score_table_words(report, tables, score)
    # Where the tables went: true table words inside regions of each class (regions overlap).
    truth = _words_of(c for t in report.tables for row in t.cells for c in row)
    for regions, layout in zip(pages, layouts, strict=True):
        for r in regions:
            inside = _words_of([region_text(r, layout.words)])
            score.counts[f"table_words_in_{r.label}"] += _overlap(truth, inside)


def score_heuristic_report(report: Any, markdown: str, score: ReportScore) -> None:
    """The heuristics' Markdown scored like the model (headings by the same function, tables by
    words); the scan part uses it, the born-digital part takes its headings from measure_reports."""
    from bench.pdf_structure import _score_headings, _score_text, read_markdown

    shape = read_markdown(markdown)
    _score_headings(report, shape, score.tally)
    _score_text(report, shape, markdown, score.tally)  # for its running header/footer count
    _score_table_words(report, [_words_of(c for row in t for c in row) for t in shape.tables], score)


def measure_model_reports(model: LayoutModel, seeds: list[int], dpis: list[int]) -> dict[int, dict[str, Any]]:
    from extractors.pdf_words import read_layouts
    from tests.pdf_reports import generate_report

    scores = {dpi: _new_score() for dpi in dpis}
    for seed in seeds:
        report = generate_report(seed)
        layouts = read_layouts(report.pdf)
        for dpi in dpis:
            score_model_report(report, model.page_regions(report.pdf, dpi), layouts, scores[dpi])
    return {dpi: s.summary() for dpi, s in scores.items()}


def measure_heuristic_reports(seeds: list[int]) -> dict[str, Any]:
    """`bench.pdf_structure.measure_reports` on the seeds, plus the table words of its Markdown."""
    from bench.pdf_structure import _routed_markdown, measure_reports
    from tests.pdf_reports import generate_report

    markdowns: dict[int, str] = {}

    def keep(report: Any) -> str:
        markdowns[report.seed] = _routed_markdown(report)
        return markdowns[report.seed]

    official = measure_reports(len(seeds), seeds[0], keep)
    words = _new_score()
    for seed in seeds:
        score_heuristic_report(generate_report(seed), markdowns[seed], words)
    mine = words.summary()
    return {**{k: official[k] for k in ("heading_precision", "heading_recall", "heading_f1",
                                        "heading_level_accuracy", "table_f1", "tables_found",
                                        "running_removed", "pages")},
            "table_word_precision": mine["table_word_precision"],
            "table_word_recall": mine["table_word_recall"],
            "table_word_f1": mine["table_word_f1"], "tables_found_by_words": mine["tables_found"],
            "failures": {k: v for k, v in official["failures"].items() if k.startswith("heading")}}


def scanned(data: bytes, dpi: int = _SCAN_DPI) -> tuple[list[Any], bytes]:
    """Each page as a scanner would give it (grey, slightly turned, soft, noisy, JPEG), and those
    images as an image-only PDF."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    rng = np.random.default_rng(0)
    pdf = pdfium.PdfDocument(data)
    images = []
    try:
        for page in pdf:
            grey = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            grey = grey.rotate(0.4, resample=Image.Resampling.BILINEAR, fillcolor=255)
            grey = grey.filter(ImageFilter.GaussianBlur(0.6))
            noisy = np.clip(np.asarray(grey, dtype=np.float32) + rng.normal(0, 12, (grey.height, grey.width)),
                            0, 255).astype(np.uint8)
            buffer = io.BytesIO()
            Image.fromarray(noisy).save(buffer, "JPEG", quality=55)
            images.append(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))
    finally:
        pdf.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", save_all=True, append_images=images[1:], resolution=float(dpi))
    return images, out.getvalue()


def measure_scans(model: LayoutModel, seeds: list[int]) -> dict[str, Any]:
    """Model on the scanned images, and the router (tesseract OCR) on the image-only PDFs."""
    from extractors.base import ExtractOptions
    from extractors.pdf_words import read_layouts
    from extractors.router import extract
    from tests.pdf_reports import generate_report

    ocr = replace(ExtractOptions(), ocr_engines=("tesseract",))
    model_score, heuristic_score = _new_score(), _new_score()
    ocr_seconds: list[float] = []
    scans: list[tuple[Any, list[list[Region]], bytes]] = []
    for seed in seeds:
        report = generate_report(seed)
        images, scan_pdf = scanned(report.pdf)
        pages = [model.regions(image, _SCAN_DPI) for image in images]  # PIL: rapid-layout makes it BGR
        score_model_report(report, pages, read_layouts(report.pdf), model_score)
        scans.append((report, pages, scan_pdf))
    for report, _, scan_pdf in scans:
        started = time.perf_counter()
        markdown = extract(scan_pdf, filename="scan.pdf", options=ocr).markdown
        ocr_seconds.append((time.perf_counter() - started) / report.page_count)
        score_heuristic_report(report, markdown, heuristic_score)
    return {"pages": sum(r.page_count for r, _, _ in scans), "model": model_score.summary(),
            "heuristics_tesseract": heuristic_score.summary(),
            "ocr_seconds_per_page": statistics.median(ocr_seconds) if ocr_seconds else None}


# ---------------------------------------------------------------- (b) docling's PDFs


def measure_model_docling(model: LayoutModel, dpi: int) -> list[dict[str, Any]]:
    from bench.pdf_structure import _docling_pairs, _overlap, heading_key, read_markdown
    from extractors.pdf_words import read_layouts

    rows = []
    for source, truth_path in _docling_pairs():
        data = source.read_bytes()
        layouts = read_layouts(data)
        pages = model.page_regions(data, dpi)
        ours = [heading_key(region_text(r, layout.words))
                for regions, layout in zip(pages, layouts, strict=True)
                for r in sorted(regions, key=lambda r: (r.box[1], r.box[0])) if r.label == "title"]
        ours = [h for h in ours if h]
        truth = [heading_key(t) for t, _ in read_markdown(truth_path.read_text()).headings]
        found = _overlap(truth, ours)
        labels = Counter(r.label for regions in pages for r in regions)
        rows.append({"file": source.name, "pages": len(pages), "truth_headings": len(truth),
                     "our_headings": len(ours), "matched": found,
                     "heading_recall": found / len(truth) if truth else None,
                     "tables": labels["table"], "headers": labels["header"], "footers": labels["footer"],
                     "keys": ours, "truth_keys": truth,
                     "missed": list((Counter(truth) - Counter(ours)).elements())[:4],
                     "extra": list((Counter(ours) - Counter(truth)).elements())[:4]})
    return rows


def heuristics_filtered_by_model(model_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The heuristics' headings kept only where the model also calls that text a title: does the
    model, used as a veto, buy precision, and at what recall?"""
    from bench.pdf_structure import _docling_pairs, _overlap, heading_key, read_markdown
    from extractors import ExtractionError
    from extractors.router import extract

    rows = []
    for (source, _), row in zip(_docling_pairs(), model_rows, strict=True):
        try:
            markdown = extract(source.read_bytes(), filename=source.name).markdown
        except ExtractionError:
            markdown = ""
        ours = [heading_key(t) for t, _ in read_markdown(markdown).headings]
        titles = Counter(row["keys"])
        kept = [h for h in ours if titles[h] > 0]
        rows.append({"file": source.name, "heuristic_headings": len(ours),
                     "heuristic_matched": _overlap(row["truth_keys"], ours),
                     "kept": len(kept), "kept_matched": _overlap(row["truth_keys"], kept)})
    return rows


# ---------------------------------------------------------------- (d) speed


def measure_fast_track(documents: list[bytes], repeat: int) -> dict[str, float]:
    from bench.pdf_structure import _best_rate
    from extractors.base import ExtractOptions
    from extractors.router import extract

    fast = replace(ExtractOptions(), ocr_engines=())

    def run(data: bytes) -> int:
        return extract(data, filename="d.pdf", options=fast).page_count or 1

    for data in documents[:2]:
        run(data)  # warm-up: imports and lazily loaded word lists
    rate, pages = _best_rate(documents, run, repeat)
    return {"pages": pages, "fast_track_pages_per_s": rate}


def _max_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------- the run


def measure(seeds: list[int], dpis: list[int], scan_count: int, repeat: int) -> dict[str, Any]:
    from bench.pdf_structure import _docling_pairs, measure_docling
    from extractors.pdf_words import read_layouts
    from tests.pdf_reports import generate_report

    # Everything but the model imported and warmed first, so the RSS growth below is the model's.
    read_layouts(generate_report(seeds[0]).pdf)
    rss_before = _max_rss_mib()
    model = LayoutModel()
    model.load()
    out: dict[str, Any] = {"seeds": seeds, "dpis": dpis, "load_seconds": model.load_seconds}
    out["rss_growth_after_load_mib"] = _max_rss_mib() - rss_before
    out["model_reports"] = measure_model_reports(model, seeds, dpis)
    out["rss_growth_after_reports_mib"] = _max_rss_mib() - rss_before
    out["model_docling"] = {dpi: measure_model_docling(model, dpi) for dpi in dpis}
    out["model_rss_growth_mib"] = _max_rss_mib() - rss_before
    out["scans"] = measure_scans(model, seeds[:scan_count]) if scan_count else None
    out["infer_seconds_median"] = {dpi: statistics.median(s) for dpi, s in model.infer_seconds.items()}
    out["infer_seconds_min"] = {dpi: min(s) for dpi, s in model.infer_seconds.items()}
    out["render_seconds_median"] = {dpi: statistics.median(s) for dpi, s in model.render_seconds.items()}
    out["model_pages"] = {dpi: len(s) for dpi, s in model.infer_seconds.items()}
    out["heuristic_reports"] = measure_heuristic_reports(seeds)
    out["heuristic_docling"] = measure_docling()
    out["heuristic_docling_vetoed"] = heuristics_filtered_by_model(out["model_docling"][dpis[-1]])
    documents = [generate_report(s).pdf for s in seeds] + [p.read_bytes() for p, _ in _docling_pairs()]
    out["fast_track"] = measure_fast_track(documents, repeat)
    return out


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def print_tables(r: dict[str, Any]) -> None:
    dpis, h = r["dpis"], r["heuristic_reports"]
    print(f"Generated reports, seeds {r['seeds'][0]}..{r['seeds'][-1]}, {h['pages']} pages")
    print("| measure | heuristics | " + " | ".join(f"model @{d} dpi" for d in dpis) + " |")
    print("|---|---:|" + "---:|" * len(dpis))
    rows = (("heading F1", "heading_f1", "heading_f1"), ("heading precision", "heading_precision",
            "heading_precision"), ("heading recall", "heading_recall", "heading_recall"),
            ("table word F1", "table_word_f1", "table_word_f1"),
            ("table word precision", "table_word_precision", "table_word_precision"),
            ("table word recall", "table_word_recall", "table_word_recall"),
            ("tables found (>= half their words in one)", "tables_found_by_words", "tables_found"),
            ("tables found (heuristics: >= half cells)", "tables_found", None),
            ("table cell F1 (heuristics only)", "table_f1", None),
            ("false table regions", None, "table_regions_false"),
            ("running lines removed / detected", "running_removed", "running_detected"),
            ("other header/footer regions", None, "running_regions_other"))
    for label, hk, mk in rows:
        cells = [_fmt(h[hk]) if hk else "—"] + [_fmt(r["model_reports"][d][mk]) if mk else "—" for d in dpis]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    print("docling/pdf heading recall (emitted headings in brackets)")
    print("| file | pages | truth headings | heuristics | " + " | ".join(f"model @{d}" for d in dpis) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(dpis))
    for index, row in enumerate(r["heuristic_docling"]):
        models = [r["model_docling"][d][index] for d in dpis]
        cells = [f"{_fmt(m['heading_recall'])} ({m['our_headings']})" for m in models]
        print(f"| {row['file']} | {models[0]['pages']} | {row['truth_headings']} | "
              f"{_fmt(row['heading_recall'])} ({row['our_headings']}) | " + " | ".join(cells) + " |")
    truth_total = sum(row["truth_headings"] for row in r["heuristic_docling"])
    heur_found = sum(round((row["heading_recall"] or 0) * row["truth_headings"])
                     for row in r["heuristic_docling"])
    model_found = [sum(m["matched"] for m in r["model_docling"][d]) for d in dpis]
    print(f"| all: recall (micro) | | {truth_total} | {heur_found / truth_total:.3f} | "
          + " | ".join(f"{f / truth_total:.3f}" for f in model_found) + " |")
    heur_emitted = sum(row["our_headings"] for row in r["heuristic_docling"])
    model_emitted = [sum(m["our_headings"] for m in r["model_docling"][d]) for d in dpis]
    print(f"| all: precision (micro) | | | {heur_found / heur_emitted:.3f} | "
          + " | ".join(f"{f / e:.3f}" for f, e in zip(model_found, model_emitted, strict=True)) + " |")
    vetoed = r["heuristic_docling_vetoed"]
    kept, kept_ok = sum(v["kept"] for v in vetoed), sum(v["kept_matched"] for v in vetoed)
    print(f"Heuristics' headings kept only where the model @{dpis[-1]} dpi says title: recall "
          f"{kept_ok / truth_total:.3f}, precision {kept_ok / kept if kept else 0:.3f} ({kept} kept of "
          f"{sum(v['heuristic_headings'] for v in vetoed)}); per file (matched/kept of matched/emitted): "
          + ", ".join(f"{v['file']} {v['kept_matched']}/{v['kept']} of "
                      f"{v['heuristic_matched']}/{v['heuristic_headings']}" for v in vetoed))
    s = r["scans"]
    if s:
        print()
        print(f"Scanned pages ({s['pages']}, {_SCAN_DPI} dpi, no text layer)")
        print("| measure | heuristics (tesseract OCR) | model (oracle text) |")
        print("|---|---:|---:|")
        for label, key in (("heading F1", "heading_f1"), ("heading precision", "heading_precision"),
                           ("heading recall", "heading_recall"), ("table word F1", "table_word_f1"),
                           ("tables found", "tables_found")):
            print(f"| {label} | {_fmt(s['heuristics_tesseract'][key])} | {_fmt(s['model'][key])} |")
        print(f"| running lines removed / detected | {_fmt(s['heuristics_tesseract']['running_removed'])} "
              f"| {_fmt(s['model']['running_detected'])} |")
        print(f"OCR (tesseract, router) seconds per page, median: {_fmt(s['ocr_seconds_per_page'])}")
    for d in dpis:
        print(f"Model @{d} dpi, share of true table words inside regions of each class (regions overlap): "
              f"{r['model_reports'][d]['table_words_by_label']}")
    print()
    f = r["fast_track"]
    print("| cost | value |")
    print("|---|---:|")
    print(f"| model import + load, s | {r['load_seconds']:.2f} |")
    for d in dpis:
        total = r["render_seconds_median"][d] + r["infer_seconds_median"][d]
        print(f"| @{d} dpi: render s/page (median) | {r['render_seconds_median'][d]:.3f} |")
        print(f"| @{d} dpi: inference s/page (median / fastest, 1 thread) | "
              f"{r['infer_seconds_median'][d]:.3f} / {r['infer_seconds_min'][d]:.3f} |")
        print(f"| @{d} dpi: model pages/s (render + inference) | {1 / total:.1f} |")
    print(f"| peak RSS growth: after load / after the reports / after docling's PDFs, MiB | "
          f"{r['rss_growth_after_load_mib']:.0f} / {r['rss_growth_after_reports_mib']:.0f} / "
          f"{r['model_rss_growth_mib']:.0f} |")
    print(f"| fast track pages/s, same PDFs ({f['pages']} pages, best of runs) | "
          f"{f['fast_track_pages_per_s']:.1f} |")
    print()
    print("Heading failures, first examples:")
    for side, failures in [("heuristics", h["failures"])] + [
            (f"model @{d}", r["model_reports"][d]["failures"]) for d in dpis]:
        for kind, examples in failures.items():
            print(f"- {side}, {kind}: {examples[:3]}")
    for d in dpis:
        for row in r["model_docling"][d]:
            if row["missed"] or row["extra"]:
                print(f"- model @{d} docling {row['file']}: missed {row['missed']} | extra {row['extra']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--reports", type=int, default=5, help="generated reports (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first report (default 1)")
    parser.add_argument("--dpi", type=int, nargs="+", default=[100, 150], help="render dpi (default 100 150)")
    parser.add_argument("--scans", type=int, default=1, help="reports to scan (default 1; 0: none)")
    parser.add_argument("--repeat", type=int, default=2, help="fast-track timing runs, best kept (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    sys.path.insert(0, str(ROOT))
    seeds = list(range(args.seed, args.seed + args.reports))
    result = measure(seeds, args.dpi, args.scans, args.repeat)
    result["load_average"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        print_tables(result)
        print(f"\nload average at the end (2 cores, shared): {result['load_average'][0]:.1f}")


if __name__ == "__main__":
    main()
