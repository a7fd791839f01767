"""Web pages with known structure, printed to PDF by headless Chromium: the development set of
"a page saved as PDF" (issue 32), a typesetter none of the other sets has.  Each page is what
organisations publish as HTML and people print: a statistical release, a company report, a
documentation page -- h1-h4 headings styled in the many ways sites style them (sizes, weights,
colours, capitals, letter-spacing, rules under them, numbered by CSS counters or in the text,
or not at all), paragraphs with bold lead-ins, lists, a table of contents of links, key points
in a box, tables with one to three header rows (colspan/rowspan), right-aligned numbers,
zebra stripes, borderless, booktabs-like or fully ruled tables, cells whose text holds spaces
(places, numbers grouped with spaces), long tables running over pages with their <thead>
repeated by the browser or with the header row in <tbody> (printed once), captions, notes and
sources under tables, a breadcrumb, "Note" boxes, code blocks, a two-column passage now and
then, and running headers/footers: none, CSS page-margin boxes (the title, "Page N of M"), or
Chromium's own (date and title above, the file's URL and "N/M" below).

The ground truth is the generator's model of the page: headings (text as printed, level = the
h-element's number), tables as cell grids with a spanning cell's text at its top-left position
and "" in the rest of its span (as tests/office_sheets.py writes merged cells), the contents'
entries, the list items, and the decoys: bold lead-ins, wholly bold lines, captions, labels --
text set to look like headings that are not.  bench/web_corpus.py prints and caches,
bench/pdf_structure.py --web scores.  Tuning on seeds 1-24 is allowed (ours); seeds 101-124
are held back.

`print_pdf(html_paths, outdir, tagged=..., outline=...)` runs Chromium once per page.
Chromium 156 (Debian) writes a tagged PDF (/StructTreeRoot, /MarkInfo) by default;
`--disable-pdf-tagging` leaves the tags out, `--generate-pdf-document-outline` adds an outline
built from the tags' headings (none without the tags), `--no-pdf-header-footer` drops its own
running header and footer.
"""

from __future__ import annotations

import html
import random
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.office_documents import OfficeHeading, OfficeTable

_NOUNS = (
    "household tenure dwelling completion landlord borough authority survey estimate sample "
    "revenue margin dividend segment customer contract pipeline backlog supplier inventory "
    "request endpoint token cluster replica schema migration deployment release cache quota "
    "region district cohort indicator series benchmark allowance payment claimant service"
).split()
_VERBS = ("increased", "fell", "remained stable", "was revised", "was published", "was measured",
          "was recorded", "grew", "was configured", "was deprecated", "was replaced", "was reported")
_LINKS = ("across", "within", "against", "compared with", "for", "over", "during", "beyond")
_PLACES = ("North East", "North West", "Yorkshire and The Humber", "East Midlands", "West Midlands",
           "East of England", "London", "South East", "South West", "Wales", "Scotland",
           "Northern Ireland", "Greater Manchester", "West of England", "Tees Valley")
_ITEMS = ("Staff costs", "Premises and facilities", "Cost of sales", "Research and development",
          "Depreciation", "Interest payable", "Marketing", "Other operating income",
          "Administrative expenses", "Taxation", "Share based payments", "Lease liabilities")
_PARAMS = ("timeout", "max_retries", "batch_size", "region", "api_key", "verify_tls", "page_size",
           "cache_ttl", "log_level", "endpoint_url", "pool_size", "backoff_factor")
_TYPES = ("integer", "string", "boolean", "float", "list of strings", "duration")
_KINDS = ("release", "report", "docs")
_SUBJECTS = {
    "release": ("Housing Supply", "Labour Market Overview", "Household Income", "Road Casualties",
                "Energy Consumption", "Population Estimates", "Business Demography"),
    "report": ("Annual Report and Accounts", "Sustainability Report", "Interim Results",
               "Strategic Report", "Half-year Report"),
    "docs": ("Client Configuration", "Deploying the Service", "Authentication Guide",
             "Batch Import API", "Storage Quotas", "Migration Guide"),
}
_SECTIONS = {
    "release": ("Main points", "Overview", "Regional estimates", "Tenure", "Household composition",
                "Revisions", "Quality and methodology", "Related statistics", "Data sources",
                "Measuring the data", "Strengths and limitations", "Comparisons over time"),
    "report": ("Chair's statement", "Our strategy", "Financial review", "Segment performance",
               "Principal risks", "Governance", "Remuneration", "Outlook", "Key performance indicators",
               "Sustainability", "Our people", "Capital allocation"),
    "docs": ("Overview", "Installation", "Configuration", "Authentication", "Endpoints",
             "Error handling", "Rate limits", "Pagination", "Troubleshooting", "Examples",
             "Versioning", "Security considerations"),
}
_SUBSECTIONS = ("Background", "Method", "Results", "Coverage", "Definitions", "Changes this quarter",
                "Limitations", "Options", "Requirements", "Known issues", "Summary", "Next steps",
                "Trends since 2019", "By age group", "By sector", "Worked example")
_FONTS = ('"Liberation Sans", Arial, sans-serif', '"DejaVu Sans", Verdana, sans-serif',
          '"Liberation Serif", "Times New Roman", serif', '"DejaVu Serif", Georgia, serif',
          '"Liberation Sans Narrow", "Arial Narrow", sans-serif')
_COLOURS = ("#0b0c0c", "#1d70b8", "#003078", "#206095", "#6f2c91", "#00703c", "#b10e1e", "#222222")
_LEAD_INS = ("Key finding.", "In summary,", "Note:", "Important:", "Revisions.", "Coverage:",
             "What this means.", "Background:", "Tip:", "Why it matters.")
_NOTES = ("Source: Annual Population Survey.", "Figures may not sum due to rounding.",
          "Note: figures for the latest year are provisional.", "Source: company filings.",
          "Source: administrative data, 2023.", "Notes: 1. Excludes temporary accommodation.")


@dataclass
class WebPage:
    """One page: its HTML and, from the generator's own model, what a reader should find."""

    seed: int
    name: str
    html: str
    headings: list[OfficeHeading] = field(default_factory=list)
    tables: list[OfficeTable] = field(default_factory=list)
    contents_title: str = ""  # "" when the page has no table of contents
    contents: list[str] = field(default_factory=list)  # the contents' entries (link texts)
    list_items: list[str] = field(default_factory=list)
    decoys: list[str] = field(default_factory=list)  # lead-ins, bold lines, captions, labels
    look: dict[str, object] = field(default_factory=dict)

    def truth(self) -> dict[str, object]:
        return {"seed": self.seed, "name": self.name, "look": self.look,
                "headings": [[h.text, h.level] for h in self.headings],
                "tables": [{"cells": t.cells, "ruled": t.ruled} for t in self.tables],
                "contents_title": self.contents_title, "contents": self.contents,
                "list_items": self.list_items, "decoys": self.decoys}

    @classmethod
    def from_truth(cls, data: dict[str, object]) -> WebPage:
        page = cls(seed=int(data["seed"]), name=str(data["name"]), html="")  # type: ignore[call-overload]
        page.headings = [OfficeHeading(str(t), int(level)) for t, level in data["headings"]]  # type: ignore[attr-defined]
        page.tables = [OfficeTable(t["cells"], bool(t["ruled"])) for t in data["tables"]]  # type: ignore[attr-defined]
        page.contents_title = str(data["contents_title"])
        page.contents = list(data["contents"])  # type: ignore[call-overload]
        page.list_items = list(data["list_items"])  # type: ignore[call-overload]
        page.decoys = list(data["decoys"])  # type: ignore[call-overload]
        page.look = dict(data["look"])  # type: ignore[call-overload]
        return page


@dataclass(frozen=True)
class _Look:
    kind: str
    font: str
    heading_font: str
    body_size: float  # pt
    sizes: tuple[float, float, float, float]  # h1..h4, pt
    h4_style: str  # "bold" (body size), "italic", "caps" (small, capitals, letter-spaced)
    h2_caps: bool
    h2_rule: bool  # a line under each h2
    weight: str  # of h1-h3: "bold", "600" or "normal" (large and light, a common web look)
    colour: str
    numbering: str  # "none", "css" (counters), "text" (the number typed in the heading)
    contents: bool
    running: str  # "none", "css" (page-margin boxes), "browser" (Chromium's own)
    colour_print: bool  # print-color-adjust: exact (else Chromium prints no backgrounds)
    page: str  # "A4" or "letter"
    margin_mm: int
    table_style: str  # "ruled", "zebra", "booktabs", "borderless", "mixed"
    centred_title: bool


def _pick_look(rng: random.Random) -> _Look:
    kind = rng.choice(_KINDS)
    font = rng.choice(_FONTS)
    body = rng.choice((9.0, 10.0, 10.5, 11.0, 12.0))
    return _Look(
        kind=kind, font=font, heading_font=rng.choice((font, font, *_FONTS)), body_size=body,
        sizes=(rng.choice((20.0, 24.0, 28.0, 32.0)), rng.choice((15.0, 16.0, 18.0, 20.0)),
               rng.choice((12.0, 13.0, 14.0)), body),
        h4_style=rng.choice(("bold", "bold", "italic", "caps")), h2_caps=rng.random() < 0.2,
        h2_rule=rng.random() < 0.35, weight=rng.choice(("bold", "bold", "600", "normal")),
        colour=rng.choice(_COLOURS), numbering=rng.choice(("none", "none", "css", "text")),
        contents=rng.random() < 0.6, running=rng.choice(("none", "css", "css", "browser")),
        colour_print=rng.random() < 0.7, page=rng.choice(("A4", "A4", "letter")),
        margin_mm=rng.choice((12, 15, 20, 25)),
        table_style=rng.choice(("ruled", "zebra", "booktabs", "borderless", "mixed")),
        centred_title=rng.random() < 0.25)


def _css(look: _Look, title: str) -> str:
    s1, s2, s3, s4 = look.sizes
    weight = look.weight
    h4 = {"bold": f"font-size:{s4}pt;font-weight:bold;",
          "italic": f"font-size:{s4 + 0.5}pt;font-weight:normal;font-style:italic;",
          "caps": f"font-size:{max(8.0, s4 - 1)}pt;font-weight:bold;text-transform:uppercase;"
                  "letter-spacing:0.06em;"}[look.h4_style]
    running = ""
    if look.running == "css":
        running = (f'@top-left{{content:"{title}";font-size:8pt;color:#505a5f}}'
                   '@bottom-right{content:"Page " counter(page) " of " counter(pages);font-size:8pt}')
    size = "A4" if look.page == "A4" else "letter"
    rules = [
        f"@page{{size:{size};margin:{look.margin_mm}mm {look.margin_mm}mm;{running}}}",
        f"body{{font-family:{look.font};font-size:{look.body_size}pt;line-height:1.45;color:#0b0c0c;"
        "margin:0}",
        f"h1,h2,h3,h4{{font-family:{look.heading_font};color:{look.colour};break-after:avoid;"
        "margin:1.1em 0 0.45em}",
        f"h1{{font-size:{s1}pt;font-weight:{weight};margin-top:0.2em;"
        f"{'text-align:center;' if look.centred_title else ''}}}",
        f"h2{{font-size:{s2}pt;font-weight:{weight};"
        f"{'text-transform:uppercase;letter-spacing:0.04em;' if look.h2_caps else ''}"
        f"{'border-bottom:1px solid #b1b4b6;padding-bottom:3px;' if look.h2_rule else ''}}}",
        f"h3{{font-size:{s3}pt;font-weight:{'bold' if weight == 'normal' else weight}}}",
        f"h4{{{h4}}}",
        "p{margin:0 0 0.7em} ul,ol{margin:0 0 0.8em;padding-left:1.6em} li{margin-bottom:0.25em}",
        ".meta{color:#505a5f;font-size:0.9em} .crumbs{font-size:0.85em;color:#505a5f}",
        ".crumbs a{color:#1d70b8} .toc a{color:#1d70b8;text-decoration:underline}",
        ".toc ol,.toc ul{list-style:none;padding-left:0} .toc ol ol,.toc ul ul{padding-left:1.4em}",
        ".box{border-left:5px solid #1d70b8;padding:6px 12px;margin:0 0 1em;background:#f3f2f1}",
        ".note{font-size:0.85em;color:#505a5f} .caption{font-weight:bold;margin-bottom:0.3em}",
        "pre{font-family:'DejaVu Sans Mono',monospace;font-size:0.85em;background:#f4f4f4;"
        "padding:6px;white-space:pre-wrap}",
        ".cols{column-count:2;column-gap:2em}",
        "table{border-collapse:collapse;margin:0.3em 0 0.4em;font-size:0.92em}",
        "caption{caption-side:top;text-align:left;font-weight:bold;padding-bottom:4px}",
        "th,td{padding:3px 8px;vertical-align:top} td.n,th.n{text-align:right}",
        "table.ruled th,table.ruled td{border:1px solid #777}",
        "table.zebra tbody tr:nth-child(even){background:#eef2f6} table.zebra thead th{"
        "border-bottom:2px solid #0b0c0c} table.zebra th,table.zebra td{border-bottom:1px solid #ddd}",
        "table.booktabs{border-top:2px solid #000;border-bottom:2px solid #000}"
        " table.booktabs thead{border-bottom:1px solid #000}",
        "table.borderless th{font-weight:bold}",
        "thead th{text-align:left}",
    ]
    if look.colour_print:
        rules.append("*{-webkit-print-color-adjust:exact;print-color-adjust:exact}")
        rules.append("table.ruled thead th,table.mixed thead th{background:#dee0e2}")
    if look.numbering == "css":
        rules += ["body{counter-reset:s2}", "h2.sec{counter-increment:s2;counter-reset:s3}",
                  "h3.sec{counter-increment:s3}", 'h2.sec::before{content:counter(s2) ". "}',
                  'h3.sec::before{content:counter(s2) "." counter(s3) " "}']
    return "\n".join(rules)


class _Writer:
    """Writes one page's body, keeping the truth as it goes."""

    def __init__(self, rng: random.Random, look: _Look, page: WebPage) -> None:
        self.rng = rng
        self.look = look
        self.page = page
        self.out: list[str] = []
        self.numbers = [0, 0]
        self.tables = 0

    # -- text

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(_NOUNS) for _ in range(self.rng.randint(low, high)))

    def sentence(self) -> str:
        subject, verb, link = self.words(1, 3), self.rng.choice(_VERBS), self.rng.choice(_LINKS)
        text = f"The {subject} {verb} {link} the {self.words(1, 2)}"
        if self.rng.random() < 0.4:
            text += f" and the {self.words(1, 2)} {self.rng.choice(_VERBS)}"
        if self.rng.random() < 0.2:
            text += f" by {self.rng.randint(1, 40)}.{self.rng.randint(0, 9)}%"
        return text + "."

    def paragraph(self, lead_in: bool = False) -> None:
        body = " ".join(self.sentence() for _ in range(self.rng.randint(2, 5)))
        if lead_in:  # a bold phrase opening the paragraph: not a heading
            lead = self.rng.choice(_LEAD_INS)
            self.page.decoys.append(lead)
            self.out.append(f"<p><strong>{lead}</strong> {html.escape(body)}</p>")
        elif self.rng.random() < 0.25:  # a bold phrase inside it
            head, _, tail = body.partition(" ")
            self.out.append(f"<p>{html.escape(head)} <b>{html.escape(self.words(2, 3))}</b> "
                            f"{html.escape(tail)}</p>")
        else:
            self.out.append(f"<p>{html.escape(body)}</p>")

    def bold_line(self) -> None:
        """A wholly bold paragraph: a sentence, or a label before a list."""
        if self.rng.random() < 0.5:
            text = self.sentence()
            self.page.decoys.append(text)
            self.out.append(f"<p><strong>{html.escape(text)}</strong></p>")
        else:
            text = self.rng.choice(("Key points:", "This release covers:", "You will need:",
                                    "In this section:", "Main changes"))
            self.page.decoys.append(text)
            self.out.append(f"<p><b>{text}</b></p>")
            self.bullets(False)

    def bullets(self, numbered: bool) -> None:
        items = []
        for _ in range(self.rng.randint(2, 5)):
            text = self.words(3, 8 if self.rng.random() < 0.8 else 20).capitalize()
            if self.rng.random() < 0.3:
                text += f" ({self.rng.randint(2, 98)}%)"
            items.append(text)
        self.page.list_items += items
        tag = "ol" if numbered else "ul"
        self.out.append(f"<{tag}>" + "".join(f"<li>{html.escape(t)}</li>" for t in items) + f"</{tag}>")

    def note_box(self) -> None:
        label = self.rng.choice(("Note", "Warning", "Important", "Official statistics"))
        self.page.decoys.append(label)
        self.out.append(f'<div class="box"><p><strong>{label}</strong></p><p>{html.escape(self.sentence())} '
                        f"{html.escape(self.sentence())}</p></div>")

    def code(self) -> None:
        name = self.rng.choice(_PARAMS)
        value = self.rng.randint(1, 300)
        region = self.rng.choice(("eu-west", "us-east"))
        lines = ["from service import Client", "", "client = Client(",
                 f"    {name}={value},", f'    region="{region}",',
                 ")", "result = client.fetch(page=1)"]
        self.out.append(f"<pre>{html.escape(chr(10).join(lines))}</pre>")

    # -- structure

    def heading(self, level: int, title: str, anchor: str = "", numbered: bool = True) -> str:
        """An h-element; its text as printed (with a typed or CSS number) goes to the truth."""
        printed = title
        css_class = ""
        if numbered and level in (2, 3) and self.look.numbering != "none":
            self.numbers[level - 2] += 1
            if level == 2:
                self.numbers[1] = 0
            number = f"{self.numbers[0]}." if level == 2 else f"{self.numbers[0]}.{self.numbers[1]}"
            if self.look.numbering == "text":
                title = printed = f"{number} {title}"
            else:
                css_class = ' class="sec"'
                printed = f"{number} {title}"
        if self.look.h2_caps and level == 2:
            printed = printed.upper()
        if self.look.h4_style == "caps" and level == 4:
            printed = printed.upper()
        self.page.headings.append(OfficeHeading(printed, level))
        ident = f' id="{anchor}"' if anchor else ""
        self.out.append(f"<h{level}{ident}{css_class}>{html.escape(title)}</h{level}>")
        return printed

    def table(self) -> None:
        self.tables += 1
        builders = [self._simple, self._simple, self._grouped, self._three_levels, self._long]
        if self.look.kind == "docs":  # a parameter table: wrapped descriptions
            builders.append(self._reference)
        builder = self.rng.choice(builders)
        style = self.look.table_style
        if style == "mixed":
            style = self.rng.choice(("ruled", "zebra", "booktabs", "borderless"))
        cells, rows_html = builder()
        number = self.tables
        what = self.rng.choice(("Households", "Revenue", "Claimants", "Options", "Estimates"))
        by = self.rng.choice(("region", "segment", "year", "tenure", "type"))
        title = f"Table {number}: {what} by {by}"
        caption = ""
        placement = self.rng.choice(("caption", "caption", "paragraph", "none"))
        if placement == "caption":
            caption = f"<caption>{html.escape(title)}</caption>"
            self.page.decoys.append(title)
        elif placement == "paragraph":
            self.page.decoys.append(title)
            self.out.append(f'<p class="caption">{html.escape(title)}</p>')
        self.out.append(f'<table class="{style}">{caption}{rows_html}</table>')
        self.page.tables.append(OfficeTable(cells, style == "ruled"))
        if self.rng.random() < 0.6:
            note = self.rng.choice(_NOTES)
            self.page.decoys.append(note)
            self.out.append(f'<p class="note">{html.escape(note)}</p>')

    def _number(self, kind: str) -> str:
        if kind == "count":
            value = f"{self.rng.randint(0, 250_000):,}"
            return value.replace(",", " ") if self.spaced else value
        if kind == "money":
            value = self.rng.randint(-9_000, 90_000)
            return f"({-value:,})" if value < 0 else f"{value:,}"
        if kind == "percent":
            return f"{self.rng.uniform(-5, 60):.1f}"
        return f"{self.rng.uniform(0, 999):.2f}"

    spaced = False  # numbers grouped with spaces ("12 345"), as some statistics offices print

    def _body_rows(self, stubs: list[str], columns: int, kind: str) -> list[list[str]]:
        rows = []
        for stub in stubs:
            row = [stub] + [self._number(kind) for _ in range(columns)]
            if self.rng.random() < 0.06:
                row[self.rng.randrange(1, len(row))] = ".."
            rows.append(row)
        if kind in ("count", "money") and self.rng.random() < 0.4:
            rows.append(["Total"] + [self._number(kind) for _ in range(columns)])
        return rows

    @staticmethod
    def _tr(row: list[str], header: bool = False) -> str:
        out = []
        for index, cell in enumerate(row):
            tag = "th" if header else "td"
            css = ' class="n"' if index > 0 else ""
            out.append(f"<{tag}{css}>{html.escape(cell)}</{tag}>")
        return "<tr>" + "".join(out) + "</tr>"

    def _stubs(self, count: int) -> list[str]:
        pool = list(_PLACES if self.rng.random() < 0.6 else _ITEMS)
        return self.rng.sample(pool, min(count, len(pool)))

    def _simple(self) -> tuple[list[list[str]], str]:
        self.spaced = self.rng.random() < 0.25
        kind = self.rng.choice(("count", "money", "percent", "rate"))
        columns = self.rng.randint(2, 6)
        first = self.rng.randint(2015, 2020)
        labels = self.rng.choice(([str(first + i) for i in range(columns)],
                                  self.rng.sample(["Number", "Per cent", "Change", "Rate per 1,000",
                                                   "Previous year", "Latest year", "Target", "Actual"],
                                                  columns)))
        header = [self.rng.choice(("Region", "Area", "Item", "Category", "")), *labels]
        body = self._body_rows(self._stubs(self.rng.randint(3, 12)), columns, kind)
        thead = self.rng.random() < 0.8
        head_html = self._tr(header, True)
        rows_html = (f"<thead>{head_html}</thead>" if thead else head_html) + \
            "<tbody>" + "".join(self._tr(r) for r in body) + "</tbody>"
        return [header, *body], rows_html

    def _grouped(self) -> tuple[list[list[str]], str]:
        """Two header rows: a stub spanning both (rowspan), groups over their columns (colspan)."""
        self.spaced = False
        kind = self.rng.choice(("count", "percent"))
        groups = self.rng.sample(["Men", "Women", "Owners", "Renters", "2022", "2023", "UK", "Overseas"], 2)
        subs = self.rng.choice((["Number", "%"], ["Q1", "Q2", "Q3"], ["Total", "Change"]))
        stub = self.rng.choice(("Region", "Age group", "Sector"))
        top = [stub] + [g if i == 0 else "" for g in groups for i in range(len(subs))]
        second = [""] + subs * len(groups)
        head_html = (f'<tr><th rowspan="2">{stub}</th>'
                     + "".join(f'<th colspan="{len(subs)}" style="text-align:center">{g}</th>'
                               for g in groups)
                     + "</tr><tr>" + "".join(f'<th class="n">{s}</th>' for s in subs * len(groups)) + "</tr>")
        body = self._body_rows(self._stubs(self.rng.randint(4, 10)), len(subs) * len(groups), kind)
        rows_html = f"<thead>{head_html}</thead><tbody>" + "".join(self._tr(r) for r in body) + "</tbody>"
        return [top, second, *body], rows_html

    def _three_levels(self) -> tuple[list[list[str]], str]:
        """Three header rows: years over sexes over measures, the stub spanning all three."""
        self.spaced = False
        years = [str(y) for y in self.rng.sample(range(2019, 2025), 2)]
        years.sort()
        sexes = ["Men", "Women"]
        measures = ["N", "%"]
        width = len(sexes) * len(measures)
        top = ["Region"] + [y if i == 0 else "" for y in years for i in range(width)]
        middle = [""] + [s if i == 0 else "" for _ in years for s in sexes for i in range(len(measures))]
        low = [""] + measures * len(sexes) * len(years)
        head_html = ('<tr><th rowspan="3">Region</th>'
                     + "".join(f'<th colspan="{width}" style="text-align:center">{y}</th>' for y in years)
                     + "</tr><tr>"
                     + "".join(f'<th colspan="{len(measures)}" style="text-align:center">{s}</th>'
                               for _ in years for s in sexes)
                     + "</tr><tr>" + "".join(f'<th class="n">{m}</th>' for m in low[1:]) + "</tr>")
        body = []
        for stub in self._stubs(self.rng.randint(4, 9)):
            row = [stub]
            for _ in range(len(years) * len(sexes)):
                row += [f"{self.rng.randint(100, 9_999):,}", f"{self.rng.uniform(1, 60):.1f}"]
            body.append(row)
        rows_html = f"<thead>{head_html}</thead><tbody>" + "".join(self._tr(r) for r in body) + "</tbody>"
        return [top, middle, low, *body], rows_html

    def _long(self) -> tuple[list[list[str]], str]:
        """A table running over pages: its head in <thead> (Chromium repeats it on every page)
        or as the first row of <tbody> (printed once)."""
        self.spaced = self.rng.random() < 0.2
        columns = self.rng.randint(3, 5)
        header = ["Code", "Area name"] + self.rng.sample(["Households", "Dwellings", "Population",
                                                          "Completions", "Vacant", "Change"], columns - 1)
        body = []
        for index in range(self.rng.randint(45, 80)):
            place = self.rng.choice(_PLACES)
            name = f"{place} {self.rng.choice(('North', 'South', 'Central', 'Rural', 'Urban'))}" \
                if self.rng.random() < 0.5 else place
            body.append([f"E{6000000 + index * 37 + self.rng.randint(0, 30):08d}", name]
                        + [self._number("count") for _ in range(columns - 1)])
        repeat = self.rng.random() < 0.6
        head = "<tr>" + "".join(f'<th{" class=n" if i > 1 else ""}>{html.escape(c)}</th>'
                                for i, c in enumerate(header)) + "</tr>"
        rows = "".join("<tr>" + "".join(f'<td{" class=n" if i > 1 else ""}>{html.escape(c)}</td>'
                                        for i, c in enumerate(r)) + "</tr>" for r in body)
        rows_html = (f"<thead>{head}</thead><tbody>{rows}</tbody>" if repeat
                     else f"<tbody>{head}{rows}</tbody>")
        return [header, *body], rows_html

    def _reference(self) -> tuple[list[list[str]], str]:
        """A documentation page's parameter table: names, types, defaults, wrapped descriptions."""
        header = ["Parameter", "Type", "Default", "Description"]
        body = []
        for name in self.rng.sample(_PARAMS, self.rng.randint(3, 7)):
            kind = self.rng.choice(_TYPES)
            default = {"integer": str(self.rng.randint(1, 100)),
                       "boolean": self.rng.choice(("true", "false")),
                       "float": "0.5", "duration": "30 s"}.get(kind, "none")
            description = " ".join(self.sentence() for _ in range(self.rng.randint(1, 2)))
            body.append([name, kind, default, description])
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body)
        head = "".join(f"<th>{h}</th>" for h in header)
        rows_html = f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody>"
        return [header, *body], rows_html


def _section_body(writer: _Writer, rng: random.Random, level: int) -> None:
    """A section's content: paragraphs and now and then the other blocks."""
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if choice < 0.45:
            writer.paragraph(lead_in=rng.random() < 0.25)
        elif choice < 0.6:
            writer.bullets(rng.random() < 0.3)
        elif choice < 0.78 and level <= 3:
            writer.paragraph()
            writer.table()
        elif choice < 0.86:
            writer.bold_line()
        elif choice < 0.93:
            writer.note_box()
        elif writer.look.kind == "docs":
            writer.code()
        else:
            writer.out.append('<div class="cols">')
            for _ in range(3):
                writer.paragraph()
            writer.out.append("</div>")


def generate_page(seed: int) -> WebPage:
    """Page `seed`: a title, metadata, perhaps a contents list, four to seven sections."""
    rng = random.Random(seed)
    look = _pick_look(rng)
    subject = rng.choice(_SUBJECTS[look.kind])
    year = rng.randint(2019, 2025)
    title = {"release": f"{subject}, England: {year}", "report": f"{subject} {year}",
             "docs": subject}[look.kind]
    page = WebPage(seed=seed, name=f"web-{seed:04d}", html="", look=dict(vars(look)))
    writer = _Writer(rng, look, page)
    out = writer.out
    if rng.random() < 0.5:  # a breadcrumb trail over the title
        trail = {"release": "Home › Statistics › Housing", "report": "Investors › Results and reports",
                 "docs": "Docs › Guides › Reference"}[look.kind]
        out.append(f'<p class="crumbs">{html.escape(trail)}</p>')
    writer.heading(1, title, numbered=False)
    month = rng.choice(("January", "March", "June", "September", "November"))
    if rng.random() < 0.6:  # key-value metadata lines with bold labels
        for key, value in (("Release date", f"{rng.randint(1, 28)} {month} {year}"),
                           ("Next release", f"{rng.randint(1, 28)} {month} {year + 1}"),
                           ("Contact", "statistics team")):
            out.append(f'<p class="meta"><strong>{key}:</strong> {value}</p>')
            page.decoys.append(f"{key}:")
    else:
        out.append(f'<p class="meta">Published {rng.randint(1, 28)} {month} {year}</p>')
    sections = rng.sample(_SECTIONS[look.kind], rng.randint(4, 7))
    body_start = len(out)
    entries: list[tuple[str, str, int]] = []  # (anchor, printed text, level)
    for index, section in enumerate(sections):
        anchor = f"s{index + 1}"
        printed = writer.heading(2, section, anchor)
        entries.append((anchor, printed, 2))
        _section_body(writer, rng, 2)
        for sub in rng.sample(_SUBSECTIONS, rng.choice((0, 0, 1, 2, 3))):
            sub_anchor = f"{anchor}-{len(entries)}"
            printed = writer.heading(3, sub, sub_anchor)
            entries.append((sub_anchor, printed, 3))
            _section_body(writer, rng, 3)
            if rng.random() < 0.25:
                writer.heading(4, rng.choice(("Definitions", "Example", "Caveats", "Data", "Details")))
                _section_body(writer, rng, 4)
    if look.contents:
        contents_title = rng.choice(("Contents", "On this page", "Table of contents"))
        depth = rng.choice((2, 3))
        shown = [e for e in entries if e[2] <= depth]
        nested = rng.random() < 0.5 and depth == 3
        items = []
        for anchor, printed, level in shown:
            link = f'<a href="#{anchor}">{html.escape(printed)}</a>'
            items.append((level, link))
        if nested:
            parts, open_sub = ["<ol>"], False
            for level, link in items:
                if level == 3 and not open_sub:
                    parts[-1] = parts[-1].removesuffix("</li>")
                    parts.append("<ol>")
                    open_sub = True
                elif level == 2 and open_sub:
                    parts.append("</ol></li>")
                    open_sub = False
                parts.append(f"<li>{link}</li>")
            parts.append("</ol></li></ol>" if open_sub else "</ol>")
            listing = "".join(parts)
        else:
            listing = "<ol>" + "".join(f"<li>{link}</li>" for _, link in items) + "</ol>"
        page.contents_title = contents_title
        page.contents = [printed for _, printed, _ in shown]
        as_heading = rng.random() < 0.6
        if as_heading:
            printed = contents_title.upper() if look.h2_caps else contents_title
            page.headings.insert(1, OfficeHeading(printed, 2))
            label = f"<h2>{contents_title}</h2>"
        else:
            page.decoys.append(contents_title)
            label = f'<p><strong>{contents_title}</strong></p>'
        out.insert(body_start, f'<nav class="toc">{label}{listing}</nav>')
    marker = "<!-- running: browser -->\n" if look.running == "browser" else ""
    document = (f'<!doctype html>\n{marker}<html lang="en"><head><meta charset="utf-8">'
                f"<title>{html.escape(title)}</title>\n"
                f"<style>\n{_css(look, html.escape(title))}\n</style></head>\n<body>\n"
                + "\n".join(out) + "\n</body></html>\n")
    page.html = document
    return page


def print_pdf(paths: list[Path], outdir: Path, tagged: bool = False, outline: bool = False,
              timeout: float = 120) -> list[Path]:
    """Each HTML file in `paths` printed to PDF in `outdir` (same stem) by headless Chromium:
    tagged or not, with an outline from the headings or not, with Chromium's own running header
    and footer only where the page's look asks for them (a `<!-- running: browser -->` line)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise RuntimeError("chromium is not installed")
    outdir.mkdir(parents=True, exist_ok=True)
    out = []
    for path in paths:
        target = outdir / f"{path.stem}.pdf"
        browser_header = "<!-- running: browser -->" in path.read_text()
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--run-all-compositor-stages-before-draw", "--virtual-time-budget=2000"]
        if not browser_header:
            flags.append("--no-pdf-header-footer")
        if not tagged:
            flags.append("--disable-pdf-tagging")
        if outline:
            flags.append("--generate-pdf-document-outline")
        subprocess.run([chromium, *flags, f"--print-to-pdf={target}", path.resolve().as_uri()],
                       check=True, capture_output=True, timeout=timeout)
        if not target.exists():
            raise RuntimeError(f"Chromium wrote no PDF for {path.name}")
        out.append(target)
    return out
