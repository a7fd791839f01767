"""Office probe class ``invoice`` (tests/office_probes.py registers it): invoices and statements
of account, the documents a company's or a council's collection holds by the thousand and that
no other class covers (issue 32, item 6: a development corpus that is not the test).

A page carries: the title ("INVOICE", "Tax invoice", "Statement of account") set large over the
supplier's letterhead; the customer's address ("Bill to") beside the invoice's details
("Invoice number: INV-24-0173", one label and value a line), side by side in a borderless
layout table (Word) or a two-column grid (a billing system's page printed by Chromium); the
line items as a ruled table (description, quantity, unit price, amount; a statement's dates,
references, charges, payments and running balance), the totals right-aligned under it, as rows
of the table with its first cells empty or as right-aligned "Total due: 2,379.00" lines under
it (clear of the columns: lines aligned on the columns would read as well as the table's
rows); payment terms and
bank details; a statement's aged balance in a small table.

The truth: the title is the one heading; the line items (with their total rows where the
totals are rows) and the aged balance are tables, cell for cell; the detail lines, the totals
set as lines and the payment terms are ``texts`` (each read as a line of its own, not run into
the address beside it, not made a table).
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass, field

from docx import Document
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Inches, Pt, RGBColor

from tests.word_parts import docx_bytes, fixed_widths, no_borders, shade

Truth = dict[str, list]

_SUPPLIERS = (("Northgate Facilities Ltd", ("Unit 4, Riverside Park", "Leeds LS10 1AB")),
              ("Harbour Print & Design", ("27 Quay Street", "Bristol BS1 4DJ")),
              ("Greenfield District Council", ("Town Hall, Market Street", "Greenfield GF1 2AB")),
              ("Apex Office Supplies", ("Brook House, 9 Mill Road", "Cambridge CB1 2AD")))
_CUSTOMERS = (("Ms A Khan", "14 Mill Lane", "Greenfield GF3 9XY"),
              ("Accounts Payable", "Westbury Housing Trust", "2 Station Road", "Westbury BA13 3JN"),
              ("Mr J Porter", "Flat 3, 81 High Street", "Oldham OL1 3BD"),
              ("Finance Department", "St Anne's Primary School", "Church Lane", "Norwich NR2 4QP"))
_ITEMS = (("Office cleaning, March (contract 114)", 1, 1450.00),
          ("A4 copier paper, 80 gsm, box of 5 reams", 12, 21.95),
          ("Window cleaning, external, all floors", 2, 180.00),
          ("Printing of annual report, 250 copies, full colour", 250, 3.40),
          ("Design and layout of annual report", 16, 55.00),
          ("Toner cartridge, black, high yield", 4, 89.99),
          ("Callout charge, out of hours", 1, 95.00),
          ("Replacement door closer, fitted", 3, 62.50),
          ("Hire of meeting room, half day", 2, 120.00),
          ("Delivery", 1, 12.50))
_TERMS = ("Payment terms: 30 days from the date of invoice.",
          "Payment is due within 14 days of the invoice date.",
          "Terms: strictly net 30 days. Interest may be charged on late payments.")
_BANK = ("Please pay by bank transfer to Sort code 20-45-77, Account 43918822, quoting the invoice "
         "number as the reference.", "Bank: Lloyds, IBAN GB29 LOYD 3092 4143 9188 22. Please quote "
         "your account number with every payment.")
_BODIES = (("Liberation Sans", 10), ("Liberation Serif", 11), ("DejaVu Sans", 9), ("Liberation Sans", 9.5))


@dataclass
class _Invoice:
    """One invoice's (or statement's) words, laid out by either typesetter."""

    title: str
    supplier: tuple[str, tuple[str, ...]]
    customer: tuple[str, ...]
    details: list[str]
    items: list[list[str]]
    totals: list[list[str]]  # (label, amount) per line: subtotal, VAT, total due
    terms: list[str]
    aged: list[list[str]] = field(default_factory=list)
    totals_in_table: bool = True
    bold_labels: bool = False

    def truth(self) -> Truth:
        width = len(self.items[0])
        table = list(self.items)
        texts = list(self.details) + list(self.terms)
        if self.totals_in_table:
            table += [[""] * (width - 2) + row for row in self.totals]
        else:
            texts += [f"{label}: {amount}" for label, amount in self.totals]
        tables = [table] + ([self.aged] if self.aged else [])
        return {"headings": [self.title], "tables": tables, "texts": texts}


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _invoice_facts(rng: random.Random, seed: int) -> _Invoice:
    currency = ("£", "€", "")[seed % 3]
    number = f"INV-{24 + seed % 2}-{rng.randint(1000, 9999)}"
    details = [f"Invoice number: {number}", f"Invoice date: {rng.randint(1, 28)} May 2024",
               f"Due date: {rng.randint(1, 28)} June 2024", f"Customer ref: PO {rng.randint(4000, 4999)}"]
    wide = seed % 4 == 0  # an item code and a VAT rate column too
    header = (["Item", "Description", "Qty", "Unit price", "VAT", "Amount"] if wide
              else ["Description", "Quantity", "Unit price", f"Amount ({currency or 'GBP'})"])
    rows, subtotal = [header], 0.0
    for k, (text, quantity, price) in enumerate(rng.sample(_ITEMS, rng.randint(3, 7))):
        amount = quantity * price
        subtotal += amount
        row = [text, str(quantity), _money(price), _money(amount)]
        rows.append([f"A{100 + 7 * k}", text, str(quantity), _money(price), "20%", _money(amount)]
                    if wide else row)
    vat = subtotal * 0.2
    totals = [["Subtotal", _money(subtotal)], ["VAT at 20%", _money(vat)],
              ["Total due", f"{currency}{_money(subtotal + vat)}"]]
    return _Invoice(rng.choice(("INVOICE", "Invoice", "Tax invoice")), rng.choice(_SUPPLIERS),
                    rng.choice(_CUSTOMERS), details, rows, totals, [rng.choice(_TERMS), rng.choice(_BANK)],
                    totals_in_table=seed % 3 != 2, bold_labels=seed % 2 == 1)


def _statement_facts(rng: random.Random, seed: int) -> _Invoice:
    """A statement of account: the account's movements with a running balance, the amount now
    due under it, and the balance by age."""
    account = f"{rng.randint(100000, 999999)}"
    details = [f"Account number: {account}", f"Statement date: {rng.randint(1, 28)} June 2024",
               "Page: 1 of 1"]
    balance = round(rng.uniform(200, 900), 2)
    rows = [["Date", "Reference", "Details", "Charges", "Payments", "Balance"],
            ["01/05/2024", "", "Balance brought forward", "", "", _money(balance)]]
    for day in sorted(rng.sample(range(2, 31), rng.randint(4, 7))):
        if rng.random() < 0.35:
            paid = round(rng.uniform(100, 600), 2)
            balance -= paid
            reference = f"BACS {rng.randint(1000, 9999)}"
            rows.append([f"{day:02d}/05/2024", reference, "Payment received, thank you", "", _money(paid),
                         _money(balance)])
        else:
            charge = round(rng.uniform(40, 900), 2)
            balance += charge
            rows.append([f"{day:02d}/05/2024", f"INV-24-{rng.randint(1000, 9999)}", "Invoice",
                         _money(charge), "", _money(balance)])
    parts = [round(balance * share, 2) for share in (0.55, 0.25, 0.15)]
    aged = [["Current", "30 days", "60 days", "90 days and over", "Total due"],
            [*(_money(p) for p in parts), _money(balance - sum(parts)), _money(balance)]]
    return _Invoice("Statement of account", rng.choice(_SUPPLIERS), rng.choice(_CUSTOMERS), details, rows,
                    [["Amount now due", f"£{_money(balance)}"]], [rng.choice(_TERMS)], aged,
                    totals_in_table=False, bold_labels=seed % 2 == 1)






def _cell_lines(cell: object, lines: list[str], bold_first: bool, bold_labels: bool = False) -> None:
    """A layout cell's lines, one paragraph each (the label before ": " bold when asked)."""
    cell.paragraphs[0].text = ""  # type: ignore[attr-defined]
    for k, line in enumerate(lines):
        paragraph = cell.paragraphs[0] if k == 0 else cell.add_paragraph()  # type: ignore[attr-defined]
        paragraph.paragraph_format.space_after = Pt(0)
        label, colon, value = line.partition(": ")
        if colon and bold_labels:
            paragraph.add_run(label + colon).bold = True
            paragraph.add_run(value)
        else:
            paragraph.add_run(line).bold = bold_first and k == 0


def _docx_letterhead(document: object, facts: _Invoice, seed: int) -> None:
    name, address = facts.supplier
    title = document.add_paragraph()  # type: ignore[attr-defined]
    run = title.add_run(facts.title)
    run.bold, run.font.size = True, Pt((22, 18, 26, 20)[seed % 4])
    run.font.color.rgb = RGBColor(0x1F, 0x3A, 0x5F) if seed % 2 else RGBColor(0, 0, 0)
    title.alignment = WD_ALIGN_PARAGRAPH.RIGHT if seed % 3 == 0 else WD_ALIGN_PARAGRAPH.LEFT
    title.style = document.styles["Title"] if seed % 4 == 1 else title.style  # type: ignore[attr-defined]
    for k, line in enumerate((name, *address)):
        paragraph = document.add_paragraph()  # type: ignore[attr-defined]
        paragraph.add_run(line).bold = k == 0
        paragraph.paragraph_format.space_after = Pt(0)


def _docx_addresses(document: object, facts: _Invoice, seed: int) -> None:
    document.add_paragraph()  # type: ignore[attr-defined]
    layout = document.add_table(rows=1, cols=2)  # type: ignore[attr-defined]
    no_borders(layout)
    fixed_widths(layout, (3.4, 3.0) if seed % 2 else (3.9, 2.5))
    _cell_lines(layout.cell(0, 0), ["Bill to" if seed % 2 else "Invoice to", *facts.customer], True)
    _cell_lines(layout.cell(0, 1), facts.details, False, facts.bold_labels)
    document.add_paragraph()  # type: ignore[attr-defined]


def _docx_items(document: object, facts: _Invoice, seed: int) -> None:
    rows = list(facts.items)
    width = len(rows[0])
    if facts.totals_in_table:
        rows += [[""] * (width - 2) + row for row in facts.totals]
    table = document.add_table(rows=len(rows), cols=width)  # type: ignore[attr-defined]
    table.style = "Table Grid"
    wide = 3.2 if width == 4 else 2.6
    widths = [wide] + [(6.3 - wide) / (width - 1)] * (width - 1)
    if width == 6:  # an invoice's item code and VAT rate, or a statement's dates and references
        widths = [0.9, 1.1, 1.9, 0.8, 0.8, 0.8] if facts.aged else [0.6, 2.4, 0.6, 1.0, 0.6, 1.1]
    fixed_widths(table, widths)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            cell = table.cell(r, c)
            paragraph = cell.paragraphs[0]
            run = paragraph.add_run(text)
            run.bold = r == 0 or (r >= len(facts.items) and text.startswith("Total"))
            if c >= width - 3 and (r > 0 or c == width - 1) and not (width == 6 and c == width - 4):
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            if r == 0 and seed % 2:
                shade(cell, "D9E2F3")
    if not facts.totals_in_table:  # right-aligned "Label: amount" lines, clear of the columns
        for label, amount in facts.totals:
            paragraph = document.add_paragraph()  # type: ignore[attr-defined]
            paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            paragraph.paragraph_format.space_after = Pt(0)
            paragraph.add_run(f"{label}: {amount}").bold = label.startswith(("Total", "Amount"))


def _docx_aged(document: object, facts: _Invoice) -> None:
    document.add_paragraph()  # type: ignore[attr-defined]
    table = document.add_table(rows=2, cols=len(facts.aged[0]))  # type: ignore[attr-defined]
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.RIGHT
    for r, row in enumerate(facts.aged):
        for c, text in enumerate(row):
            paragraph = table.cell(r, c).paragraphs[0]
            paragraph.add_run(text).bold = r == 0
            paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT


def _docx_invoice(facts: _Invoice, seed: int) -> bytes:
    family, size = _BODIES[seed % len(_BODIES)]
    document = Document()
    body = document.styles["Normal"]
    body.font.name, body.font.size = family, Pt(size)
    section = document.sections[0]
    section.left_margin = section.right_margin = Inches(1.0)
    _docx_letterhead(document, facts, seed)
    _docx_addresses(document, facts, seed)
    _docx_items(document, facts, seed)
    if facts.aged:
        _docx_aged(document, facts)
    document.add_paragraph()
    for text in facts.terms:
        document.add_paragraph(text)
    closing = document.add_paragraph("Thank you for your business." if seed % 2 else
                                     "Registered in England No. 04417215. VAT No. GB 284 1193 06.")
    closing.alignment = WD_ALIGN_PARAGRAPH.CENTER
    return docx_bytes(document)


_CSS = """
body { font-family: '%s', sans-serif; font-size: %spt; margin: 0; color: #222 }
.top { display: flex; justify-content: space-between; align-items: flex-start; margin-bottom: 18pt }
.title { font-size: %spt; font-weight: bold; color: %s; margin: 0 }
.from p, .to p, .meta p { margin: 0; line-height: 1.35 }
.parties { display: grid; grid-template-columns: %s; column-gap: 24pt; margin-bottom: 16pt }
table { border-collapse: collapse; width: 100%% }
th { background: %s; text-align: left; padding: 4pt 6pt; border-bottom: 1pt solid #444 }
td { padding: 4pt 6pt; border-bottom: 0.5pt solid #bbb; vertical-align: top }
td.n, th.n { text-align: right }
tr.total td { border-bottom: none }
.totals { margin-top: 8pt }
.totals p { text-align: right; margin: 2pt 0 }
.aged { width: 70%%; margin: 14pt 0 0 auto }
.terms { margin-top: 18pt }
"""


def _html_rows(rows: list[list[str]], numeric_from: int, head: bool) -> str:
    out = []
    for r, row in enumerate(rows):
        tag = "th" if head and r == 0 else "td"
        klass = ' class="total"' if not any(row[:numeric_from]) else ""
        cells = "".join(f'<{tag}{" class=n" if c >= numeric_from else ""}>{html.escape(text)}</{tag}>'
                        for c, text in enumerate(row))
        out.append(f"<tr{klass}>{cells}</tr>")
    return "".join(out)


def _html_invoice(facts: _Invoice, seed: int) -> bytes:
    e = html.escape
    family, size = _BODIES[seed % len(_BODIES)]
    name, address = facts.supplier
    width = len(facts.items[0])
    rows = list(facts.items)
    if facts.totals_in_table:
        rows += [[""] * (width - 2) + row for row in facts.totals]
    def label(line: str) -> str:
        head, colon, value = line.partition(": ")
        return f"<b>{e(head)}:</b> {e(value)}" if colon and facts.bold_labels else e(line)
    body = [
        '<div class="top"><div class="from">'
        + "".join(f"<p>{'<b>' + e(line) + '</b>' if k == 0 else e(line)}</p>"
                  for k, line in enumerate((name, *address)))
        + f'</div><h1 class="title">{e(facts.title)}</h1></div>',
        '<div class="parties"><div class="to"><p><b>Bill to</b></p>'
        + "".join(f"<p>{e(line)}</p>" for line in facts.customer)
        + '</div><div class="meta">' + "".join(f"<p>{label(line)}</p>" for line in facts.details)
        + "</div></div>",
        f"<table>{_html_rows(rows, width - 3, True)}</table>"]
    if not facts.totals_in_table:
        lines = "".join(f"<p>{e(text)}: {e(amount)}</p>" for text, amount in facts.totals)
        body.append(f'<div class="totals">{lines}</div>')
    if facts.aged:
        body.append(f'<table class="aged">{_html_rows(facts.aged, 0, True)}</table>')
    body.append('<div class="terms">' + "".join(f"<p>{e(text)}</p>" for text in facts.terms) + "</div>")
    css = _CSS % (family, size, (20, 24, 18, 22)[seed % 4], ("#1f3a5f", "#000", "#7a1f1f", "#333")[seed % 4],
                  ("1fr 1fr", "3fr 2fr")[seed % 2], ("#e8eef7", "#eee")[seed % 2])
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head><body>"
            + "\n".join(body) + "</body></html>").encode()


def invoice(seed: int) -> tuple[str, bytes, Truth]:
    """An invoice (a statement of account on every third seed): Word through LibreOffice on odd
    seeds, a billing system's HTML page printed by Chromium on even ones; the totals rows of
    the items table, or right-aligned lines under it, by seed."""
    rng = random.Random(seed)
    facts = _statement_facts(rng, seed) if seed % 3 == 0 else _invoice_facts(rng, seed)
    if seed % 2:
        return "docx", _docx_invoice(facts, seed), facts.truth()
    return "html", _html_invoice(facts, seed), facts.truth()
