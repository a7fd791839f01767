"""Field lines: a label ending in a colon and its value on a line of their own, one under the
other ("Present: ...", "Apologies: ...", "In attendance: ..." in a meeting's minutes; "Invoice
number: ...", "Due date: ..." beside an invoice's address; "Subtotal: 3,218.36", "Total due:
3,862.03" set flush right under its items).  Their lines stop short of the measure without
ending a sentence, as an address's lines do, so the paragraph rule would run them into one
paragraph; each is a line of its own, whatever its alignment."""

from __future__ import annotations

from extractors.pdf_drafts import WORD_SPACE, Line

# A label is at most this many words, the last ending in a colon ("In attendance:").
_LABEL_WORDS = 4


def label_words(line: Line) -> int:
    """How many words open ``line`` as a label ending in a colon with its value after it on
    the line ("Due date: 4 June 2024": 2); 0 where none does."""
    for count, word in enumerate(line.words[:_LABEL_WORDS], start=1):
        if word.text.endswith(":"):
            return count if count < len(line.words) else 0
    return 0


def _broken_short(last: Line, line: Line, left: float, right: float) -> bool:
    """Whether ``line``'s first word would have fitted on ``last`` within the measure ``left``
    to ``right``, wherever ``last`` is set in it (flush right too): a line broken by hand."""
    first = line.words[0]
    return (last.x1 - last.x0) + WORD_SPACE * last.size + (first.x1 - first.x0) <= right - left


def opens_field(lines: list[Line], line: Line, left: float, right: float) -> bool:
    """Whether ``line``, a field's line, starts a paragraph after the block of ``lines``: its
    label set bold (the value regular) under a block that opened with such a label or a line
    broken short of the measure; or any label under a field's line broken short."""
    count = label_words(line)
    if not count or line.rtl:
        return False
    last = lines[-1]
    label = line.words[:count]
    if all(word.bold for word in label) and not all(word.bold for word in line.words[count:]):
        first = lines[0]
        opened = label_words(first) and all(word.bold for word in first.words[:label_words(first)])
        return bool(opened) or _broken_short(last, line, left, right)
    return bool(label_words(last)) and (_broken_short(last, line, left, right) or _fields_only(lines, line))


def _fields_only(lines: list[Line], line: Line) -> bool:
    """Whether ``lines`` and ``line`` each open with a label set in capitals' case ("Invoice
    number: ...", "Due date: ...", "Total due: ..."): a block of fields set in a narrow column
    of their own (a billing page's grid beside its address) fills that column's measure line
    by line, so no line shows itself broken short; a paragraph's wrapped lines do not each
    open with a capitalised label."""
    return all(label_words(each) and each.words[0].text[:1].isupper() for each in [*lines, line])


def fields_beside_tops(lines: list[Line]) -> dict[int, float]:
    """Fields read after the address beside them: a stack of two or more lines each opening
    with a capitalised label ("Invoice number: ...", "Due date: ..."), set at one left edge,
    with a stack of two or more lines without labels set at one edge left of it and level with
    it (an invoice's "Bill to" and its address; a letter's sender beside its date and
    reference).  The two are blocks side by side whose lines do not correspond row by row: the
    left one is read whole, down to its last line under the fields too, then the fields.
    Their sort tops by ``id`` of the fields' lines; the others read by their own."""
    ordered = sorted(lines, key=lambda line: line.top)
    tops: dict[int, float] = {}
    for stack in _field_stacks(ordered):
        first, last = stack[0], stack[-1]
        size = first.size
        beside = [line for line in ordered if line.x1 < first.x0 - size and not label_words(line)
                  and line.top < last.bottom and line.bottom > first.top - size]
        if len(beside) < 2 or any(abs(line.x0 - beside[0].x0) > 1 for line in beside):
            continue
        # (The address goes on under the fields at its own pitch and edge: "Norwich NR2 4QP".)
        end = beside[-1]
        for line in ordered:
            if line.top > end.top and abs(line.x0 - end.x0) <= 1 and line.top - end.bottom <= 0.8 * size \
                    and not label_words(line):
                end = line
        for at, line in enumerate(stack):
            tops[id(line)] = end.top + 0.01 + at * 1e-4
    return tops


def _field_stacks(ordered: list[Line]) -> list[list[Line]]:
    """Runs of two or more field lines one under the other at one left edge."""
    stacks: list[list[Line]] = []
    for line in ordered:
        if not label_words(line) or not line.words[0].text[:1].isupper():
            continue
        for stack in stacks:
            last = stack[-1]
            if abs(line.x0 - last.x0) <= 1 and 0 < line.top - last.bottom <= 0.8 * line.size:
                stack.append(line)
                break
        else:
            stacks.append([line])
    return [stack for stack in stacks if len(stack) >= 2]
