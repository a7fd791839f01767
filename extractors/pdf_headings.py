"""Which blocks of a PDF page are headings, and at which level: the heading rules of the structure
stage (:mod:`extractors.pdf_structure`), which drafts the blocks and renders them.

Headings are short blocks in a font clearly larger than the body's, or bold where the body is
not, or numbered as sections ("2.1 Method"); levels by font size rank, and by numbering depth
where headings are numbered ("Chapter 2" counts as "2."), the others then by the numbered ones'
sizes.  Not headings, however set: bulleted items, "Key: value" lines ("Date: 12 May 2024"),
sentences (a full stop after more than eight words), lines ending in a comma or a semicolon (a
clause, a statement of code), bold body-size lines of more than ten words; and, at the body's
size, a line followed by a table, a list or a few short lines (a table's title, a label, a name
in a signature block), or spaced like a paragraph in a document whose headings sit closer to
their text than to the text above.  Whatever their type, not headings either (tuned on the
heading impostor classes of ``tests/pdf_cases.py``): captions ("Table A4", "Chart 1.2"), note,
letter and front matter fields ("Source:", "Re:", "Keywords:"), dates, pull quotes, key figures
("4.2 GW"), lines starting lower case; short lines set alike one after the other (empty form
fields, "Signature" then "Date"); numbered items (their explanation hung under their text at
the list's size, or items numbered alike one under the other); on a page titled as a table of
contents, lines opening with a page number ("44 Financial Performance"); a line of capitals
whose words mostly hold figures (a document's code, "3HE 19220 AAAB"); a name over an address
(its lines' words few, bare figures not counted: "Telephone 02 8063 4100 Facsimile 02 8063
4101"; amounts and dates counted);
a line over a bare figure (a chart's axis title); a line next to a letter's salutation (its
subject, no "Re:" before it); an unnumbered line directly over a table, set in a style no
unnumbered heading of text uses or naming a unit or a year (the table's title); on a cover page
(the first page, no running text) all but the largest type, and above a first page's running
text the smaller lines over short lines (a paper's authors over their affiliations).  Evidence
that transfers from document to document (tuned on the labelled tuning files of issue 32, whose
check files gain too): a heading style sets headings only, so an unnumbered line larger than
the body in regular weight, in the style of a long paragraph elsewhere, is text; and a heading
titles text, so an unnumbered one followed up to the next heading or its page's end by blocks
none of which is text (a chart's labels, a panel's key figures) heads no section.  A table of
contents, when the document has one, then decides (:mod:`extractors.pdf_evidence`).
Tuned on the office probes' heading-precision classes (tests/office_probes.py, headprec): at
the body's size a warning's or a notice's label ("WARNING", "Important") and a picture's title
set directly over it are no headings, nor is the last block of a document of two pages or more
(a back cover's "Published March 2024"); a form's "Key: value" fields under a heading are no
address under a name (which may end in a web or e-mail address), and a cover's largest type
over its report number and authors stays its title; a box's side may start level with its
label's top (Word's one-cell tables).  A pull quote without quotation marks over its credit
("— Jane Smith, Chief Executive", a name over a role) is no heading (designed reports), nor
is a line closing a quotation it does not open (a pull quote's last line alone at a column's
head; a quoted title in Polish or Swedish marks, an inch mark, excepted).
Second round (headprec2: statistical releases, press releases, questionnaires): a body-size
heading directly over a larger heading on its page heads nothing (a press release's "ENDS" over
its notes to editors); questions set alike at the body's size, most with no running text under
them (answer boxes, a line to write on), are a questionnaire's items, numbered or not; and a
form's "Key: value" fields, two or more, count as short lines under a body-size label whatever
their values' length (a release's "Official statistics" over its dates), unless the label is set
as a heading of the document's that heads running text ("Meeting details" beside "Background").

Heading recall (headrecall: designed documents' true headings, tests/office_probes.py): a
body-size line in the body's weight with a rule across right under or over it (a dark band's
edges), two or more set alike, over running text, heads it (head_ruled_titles); numbered
headings of an outline ("2" then "2.1", set alike) whose text starts where their titles do
(numbers hung in the margin) are no list items; a short title set larger may wrap over one line
more in a narrow measure (three words a line or fewer): a fourth line, or a fifth in display
type.

A bold body-size line ending in a colon is a label, and a bold line level with two or more short
lines is a table row's cell, neither a heading; nor is a body-size line opening a box (a rule
or a panel's edge down its left side from just above it: a callout's "Note"), which does not
end the section of a heading over the box either; but a body-size heading over a list, below
running text in a document whose headings sit closer to their text than to the text above, heads
it when it is spaced so too (both tuned on tests/web_pages.py's pages).  Nor are a glossary's
terms headings when its definitions are set flush under them: five or more set alike, each over
a block or a few, in alphabetical order of their first letters, spaced as their definitions
(ICDAR 2013's tuning file us-005, office probe flush_glossary; sections in alphabetical order by
design, countries or members, have space before their titles: office probe
alphabetical_sections).  Body size is the most common font size by character count over the
whole document (:class:`extractors.pdf_drafts.Style`).

Levels and titles (levels, office probes close_sizes, list_titles, article_bylines): heading
sizes within 10 % are one level unless a step of a point or more with no heading between parts
them, two headings or more on each side and the lower above the body (Word 2010's Heading 1
and 2 at 14 and 13 points, Word 2013's Heading 2 and 3 at 13 and 12); a section holding a table
with two lines at most beside it is no empty section (a price list under a date line and over
a note); an italic body-size byline right under its title ("By Jane Smith", "Sarah Jones,
Editor") is no heading, and a first page's heading over a short line stays one over a byline
or when set as a heading over a byline below the front matter (a newsletter's first article).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter

from extractors.pdf_bidi import has_rtl
from extractors.pdf_contents import contents_title, roman_value
from extractors.pdf_drafts import (
    FIXED_PITCH,
    ITEM_NUMBER,
    LEADERS,
    SENTENCE_END,
    Draft,
    Line,
    Style,
    font_family,
    next_word_fits,
)
from extractors.pdf_words import Ruling

# Section numbers: "2", "2.1", "2.1.3", an annex's "A.1" and "B.2.3", "A.", "IV." followed by
# a title.  (An annex's clause is as deep as its number: "A.1" two, under "Annex A"; where the
# document names no annex of its letter, "Q.1" or "S.2" numbers a question or a sample: see
# annex_letters.)
_SECTION = re.compile(r"^((\d{1,2}(\.\d{1,2}){0,4}|[A-Z](?:\.\d{1,2}){1,4})\.?|[A-Z]\.|[IVX]{1,5}\.)"
                      r"\s+(?=[^\W\d_])")
# A line naming an annex or an appendix by its letter ("Annex A (informative)", "APPENDIX B:",
# a contents entry "Annex C  Bibliography"), or a lettered appendix's heading, the letter a
# quad before its title ("A   Proofs", as LaTeX sets them): see annex_letters.
_ANNEX_NAME = re.compile(r"^(?i:annex|appendix)\s+([A-Z])(?![^\W_])")
_LETTER_TITLE = re.compile(r"^([A-Z])\.?\s+(?=[A-Z][a-z])")
# A lettered heading's letter without its dot stands at least this many of its sizes before
# its title (a quad; LaTeX's is one): an article a word space before the next word ("A Survey
# of ..." set bold) is no letter.
_LETTER_QUAD = 0.6
# A label's number: figures, a Roman numeral in capitals (or in small letters after a label in
# small letters, "part iv"), a capital letter, or a number spelt out ("PART ONE", "Chapter
# Two"); not any word of those letters ("Part Civil" is a part's name, no numeral).
_ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen", "twenty")
_NUMERAL = (rf"(?:{_ROMAN}|{_ROMAN.lower()}|[A-Z]|(?i:{'|'.join(_NUMBER_WORDS)}))(?![^\W_])")
# A section named by its kind and number ("Chapter 1.", "Appendix B:", "Part IV", "Section 2.3";
# a legal act's "Article 12", "TITLE II", "Schedule 3", "§ 4", "PART ONE"): numbered like "1."
# (or "2.3") for the depth of the headings below it.  See _named_section for the numeral's case.
_NAMED_SECTION = re.compile(r"^(?:(?P<kind>(?i:chapter|part|appendix|annex|section|article|title|"
                            r"schedule))\s+"
                            rf"|§{{1,2}}\s*)(?P<number>\d{{1,2}}(?:\.\d{{1,2}}){{0,4}}|{_NUMERAL})(?:[.:]|\s|$)")
# A division's or a provision's label alone on its line, its title set on the line under it
# (a legal act's "CHAPTER I" over "GENERAL PROVISIONS", "Article 1" over "Subject matter",
# "§ 4" over "Scope", "ANNEX" over "CORRELATION TABLE", "PART ONE"): see join_section_labels.
_SECTION_LABEL = re.compile(r"^(?:(?P<kind>(?i:chapter|part|title|book|appendix|annex|schedule|section|"
                            r"article))"
                            rf"(?:\s+(?:\d{{1,3}}[a-z]?|{_NUMERAL}))?|§{{1,2}}\s*\d{{1,3}}[a-z]?)\.?$")
# A label's title starts at most this many of its sizes under the label's foot.
_LABEL_TITLE_GAP = 1.5
# A right-to-left line's section number as a Persian or Arabic document dashes it ("۵-۲-"),
# in the logical order PDFium gives it: "-2-5 استاندارد کالا", "-3 پذيرش در بورس" (docling's
# right_to_left_03), or with the dash after ("2-5- ...", as our own drawing of it reads).
_RTL_SECTION = re.compile(r"^(?:-(\d{1,2}(?:-\d{1,2}){0,3})|(\d{1,2}(?:-\d{1,2}){0,3})-)\s+(?=[^\W\d_])")
# Captions are set like headings (bold, on their own) but are not sections: a figure, table,
# chart... and its number ("Table 3.", "FIGURE 2:", "Table A4", "Chart 1.2", "Graph S1"), an
# appendix's or a summary's lettered one too ("Table A-1.", "Table ES-1", "Exhibit B.4").
_CAPTION = re.compile(r"^(figure|fig\.|table|tab\.|chart|graph|exhibit|map|diagram|plate|abbildung|tabelle)"
                      r"\s*(\d|[A-Z]{1,3}[-.]?\d|[IVX]+\b)", re.IGNORECASE)
# The keys of the fields of a letter's or memo's heading block, of a paper's front matter and
# of the notes under a table or chart ("Re: ...", "Subject: ...", "Keywords: ...", "Source:
# ...", "Notes: ..."): whatever their value and their type, these lines are not sections.
_FIELD_KEY = re.compile(r"^(re|subject|subj|from|to|cc|bcc|attn|attention|encl?|enclosures?|ref|our ref|"
                        r"your ref|sources?|notes?|base|footnotes?|key ?words|index terms|received|accepted|"
                        r"published|e-?mail|tel|telephone|fax|phone|corresponding authors?)\s*:",
                        re.IGNORECASE)
# A line that is a date and nothing else ("12 May 2024", "March 2024", "12/03/2024", "May 12,
# 2024"): a letter's or a cover's date, not a section.
_MONTH = (r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
_DATE = re.compile(rf"^((\d{{1,2}}(st|nd|rd|th)?\s+)?{_MONTH},?\s+(\d{{1,2}}(st|nd|rd|th)?,?\s+)?\d{{4}}"
                   r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2})$", re.IGNORECASE)
# A date inside a line ("Release date: 17 September 2022", "Next update 6/9/2023"): its figures
# are no street number, postcode or telephone number (_unhead_names_over_addresses).
_DATE_IN_LINE = re.compile(rf"\b{_DATE.pattern.removeprefix('^').removesuffix('$')}\b", re.IGNORECASE)
# A heading's rule runs at most this many of its sizes under or over it; two headings or more
# set alike so make a document's heading style (head_ruled_titles).
_RULE_REACH = 0.8
# A figure that is no word of an address line: digits and the marks that group them (a street
# number, a postcode's, a telephone number's "(02) 8063-4100"), no letter, currency or percent sign.
_BARE_FIGURE = re.compile(r"[(+]?\d[\d().,/+-]*")
_RULED_TITLES = 2
# A heading's colour stands at least this far from the body text's in one channel (of 255): a
# dark grey or a near-black is the body's colour (head_accent_titles).
_ACCENT_CONTRAST = 64
# A box's side stands at most this many font sizes left of its label, and opens at most this
# many above it (unhead_box_labels).
_BOX_INDENT = 3.0
_BOX_OPENS = 1.5
# ... or at most this many sizes below the label's top (the glyphs' box reaches over the cell's edge).
_BOX_FLUSH = 0.3
# Quotation marks a pull quote opens with.
_QUOTES = "\"“”„‘’«»"
# What names and commands hold and titles do not: brackets, underscores, operators, a dot or a
# slash inside a word ("HR_SCHEMA.EMPLOYEES", "USAGE(*ALLOWED)").
_CODE_MARKS = re.compile(r"[()\[\]{}<>_=*\\|]|\w[./]\w")
# A key and its value on one line ("Date: 12 May 2024", "Status: Final", "Reference: HM/17"):
# a field of a memo's or a form's heading block, not a section.  The key is a word or two; a
# key ending in a section mark ("Appendix A:", "Part 2:") names a section instead.
_KEY_VALUE = re.compile(r"^(?P<key>[A-Z][\w'’/&-]*(?: [\w'’/&-]+)?):\s+(?P<value>\S.*)$")
_KEY_SECTION_MARK = re.compile(r"(?:^| )(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})$")
# A line ending in a word broken by a hyphen ("As a generally accepted under-"): its text goes
# on in the next line (or column), no title is set so.
_BROKEN_WORD = re.compile(r"[^\W\d_]{2}-$")
# A caption's label alone ("Table ES-1", "Figure 3.", "Exhibit 9:"): its title is set on the
# lines under it (_unhead_caption_titles).
_BARE_CAPTION = re.compile(_CAPTION.pattern + r"[\w.-]*[.:]?$", re.IGNORECASE)
# The lines of a double-spaced heading are at most this many sizes apart top to top.
_SPACED_PITCH = 2.0
# Words a phrase goes on after (no title ends with them) and words that go on a phrase (no
# title or subtitle opens with them): where a heading's line ends or opens with one, the
# heading wraps there (_wraps_spaced).
_NO_TITLE_START = frozenset("and or nor of upon for to in on at by with from into onto between as via "
                            "against through within without among than versus vs".split())
_NO_TITLE_END = _NO_TITLE_START | frozenset("a an the based its their our your".split())
# A caption's title sits at most this many of the label's sizes under it.
_CAPTION_GAP = 1.0
# A full stop after four words or more, then a capitalised word: one sentence ends inside.
_SENTENCE_INSIDE = re.compile(r"(?:\S+\s+){3,}\S*[a-z]\.\s+[A-Z]")
# A line ending with a full stop after more words than this is a sentence, however it is set.
_SENTENCE_WORDS = 8
# A heading is closer to the text below it than to the text above by at least this share of
# the body size (and a point); a document sets its headings so when this share of its sure
# headings, and this many, do.
_BINDING = 0.1
# Two lines of one size whose boxes differ in height by this share of it are measured foot to
# foot (_binds) when the taller is a font's box, this share of the size at least (letters reach
# less from an ascender's top to a descender's foot): a font's ascent over the letters' tops.
_TALLER_BOX = 0.15
_FONT_BOX = 1.1
# Words' boxes whose tops and feet lie this close (points) are one box, a font's (_taller_box).
_SAME_BOX_EDGE = 0.05
# A title set apart by nothing but its colour, small capitals or the order of a run of them has
# this share of the body size more space over it than under it (a heading style's space
# before: Word's 10 to 24 points, a web page's margin); a line spaced as the paragraphs round
# it stands a point or two closer to one of them by its letters' shapes alone
# (head_accent_titles, _unhead_glossary_terms).
_SPACE_BEFORE_TITLE = 0.4
_BINDING_SHARE = 0.8
_BINDING_MIN_VOTES = 3
# Text set smaller than this share of the body's size is small print (a note under a table).
_SMALL_PRINT = 0.95
# A bold line of the body's size with more words than this is a statement, not a title.
_BOLD_TITLE_WORDS = 10
# ... unless its words are in title case, this many at most (a register notice's title,
# "Notice of Intent To Rule on Request To Release Airport Property at ...": a statement is a
# sentence, its words in lower case).
_LONG_TITLE_WORDS = 20
# A bold line of the body's size this many words long or longer with a finite verb's shape is
# a sentence set bold ("All Members Must Register Before the Annual Meeting"), not a title: a
# modal or an auxiliary after its first word, before a word opening with a letter, with no
# word that opens a clause before it (a title's verbs are in a clause: "What You Should Know",
# "Notice That Licences Are Withdrawn").
_SENTENCE_SHAPE_WORDS = 6
_FINITE = frozenset("must shall will should would can could may might cannot is are was were has have had "
                    "does do did".split())
_CLAUSE_OPENERS = frozenset("that which who whom whose whether if when where why how what to".split())
# How much larger than the body a heading's font must be.
HEADING_SCALE = 1.15
_HEADING_MAX_CHARS = 200
_HEADING_MAX_LINES = 3
# ... or one more, in a narrow measure: this many words a line at most (see classify).
_NARROW_TITLE_WORDS_PER_LINE = 3
# A heading under the document's first, before any text, set this much larger: the first is
# not the document's title (_document_title).
_TITLE_OVER = 1.1
# ... and a bold title wrapped full in a narrow column this many (see classify).
_NARROW_BOLD_TITLE_WORDS_PER_LINE = 4
# ... or lines this many of its font sizes wide at most (a column of two at a heading's size).
_NARROW_MEASURE_EMS = 14.0
# Display type (twice the body's size and more) fits few words a line: a title may wrap more.
_DISPLAY_SCALE = 1.6
_DISPLAY_MAX_LINES = 4
_MAX_LEVEL = 4
# Two heading sizes within 10 % of each other are two levels when this many points or more part
# them (no heading set between), this many headings are set on each side, and the lower side
# stands this many points above the body's size (_Ladder).
_LEVEL_STEP = 1.0
_LEVEL_USES = 2
_ABOVE_BODY = 0.5
# A heading set this many points over the body's size is set apart by its size (_heads_like_sections).
_FACE_STEP = 0.75
# Top to top, the lines of one wrapped heading are at most this many sizes apart.
_LINE_PITCH = 1.45
# Lines set like headings, this many in a row with nothing between, are not (_unhead_line_runs).
_LINE_RUN = 3
# A glossary's terms over their definitions indented at least this many body sizes, this many
# pairs one after the other, are no headings (_unhead_definition_terms).
_DEFINITION_INDENT = 1.0
_DEFINITION_PAIRS = 2
# A glossary set as plainly as sub-sections: this many terms or more one after the other, their
# first letters in alphabetical order and this many of them different, each over at most this
# many blocks (its definition, a table going with it), are no headings (_unhead_glossary_terms).
_GLOSSARY_TERMS = 5
_GLOSSARY_LETTERS = 3
_GLOSSARY_BLOCKS = 3
# A paragraph this long (lines and words) is running text: its style is a body style, not a
# heading style (_unhead_body_styles).
_BODY_STYLE_LINES = 3
_BODY_STYLE_WORDS = 25
# A block of this many words is text a heading may head (_unhead_empty_sections); so is a table
# with this many lines at most beside it (a date line over it, a note under it).
_SECTION_TEXT_WORDS = 6
_TABLE_LINES = 2
# Numbered headings decide the levels of the others from this many on.
_NUMBERED_HEADINGS = 3
# The lines of an address block have at most this many words.
_ADDRESS_LINE_WORDS = 6
# A paragraph of this many words (or a sentence of six) is running text: a page holding one is
# not a cover page.
_COVER_TEXT_WORDS = 15
# A letter's salutation ("Dear Ms Khan,", "Dear Sir or Madam", "To whom it may concern:"): the
# line above or below it set like a heading is the letter's subject (_unhead_letter_subjects).
# A table's title names its unit or its year at its end ("Spending by service area (£m)", "Staff
# numbers, 2021", "Visits (thousands)"): a section's heading does not (_unhead_table_titles).
_TITLE_UNIT = re.compile(r"(\((?:[£$€][^)]{0,10}|%|per cent|thousands|millions|billions"
                         r"|\d{4}(?:[/–-]\d{2,4})?)\)"
                         r"|,\s*\d{4}(?:[/–-]\d{2,4})?(?:\s+to\s+\d{4})?)$", re.IGNORECASE)
# A contents entry that puts its page number first ("14  We Care for an Inclusive Ecosystem").
_PAGE_FIRST = re.compile(r"^\d{1,4}\s+(?=[^\W\d_])")
# A contents page holds this many such lines at least.
_PAGE_FIRST_ENTRIES = 3
# A lone capitalised word in the headings' face is a title from this many letters
# ("BACKGROUND"; "NOTE", "TOTAL" are labels).
_CAPITAL_WORD = 8
# A centred line leaves at least this share of its column's width on each side.
_CENTRED_MARGIN = 0.15
# A typeface the document sets this many paragraphs of two lines or more in is a face of its
# text, not of its headings (see unhead_other_face_labels).
_TEXT_FACE_PARAGRAPHS = 2
# A line set in from the text's edge by this many of its sizes (and as far off its centre) is
# indented: a pull quote's (see unhead_other_face_labels).
_INDENT = 2.0
# The label of a warning or a notice set on a line of its own over its text, in capitals or
# bold at the body's size ("WARNING", "Important", "PLEASE NOTE"): no section is named so
# (_unhead_admonitions).
_ADMONITION = re.compile(r"^(warning|caution|important|danger|attention|please note|note|notice|tip|reminder)"
                         r"\s*[:!.]?$", re.IGNORECASE)
# A question's answer (boxes, a line to write on, a routing note) is read this many blocks on at
# most (_unhead_unanswered_questions).
_ANSWER_BLOCKS = 8
# What marks a questionnaire's answer rather than an answer put in words: a box to tick, a
# line to write on, a routing note ("If No, go to question 5").
_ANSWER_FORM = re.compile(r"[\u2610-\u2612\u25a0-\u25a1\u25cb\u25cf\u25ef\u274f-\u2752\u2713\u2714]|\[\s*\]"
                          r"|\(\s*\)|__|\b(?:go|skip|continue|move|proceed)(?: on)? to\b", re.IGNORECASE)
# Of those, what only a form has under an instruction (_answer_space): a box or a circle left
# white, brackets left empty ("[ ]", "( )" -- not a call's "start()"), a line to write on
# ("___", not a name's "__init__"), a routing note to a question or a part ("go to question
# 5", not a manual's "Go to Settings").  A black circle or square or a tick opens a bulleted
# list's item as often (Google Docs' "●" and "■", a brochure's "✓ Free parking"), so it is an
# answer's box only beside another on its line or after the text.
_ANSWER_SPACE = re.compile(r"[\u2610-\u2612\u25a1\u25cb\u25ef\u274f-\u2752]|(?<!\w)(?:\[\s*\]|\(\s*\))|___"
                           r"|\b(?:go|skip|continue|move|proceed)(?: on)? to "
                           r"(?:question|section|part|page|q?\d)", re.IGNORECASE)
_BULLET_OR_BOX = re.compile(r"[\u25a0\u25cf\u2713\u2714]")
# A form's instruction ("Enter your full name as on your passport") runs to this many words
# after its number at least; a checklist's sections' titles ("Before you start") are shorter
# (_instruction_worded).
_INSTRUCTION_WORDS = 4
# A checklist's numbered title ("1. Fire exits and escape routes") over lines of its own items,
# each opening with a box to tick ("☐ Exit signs lit"), runs to this many words at most after its
# number, and does not open with a verb a form's instruction opens with (_checklist_titled).
_CHECKLIST_TITLE_WORDS = 6
_INSTRUCTION_VERBS = frozenset("tick enter give state list write print sign circle mark select choose "
                               "complete provide describe indicate fill answer name explain specify "
                               "include attach please rate show underline cross delete add continue say "
                               "tell".split())
# A line of a checklist's items: a box to tick, then the item's words (_heads_own_items).
_TICKED_ITEM = re.compile(r"^(?:[\u2610-\u2612\u25a1\u274f-\u2752]|\[\s*\])\s*[^\W\d_]")
# A picture's title stands at most this many of its sizes above the picture.
_PICTURE_GAP = 2.5
# A web or e-mail address on a line of its own (an address block's last lines).
_WEB_ADDRESS = re.compile(r"^(?:(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$", re.IGNORECASE)
# A quotation's credit holds at most this many lines (_unhead_credited_quotes).
_CREDIT_LINES = 3
# A quotation's credit: a dash before the speaker ("— Jane Smith, Chief Executive"), or a role
# a report's speakers hold ("Chair", "Chief Financial Officer", "Minister for Housing").
_CREDIT_DASH = re.compile(r"^[\u2014\u2013\u2015]\s*[^\W\d_]")
_CREDIT_ROLE = re.compile(r"\b(?:chair(?:man|woman|person)?|chief\s+\w+(?:\s+officer)?|ceo|cfo"
                          r"|president|director|minister|secretary|founder|partner|managing|head\s+of)\b",
                          re.IGNORECASE)
# A signatory's name as a signature block sets it: initials, then the surname in capitals.
# Whom a signature block's names sign for ("For the Council", "On behalf of the Buyer").
_SIGNS_FOR = re.compile(r"^(?:for|on behalf of)\s", re.IGNORECASE)
_SIGNATORY = re.compile(r"^(?:[A-Z]\.[\s-]?){1,3}\s*[A-Z][A-Z'’-]+(?:\s+[A-Z][A-Z'’-]+){0,2}$")
# An article's byline: "By Jane Smith", "Words by Amir Khan and Li Wei", or a name and a role
# ("Sarah Jones, Editor"): the writer's name in capitalised words (_unhead_bylines).
_NAME = r"[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|and|&|van|von|de|da|del|bin|al))+"
# (A name is two words or more, "By Region" is a sub-heading; a role is a writer's or an
# officer's, "Google Research, Mountain View" under a paper's author is an affiliation.)
_BYLINE_ROLE = (r"(?:[A-Z][\w'’-]*\s+){0,3}(?:Editor|Correspondent|Reporter|Writer|Contributor|Columnist"
                r"|Clerk|Chair|Secretary|Director|Officer|Manager|President|Coordinator)s?")
_BYLINE = re.compile(rf"^(?:(?:[Ww]ritten |[Ww]ords |[Rr]eport |[Tt]ext )?[Bb]y\s+{_NAME}"
                     rf"|[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){{1,3}},\s+{_BYLINE_ROLE})$")
# A work cited by its first author's name ("Smith et al.", under a patent's "United States
# Patent" in its front band; "Müller et al.'s"), not a title.
_ET_AL = re.compile(r"^(?:[^\W\d_][\w'’.-]*\s+){1,3}et\s+al\.?(?:['’]s)?$")
_SALUTATION = re.compile(r"^(dear\s+\S.{0,60}|to whom it may concern)[,:]?$", re.IGNORECASE)




def _quotation_tail(text: str) -> bool:
    """Whether ``text`` closes a quotation it does not open: “...” (English), „...” (Polish,
    Hungarian, Romanian), ”...” (Swedish, Finnish: an even count opens and closes), "..."
    (a straight double quote after a figure is an inch mark, 'Monitors up to 32"'; one after
    a curly opening closes it, 'The “Future"')."""
    text = text.rstrip()
    if text.endswith("\u201d"):
        return "\u201c" not in text and "\u201e" not in text and text.count("\u201d") % 2 == 1
    return text.endswith('"') and text.count('"') % 2 == 1 and not text[-2:-1].isdigit() \
        and "\u201c" not in text and "\u201e" not in text


def annex_letters(lines: list[Line], style: Style) -> frozenset[str]:
    """The letters the document's annexes (or appendices) are numbered by: named on a line of
    their own ("Annex A (informative)", a contents entry "Appendix B  Tables"), or a lettered
    heading's, set bold or larger than the body ("A   Proofs").  Only a letter among them makes
    "A.1" a clause number (_section): a questionnaire's bold "Q.1" or a sample's "S.2" is none."""
    letters = set()
    for line in lines:
        text = line.text
        if (named := _ANNEX_NAME.match(text)) is not None:
            letters.add(named.group(1))
        elif (lettered := _LETTER_TITLE.match(text)) is not None and line.words[0].text.rstrip(".") \
                == lettered.group(1) and (line.size >= style.body_size * HEADING_SCALE
                                          or (line.bold and not style.body_bold)) \
                and (line.words[0].text.endswith(".") or len(line.words) > 1
                     and line.words[1].x0 - line.words[0].x1 >= _LETTER_QUAD * line.size):
            letters.add(lettered.group(1))
    return frozenset(letters)


def _section(text: str, annexes: frozenset[str]) -> re.Match[str] | None:
    """``text``'s section number (_SECTION), an annex's clause number ("A.1") only where the
    document has an annex of its letter (``annexes``: annex_letters)."""
    section = _SECTION.match(text)
    if section is not None and section.group(2) and section.group(2)[0] not in annexes \
            and section.group(2)[0].isalpha():
        return None
    return section


def classify(draft: Draft, style: Style, column: tuple[float, float] | None = None,
             annexes: frozenset[str] = frozenset()) -> None:
    """Makes a block a heading when its size, weight, face or shape set it apart as one;
    ``column``, the left and right ends of its column's lines, tells a centred line;
    ``annexes``, the letters of the document's annexes (annex_letters), its clause numbers."""
    if draft.kind == "contents":
        return
    text = draft.text
    letters = sum(map(str.isalpha, text))
    max_lines = _max_lines(draft, style, column)
    # (No title ends in a comma or a semicolon: a clause, or a statement of code, "DISABLE;";
    # nor in a quotation's close without its opening: a pull quote's last line, set large,
    # left alone at the head of a column; nor is a title's line parted in two across the
    # column: a running head, the page's number at one margin and the report's title at the
    # other.)
    if len(draft.lines) > max_lines or len(text) > _HEADING_MAX_CHARS or letters < 2 \
            or _CAPTION.match(text) or not _titled(text) or text.rstrip().endswith((",", ";")) \
            or _quotation_tail(text) or _spread_apart(draft, column):
        return
    if draft.marker and not draft.marker[:1].isalnum() and draft.marker[:1] != "(":
        return  # a bulleted item, bold or not, is an item of a list
    section = _section(text, annexes)
    larger = draft.size >= style.body_size * HEADING_SCALE
    if not larger and _key_value(text):
        return
    bolder = draft.bold and not style.body_bold and draft.size >= style.body_size * 0.95
    # A slightly larger line in another typeface (a sans heading over serif text).
    if not (larger or bolder) and draft.size >= style.body_size * 1.05 and len(draft.lines) <= 2:
        bolder = font_family(draft.lines[0].words[0].font) != style.body_family
    words = len(text.split())
    ends_sentence = text.rstrip().endswith((".", ",", ";")) and not text.rstrip().endswith("..")
    numbered_title = section is not None and "." in section.group(1).rstrip(".") and words <= 12
    if ends_sentence and not (larger or bolder or section):
        return
    if ends_sentence and text.rstrip().endswith(".") and words > _SENTENCE_WORDS:
        # A sentence set large or bold (a lead paragraph, an emphasised statement); on a line
        # of its own in a headline's type, a headline still over its story (head_headlines).
        draft.sentence = _headline_set(draft, style) and words <= _LONG_TITLE_WORDS
        return
    if words > _SENTENCE_WORDS and _SENTENCE_INSIDE.search(text):
        return  # sentences, the last one cut at a page's or a column's end
    if LEADERS.search(text):
        return  # a table of contents line the contents rules did not take
    if _BROKEN_WORD.search(text.rstrip()):
        return  # a word broken at the line's end: the text goes on, a title does not
    # (Small print is set apart by nothing: capitals set smaller than the body are a running
    # head's, a table's column head's, a chart's legend's.)
    if not (larger or bolder) and len(draft.lines) == 1 and draft.size >= _SMALL_PRINT * style.body_size:
        centred = _centred_capital_word(draft.lines[0], text, column)
        bolder = centred or _set_apart(draft.lines[0], text, style)
        # (Set apart by its typeface alone: not by its slant, its capitals or its place.)
        draft.by_face = bolder and not centred \
            and not _set_apart(draft.lines[0], text, replace(style, body_family=""))
    # A bold line of body size ending in a colon is a label ("Key points:") for what follows.
    label = text.rstrip().endswith(":") and not larger
    # Bold at the body's size with more words than a title has is an emphasised statement.
    if bolder and not larger and words > _BOLD_TITLE_WORDS and not section \
            and not (words <= _LONG_TITLE_WORDS and not ends_sentence and _title_case(text)):
        draft.label = True
        return
    title = bolder and words <= 15 and not ends_sentence and not label
    sentence = title and _sentence_shaped(text)
    if (larger and words <= 25) or (title and not sentence) or \
            (numbered_title and not ends_sentence and draft.kind == "paragraph" and len(draft.lines) == 1):
        draft.kind = "heading"
        draft.number_depth = _number_depth(text, section)
    elif sentence:
        draft.sentence = True


# A heading's words stand together: a gap between two of them wider than this share of the
# column parts a line's two ends (a running head, "42" at the left margin and "Styrene
# Trimer, Report 573" at the right).
_SPREAD_GAP = 0.4


def _spread_apart(draft: Draft, column: tuple[float, float] | None) -> bool:
    """Whether two neighbouring words of a one-line block stand further apart than
    _SPREAD_GAP of its column's width."""
    if len(draft.lines) != 1 or column is None:
        return False
    words = draft.lines[0].words
    reach = _SPREAD_GAP * (column[1] - column[0])
    return any(b.x0 - a.x1 > reach for a, b in itertools.pairwise(words))


def _max_lines(draft: Draft, style: Style, column: tuple[float, float] | None) -> int:
    """How many lines a heading of ``draft``'s size and shape may wrap over (classify)."""
    lines, words = len(draft.lines), len(draft.text.split())
    most = _DISPLAY_MAX_LINES if draft.size >= style.body_size * _DISPLAY_SCALE else _HEADING_MAX_LINES
    if lines != most + 1:
        return most
    # A short title set larger than the body wraps over a line more in a narrow measure (a side
    # head's column, a column of two): three words a line or fewer, or four in lines no wider
    # than _NARROW_MEASURE_EMS of its size (short words: "How the council will / meet its
    # commitments / on climate and the / natural environment" at 14 points in a column of two;
    # a paragraph set large has more words a line).  At four words a line, set apart as a
    # heading style sets it, by weight or typeface: in the body's face and weight, or italic,
    # such lines are a callout set large in a column of three ("Join us for the annual summer
    # fete on the village green this Saturday from noon").
    if draft.size >= style.body_size * HEADING_SCALE and (
            words <= _NARROW_TITLE_WORDS_PER_LINE * lines
            or words <= (_NARROW_TITLE_WORDS_PER_LINE + 1) * lines
            and max(line.x1 - line.x0 for line in draft.lines) <= _NARROW_MEASURE_EMS * draft.size
            and (draft.bold or draft.lines[0].face != style.body_face) and not draft.lines[0].italic):
        return most + 1
    # So does a bold title in title case at the body's size or more, each line broken where the
    # next line's first word would not have fitted (a register notice's title over four lines
    # of a column of three): four words a line or fewer.
    if draft.bold and draft.size >= style.body_size * 0.95 and column is not None \
            and words <= _NARROW_BOLD_TITLE_WORDS_PER_LINE * lines and _title_case(draft.text) \
            and _broken_full(draft.lines, column[1]):
        return most + 1
    return most


def _broken_full(lines: list[Line], right: float) -> bool:
    """Whether every line but the last is broken where the next line's first word would not
    fit after it, a space apart, before ``right`` (a title wrapped to its measure; a block of
    short lines, names or an address, breaks where its lines end)."""
    return not any(next_word_fits(line, below, right) for line, below in itertools.pairwise(lines))


def _number_depth(text: str, section: re.Match[str] | None) -> int:
    """How deep a heading's section number goes ("2.1" two, "Chapter 3" one), 0 when
    it has none."""
    if section and section.group(2):
        return section.group(2).count(".") + 1
    if named := _named_section(text):
        return named.group("number").count(".") + 1
    if has_rtl(text) and (dashed := _RTL_SECTION.match(text)):
        return (dashed.group(1) or dashed.group(2)).count("-") + 1
    return 0


def _named_section(text: str) -> re.Match[str] | None:
    """``text``'s _NAMED_SECTION match: a Roman numeral in small letters numbers a label in
    small letters only ("part iv"; "Part vi" is no label)."""
    return match if _in_label_case(match := _NAMED_SECTION.match(text)) else None


def _in_label_case(match: re.Match[str] | None) -> bool:
    """Whether a label's match numbers it in its case: a Roman numeral in small letters after a
    label in small letters only."""
    if match is None:
        return False
    kind, number = match.group("kind") or "", match.group(0)[len(match.group("kind") or ""):].strip(" .:")
    roman_lower = bool(number) and number.islower() and set(number) <= set("ivxlc") \
        and number not in _NUMBER_WORDS
    return not roman_lower or kind.islower()


def _set_apart(line: Line, text: str, style: Style) -> bool:
    """A line of the body's size and weight set apart as a title otherwise: a short italic line
    of capitalised words (a run-in style's sub-heading), a line of capitals ("GENERAL
    PROVISIONS", a heading in documents typed in one font), or a line of two or more words
    opening with a capital, or a word in capitals, in a typeface other than the body's (Word's
    Heading 4 and 5 set at the body's size in the headings' face; a sans "BACKGROUND" over
    serif text).  The rules for body-size headings (what follows the line, how it is spaced:
    unhead_labels) still decide."""
    words = text.split()
    if text.rstrip().endswith(SENTENCE_END) or len(words) > 8:
        return False
    titled = sum(1 for w in words if w[:1].isupper()) >= len(words) // 2 + 1
    if line.italic:
        return titled
    if _by_face(line, text, style):
        return True
    # Capitals, not only letters with no lower case (Arabic and Hebrew have no case), and not
    # code: commands and names are often capitals too ("CHGFCNUSG FCNID(QIBM_DB_SECADM)").
    # (Nor a document's code, "3HE 19220 AAAB TQZZA 01": figures in most of its words.)
    capitals = sum(map(str.isupper, text))
    coded = sum(1 for word in words if any(map(str.isdigit, word)))
    return len(words) >= 2 and capitals >= 6 and not any(map(str.islower, text)) \
        and not _CODE_MARKS.search(text) and 2 * coded < len(words)


def _centred_capital_word(line: Line, text: str, column: tuple[float, float] | None) -> bool:
    """One word in capitals, of six letters or more, centred in its column with room on both
    sides ("BACKGROUND", "SUMMARY" over a patent application's sections; a line of capitals of
    two words or more is set apart whatever its place, see _set_apart): a label flush left
    ("WARNING" over a paragraph) is not centred."""
    if column is None or " " in text.strip() or not text.isupper() or sum(ch.isalpha() for ch in text) < 6 \
            or not all(ch.isalpha() or ch in "-'’" for ch in text.strip()):
        return False
    left, right = column
    width = right - left
    margin = _CENTRED_MARGIN * width
    return line.x0 - left >= margin and right - line.x1 >= margin \
        and abs((line.x0 + line.x1) / 2 - (left + right) / 2) <= max(3.0, 0.02 * width)


def _by_face(line: Line, text: str, style: Style) -> bool:
    """The typeface route of :func:`_set_apart`: two or more words opening with a capital, or a
    word in capitals, with no figure, in a face other than the body's (and no typewriter's)."""
    face = line.face
    words = text.split()
    return bool(style.body_family) and face != style.body_face and text[:1].isupper() \
        and not any(mark in face for mark in FIXED_PITCH) and not _CODE_MARKS.search(text) \
        and (len(words) >= 2 or (text.isupper() and len(text) >= _CAPITAL_WORD)) \
        and not any(map(str.isdigit, text))


def _sentence_shaped(text: str) -> bool:
    """Whether ``text`` reads as a sentence by its verb (see _SENTENCE_SHAPE_WORDS); a question
    ("2. Do you own or rent your home?") is a questionnaire's or an FAQ's title."""
    words = [word.strip(".,;:!?()\"'").lower() for word in text.split()]
    if len(words) < _SENTENCE_SHAPE_WORDS or text.rstrip().endswith("?"):
        return False
    while words and not words[0][:1].isalpha():  # (an item's or a section's number)
        words = words[1:]
    for at in range(1, len(words) - 1):
        if words[at] in _CLAUSE_OPENERS:
            return False
        if words[at] in _FINITE and words[at + 1][:1].isalpha() and words[0] not in _CLAUSE_OPENERS:
            return True
    return False


def _title_case(text: str) -> bool:
    """Whether every word of ``text`` but the short ones a title leaves in lower case ("of",
    "the", "on") opens with a capital or a figure."""
    # (An address or a list of names, its parts between commas, is no title.)
    return text.count(",") < 3 \
        and all(word[:1].isupper() or word[:1].isdigit() or word.lower() in _NO_TITLE_END
                for word in text.split() if word[:1].isalnum())


def _titled(text: str) -> bool:
    """Whether a line's words could title a section whatever its type: not a note's or a
    letter's field (_FIELD_KEY), a date, a pull quote (opening with a quotation mark), a key
    figure ("£4.2bn", "92%": figures and two letters at most), or words that start lower case
    (what a larger line says of a key figure, a chart's axis title "£ million")."""
    text = text.strip()
    if _FIELD_KEY.match(text) or _DATE.match(text) or text[:1] in _QUOTES or _ET_AL.match(text):
        return False
    if sum(map(str.isalpha, text)) < 3 and any(map(str.isdigit, text)):
        return False
    # (A first word with a capital anywhere, "eBay", may open a title; scripts without case
    # are never lower case.)
    # (An item's or a section's number, "(a)", "b.", is not the first word: "(a) Methods" may be
    # a title.)
    marker = ITEM_NUMBER.match(text)
    words = text[marker.end():].split() if marker else text.split()
    first = next((word for word in words if any(map(str.isalpha, word))), "")
    return not first.islower()


def _key_value(text: str) -> bool:
    """A "Key: value" line (see _KEY_VALUE): the value holds a figure (a date, a reference)
    or is a word or two ("Status: Final")."""
    match = _KEY_VALUE.match(text.strip())
    if match is None or _KEY_SECTION_MARK.search(match.group("key")):
        return False
    value = match.group("value")
    return any(ch.isdigit() for ch in value) or len(value.split()) <= 2


def join_mixed_headings(drafts: list[Draft]) -> list[Draft]:
    """A page's blocks with a heading wrapped onto a line of another weight or slant joined
    into one: two headings of one size a line pitch apart, the first ending no sentence, the
    second not numbered, in one typeface, where one of the two lines itself mixes the weights
    or slants they differ in (a title holding a name set in another face, "LayoutParser: A Unified Toolkit for
    Deep" over "Learning Based Document Image Analysis"; an italic title inside a title).  A
    subtitle set in one other weight throughout stays apart."""
    out: list[Draft] = []
    for draft in drafts:
        last = out[-1] if out else None
        if last is not None and (_wraps_mixed(last, draft) or _wraps_spaced(last, draft)):
            last.lines.extend(draft.lines)
            continue
        out.append(draft)
    return out


def join_section_labels(drafts: list[Draft]) -> list[Draft]:
    """A page's blocks with each section's label set alone on its line ("CHAPTER I", "Article
    1", "§ 4", "ANNEX", see _SECTION_LABEL) joined to the heading under it, its title ("GENERAL
    PROVISIONS"): one heading, as drafters mean it and as ground truths label it.  The label
    is set in any weight (a regular or italic "Article 1" over a bold title; "§ 4" has no
    letters to make a heading of its own); the title is a heading of one to three lines
    starting at most _LABEL_TITLE_GAP of its sizes under the label, centred under it or from
    its left edge.  A label alone, centred in the column over the text it heads (an older act's
    untitled "Article 5" in italics), is a heading of its own.  The heading (joined here, or
    drawn as one block of the label's and the title's lines) is numbered: a label names a
    section however it is numbered, an unnumbered "ANNEX" over its title heading a division as
    "ANNEX I" does, and no rule for a label over a table or a list unheads it."""
    out: list[Draft] = []
    texts = [d for d in drafts if d.lines and d.table is None]
    column = (min((d.box[0] for d in texts), default=0.0), max((d.box[2] for d in texts), default=0.0))
    for draft in drafts:
        label = out[-1] if out else None
        if label is not None and _lone_label(label, draft, column):
            label.kind, label.marker = "heading", ""
            label.number_depth = _number_depth(label.text, None) or 1
        if label is not None and _labels(label, draft):
            label.lines.extend(draft.lines)
            label.kind, label.marker = "heading", ""
            label.number_depth = _number_depth(label.text, None) or 1
            continue
        if draft.kind == "heading" and len(draft.lines) > 1 \
                and section_label(draft.lines[0].text):
            draft.number_depth = draft.number_depth or 1
        out.append(draft)
    return out


def section_label(text: str) -> bool:
    """Whether ``text`` is a section's label alone (_SECTION_LABEL): numbered, or a division
    named by its kind alone ("ANNEX"; a bare "Section" or "Title" is a form's field)."""
    text = text.strip()
    return _in_label_case(_SECTION_LABEL.match(text)) and (
        any(ch.isdigit() for ch in text) or len(text.split()) >= 2
        or text.rstrip(".").lower() in ("annex", "appendix", "schedule"))


def _lone_label(label: Draft, after: Draft, column: tuple[float, float]) -> bool:
    """Whether ``label``, a paragraph of one line, is a numbered section's label alone ("Article
    5", "§ 4", "CHAPTER II"; a bare "ANNEX") centred in the page's column, right over text on
    its page: running text, a list's item (its numbered paragraphs), or the sentence opening a
    list ("For the purposes of this Regulation, the following definitions apply:")."""
    words = len(after.text.split())
    if label.kind != "paragraph" or len(label.lines) != 1 or not section_label(label.text) \
            or after.page != label.page or after.kind not in ("paragraph", "list_item") \
            or not (after.kind == "list_item" or _running_text(after.text)
                    or (words >= _SECTION_TEXT_WORDS and after.text.rstrip().endswith(":"))):
        return False
    line = label.lines[0]
    left, right = column
    return line.x0 > left + 2 * line.size and abs((line.x0 + line.x1) - (left + right)) / 2 <= 1.5 * line.size


def _labels(label: Draft, title: Draft) -> bool:
    if label.kind not in ("heading", "paragraph") or len(label.lines) != 1 or label.table is not None \
            or not section_label(label.text) or title.kind != "heading" \
            or title.page != label.page or len(title.lines) > _HEADING_MAX_LINES \
            or section_label(title.text):
        return False
    # (A numbered heading under the label is a section of its own: "PART 2" over "2.1
    # Background", "Appendix" over "A.1 Survey instrument".)
    if title.number_depth or _SECTION.match(title.text) or _named_section(title.text) \
            or re.match(r"^[A-Z]?\d{1,2}(?:\.\d{1,2})+\s", title.text):
        return False
    above, below = label.lines[0], title.lines[0]
    size = max(above.size, below.size)
    if not 0 <= below.top - above.bottom <= _LABEL_TITLE_GAP * size:
        return False
    centred = abs((above.x0 + above.x1) - (below.x0 + below.x1)) / 2 <= size
    return centred or abs(above.x0 - below.x0) <= 0.5 * size


def _wraps_mixed(first: Draft, second: Draft) -> bool:
    if first.kind != "heading" or second.kind != "heading" or first.page != second.page \
            or not first.lines or not second.lines or second.number_depth or _SECTION.match(second.text) \
            or len(first.lines) + len(second.lines) > _DISPLAY_MAX_LINES:
        return False
    above, below = first.lines[-1], second.lines[0]
    size = max(above.size, below.size)
    if abs(above.size - below.size) > 0.5 or not 0 < below.top - above.top <= _LINE_PITCH * size \
            or above.text.rstrip().endswith(SENTENCE_END) or below.x0 > above.x1 or below.x1 < above.x0:
        return False
    # (One typeface's weights or slants: a key figure's label over its figure set in another
    # face is no title.)
    if _main_family(above) != _main_family(below):
        return False
    mixed = False
    for flag in ("bold", "italic"):
        upper, lower = getattr(above, flag), getattr(below, flag)
        if upper != lower:
            if not any(getattr(w, flag) == lower for w in above.words) \
                    and not any(getattr(w, flag) == upper for w in below.words):
                return False
            mixed = True
    return mixed


def _wraps_spaced(first: Draft, second: Draft) -> bool:
    """Two one-line headings set alike (size, weight, slant, typeface) one under the other up
    to two sizes apart top to top -- a double-spaced title -- where the break falls inside a
    phrase: the first line ends on a word no title ends with, or the second opens with a word
    no title or subtitle opens with ("... MARKET STRUCTURE BASED" over "UPON EXISTING
    SOURCES").  A title over a subtitle set alike breaks between phrases and stays two."""
    if first.kind != "heading" or second.kind != "heading" or first.page != second.page \
            or len(first.lines) != 1 or len(second.lines) != 1 or second.number_depth \
            or _SECTION.match(second.text):
        return False
    above, below = first.lines[0], second.lines[0]
    if abs(above.size - below.size) > 0.5 or above.bold != below.bold or above.italic != below.italic \
            or _main_family(above) != _main_family(below) \
            or not 0 < below.top - above.top <= _SPACED_PITCH * max(above.size, below.size) \
            or below.x0 > above.x1 or below.x1 < above.x0 \
            or above.text.rstrip().endswith((*SENTENCE_END, ":")):
        return False
    last = above.text.split()[-1].lower().strip("–—-")
    opening = below.text.split()[0].lower()
    return last in _NO_TITLE_END or opening in _NO_TITLE_START


def _main_family(line: Line) -> str:
    """The typeface most of a line's characters are set in."""
    families: Counter[str] = Counter()
    for word in line.words:
        families[font_family(word.font)] += len(word.text)
    return families.most_common(1)[0][0]


def head_lower_case_titles(drafts: list[Draft], style: Style) -> None:
    """A page's first block set in display type wholly in lower case ("eastern
    mediterranean", a designer's title), a few words with no figure, over running text, is
    the page's title: lower-case starts are otherwise no title's (what a larger line says of
    a key figure, a chart's axis title), but those are neither display type nor first."""
    first_on_page: set[int] = set()
    seen: set[int] = set()
    for draft in drafts:
        if draft.page not in seen:
            seen.add(draft.page)
            first_on_page.add(id(draft))
    for draft, after in zip(drafts, drafts[1:], strict=False):
        text = draft.text.strip()
        if id(draft) not in first_on_page or draft.kind != "paragraph" or len(draft.lines) > 2 \
                or draft.size < style.body_size * _DISPLAY_SCALE or text != text.lower() \
                or not any(ch.isalpha() for ch in text) or any(ch.isdigit() for ch in text) \
                or len(text.split()) > _SENTENCE_WORDS or text.endswith((*SENTENCE_END, ",")) \
                or _quotation_tail(text):
            continue
        if after.page == draft.page and after.kind == "paragraph" and _running_text(after.text):
            draft.kind = "heading"


def settle_heading_faces(drafts: list[Draft], style: Style) -> None:
    """Body-size headings set apart by their typeface alone (see _set_apart) stay headings
    only over running text, as Word's lower heading styles head a section's paragraphs (a
    brochure's "Solution Brief" over a title is a label in a face of its own).  Then a
    one-line paragraph of one capitalised word ("Background") set in the face, size and
    weight of two or more such headings is one of them: alone, such a word could be a form's
    or a figure's label, but the document sets its headings so.  Over running text too.  So
    is each of two or more such words in the face of one such heading."""
    for index, draft in enumerate(drafts):
        after = drafts[index + 1] if index + 1 < len(drafts) else None
        if draft.by_face and draft.kind == "heading" and not (
                after is not None and after.page == draft.page and after.kind == "paragraph"
                and _running_text(after.text)):
            draft.kind = "paragraph"
    faces: Counter[tuple[str, float, bool, bool]] = Counter()
    for draft in drafts:
        if draft.kind == "heading" and len(draft.lines) == 1 and not draft.bold \
                and not draft.lines[0].italic and abs(draft.size - style.body_size) <= 0.5:
            faces[_face_key(draft)] += 1
    if not faces:
        return

    def lone_word(draft: Draft, after: Draft) -> bool:
        text = draft.text.strip()
        return draft.kind == "paragraph" and len(draft.lines) == 1 and faces[_face_key(draft)] >= 1 \
            and len(text.split()) == 1 and text[:1].isupper() and text.isalpha() \
            and draft.lines[0].face != style.body_face \
            and after.page == draft.page and after.kind == "paragraph" and _running_text(after.text)

    lone = [draft for draft, after in zip(drafts, drafts[1:], strict=False) if lone_word(draft, after)]
    # (One such heading and two or more such words vouch for one another as well: a report
    # whose sections are "Background", "Finance" and "Progress this quarter" sets one
    # heading of two words.)
    words: Counter[tuple[str, float, bool, bool]] = Counter(_face_key(draft) for draft in lone)
    for draft in lone:
        if faces[_face_key(draft)] >= 2 or words[_face_key(draft)] >= 2:
            draft.kind = "heading"


def unhead_other_face_labels(drafts: list[Draft], style: Style) -> None:
    """A line that only its typeface set apart (see _set_apart) is no heading when that face
    is not kept for headings: when the document sets paragraphs of running text in it
    (_TEXT_FACE_PARAGRAPHS or more: a newsletter's second body face, a sidebar's), or when the
    block before or after it on the page is another line of that face at its size (a chart's
    title and labels, a form's field names, a caption and its credit, an address's lines: a
    run of labels; a heading stands alone between the text before and after it), or when the
    block after it goes on in lower case (a product's name set in sans in the middle of a
    sentence, its line cut from the lines around it)."""
    if not style.body_family:
        return
    text_faces: Counter[str] = Counter(
        draft.lines[0].face for draft in drafts
        if draft.kind == "paragraph" and len(draft.lines) >= 2 and abs(draft.size - style.body_size) <= 0.5)
    for index, draft in enumerate(drafts):
        if draft.kind != "heading" or len(draft.lines) != 1 or draft.bold \
                or abs(draft.size - style.body_size) > 0.5:
            continue
        if not draft.by_face:
            continue
        line = draft.lines[0]
        face = line.face
        beside = [drafts[i] for i in (index - 1, index + 1)
                  if 0 <= i < len(drafts) and drafts[i].page == draft.page]
        runs_on = index + 1 < len(drafts) and drafts[index + 1].page == draft.page \
            and drafts[index + 1].text.lstrip()[:1].islower()
        labels = any(len(other.lines) == 1 and other.lines[0].face == face
                     and abs(other.size - draft.size) <= 0.5 for other in beside)
        if text_faces[face] >= _TEXT_FACE_PARAGRAPHS or runs_on or labels or _indented(line, beside):
            draft.kind = "paragraph"


def _indented(line: Line, beside: list[Draft]) -> bool:
    """Whether ``line`` stands indented from the text before and after it (two blocks of two
    lines or more, the column's measure), neither at its left edge nor centred on it: a pull
    quote or a callout set in from the text, not a heading, which starts at the text's edge or
    is centred over it."""
    if len(beside) < 2 or any(len(other.lines) < 2 for other in beside):
        return False
    left = min(other_line.x0 for other in beside for other_line in other.lines)
    right = max(other_line.x1 for other in beside for other_line in other.lines)
    return line.x0 > left + _INDENT * line.size \
        and abs((line.x0 + line.x1) / 2 - (left + right) / 2) > _INDENT * line.size


def head_sentences_in_heading_faces(drafts: list[Draft], style: Style) -> None:
    """A bold line of the body's size shaped as a sentence (classify left it text) heads the
    running text under it when two or more headings are set in its face, size and weight and it
    is not spaced as text (see _binds): the document sets its headings so, and a newsletter's
    headline reads as a sentence, "New Library Will Open in March".  (Alone in its face, or
    spaced as the paragraphs round it, it is a statement set bold, "All Members Must Register
    Before the Annual Meeting"; one in sentence case, "All members must register before the
    meeting", is a statement whatever its spacing.)"""
    faces: Counter[tuple[str, float, bool, bool]] = Counter(
        _face_key(draft) for draft in drafts
        if draft.kind == "heading" and len(draft.lines) == 1 and abs(draft.size - style.body_size) <= 0.5)
    for index, draft in enumerate(drafts[:-1]):
        after = drafts[index + 1]
        # (A numbered one, "2. Applicants Must Provide Proof of Identity", is read as a list's
        # item until then, as its fellows "1. Who Can Apply" were before classify headed them.)
        if draft.sentence and draft.kind in ("paragraph", "list_item") and faces[_face_key(draft)] >= 2 \
                and _title_case(draft.text) \
                and after.page == draft.page and after.kind == "paragraph" and _running_text(after.text) \
                and _binds(drafts[index - 1] if index else None, draft, after, style) is not False:
            draft.kind = "heading"
            draft.number_depth = _number_depth(draft.text, _section(draft.text, frozenset()))


# A headline is set more than this many times the body's size (a lead paragraph or a bold
# statement set large is little larger: 13 points over a body of 10, see _headline_set).
_HEADLINE_SCALE = 1.35


def _headline_set(draft: Draft, style: Style) -> bool:
    """Whether ``draft`` is one line set as a newspaper's headline is: clearly larger than the
    body (_HEADLINE_SCALE) and bold, or in another typeface than the body's."""
    return len(draft.lines) == 1 and draft.size > style.body_size * _HEADLINE_SCALE \
        and ((draft.bold and not style.body_bold)
             or font_family(draft.lines[0].words[0].font) != style.body_family)


def head_headlines(drafts: list[Draft], style: Style) -> None:
    """A newsletter's headline is often a sentence ("Council approves the new library
    budget."), which classify leaves text when it runs past _SENTENCE_WORDS: set as a
    headline (_headline_set), alone on its line, right over its story -- a paragraph of running
    text at the body's size on its page -- it heads the story, set closer to it than to the
    block above it on its page.  (A lead paragraph set large runs over lines; a pull quote or a
    callout set between a story's paragraphs, a standfirst under its headline or a cover's
    tagline under its title stand as far from the block above as from the text below.)  A
    sentence in the regular weight right under a larger heading on its page, the only one set
    in its face, is that title's standfirst however close it sits to the text (_standfirst); a
    newsletter's headlines under its masthead are set alike, one for each story, and a lone
    story's headline is set bold."""
    faces = Counter(_face_key(draft) for draft in drafts if draft.sentence and draft.kind == "paragraph")
    for index, draft in enumerate(drafts[:-1]):
        after = drafts[index + 1]
        before = drafts[index - 1] if index else None
        if draft.sentence and draft.kind == "paragraph" and draft.size > style.body_size * _HEADLINE_SCALE \
                and after.page == draft.page and after.kind == "paragraph" and _running_text(after.text) \
                and abs(after.size - style.body_size) <= 0.5 and len(after.lines) >= 2 \
                and _bound_below(before, draft, after, style) \
                and not (faces[_face_key(draft)] == 1 and _standfirst(before, draft, style)):
            draft.kind = "heading"


def _standfirst(before: Draft | None, draft: Draft, style: Style) -> bool:
    """Whether ``draft`` stands right under a heading set larger than it on its page, in its
    column (their left edges or their centres level): a title's lead sentence, in the regular
    weight, or in bold at the body's size or a little larger (a headline is bold and set larger
    still, _HEADLINE_SCALE).  A division's bare label over it ("Chapter 2", "Part III") has no
    title but this sentence, which is the chapter's title however it ends."""
    if (draft.bold and draft.size > style.body_size * _HEADLINE_SCALE) or before is None \
            or before.kind != "heading" or before.page != draft.page \
            or before.size < draft.size * HEADING_SCALE or section_label(before.text):
        return False
    return abs(before.box[0] - draft.box[0]) <= 2.0 \
        or abs((before.box[0] + before.box[2]) / 2 - (draft.box[0] + draft.box[2]) / 2) <= 2.0


def _unhead_standfirsts(drafts: list[Draft], style: Style) -> None:
    """A short sentence set in bold a little larger than the body (classify heads a line of
    _SENTENCE_WORDS or fewer set larger) on one line right under a larger heading
    (_standfirst), over text, is that title's standfirst: a paragraph.  Only where it is the
    one such sentence in its face: a newsletter's headlines set so, each a sentence, head its
    stories."""
    faces = Counter(_face_key(draft) for draft in drafts
                    if draft.kind in ("heading", "paragraph") and _stated(draft))
    for index, draft in enumerate(drafts[1:-1], start=1):
        after = drafts[index + 1]
        if draft.kind == "heading" and draft.bold and not draft.number_depth and len(draft.lines) == 1 \
                and _stated(draft) and faces[_face_key(draft)] == 1 \
                and after.page == draft.page and after.kind == "paragraph" and _running_text(after.text) \
                and _standfirst(drafts[index - 1], draft, style):
            draft.kind, draft.label = "paragraph", True


def _stated(draft: Draft) -> bool:
    """Whether a block reads as a sentence put as a statement: four words or more in sentence
    case, ending in a full stop (not an ellipsis)."""
    text = draft.text.rstrip()
    return len(text.split()) >= 4 and text.endswith(".") and not text.endswith("..") and not _title_case(text)


def _bound_below(before: Draft | None, draft: Draft, after: Draft, style: Style) -> bool:
    """Whether a block sits closer to the block under it than to the one over it (any kind:
    a heading's too, unlike _binds), or has nothing over it in its column on its page."""
    gaps = _gaps_in_column(before, draft, after)
    if gaps is None or gaps[0] < 0 or gaps[1] < 0:
        return True
    return gaps[0] - gaps[1] >= max(1.0, _BINDING * style.body_size)


def _face_key(draft: Draft) -> tuple[str, float, bool, bool]:
    line = draft.lines[0]
    return line.face, round(draft.size * 2) / 2, draft.bold, line.italic


def unhead_labels(drafts: list[Draft], style: Style) -> None:
    """A heading set at the body's size (bold, not numbered as a section) is text when it is
    spaced as text in a document whose headings are not (see _binds), and a label when what
    follows it is not text it heads: a table (the table's title), a list (a label like
    "NOTES" before numbered notes), or short lines of a few words each (a name in a
    signature block, then a job title and a date).  A heading right over a table of contents'
    entries (its title) heads them: the rules that read past the entries to the text after
    them (an image's caption, an address) do not judge it."""
    titles = [draft for draft, after in zip(drafts, drafts[1:], strict=False)
              if draft.kind == "heading" and after.contents is not None]
    _unhead_page_first_entries(drafts)
    _unhead_letter_subjects(drafts)
    _unhead_table_titles(drafts)
    _unhead_numbered_items(drafts, style)
    _unhead_names_over_addresses(drafts)
    _unhead_attributions(drafts)
    _unhead_credited_quotes(drafts)
    _unhead_under_notes(drafts, style)
    _unhead_over_figures(drafts)
    _unhead_caption_titles(drafts)
    _unhead_body_styles(drafts, style)
    _unhead_admonitions(drafts, style)
    _unhead_unanswered_questions(drafts, style)
    _unhead_signatories(drafts, style)
    _unhead_bylines(drafts, style)
    _unhead_standfirsts(drafts, style)
    binding = _binding(drafts, style)
    sections = _section_faces(drafts)
    for index, draft in enumerate(drafts):
        # (A letter and a full stop may be an initial, "D. Jones": only figures number here.)
        if draft.kind != "heading" or draft.size >= style.body_size * HEADING_SCALE or draft.number_depth:
            continue
        after = _next_block(drafts, index)
        # (Nothing after it on the page is no sign: a heading may end a page, its text on the next.)
        if after is None:
            continue
        if binding and _binds(drafts[index - 1] if index else None, draft, after, style) is False:
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True
            continue
        # A section's heading heads the sections under it, set no larger than it: one directly
        # over a larger heading on its page heads nothing (a press release's "ENDS" over its
        # "Notes to editors"; a chapter's heading over its first section's is set larger).
        if after.kind == "heading" and after.page == draft.page and after.size >= draft.size * HEADING_SCALE:
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True
            continue
        # (A box's label opens the box's text: no short line of a signature block.  A form's
        # "Key: value" fields, two or more, are short lines too, however long the value:
        # "Release date: 12 March 2024" under a release's "Official statistics"; one such line
        # alone is a run-in lead, "Jane Smith: Experience in ...".  Not under a line set as
        # the document's sections' headings are, one of which heads running text: "Meeting
        # details" over its date and venue, beside "Background" over its text.)
        if after.kind in ("table", "list_item") or (
                after.kind == "paragraph" and not after.boxed
                and _short_lines(after, fields=_face_key(draft) not in sections)
                and not after.text.rstrip().endswith(SENTENCE_END)):
            # In a document whose headings sit closer to their text than to the text above, a
            # heading over a list is spaced so too, a label over its list is spaced like the
            # paragraphs around it.  Only below running text: under small print (a table's
            # source note, spaced off the table) a label sits apart too.  Not over a table (its
            # title may be spaced so) nor over short lines (a form's field over its box, a name
            # over a job title in a signature block are spaced so too).
            before = drafts[index - 1] if index else None
            if _heads_bulleted_prose(draft, after) or _heads_like_sections(draft, after, sections, style):
                continue
            if binding and after.kind == "list_item" and before is not None \
                    and before.size >= _SMALL_PRINT * style.body_size \
                    and _binds(before, draft, after, style, lists=True):
                continue
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True
    _unhead_label_runs(drafts, style)
    _unhead_line_runs(drafts, style)
    _unhead_definition_terms(drafts, style)
    _unhead_glossary_terms(drafts, style)
    for draft in titles:
        draft.kind, draft.label = "heading", False


def _heads_like_sections(draft: Draft, after: Draft, sections: set[tuple[str, float, bool, bool]],
                         style: Style) -> bool:
    """A heading set larger than the body (if less than a heading's step) over a table or a
    list heads it as a section when its face is that of the headings over the document's
    running text: a datasheet's "Specifications" over its parameters, set as its "Description"
    over a paragraph.  (A table's title is set otherwise, or at the body's size: a label.)"""
    return after.kind in ("table", "list_item") and draft.size >= style.body_size + _FACE_STEP \
        and _face_key(draft) in sections


def _short_lines(draft: Draft, fields: bool = True) -> bool:
    """Whether a block's lines are a few words each (a signature's, an address's) or, with
    ``fields``, a form's "Key: value" fields, two or more of them, the others short."""
    keyed = [bool(_KEY_VALUE.match(line.text.strip())) for line in draft.lines]
    if not fields and any(keyed):
        return False  # (fields read a line each, pdf_field_lines: one is no signature's line)
    if all(len(line.text.split()) <= 4 for line in draft.lines):
        return True
    return fields and sum(keyed) >= 2 and all(k or len(line.text.split()) <= 4
                                              for k, line in zip(keyed, draft.lines, strict=True))


def _section_faces(drafts: list[Draft]) -> set[tuple[str, float, bool, bool]]:
    """The styles (_face_key) of headings set directly over running text (not over a form's
    fields or short lines, whatever their words add up to): the document's sections' headings."""
    faces = set()
    for index, draft in enumerate(drafts):
        after = _next_block(drafts, index) if draft.kind == "heading" else None
        if after is not None and after.kind in ("paragraph", "list_item") and _running_text(after.text) \
                and not _short_lines(after):
            faces.add(_face_key(draft))
    return faces


def _alike(a: Draft, b: Draft) -> bool:
    """Two blocks set in one style: size (within half a point), weight, slant and typeface."""
    return abs(a.size - b.size) <= 0.5 and a.bold == b.bold \
        and all(line.italic for line in a.lines) == all(line.italic for line in b.lines) \
        and _main_family(a.lines[0]) == _main_family(b.lines[0])


def _unhead_admonitions(drafts: list[Draft], style: Style) -> None:
    """The label of a warning or a notice on a line of its own at the body's size ("WARNING",
    "Important", "PLEASE NOTE", see _ADMONITION) labels the text under it, however it is set:
    no section is named so.  (Judged after the boxes: a box's label is the box's, and a heading
    over the box heads it.)"""
    for draft in drafts:
        if draft.kind == "heading" and draft.size < style.body_size * HEADING_SCALE \
                and _ADMONITION.match(draft.text.strip()):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


def _unhead_signatories(drafts: list[Draft], style: Style) -> None:
    """A signatory's name in capitals after initials ("R. METSOLA", "J.-P. DUPONT"), at the
    body's size, under the role it signs in (short lines ending no sentence that name a role or
    whom it signs for: "For the Council", "The President", _SIGNS_FOR) or under another such
    name, and over no running text on its page, is a signature block's, not a section (an
    act's, a contract's).  A lettered section set so, "B. BACKGROUND", follows text rather than
    a role (a source line, "Source: World Bank (2023)", is none)."""
    texts = [d for d in drafts if d.kind != "contents"]
    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.number_depth or draft.size >= style.body_size * HEADING_SCALE \
                or not index or not _SIGNATORY.match(draft.text.strip()):
            continue
        before = texts[index - 1]
        role = before.text.strip()
        if not (before.page == draft.page and before.kind == "paragraph" and (
                _SIGNATORY.match(role) or (
                    _short_lines(before, fields=False) and not role.endswith(SENTENCE_END)
                    and (_SIGNS_FOR.match(role) or _CREDIT_ROLE.search(role))))):
            continue
        # (Only the rest of its page: walked forward, not filtered over the whole document.)
        rest = []
        for later in texts[index + 1:]:
            if later.page != draft.page or later.kind == "heading":
                break
            rest.append(later)
        if not any(d.kind in ("paragraph", "list_item") and _running_text(d.text) for d in rest):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


def _unhead_bylines(drafts: list[Draft], style: Style) -> None:
    """An article's byline, one line not in bold below the heading size right under a larger
    heading ("By Jane Smith", "Sarah Jones, Editor": _BYLINE, a name of two words or more, or
    a name and a writer's or an officer's role), names its writer, not a section: a
    sub-section's heading under its section's is a title, not a person's name."""
    for before, draft in zip(drafts, drafts[1:], strict=False):
        if draft.kind == "heading" and before.kind == "heading" and before.page == draft.page \
                and not draft.bold and not draft.number_depth and len(draft.lines) == 1 \
                and draft.size < style.body_size * HEADING_SCALE and before.size > draft.size \
                and _BYLINE.match(draft.text.strip()):
            draft.kind, draft.label = "paragraph", True


def _unhead_unanswered_questions(drafts: list[Draft], style: Style) -> None:
    """Questions set like headings at the body's size (bold, ending in a question mark,
    numbered or not) with no running text under them up to the next heading -- answer boxes
    ("☐ Yes  ☐ No"), a line to write on, a routing note ("If No, go to question 5") -- are a
    questionnaire's items, not sections: an FAQ's questions head their answers' text, short
    answers in words too ("Monday to Friday, 9am to 5pm"), and a report's questions their
    sections' text under sub-headings of another style ("What did we find?" over "Housing").  The
    lines set alike (size, weight, number form) are judged together: where two or more are
    questions and at least as many of those are unanswered as answered (an answer's boxes may
    run on into the next paragraph), the questions are items, and so are the numbered lines
    among them with no running text under them before their answer's boxes or line to write
    on (an item put as an instruction, "Tick every service you used", over the form's closing
    words)."""
    texts = [d for d in drafts if d.kind != "contents"]
    groups: dict[tuple[float, bool, str], list[tuple[Draft, bool, bool, bool, bool]]] = {}
    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.size >= style.body_size * HEADING_SCALE:
            continue
        # (A short answer in words stands directly under its question: not a later question
        # of the questionnaire made text.)
        answered = index + 1 < len(texts) and texts[index + 1].kind == "paragraph" \
            and _short_answer(texts[index + 1].text)
        boxed = texted = itemised = False
        window = texts[index + 1:index + 1 + _ANSWER_BLOCKS]
        for offset, after in enumerate(window if not answered else []):
            # (A sub-heading in another style, no larger, opens a part of the question's
            # section: a report's "What did we find?" over its "Housing" and "Transport".)
            if after.kind == "heading" and (_alike(after, draft) or after.size > draft.size + 0.5):
                break
            if after.kind in ("paragraph", "list_item") and _running_text(after.text):
                answered = True
                break
            # (Its answer's boxes or line to write on come first: what follows them, the
            # form's closing words, answers no question.)
            if after.kind in ("paragraph", "list_item") and _ANSWER_FORM.search(after.text):
                boxed = _answer_space(after.text)
                texted = boxed and _text_under_answer(window[offset + 1:], draft)
                itemised = boxed and _heads_own_items(window[offset:], draft)
                break
        key = (*_style_key(draft), _number_form(draft))
        groups.setdefault(key, []).append((draft, answered, boxed, texted, itemised))
    for (_, _, form), lines in groups.items():
        questions = [answered for draft, answered, *_ in lines if draft.text.rstrip().endswith("?")]
        if len(questions) >= 2 and 2 * questions.count(False) >= len(questions):
            for draft, answered, *_ in lines:
                if draft.text.rstrip().endswith("?") or (form and not answered):
                    _unhead_item(draft)
        elif form:
            _unhead_instructions(lines)


def _unhead_instructions(lines: list[tuple[Draft, bool, bool, bool, bool]]) -> None:
    """A form made only of numbered instructions ("1. Enter your full name as on your
    passport", no question mark), each over its answer's boxes or line to write on: lines set
    and numbered alike (``lines``: each with whether running text answers it and whether
    answer boxes do, whether running text follows those, and whether the boxes open lines of
    its own items, see _unhead_unanswered_questions), two or more of them instructions over
    boxes and at least half of all so, are the form's items.  An instruction is worded as a
    sentence (_instruction_worded): a checklist's numbered sections ("1. Before You Start" over
    its boxes to tick) are titled, and a report's numbered sections ("1. Introduction") head
    running text.  So is a checklist's title in lower case, a few words that open with no
    instruction's verb over lines of its own items ("1. Fire exits and escape routes" over "☐
    Exit signs lit", "☐ Doors open freely": _checklist_titled).  So do a policy's clauses each
    over a line for the reader's initials and then the clause's text, most of them so: a form's
    closing words follow its last item's answer only."""
    boxed = [(draft, texted) for draft, answered, over_boxes, texted, itemised in lines
             if over_boxes and not answered and _instruction_worded(draft.text)
             and not (itemised and _checklist_titled(draft.text))]
    texted = sum(texted for _, texted in boxed)
    if len(boxed) >= 2 and 2 * len(boxed) >= len(lines) and 2 * texted <= len(boxed):
        for draft, _ in boxed:
            _unhead_item(draft)


def _text_under_answer(blocks: list[Draft], draft: Draft) -> bool:
    """Whether running text follows a numbered line's answer box or line to write on
    (``blocks``, the blocks after that) before the next line set like it or a larger heading."""
    for after in blocks:
        if after.kind == "heading" and (_alike(after, draft) or after.size > draft.size + 0.5):
            return False
        if after.kind in ("paragraph", "list_item") and _running_text(after.text):
            return True
    return False


def _heads_own_items(blocks: list[Draft], draft: Draft) -> bool:
    """Whether two lines or more of ``blocks`` (the blocks under a numbered line, from its
    first answer box on) each open with one box to tick and then words of their own, before
    the next line set like it or a larger heading: a checklist's items ("☐ Exit signs lit"), not
    a form's answer options set in a row ("☐ Yes  ☐ No") or a line to write on."""
    items = 0
    for after in blocks:
        if after.kind == "heading" and (_alike(after, draft) or after.size > draft.size + 0.5):
            break
        if after.kind not in ("paragraph", "list_item"):
            break
        items += sum(bool(_TICKED_ITEM.match(line.text.strip()))
                     and len(_ANSWER_SPACE.findall(line.text)) == 1 for line in after.lines)
    return items >= 2


def _checklist_titled(text: str) -> bool:
    """Whether a numbered line reads as a checklist's title, not a form's instruction: after its
    number, _CHECKLIST_TITLE_WORDS words at most, no question, its first word no verb a form's
    instruction opens with (_INSTRUCTION_VERBS: "Tick", "Enter", "Give")."""
    marker = ITEM_NUMBER.match(text)
    words = (text[marker.end():] if marker else text).split()
    return bool(words) and len(words) <= _CHECKLIST_TITLE_WORDS and not text.rstrip().endswith("?") \
        and words[0].strip(".,:;").lower() not in _INSTRUCTION_VERBS


def _answer_space(text: str) -> bool:
    """Whether a line under a numbered instruction is its answer's place (_ANSWER_SPACE), not
    a bulleted list's item or a line of code: a glyph that bullets lists as often as it boxes
    answers counts where two stand on the line ("□ Yes  □ No") or one stands after text."""
    if _ANSWER_SPACE.search(text):
        return True
    glyphs = list(_BULLET_OR_BOX.finditer(text.strip()))
    return len(glyphs) >= 2 or bool(glyphs) and glyphs[0].start() > 0


def _instruction_worded(text: str) -> bool:
    """Whether a numbered line reads as an instruction, not a title: after its number, four
    words or more, the words after the first in lower case but for a name or two ("Enter
    your full name as on your passport")."""
    marker = ITEM_NUMBER.match(text)
    words = (text[marker.end():] if marker else text).split()
    return len(words) >= _INSTRUCTION_WORDS and not text.rstrip().endswith("?") \
        and sum(word[:1].isupper() for word in words[1:]) <= 1


def _unhead_item(draft: Draft) -> None:
    """``draft`` made a form's item: a list item when it carries its list's marker, else a
    paragraph, labelled as a heading-like line that heads nothing."""
    draft.kind = "list_item" if draft.marker else "paragraph"
    draft.number_depth = 0
    draft.label = True


def _short_answer(text: str) -> bool:
    """A short answer put in words under a question ("Monday to Friday, 9am to 5pm", "Yes, on
    the council's website."): three words or more, no more than one capitalised after the
    first, no question, no answer box, line to write on or routing note.  A questionnaire's
    options set on one line capitalise each ("One  Two  Three or more")."""
    words = text.split()
    return len(words) >= 3 and sum(w[:1].isupper() for w in words[1:]) <= 1 \
        and not text.rstrip().endswith("?") and not _ANSWER_FORM.search(text)


def unhead_picture_titles(drafts: list[Draft], pictures: list[tuple[float, float, float, float]],
                          style: Style) -> None:
    """A heading at the body's size (not numbered) set directly over a picture, nothing between
    them, is the picture's title ("Hospital admissions by month, 2015 to 2023" over a chart),
    not a section: a section's heading is followed by its text.  (A heading set larger than the
    body may open a section with a figure, and stays one.)"""
    for index, draft in enumerate(drafts):
        if draft.kind != "heading" or draft.number_depth or draft.size >= style.body_size * HEADING_SCALE:
            continue
        x0, _, x1, bottom = draft.box
        after = drafts[index + 1] if index + 1 < len(drafts) else None
        for left, top, right, foot in pictures:
            if left < x1 and x0 < right and -0.2 * draft.size <= top - bottom <= _PICTURE_GAP * draft.size \
                    and (after is None or after.box[1] >= foot - draft.size):
                draft.kind = "list_item" if draft.marker else "paragraph"
                draft.label = True
                break


def _unhead_body_styles(drafts: list[Draft], style: Style) -> None:
    """A heading style is used for headings only: an unnumbered heading set larger than the
    body, in regular weight, in the style of a long paragraph of running text elsewhere in the
    document (three lines or more, 25 words or more) is a short paragraph of that text, or a
    line of a lead paragraph, a pull quote or a sidebar set in it -- larger than the
    document's body, but a body of its own, not a section's title.  (Bold paragraphs are
    statements emphasised, a key finding over its paragraph: bold headings may share their
    style.  At the body's size a heading is set apart by other means, capitals or a slant,
    that unhead_labels judges.  Numbered sections keep their numbers' say: a manual may set
    its lowest sections in its body's type.)"""
    texts = [d for d in drafts if d.kind in ("paragraph", "list_item") and len(d.lines) >= _BODY_STYLE_LINES
             and len(d.text.split()) >= _BODY_STYLE_WORDS]
    for draft in drafts:
        if draft.kind == "heading" and not draft.number_depth and draft.lines and not draft.bold \
                and draft.size >= style.body_size * HEADING_SCALE \
                and any(_alike(draft, text) for text in texts):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


def unhead_empty_sections(drafts: list[Draft]) -> None:
    """A heading titles text: an unnumbered heading followed, up to the next heading or its
    page's end, by two blocks or more none of which is text -- a list's item, a paragraph of
    six words or more or ending a sentence, or a table with two lines at most beside it (a price
    list under its date line and over its note) -- heads no section: it is a chart's title
    over its labels and figures, a panel's name over its key figures, a contents page's group
    name over its entries.  (Nothing after it on its page is no sign: a heading may end a page,
    its text on the next; nor one block, a table's title over it.  The document's first
    heading is its title, over its front matter -- a release's dates, its contacts, its
    authors -- and titles the whole document.)  The document's blocks in reading order, once
    the other rules have unheaded theirs: the next heading ends a section only if it is one."""
    # (A page without running text, a cover or a part's title page, sets its title over short
    # lines by design: unhead_cover judges those.)
    with_text = {d.page for d in drafts
                 if d.kind in ("paragraph", "list_item") and d.lines and _running_text(d.text)}
    title = _document_title(drafts)
    blocks = [d for d in drafts if d.kind != "contents"]
    # The last block of a document of two pages or more heads nothing ("Published March 2024"
    # in bold under a back cover's licence): no page is left for its text.
    if len({d.page for d in blocks}) >= 2 and blocks[-1].kind == "heading" and not blocks[-1].number_depth \
            and blocks[-1] is not title:
        blocks[-1].kind = "list_item" if blocks[-1].marker else "paragraph"
        blocks[-1].label = True
    for index, draft in enumerate(drafts):
        if draft.kind != "heading" or draft.number_depth or draft.page not in with_text or draft is title:
            continue
        section = []
        for after in drafts[index + 1:]:
            if after.page != draft.page or after.kind == "heading":
                break
            if after.kind != "contents":
                section.append(after)
        # (A table with a line over and under it at most is what the heading titles: a price
        # list under its date line and over its note, a label over the table counted with it.
        # A release's status line over its dates' fields and a contents table holds no section.)
        tables = [at for at, block in enumerate(section) if block.kind == "table"]
        titled = {at - 1 for at in tables if at and section[at - 1].label}
        if len(section) >= 2 and not any(_holds_text(block) for block in section) \
                and not (tables and len(section) - len(tables) - len(titled) <= _TABLE_LINES):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


# A form's field label ("Signature", "Date of birth") runs to this many words at most.
_FIELD_LABEL_WORDS = 3


def unhead_field_labels(drafts: list[Draft]) -> None:
    """Two short headings or more in one face, one right under the other, with no text after
    them on their page (a page with running text) head nothing: they are a form's fields'
    labels set in a heading's face, "Signature" over "Date", each beside the line it is signed
    or dated on.  (A section's heading heads text; a section's and its first sub-section's
    headings, one over the other at a page's end, are set apart by size or weight; and
    headings whose text opens the next page, a chapter's sub-headings in one face at a page's
    foot, head that text, as those over a table or a figure's caption head those.)  The
    document's blocks in reading order; its title is spared."""
    with_text = {d.page for d in drafts
                 if d.kind in ("paragraph", "list_item") and d.lines and _running_text(d.text)}
    title = _document_title(drafts)
    blocks = [d for d in drafts if d.kind != "contents"]
    start = 0
    while start < len(blocks):
        end = start + 1
        first = blocks[start]
        if first.kind == "heading" and first.lines and first.page in with_text:
            while end < len(blocks) and blocks[end].kind == "heading" and blocks[end].page == first.page \
                    and blocks[end].lines and _face_key(blocks[end]) == _face_key(first):
                end += 1
        run = blocks[start:end]
        if len(run) >= 2:
            page_end = end  # (the blocks come page by page: the rest of this page, then the next)
            while page_end < len(blocks) and blocks[page_end].page == first.page:
                page_end += 1
            rest = blocks[end:page_end]
            following = blocks[page_end] if page_end < len(blocks) else None
            if not any(_holds_text(d) or _headed_matter(d) for d in rest) and title not in run \
                    and not (following is not None and _holds_text(following)) \
                    and all(not d.number_depth and len(d.text.split()) <= _FIELD_LABEL_WORDS for d in run):
                for draft in run:
                    draft.kind = "list_item" if draft.marker else "paragraph"
                    draft.label = True
        start = end


def _headed_matter(draft: Draft) -> bool:
    """A table or a caption (a figure's, a table's): matter a section's heading heads."""
    return draft.kind in ("table", "table_continued") or bool(_CAPTION.match(draft.text.strip()))


def _document_title(drafts: list[Draft]) -> Draft | None:
    """The document's first heading, spared as its title, but for one with a heading set larger
    under it on its page before any text (a register notice's department in capitals at the
    body's size over its agency and docket lines, then the notice's title a point larger):
    then neither is spared, each judged by what follows it."""
    first = next((at for at, d in enumerate(drafts) if d.kind == "heading"), None)
    if first is None:
        return None
    title = drafts[first]
    for draft in drafts[first + 1:]:
        if draft.page != title.page or draft.kind == "table" or _holds_text(draft):
            break
        if draft.kind == "heading":
            return None if draft.size >= title.size * _TITLE_OVER else title
    return title


def _holds_text(draft: Draft) -> bool:
    """A list's item (a list is what a section may hold: a contents list's entries, a list
    of links), a line of code (set in a typewriter face: a sample's listing), a field's line
    ("Date: 12 May 2024", read a line each: extractors/pdf_field_lines.py; a section of fields
    is its heading's), or a paragraph of running words: six or more, or a sentence's end."""
    text = draft.text.rstrip()
    if draft.kind == "list_item":
        return True
    if draft.kind != "paragraph" or not draft.lines:
        return False
    return len(text.split()) >= _SECTION_TEXT_WORDS or text.endswith(SENTENCE_END) \
        or any(mark in font_family(draft.lines[0].words[0].font) for mark in FIXED_PITCH) \
        or _KEY_VALUE.match(text) is not None


def _heads_bulleted_prose(draft: Draft, after: Draft) -> bool:
    """A bold body-size title over a bulleted list whose first item is running prose (a
    sentence wrapped over lines) heads a section written as bullets ("HIGHLIGHTS", "3-Year-Old
    Cohort" over findings in US evaluation reports): a label over a list ("NOTES", "Caveats")
    is over numbered notes or over items of a few words.  Not a line ending in a colon (a
    label by its punctuation: classify already leaves those)."""
    if after.kind != "list_item" or not after.marker or after.marker[:1].isalnum() \
            or after.marker[:1] == "(" or draft.text.rstrip().endswith(":"):
        return False
    return len(after.lines) >= 2 and len(after.text.split()) >= _SENTENCE_WORDS


def _unhead_page_first_entries(drafts: list[Draft]) -> None:
    """On a page titled as a table of contents ("Table of Contents", :func:`contents_title`)
    and holding three lines or more that open with a whole number, those lines are its
    entries with their page numbers first ("2  Reliance at a Glance", "44  Financial
    Performance"), not sections numbered 2 and 44: a report's designed contents page, which
    the contents rules (page numbers last) do not read."""
    pages: dict[int, list[Draft]] = {}
    for draft in drafts:
        pages.setdefault(draft.page, []).append(draft)
    for page in pages.values():
        entries = [d for d in page if d.kind in ("heading", "paragraph") and _PAGE_FIRST.match(d.text)]
        if len(entries) < _PAGE_FIRST_ENTRIES or not any(contents_title(d.text) for d in page):
            continue
        for draft in entries:
            if draft.kind == "heading":
                draft.kind, draft.label, draft.number_depth = "paragraph", True, 0


def head_ruled_titles(pages: list[tuple[list[Draft], list[Ruling]]], style: Style) -> None:
    """A line at about the body's size and weight set apart by a rule -- a horizontal line
    across its width right under it or right over it, nothing between (a heading's rule, the
    edges of a dark band it is set white on) -- heads the running text after it when two or
    more such lines are set alike in the document: a heading style.  (Colour or small capitals
    alone are not read: the words carry no colour, and small capitals no size of their own.)
    Short titles only: a line of eight words at most, opening with a capital, ending no
    sentence nor in a colon, no "Key: value" field; the rules for body-size headings (what
    follows, how it is spaced, a box's label) judge it after."""
    found: list[Draft] = []
    for drafts, rulings in pages:
        rules = [r for r in rulings if r.horizontal]
        texts = [d for d in drafts if d.kind != "contents"]
        for index, draft in enumerate(texts):
            if draft.kind != "paragraph" or draft.marker or len(draft.lines) != 1 \
                    or not _ruled_title(draft, style):
                continue
            after = texts[index + 1] if index + 1 < len(texts) else None
            before = texts[index - 1] if index else None
            if after is None or after.page != draft.page or after.kind != "paragraph" \
                    or not _running_text(after.text):
                continue
            if any(_rules_off(draft, rule, before, after) for rule in rules):
                found.append(draft)
    styles = Counter(_face_key(draft) for draft in found)
    for draft in found:
        if styles[_face_key(draft)] >= _RULED_TITLES:
            draft.kind = "heading"


def head_accent_titles(drafts: list[Draft], style: Style) -> None:
    """A line at about the body's size and in its weight set apart by its colour alone (its
    first word's fill colour stands apart, _contrasts, from the body text's, the colour most
    lines of the document's paragraphs open in, and from that of the text after it) or by
    small capitals alone (its lower-case letters capitals set smaller) heads the running text
    after it when two or more such lines, in one colour, are set alike in the document: a
    heading style (web pages' and Word's body-size headings).  Lines already headings count
    among them (a title in small capitals reads as capitals: "PROGRESS THIS YEAR" is a
    heading, "SUMMARY" alone is not).  The short titles of ruled ones (_ruled_title: no
    figure, no sentence, no field), not italic (a pull quote's slant), a line alone over
    running text, no closer to the block over it than to the text under it where both are
    on its page (_spaced_apart): a coloured link, key figure, kicker or pull quote is none of
    these, or not twice alike; a quote's credit, a speaker's name, a byline or a "Find out
    more" link is spaced as the paragraphs round it.  The words carry their colour and small
    capitals only where they open a short line or the line after one
    (:func:`extractors.pdf_words._read_accents`; -1 is a colour not read)."""
    texts = [d for d in drafts if d.kind != "contents"]
    body: Counter[int] = Counter()
    for draft in texts:  # (every block of the document: plain loops, the calls kept to the few read)
        if draft.kind == "paragraph" and len(draft.lines) >= 2:
            for line in draft.lines:
                colour = line.words[0].colour
                if colour != -1 and abs(line.size - style.body_size) <= 0.5:
                    body[colour] += 1
    if not body:
        return
    body_colour = body.most_common(1)[0][0]
    found: list[tuple[Draft, tuple[object, ...]]] = []
    for at, (draft, after) in enumerate(zip(texts, texts[1:], strict=False)):
        if (draft.kind != "paragraph" and draft.kind != "heading") or after.kind != "paragraph":
            continue
        first = draft.lines[0].words[0]
        if first.small_caps:
            accent: object = "small capitals"
        elif first.colour != -1 and first.colour != body_colour and _contrasts(first.colour, body_colour) \
                and _contrasts(first.colour, after.lines[0].words[0].colour):
            accent = first.colour
        else:
            continue  # (most lines: what follows is asked of the few set apart)
        if len(draft.lines) != 1 or draft.marker or draft.label or draft.bold != style.body_bold \
                or draft.lines[0].italic or after.page != draft.page or not _ruled_title(draft, style) \
                or not _running_text(after.text) \
                or _spaced_apart(texts[at - 1] if at else None, draft, after, style):
            continue
        found.append((draft, (*_face_key(draft), accent)))
    styles = Counter(key for _, key in found)
    for draft, key in found:
        if styles[key] >= _RULED_TITLES:
            draft.kind = "heading"


def _spaced_apart(before: Draft | None, draft: Draft, after: Draft, style: Style) -> bool:
    """Whether a line stands no closer to the text under it than to the block over it, or
    closer by less than a heading's space before (_SPACE_BEFORE_TITLE; the two on its page, in
    its column): a paragraph's spacing, not a heading's.  A coloured
    credit under a quote, a speaker's name over a speech, a link under a news item, a byline
    under a title are set so; a heading set apart by its colour or small capitals alone has
    space before it (Word's heading styles, a web page's h2-h6).  False when not measured."""
    gaps = _gaps_in_column(before, draft, after)
    if gaps is None:
        return False
    up, down = gaps
    return up >= 0 and down >= 0 and up - down < _SPACE_BEFORE_TITLE * style.body_size


def _gaps_in_column(before: Draft | None, draft: Draft, after: Draft) -> tuple[float, float] | None:
    """The space over a block (from the block before it) and under it (to the block after it),
    None when the three are not on one page in one column (_spaced_apart, _binds)."""
    if before is None or before.page != draft.page or after.page != draft.page:
        return None
    x0, top, x1, bottom = draft.box
    above, below = before.box, after.box
    if above[0] > x1 or above[2] < x0 or below[0] > x1 or below[2] < x0:
        return None  # not one column
    return top - above[3], below[1] - bottom


def _contrasts(colour: int, other: int) -> bool:
    """Whether two fill colours (0xRRGGBB; -1 not read) differ as the eye tells them apart:
    a channel _ACCENT_CONTRAST or more apart (a producer's near-blacks, 0x231F20 beside
    0x000000, are one colour)."""
    if other == -1:
        return True
    return abs((colour >> 16) - (other >> 16)) >= _ACCENT_CONTRAST \
        or abs((colour >> 8 & 0xFF) - (other >> 8 & 0xFF)) >= _ACCENT_CONTRAST \
        or abs((colour & 0xFF) - (other & 0xFF)) >= _ACCENT_CONTRAST


def _ruled_title(draft: Draft, style: Style) -> bool:
    """Whether a line's size and words may make it a ruled title (head_ruled_titles): about the
    body's size, a short title's words, no figure, no sentence, field or caption."""
    text = draft.text.strip()
    return _SMALL_PRINT * style.body_size <= draft.size < style.body_size * HEADING_SCALE \
        and len(text.split()) <= _SENTENCE_WORDS and text[:1].isupper() and _titled(text) \
        and not text.endswith((*SENTENCE_END, ",", ";", ":")) and not _KEY_VALUE.match(text) \
        and not _CAPTION.match(text) and not any(ch.isdigit() for ch in text)


def _rules_off(draft: Draft, rule: Ruling, before: Draft | None, after: Draft) -> bool:
    """Whether ``rule`` runs across the draft's line right under it (above the text after) or
    right over it (below the text before)."""
    x0, top, x1, bottom = draft.box
    reach = _RULE_REACH * draft.size
    if rule.x0 > x0 + 1 or rule.x1 < x1 - 1:
        return False
    if 0 <= rule.top - bottom <= reach and rule.bottom <= after.box[1]:
        return True
    return 0 <= top - rule.bottom <= reach and (before is None or before.page != draft.page
                                                 or rule.top >= before.box[3])


def unhead_box_labels(drafts: list[Draft], rulings: list[Ruling], style: Style) -> None:
    """A heading at the body's size (not numbered) that opens a box -- a rule or a filled
    panel's edge down its left side that starts just above it and goes on past it, along the
    text under it -- is the box's label ("Note", "Warning", "Official statistics"), not a
    section: callouts are set so, on web pages and in reports alike.  The side may start level
    with the label's top: Word's one-cell tables set their text flush with the cell's top edge
    (no top margin).  (A heading over a ruled table stands above the table's rules; one on a
    shaded band has the band end with it, unless the panel goes on at the head of the next
    column, see _panel_goes_on.)"""
    sides = [r for r in rulings if not r.horizontal]
    for draft in drafts:
        if draft.kind != "heading" or draft.number_depth or draft.size >= style.body_size * HEADING_SCALE:
            continue
        x0, top, _, bottom = draft.box
        size = draft.size
        if any(x0 - _BOX_INDENT * size <= side.x0 <= x0
               and top - _BOX_OPENS * size <= side.top <= top + _BOX_FLUSH * size
               and (side.bottom >= bottom + size
                    or side.bottom >= bottom and _panel_goes_on(side, sides, drafts))
               for side in sides):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = draft.boxed = True


def _panel_goes_on(side: Ruling, sides: list[Ruling], drafts: list[Draft]) -> bool:
    """Whether the filled panel whose left side is ``side`` (its right side level with it),
    ending under the label it holds, goes on in a panel of its width at the head of a column
    right of it (nothing of the page above it there) whose text opens with no heading: a box
    broken at a column's foot, its label left alone in the first part (issue 32,
    designed_report: a "Case study" panel at the foot of the first column)."""
    def partner(left: Ruling) -> Ruling | None:
        return next((r for r in sides if r.x0 > left.x0 + 1 and abs(r.top - left.top) <= 1
                     and abs(r.bottom - left.bottom) <= 1), None)

    right = partner(side)
    if right is None:
        return False
    width = right.x0 - side.x0
    for left in sides:
        other = partner(left) if left.x0 >= right.x0 and left.top < side.top else None
        if other is None or abs(other.x0 - left.x0 - width) > 1:
            continue
        beside = [d for d in drafts if d.box[0] < other.x0 and d.box[2] > left.x0]
        inside = [d for d in beside if left.top - 1 <= d.box[1] < left.bottom]
        if inside and not any(d.box[3] <= left.top + 1 for d in beside) \
                and min(inside, key=lambda d: d.box[1]).kind != "heading":
            return True
    return False


def _unhead_letter_subjects(drafts: list[Draft]) -> None:
    """A line set like a heading just above or just below a letter's salutation ("Dear Ms
    Khan,") is the letter's subject ("Renewal of your premises licence", no "Re:" before it),
    however large or bold: a letter's sections come after its opening paragraph, not next to
    the salutation."""
    texts = [d for d in drafts if d.kind != "contents"]
    for index, draft in enumerate(texts):
        if draft.kind != "paragraph" or len(draft.lines) != 1 or not _SALUTATION.match(draft.text.strip()):
            continue
        for near in texts[max(0, index - 1):index] + texts[index + 1:index + 2]:
            if near.kind == "heading" and near.page == draft.page and not near.number_depth:
                near.kind, near.label = "paragraph", True


def _unhead_table_titles(drafts: list[Draft]) -> None:
    """An unnumbered heading directly over a table on its page titles the table, not a
    section, when it is set in a style (size and weight) that no unnumbered heading followed by
    text is set in (the document's sections are set otherwise, or numbered), or when it ends
    with a unit or a year ("Spending by service area (£m)", _TITLE_UNIT).  (Set like the
    headings that head text and naming no unit, a line over a table may head a section that
    opens with its table: it stays.)"""
    texts = [d for d in drafts if d.kind != "contents"]

    def alike(a: Draft, b: Draft) -> bool:
        return abs(a.size - b.size) <= 0.5 and a.bold == b.bold

    heading_text = [d for d, after in zip(texts, texts[1:], strict=False) if d.kind == "heading"
                    and not d.number_depth and after.kind in ("paragraph", "list_item")]
    for draft, after in zip(texts, texts[1:], strict=False):
        if draft.kind == "heading" and not draft.number_depth and after.kind == "table" \
                and after.page == draft.page and (_TITLE_UNIT.search(draft.text.rstrip())
                                                  or not any(alike(draft, other) for other in heading_text)):
            draft.kind, draft.label = "paragraph", True


def _unhead_line_runs(drafts: list[Draft], style: Style) -> None:
    """Three or more short lines set alike below display type, none numbered as a section,
    with nothing between them but at most one line of small print each, are not headings
    whatever their weight: the lines of a figure or a syntax diagram ("CREATE PERMISSION
    <name>", then its one-line gloss, "ON <table>", ...), a list set large.  A section's
    heading is followed by its text at the body's size; two headings in a row are a chapter's
    and its first section's, set differently."""
    def candidate(d: Draft) -> bool:
        return d.kind == "heading" and len(d.lines) == 1 and not d.number_depth \
            and d.size < style.body_size * _DISPLAY_SCALE

    def gloss(d: Draft) -> bool:
        return d.kind == "paragraph" and len(d.lines) == 1 and d.size < style.body_size * 0.95

    texts = [d for d in drafts if d.kind != "contents"]
    runs: list[list[int]] = []  # positions in texts of the lines of each run
    for at, draft in enumerate(texts):
        run = runs[-1] if runs else []
        after = texts[at + 1] if at + 1 < len(texts) else None
        # (A line followed by text at the body's size heads it: a section after the figure.)
        if candidate(draft) and (after is None or gloss(after) or candidate(after)):
            last = texts[run[-1]] if run else None
            if last is not None and at - run[-1] <= 2 and abs(draft.size - last.size) <= 0.5 \
                    and draft.page == last.page and all(gloss(d) for d in texts[run[-1] + 1:at]):
                run.append(at)
            else:
                runs.append([at])
    for run in runs:
        if len(run) >= _LINE_RUN:
            for at in run:
                texts[at].kind = "list_item" if texts[at].marker else "paragraph"
                texts[at].label = True


def _unhead_definition_terms(drafts: list[Draft], style: Style) -> None:
    """A glossary or a definition list: terms at the body's size (bold, not numbered), each
    on its own line over its definition, every line of which is indented from the term (an
    HTML ``dd``, a Word paragraph's left indent), two pairs or more one after the other with
    the terms flush and the definitions flush.  A section's text starts flush with its
    heading, or with only its first line indented; where the document sets its text indented
    from its headings (headings hung out into the margin), its other paragraphs start where
    the definitions do, and the terms are headings."""
    def term(d: Draft) -> bool:
        return d.kind == "heading" and len(d.lines) == 1 and not d.number_depth \
            and d.size < style.body_size * HEADING_SCALE

    def defines(d: Draft, over: Draft) -> bool:
        if d.kind != "paragraph" or d.page != over.page or not d.lines:  # (a table has no lines)
            return False
        indent = min(line.x0 for line in d.lines) - over.lines[0].x0  # (every line indented)
        return indent >= _DEFINITION_INDENT * style.body_size

    pairs = [at for at in range(len(drafts) - 1) if term(drafts[at]) and defines(drafts[at + 1], drafts[at])]
    runs: list[list[int]] = []
    for at in pairs:
        run = runs[-1] if runs else []
        if run and at == run[-1] + 2 and abs(drafts[at].lines[0].x0 - drafts[run[-1]].lines[0].x0) <= 1.0 \
                and abs(drafts[at + 1].lines[0].x0 - drafts[run[-1] + 1].lines[0].x0) <= 1.0:
            run.append(at)
        else:
            runs.append([at])
    for run in runs:
        taken = {id(drafts[at + 1]) for at in run}
        starts = [d.lines[0].x0 for d in drafts if d.kind == "paragraph" and id(d) not in taken and d.lines]
        flush = sum(abs(x - drafts[run[0]].lines[0].x0) <= 1.0 for x in starts)
        indented = sum(abs(x - drafts[run[0] + 1].lines[0].x0) <= 1.0 for x in starts)
        if len(run) >= _DEFINITION_PAIRS and flush >= indented:
            for at in run:
                drafts[at].kind = "list_item" if drafts[at].marker else "paragraph"
                drafts[at].label = True


def _unhead_glossary_terms(drafts: list[Draft], style: Style) -> None:
    """A glossary set as plainly as a section's sub-sections (its definitions flush under its
    terms, _unhead_definition_terms reads the indented ones): terms at the body's size, one line
    each, not numbered, set alike, one after the other, each over a definition of a block or a
    few (a table may go with it), five or more of them in alphabetical order of their first
    letters (three different ones at least).  A writer orders sections by their subject, and
    five titles fall into that order by chance about once in a hundred; a glossary is sorted so
    that a reader finds a term."""
    def term(draft: Draft) -> bool:
        return draft.kind == "heading" and len(draft.lines) == 1 and not draft.number_depth \
            and draft.size < style.body_size * HEADING_SCALE

    place = {id(draft): at for at, draft in enumerate(drafts)}
    runs: list[list[Draft]] = [[]]
    between = 0  # blocks under the run's last term so far
    for draft in [*drafts, None]:
        if draft is not None and draft.kind != "heading":
            between += 1
            continue
        run = runs[-1]
        if run and not 1 <= between <= _GLOSSARY_BLOCKS:
            run.pop()  # (a term over a longer section is none)
            runs.append([])
        elif run and draft is not None and not (term(draft) and _alike(draft, run[-1])):
            runs.append([])
        if draft is not None and term(draft):
            runs[-1].append(draft)
        between = 0
    for run in runs:
        letters = [next((c for c in draft.text.casefold() if c.isalnum()), "") for draft in run]
        if len(run) >= _GLOSSARY_TERMS and letters == sorted(letters) \
                and len(set(letters)) >= _GLOSSARY_LETTERS and not _bound_run(drafts, run, place, style):
            for draft in run:
                draft.kind = "list_item" if draft.marker else "paragraph"
                draft.label = True


def _bound_run(drafts: list[Draft], run: list[Draft], place: dict[int, int], style: Style) -> bool:
    """Whether most of a run's titles that can be measured sit closer to the text under them
    than to the text over them, by a heading's space before (_binds, _spaced_apart): sections
    in alphabetical order by design (countries, regions, members, projects) are headed so; a
    glossary's terms are paragraphs set flush over their definitions, spaced as the
    definitions are (a point or two apart by their letters' shapes)."""
    votes = []
    for draft in run:
        at = place[id(draft)]
        if 0 < at < len(drafts) - 1:
            vote = _binds(drafts[at - 1], draft, drafts[at + 1], style)
            if vote is not None:
                votes.append(vote and not _spaced_apart(drafts[at - 1], draft, drafts[at + 1], style))
    return 2 * sum(votes) > len(votes)


def _number_form(draft: Draft) -> str:
    """The shape of the number a block opens with ("N." for "3.", "(N)" for "(b)", "N.N" for
    "2.1"), "" when it has none."""
    number = draft.marker if draft.marker[:1].isalnum() or draft.marker[:1] == "(" else ""
    if not number:
        match = _SECTION.match(draft.text)
        number = match.group(1) if match else ""
    return re.sub(r"\d+|\b[a-zA-Z]\b|\b[ivxIVX]+\b", "N", number)


def _unhead_numbered_items(drafts: list[Draft], style: Style) -> None:
    """Numbered lines set like headings that are the items of a list: an item whose
    explanation hangs under its text (the next paragraph starts where the words after the
    number start, right of the number), and items one under the other with nothing between
    them, numbered alike ("1." then "2.") from the same left edge.  A numbered section's text
    starts at the column's edge, and its next sibling comes after that text; but a manual
    may indent its text to its sections' titles ("6.4 Internal PXC" in 14 point, the number
    in the margin): a line set larger than the body is no item for its hanging text, items
    are set at their list's size."""
    texts = [d for d in drafts if d.kind != "contents"]
    outlines = _outline_styles(texts)
    items: set[int] = set()
    for index, draft in enumerate(texts):
        form = _number_form(draft) if draft.kind == "heading" else ""
        if not form:
            continue
        after = texts[index + 1] if index + 1 < len(texts) else None
        if after is None or after.page != draft.page:
            continue
        words = draft.lines[0].words
        title_x = words[1].x0 if len(words) > 1 else draft.box[2]
        if after.kind == "paragraph" and not after.label and abs(after.box[0] - title_x) <= 2.0 \
                and title_x > draft.box[0] + 4 and draft.size < style.body_size * HEADING_SCALE \
                and _style_key(draft) not in outlines:
            items.add(id(draft))
        elif after.kind in ("heading", "list_item") and _number_form(after) == form \
                and abs(after.box[0] - draft.box[0]) <= 2.0 and abs(after.size - draft.size) <= 0.5 \
                and after.bold == draft.bold:
            items.update((id(draft), id(after)))
    for draft in texts:
        if id(draft) in items and draft.kind == "heading":
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.number_depth = 0
            draft.label = True


def _style_key(draft: Draft) -> tuple[float, bool]:
    """A block's size (to half a point) and weight: lines set alike whatever their face."""
    return round(draft.size * 2) / 2, draft.bold


def _outline_styles(drafts: list[Draft]) -> set[tuple[float, bool]]:
    """The styles (size, weight) of headings numbered as an outline: a section's number and,
    later, a number under it ("2" then "2.1", "2.1" then "2.1.1") set alike.  A list's items are
    numbered at one depth; sections numbered so may hang their numbers in the margin, their
    text starting where their titles do, and still be sections (_unhead_numbered_items)."""
    seen: dict[tuple[float, bool], set[str]] = {}
    outlines: set[tuple[float, bool]] = set()
    for draft in drafts:
        section = _SECTION.match(draft.text) if draft.kind == "heading" else None
        if section is None or not section.group(2):
            continue
        number, key = section.group(2), _style_key(draft)
        parent = number.rpartition(".")[0]
        if parent and parent in seen.get(key, ()):
            outlines.add(key)
        seen.setdefault(key, set()).add(number)
    return outlines


def _unhead_names_over_addresses(drafts: list[Draft]) -> None:
    """A name set large or bold over an address (a letterhead's organisation, a recipient,
    a contact): the lines under it are short, none ends a sentence, and one holds a figure (a
    street number, a postcode, a telephone number) outside a date and outside an affiliation
    mark (see :func:`_address_figure`).  Whatever its size it
    names a sender or a place, not a section.  (A title over its publication's dates, "Release
    date: 17 September 2022" and "Next release: ...", is a title: web pages of statistics
    print it so; and so is a cover's largest type, see _texts_and_cover.)"""
    texts, cover = _texts_and_cover(drafts)
    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.number_depth or draft is cover:
            continue
        lines: list[Line] = []
        for after in texts[index + 1:]:
            if after.page != draft.page or after.kind != "paragraph" or not all(
                    _address_line(line.text) for line in after.lines):
                break
            lines += after.lines
        # (Lines most of which are "Key: value" fields are a form's or a record's, not an
        # address: "Reference number: HB/2024/0173" under a section's heading.)
        fields = sum(1 for line in lines if _KEY_VALUE.match(line.text.strip()))
        if len(lines) >= 2 and 2 * fields <= len(lines) \
                and any(_address_figure(_DATE_IN_LINE.sub("", line.text)) for line in lines) \
                and not _title_over_letterhead(draft, index, texts, lines):
            draft.kind, draft.label = "paragraph", True


def _title_over_letterhead(draft: Draft, index: int, texts: list[Draft], lines: list[Line]) -> bool:
    """Whether ``draft``, a heading over the address ``lines``, is the page's title over a
    letterhead whose own name opens the address ("Invoice" over "Northgate Facilities Ltd",
    "Unit 4, Riverside Park", ...; a statement's, an order's, a form's title): the first block
    of its page, over an address whose first line is set apart from the lines under it (in
    bold or larger, the lines under it not).  The organisation is named there, so the heading
    names none."""
    if index and texts[index - 1].page == draft.page:
        return False
    name, rest = lines[0], lines[1:]
    return not any(line.bold or line.size >= name.size for line in rest) if not name.bold \
        else not any(line.bold for line in rest)


def _texts_and_cover(drafts: list[Draft]) -> tuple[list[Draft], Draft | None]:
    """The blocks that are not a table of contents' entries, and the heading in the largest
    type of a cover page among them (the document's first page with text, holding no running
    text): the document's title, over its report number, authors, date and client ("Report No.
    2023/85", "Prepared for ..."), which are no address under a name, nor a quotation's credit.
    Each pass that spares the cover's title asks as the blocks then stand: a pass between two
    may make a block of the cover page text (an attribution: _unhead_attributions), and the
    title is then the largest heading left, or none."""
    texts = [d for d in drafts if d.kind != "contents"]
    first = [d for d in texts if d.page == texts[0].page] if texts else []
    headings = [d for d in first if d.kind == "heading"]
    if not headings or any(d.kind in ("paragraph", "list_item") and _running_text(d.text) for d in first):
        return texts, None
    return texts, max(headings, key=lambda d: d.size)


def _unhead_attributions(drafts: list[Draft]) -> None:
    """The short lines set tight under a quotation are its attribution (a person's name, then
    a role: "Shri Mukesh D. Ambani", "Chairman & Managing Director" under a chairman's quote
    in an annual report), whatever their size: a heading titles the text below it and is set
    larger than that text, with space before it; an attribution is smaller than the text
    above it, which it closes, and sits on it.  A quotation here is a block of sentences set
    larger than the line under it (display type, a pull quote) ending a sentence; the lines
    of the attribution follow one another as tight, each a line of a few words.  (Tuned on
    unstructured's pdf/reliance.pdf page 2.)"""
    texts = [d for d in drafts if d.kind != "contents"]
    for index, quote in enumerate(texts):
        if quote.kind != "paragraph" or quote.table is not None or not _quotation(quote):
            continue
        for draft in _set_under(quote, texts[index + 1:], _attribution_line):
            if draft.kind == "heading":
                draft.kind, draft.label = "paragraph", True


def _attribution_line(quote: Draft, draft: Draft, _: list[Draft]) -> bool:
    """Whether ``draft`` may be a line of ``quote``'s attribution (_unhead_attributions): a
    heading's or a paragraph's one line of a few words, smaller than the quotation, ending
    no sentence."""
    return draft.kind in ("heading", "paragraph") and len(draft.lines) <= 1 \
        and len(draft.text.split()) <= _ADDRESS_LINE_WORDS + 2 \
        and not draft.text.rstrip().endswith(SENTENCE_END) and draft.size * HEADING_SCALE <= quote.size


def _unhead_credited_quotes(drafts: list[Draft]) -> None:
    """A line set like a heading with its speaker's credit tight under it is a pull quote
    without quotation marks ("Growth with purpose." over "— Jane Smith, Chief Executive"; "We
    are building a business for the long term" over "Tom Brown" and "Chair"): a heading titles
    the text below it, a quotation is closed by its credit, set smaller and sitting on it.  The
    credit is a block of one to three short lines, none ending a sentence, that opens with a
    dash or names a speaker's role; by its role alone only under a sentence (ending in a full
    stop, or of more than eight words), not under a title (a section "Chair's statement" may
    name its author and role under it).  Not a numbered section, nor a cover's title."""
    texts, cover = _texts_and_cover(drafts)
    for index, quote in enumerate(texts):
        if quote.kind != "heading" or quote.number_depth or quote is cover:
            continue
        credit = _credit_under(quote, texts[index + 1:])
        if not credit:
            continue
        said = quote.text.strip().rstrip(_QUOTES).rstrip()
        if credit[0].marker and credit[0].marker[:1] not in "\u2014\u2013\u2015":
            continue  # (a list under a line, not a credit)
        # (The dash may be read as a list's bullet: "— Tom Brown, Chair" as an item.)
        opening = credit[0].text.strip()
        dashed = _CREDIT_DASH.match(opening) or _CREDIT_DASH.match(f"{credit[0].marker} {opening}")
        named = any(_CREDIT_ROLE.search(block.text) for block in credit)
        if dashed or (named and (said.endswith((".", "!", "?")) or len(said.split()) > _SENTENCE_WORDS)):
            quote.kind, quote.label = "paragraph", True


def _credit_under(quote: Draft, after: list[Draft]) -> list[Draft]:
    """The blocks tight under ``quote`` on its page that may credit it: one to three short lines
    in all, smaller than it, none ending a sentence, each block on the one above in its column
    (the first up to a line of the quotation's below it: under the rule closing a ruled one).
    Blocks of the column beside it read before the credit are passed over."""
    return _set_under(quote, after, _credit_lines, first_gap=quote.lines[-1].height, past_beside=True)


def _credit_lines(quote: Draft, draft: Draft, credit: list[Draft]) -> bool:
    """Whether ``draft`` may go on ``quote``'s credit (the blocks ``credit`` so far): a
    paragraph or an item, no table, smaller than the quote, short lines ending no sentence,
    no more than _CREDIT_LINES lines in all."""
    return draft.kind in ("paragraph", "list_item") and draft.table is None \
        and draft.size * HEADING_SCALE <= quote.size \
        and sum(len(d.lines) for d in credit) + len(draft.lines) <= _CREDIT_LINES \
        and not any(len(line.text.split()) > _ADDRESS_LINE_WORDS + 2
                    or line.text.rstrip().endswith(SENTENCE_END) for line in draft.lines)


def _set_under(block: Draft, after: list[Draft], takes: Callable[[Draft, Draft, list[Draft]], bool],
               first_gap: float | None = None, past_beside: bool = False) -> list[Draft]:
    """The blocks of ``after`` set tight under ``block`` on its page, one after the other while
    ``takes(block, draft, those so far)``: each on the block above it in its column, overlapping it
    across, its top no more than its first line's height below the block above's bottom
    (``first_gap`` for the first, when given) and no more than half that above it (tall glyph
    boxes of lines set tight may overlap a little).  With ``past_beside``, blocks of the
    column beside ``block`` read before the first are passed over.  A quotation's attribution
    (_unhead_attributions) and a pull quote's credit (_credit_under) are found so."""
    taken: list[Draft] = []
    above = block
    for draft in after:
        if draft.page != block.page:
            break
        if past_beside and not taken and (draft.box[0] > block.box[2] or draft.box[2] < block.box[0]):
            continue
        if not takes(block, draft, taken):
            break
        x0, top, x1, _ = draft.box
        ax0, _, ax1, abottom = above.box
        height = first_gap if first_gap is not None and not taken else draft.lines[0].height
        if ax0 > x1 or ax1 < x0 or not -height / 2 <= top - abottom <= height:
            break
        taken.append(draft)
        above = draft
    return taken


def _unhead_under_notes(drafts: list[Draft], style: Style) -> None:
    """A line set under a page's notes (small print: footnotes, a table's sources) and last on
    its page is the page's footer, bold or not ("U.S. Geological Survey, Mineral Commodity
    Summaries, January 2011" under a one-page summary's notes, where no second page shows it
    recurring): notes close the page's text, and a heading has its text, or at least the end
    of the page's text, above nothing but its own section.  Not display type (a heading set
    large at a page's foot, its text on the next page), nor a numbered section.  (Tuned on
    ICDAR 2013's us-026.)"""
    for index, draft in enumerate(drafts):
        if draft.kind != "heading" or draft.number_depth or not index \
                or draft.size >= style.body_size * HEADING_SCALE:
            continue
        before, after = drafts[index - 1], _next_block(drafts, index)
        if (after is not None and after.page == draft.page) or before.page != draft.page \
                or before.kind != "paragraph" or before.size >= _SMALL_PRINT * style.body_size:
            continue
        if draft.box[1] >= before.box[3]:
            draft.kind, draft.label = "paragraph", True


def _quotation(draft: Draft) -> bool:
    """A block of running sentences (two lines or more, ending a sentence or a quotation)."""
    text = draft.text.rstrip().rstrip(_QUOTES).rstrip()
    return len(draft.lines) >= 2 and len(text.split()) >= _SENTENCE_WORDS and text.endswith((".", "!", "?"))


def _address_figure(text: str) -> bool:
    """Whether a line holds an address's figure: digits of two or more ("477 Pitt Street",
    "NSW 2000", "Tel 0123 456789") or in a code of capitals ("GF1 2AB").  A lone digit, or one
    at the end of a word in lower case, is a paper's affiliation mark ("Chen Wei2 and Tom
    O'Neill1" over "1 School of Figure, University of Northfield"): its title over its authors
    stays a heading."""
    for word in text.split():
        digits = sum(ch.isdigit() for ch in word)
        if digits >= 2 and any(a.isdigit() and b.isdigit() for a, b in zip(word, word[1:], strict=False)):
            return True
        if digits and not any(ch.islower() for ch in word) and any(ch.isalpha() for ch in word):
            return True
    return False


def _address_line(text: str) -> bool:
    """A line of an address: a few words that start with a capital or a figure ("4 Mill Lane",
    "Easton EA4 9QP", "Tel 0123 456789"), not ending a sentence (the lines of a narrow column
    of running text are short too, but run on from one to the next); or a web or e-mail address
    alone on its line, lower case as such addresses are ("www.northwind.com" under a back
    cover's postal address).  Bare figures do not count: the figures of a street number, a
    postcode and telephone numbers make a contact line long, not wordy ("Level 14, 477 Pitt
    Street, Sydney NSW 2000", "Telephone 02 8063 4100 Facsimile 02 8063 4101"); but amounts
    (a currency or percent sign) and a line's date count as words, no address holds them
    ("Revenue £12.4 million, up 5.2% on 2023" under "Highlights", "Stage 1 consultation 3
    March 2025 to 14 April 2025" under "Timetable")."""
    text = text.strip()
    if _DATE_IN_LINE.search(text):
        words = len(text.split())
    else:
        words = sum(1 for word in text.split() if not _BARE_FIGURE.fullmatch(word))
    return words <= _ADDRESS_LINE_WORDS and not text.endswith(SENTENCE_END) \
        and (text[:1].isdigit() or text[:1].isupper() or _WEB_ADDRESS.match(text) is not None)


def _unhead_over_figures(drafts: list[Draft]) -> None:
    """A line set like a heading with a bare figure under it (a chart's axis title over its
    scale, a legend's key over a value label, a key figure's label over the figure and its
    unit), or over a short label over one (a chart's
    title over its axis title over its scale), labels the figure: a section's heading is
    followed by words."""
    texts = [d for d in drafts if d.kind != "contents"]

    def bare_figure(draft: Draft) -> bool:
        # (Or a key figure with its unit, "₹7,92,756 crore", "3.6 GW": one number, as many
        # figures as letters, three words at most; a date, "12 May 2024", has two numbers.)
        words = draft.text.split()
        letters = sum(map(str.isalpha, draft.text))
        digits = sum(map(str.isdigit, draft.text))
        numbers = sum(1 for word in words if any(map(str.isdigit, word)))
        return draft.kind == "paragraph" and (letters < 2 or (
            digits >= 2 and digits >= letters and len(words) <= 3 and numbers == 1))

    def short_label(draft: Draft) -> bool:
        return draft.kind in ("paragraph", "heading") and len(draft.lines) == 1 and not draft.number_depth \
            and len(draft.text.split()) <= 3 and not draft.text.rstrip().endswith(SENTENCE_END)

    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.number_depth:
            continue
        following = [d for d in texts[index + 1:index + 4] if d.page == draft.page]
        # A bullet drawn apart from its item's text is a block of its own: no figure, and
        # the heading over it heads a list (a lone mark standing alone, "®", still labels).
        following = [d for at, d in enumerate(following)
                     if not bullet_apart(d, following[at + 1] if at + 1 < len(following) else None)][:2]
        if (following and bare_figure(following[0])) or (
                len(following) == 2 and short_label(following[0]) and bare_figure(following[1])):
            draft.kind, draft.label = "paragraph", True


def _unhead_caption_titles(drafts: list[Draft]) -> None:
    """A line set like a heading directly under a caption's bare label ("Table ES-1", "Figure
    3", "Exhibit 9:"), in the label's column and a line's pitch below it, is the caption's
    title ("Percent of Species Range Overlapping"), however it is set: a report titles its
    tables and figures so, and a section's heading never hangs under a caption.  Found by
    place on the page, not by reading order, which a caption beside a column of text breaks."""
    captions = [d for d in drafts if d.kind == "paragraph" and len(d.lines) == 1
                and _BARE_CAPTION.match(d.text.strip())]
    for draft in drafts:
        if draft.kind != "heading" or draft.number_depth or not draft.lines:
            continue
        x0, top, x1, _ = draft.box
        for caption in captions:
            left, _, right, bottom = caption.box
            if caption.page == draft.page and left <= x1 and x0 <= right \
                    and -0.2 * caption.size <= top - bottom <= _CAPTION_GAP * caption.size:
                draft.kind, draft.label = "paragraph", True
                break


def _unhead_label_runs(drafts: list[Draft], style: Style) -> None:
    """Short lines set alike one after the other with no text between them are labels (a
    form's fields left empty, "Signature" then "Date"), not sections: a section's heading is
    followed by its text, and the next heading of its level comes after that text.  Only
    body-size lines without a section number, each beside another of the same type; a box's
    label is followed by the box's text (a heading over a "Note" box heads it).  Titles centred
    over the text are no form's fields (a patent's title over its first section's)."""
    texts = [d for d in drafts if d.kind != "contents"]
    centred = _centred_over_text(texts)

    def short_alike(a: Draft, b: Draft) -> bool:
        return all(len(d.lines) == 1 and len(d.text.split()) <= 6 and d.kind in ("heading", "paragraph")
                   and not d.number_depth and d.bold and not d.boxed for d in (a, b)) \
            and abs(a.size - b.size) <= 0.5 and a.bold == b.bold and a.lines[0].italic == b.lines[0].italic \
            and not (id(a) in centred and id(b) in centred) and not _label_over_section(a, b)
    alike = [False] * len(texts)
    for index in range(len(texts) - 1):
        if short_alike(texts[index], texts[index + 1]):
            alike[index] = alike[index + 1] = True
    for draft, is_label in zip(texts, alike, strict=True):
        if is_label and draft.kind == "heading" and draft.size < style.body_size * HEADING_SCALE:
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


# A title numbered by a Roman numeral in capitals and a full stop: "I. Background", "IV. Costs".
_ROMAN_TITLE = re.compile(rf"(?:{_ROMAN})\.\s+[A-Z][a-z]")


def _label_over_section(a: Draft, b: Draft) -> bool:
    """Whether ``a`` is a run-in label left alone on its line ("SUPPLEMENTARY INFORMATION:")
    and ``b`` a section numbered in Roman numerals under it ("I. Background"): no two fields
    of a form, however alike they are set (a register notice's labels open its sections)."""
    return a.text.rstrip().endswith(":") and bool(_ROMAN_TITLE.match(b.text)) \
        and not b.text.rstrip().endswith(":")


def _centred_over_text(drafts: list[Draft]) -> set[int]:
    """The one-line blocks (by ``id``) centred over a line of running text on their page: a
    line of a paragraph reaching past both their ends whose middle is theirs within three
    points."""
    spans: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for draft in drafts:
        if draft.kind == "paragraph" and len(draft.lines) > 1:
            spans[draft.page].extend((line.x0, line.x1) for line in draft.lines)
    out = set()
    for draft in drafts:
        if len(draft.lines) != 1:
            continue
        line = draft.lines[0]
        middle = (line.x0 + line.x1) / 2
        if any(abs((x0 + x1) / 2 - middle) <= 3.0 and x0 < line.x0 - 1 and x1 > line.x1 + 1
               for x0, x1 in spans[draft.page]):
            out.add(id(draft))
    return out


def unhead_cover(drafts: list[Draft], style: Style, document: list[Draft] | None = None) -> None:
    """A cover page (the document's first page with text, holding no running text, table or
    table of contents) sets its title largest; the subtitle, the organisation, the date and the
    version under it are set large too, and are not sections: only the headings in the
    largest type there stay headings.  On a first page with running text, the front matter
    above it (a paper's authors and affiliations under its title) likewise: a heading there
    smaller than the largest, with no running text under it but a short line (an affiliation,
    an e-mail address), is not a section -- unless that line is a byline ("By Jane Smith",
    _BYLINE) or it is set as a heading of the ``document`` (its blocks in reading order) below
    the front matter over a byline: a newsletter's first article's title over its byline, set
    as the later articles' titles over theirs.  A section named by its kind and number is one
    ("CHAPTER I GENERAL PROVISIONS" over "§ 1 Definitions" over the sentence that opens a list
    of definitions, "... the following definitions apply:", which is no running text by its
    words alone)."""
    headings = [d for d in drafts if d.kind == "heading"]
    if len(headings) < 2 or any(d.kind in ("table", "contents", "table_continued") for d in drafts):
        return
    first_text = next((index for index, d in enumerate(drafts)
                       if d.kind in ("paragraph", "list_item") and _running_text(d.text)), None)
    if first_text is None:
        largest = max(d.size for d in headings)
        sections = _numbered_over_lines(drafts)
        for draft in headings:
            if draft.size < 0.9 * largest and id(draft) not in sections:
                draft.kind, draft.label, draft.number_depth = "paragraph", True, 0
        return
    front = drafts[:first_text]
    largest = max((d.size for d in front if d.kind == "heading"), default=0.0)
    start = drafts[first_text]
    later = drafts[first_text:] if document is None else \
        document[next((at for at, d in enumerate(document) if d is start), 0):]
    # (The styles of the headings below the front matter set over a byline: the later articles'
    # titles.  A paper's "Abstract" and its sections, set as its authors may be, head text.)
    bylined = {_face_key(d) for d, under in zip(later, later[1:], strict=False)
               if d.kind == "heading" and d.lines and under.kind == "paragraph"
               and _BYLINE.match(under.text.strip())}
    # (From the bottom up: an affiliation unheaded leaves the authors over a short line; a
    # bullet drawn apart from its item's text is none.)
    for index in range(len(front) - 1, -1, -1):
        draft, after = front[index], drafts[index + 1]
        if draft.kind == "heading" and draft.size < 0.9 * largest and after.kind == "paragraph" \
                and not _running_text(after.text) and not _named_section(draft.text) \
                and not (_face_key(draft) in bylined or _BYLINE.match(after.text.strip())) \
                and not bullet_apart(after, drafts[index + 2] if index + 2 < len(drafts) else None):
            draft.kind, draft.label, draft.number_depth = "paragraph", True, 0


def _numbered_over_lines(drafts: list[Draft]) -> set[int]:
    """The ids of headings numbered alike (_number_form, _style_key), two or more, each right
    over a block of two lines or more: a checklist's numbered parts over their items, on a page
    with no running text.  A cover's lines under its title (a subtitle, the organisation, the
    date) are not numbered, nor is each over lines of its own."""
    groups: dict[tuple[float, bool, str], list[Draft]] = {}
    for index, (draft, after) in enumerate(zip(drafts, drafts[1:], strict=False)):
        # (Its items one a line, each a list item of its own: two of them under it are a block.)
        items = drafts[index + 2] if index + 2 < len(drafts) else None
        if draft.kind == "heading" and draft.number_depth and after.kind in ("paragraph", "list_item") \
                and after.page == draft.page \
                and (len(after.lines) >= 2 or after.kind == "list_item" and items is not None
                     and items.kind == "list_item" and items.page == draft.page):
            groups.setdefault((*_style_key(draft), _number_form(draft)), []).append(draft)
    return {id(draft) for group in groups.values() if len(group) >= 2 for draft in group}


def bullet_apart(mark: Draft, after: Draft | None) -> bool:
    """Whether ``mark`` is a list's bullet drawn as a block of its own beside its item's text
    (``after``): one character (a dash, a dot, or a glyph read as a letter, "ｲ"), level with
    the first line of the block that follows it on its page."""
    if len(mark.text.strip()) != 1 or after is None or after.page != mark.page \
            or not mark.lines or not after.lines:
        return False
    own, item = mark.lines[0], after.lines[0]
    return item.x0 > own.x0 and abs((own.top + own.bottom) - (item.top + item.bottom)) / 2 \
        <= 0.5 * max(own.height, item.height)


def _running_text(text: str) -> bool:
    """A paragraph of running text: a sentence of a few words, or many words."""
    words = len(text.split())
    return words >= _COVER_TEXT_WORDS or (words >= 6 and text.rstrip().endswith("."))


def _next_block(drafts: list[Draft], index: int) -> Draft | None:
    """The block after ``drafts[index]`` that is not a table of contents entry."""
    for position in range(index + 1, len(drafts)):
        if drafts[position].kind != "contents":
            return drafts[position]
    return None


def _binding(drafts: list[Draft], style: Style) -> bool:
    """Whether the document sets its headings closer to the text below them than to the text
    above (space before, little after): what its sure headings (larger than the body, or
    numbered as sections) show, when enough of them can be measured.  Documents that space
    headings like paragraphs exist (a bold line and a blank line), and there spacing says
    nothing."""
    votes = []
    for index, draft in enumerate(drafts):
        if draft.kind != "heading":
            continue
        if not (draft.size >= style.body_size * HEADING_SCALE or draft.number_depth):
            continue  # a sure heading: larger than the body, or numbered
        after = _next_block(drafts, index)
        vote = _binds(drafts[index - 1] if index else None, draft, after, style) if after else None
        if vote is not None:
            votes.append(vote)
    return len(votes) >= _BINDING_MIN_VOTES and sum(votes) >= _BINDING_SHARE * len(votes)


def _binds(before: Draft | None, draft: Draft, after: Draft, style: Style,
           lists: bool = False) -> bool | None:
    """Whether a block between two blocks of text in one column sits closer to the text below
    it than to the text above (None when that cannot be measured): headings are set so, a
    bold paragraph has the body's spacing on both sides.  With ``lists`` the text below may
    be a list's first item."""
    below_kinds = ("paragraph", "list_item") if lists else ("paragraph",)
    if before is None or before.kind not in ("paragraph", "list_item") or after.kind not in below_kinds:
        return None
    gaps = _gaps_in_column(before, draft, after)
    if gaps is None:
        return None
    up, down = gaps
    if up < 0 or down < 0:
        return None
    if _taller_box(draft, after):
        # Foot to foot, as baselines stand: a face whose box reaches its font's ascent (an
        # italic or bold heading's) over text whose boxes stop at the letters' tops looks
        # farther from the text under it than it is set (a register's italic "A. Schedule"
        # 4 points before and 2 after read 4.4 over and 4.8 under its box).
        up = draft.lines[0].bottom - before.lines[-1].bottom
        down = after.lines[0].bottom - draft.lines[-1].bottom
    return up - down >= max(1.0, _BINDING * style.body_size)


def _taller_box(draft: Draft, after: Draft) -> bool:
    """Whether a block's first line's box is its font's (every word's box one top and foot,
    reaching _FONT_BOX of the size: letters alone reach less, from an ascender's top to a
    descender's foot) and stands taller than the next block's first line's by _TALLER_BOX of
    the size while both are set at one size: their boxes are of other kinds, the other's top
    the letters'.  (A line of letters' boxes taller by its descenders is no such line.)"""
    line, under = draft.lines[0], after.lines[0]
    height = line.bottom - line.top
    return abs(line.size - under.size) <= 0.05 * under.size and height >= _FONT_BOX * line.size \
        and height - (under.bottom - under.top) >= _TALLER_BOX * under.size \
        and all(abs(word.top - line.top) <= _SAME_BOX_EDGE
                and abs(word.bottom - line.bottom) <= _SAME_BOX_EDGE for word in line.words)


def heading_shaped(draft: Draft) -> bool:
    """Whether a block could be a heading whatever its font: short, with letters, not a
    caption, a table of contents line or a sentence (the test a line set in a heading style
    the document's outline confirms must pass, see :mod:`extractors.pdf_evidence`)."""
    text = draft.text.rstrip()
    if len(draft.lines) > _DISPLAY_MAX_LINES or len(text) > _HEADING_MAX_CHARS or _CAPTION.match(text) \
            or LEADERS.search(text) or sum(map(str.isalpha, text)) < 2 or not _titled(text):
        return False
    # A bulleted item, a "Key: value" field or a label ending in a colon is none whatever its
    # style (a bold label set like a bold Heading 3 the outline confirms is still a label).
    if (draft.marker and not draft.marker[:1].isalnum() and draft.marker[:1] != "(") or _key_value(text) \
            or text.endswith(":"):
        return False
    return not (text.endswith((".", ",", ";")) and not text.endswith(".."))


def rank_headings(style: Style, drafts: list[Draft]) -> None:
    """Heading levels: font sizes (then bold before regular) ranked largest first; where
    headings are numbered, by numbering depth, and the others by the numbered ones' sizes."""
    headings = [d for d in drafts if d.kind == "heading"]
    used = Counter(d.size for d in headings)
    if _set_levels(headings, _Ladder(used, style.body_size)) > _MAX_LEVEL:
        # More sizes than levels: then the ladder is made of the sizes two headings or more
        # are set in, and the display sizes used once above it (a cover's, a back page's) are
        # one level, not a level each (nine sizes of cover type used to push a report's
        # sections to level 4 of 4).  Sizes within 10% are counted together, as ranked.
        recurring = Counter({size: n for size, n in used.items()
                             if sum(m for near, m in used.items()
                                    if abs(near - size) <= 0.1 * max(near, size)) > 1})
        if recurring:
            _set_levels(headings, _Ladder(recurring, style.body_size))
    _nest_outline_classes(headings)
    numbered = [d for d in headings if d.number_depth]
    _nest_label_kinds(numbered)
    if len(numbered) >= _NUMBERED_HEADINGS:
        _rank_by_numbering(numbered, [d for d in headings if not d.number_depth])
    elif numbered:  # one or two: a date ("3.11.") as likely as a numbering; only below their size
        _level_by_depth(numbered, capped=False)


# A title lettered by a capital and a full stop: "A. Proposed Action", "A. TABLE DETECTION".
_LETTERED_TITLE = re.compile(r"[A-Z]\.\s+[A-Z]")

# A title numbered in Roman figures: "I. Background", and in capitals as IEEE sets its
# sections, "II. RELATED WORK".
_ROMAN_SECTION = re.compile(rf"(?:{_ROMAN})\.\s+[A-Z]")


def _outline_class(draft: Draft, before: Draft | None = None) -> int:
    """Where a heading stands in an outline's numbering: 0 unnumbered, 1 a Roman numeral
    ("I. Background"), 2 a capital letter ("A. Proposed Action"); -1 numbered otherwise.  A
    letter that is also a Roman numeral ("C.", "I.", "V.") right after the letter before it
    ("B. Model", "C. Training") is lettered."""
    if _ROMAN_SECTION.match(draft.text):
        if before is None or not _LETTERED_TITLE.match(before.text) or draft.text[1:2] != "." \
                or ord(draft.text[0]) != ord(before.text[0]) + 1:
            return 1
        return 2
    if _LETTERED_TITLE.match(draft.text):
        return 2
    return -1 if draft.number_depth else 0


def _nest_outline_classes(headings: list[Draft]) -> None:
    """Headings set alike (one level) numbered as an outline nests them: Roman-numbered
    sections under an unnumbered title and lettered ones under a Roman-numbered section, one
    level each (a register notice's bold title at the body's size over its "I. Background"
    over its "A. Proposed Action", in one face; an IEEE paper's "II. RELATED WORK" over its
    "A. Table detection" at the body's size).  Only where every "I." or "A." follows a
    heading of the class above at that level: the numbering starts again under each (a
    paper's "I. INTRODUCTION" after its title set otherwise stays at its level, and so does
    a "REFERENCES" after its sections)."""
    shifts: dict[int, dict[int, int]] = {}
    placed: dict[int, int] = {}  # each heading's class, by id
    for level in sorted({d.level for d in headings if d.level is not None}):
        group = [d for d in headings if d.level == level]
        classes = [_outline_class(d, group[at - 1] if at else None) for at, d in enumerate(group)]
        placed.update({id(d): cls for d, cls in zip(group, classes, strict=True)})
        nested = {1: False, 2: False}
        for cls in (1, 2):
            starts = [at for at, d in enumerate(group) if classes[at] == cls and d.text[:2] in ("I.", "A.")]
            nested[cls] = bool(starts) and all(at > 0 and classes[at - 1] == cls - 1 for at in starts)
        if nested[2] and not nested[1] and _unnumbered_among_roman(classes):
            # (Lettered under Roman only where Roman sits under the titles too, or where the
            # unnumbered ones stand outside the Roman run: a paper's "Abstract" before its
            # "I. INTRODUCTION", its "REFERENCES" after its last section.)
            nested[2] = False
        if nested[1] or nested[2]:
            shifts[level] = {0: 0, 1: int(nested[1]), 2: int(nested[1]) + int(nested[2]), -1: 0}
    if not shifts:
        return
    # Each level's extra depth pushes every deeper level down by as much.
    extra = 0
    moved: dict[int, int] = {}
    for level in sorted({d.level for d in headings if d.level is not None}):
        moved[level] = extra
        extra += max(shifts.get(level, {0: 0}).values())
    for draft in headings:
        if draft.level is not None:
            inner = shifts.get(draft.level, {}).get(placed[id(draft)], 0)
            draft.level = min(_MAX_LEVEL, draft.level + moved[draft.level] + inner)


def _unnumbered_among_roman(classes: list[int]) -> bool:
    """Whether an unnumbered heading (class 0) stands between two Roman-numbered ones."""
    roman = [at for at, cls in enumerate(classes) if cls == 1]
    return bool(roman) and any(cls == 0 for cls in classes[roman[0]:roman[-1]])


# Labels that name a division of the back matter ("ANNEX I", "Appendix B", "Schedule 2"): at
# the top level whatever kinds of label the body uses.
_BACK_MATTER = ("annex", "appendix", "schedule")


def _label_kind(text: str) -> str:
    """The kind a numbered heading's label names ("chapter" for "CHAPTER I GENERAL PROVISIONS",
    "§" for "§ 4 Scope", "annex" for "ANNEX CORRELATION TABLE"), "" for a heading numbered
    otherwise ("2.1 Methods")."""
    if text.startswith("§"):
        return "§"
    named = _named_section(text)
    word = (named.group("kind") if named and named.group("kind") else text.split()[0] if text.split() else "")
    kind = word.lower().rstrip(".:")
    return kind if kind in _LABEL_KINDS else ""


def _label_value(text: str) -> int | None:
    """A label's number as a count ("Article 12" 12, "CHAPTER IV" 4, "Part C" 3, "PART ONE" 1,
    "Section 2.3" 2), None when it has none."""
    named = _named_section(text)
    if named is None:
        return None
    number = named.group("number")
    if number[:1].isdigit():
        return int(number.split(".")[0])
    if number.lower() in _NUMBER_WORDS:
        return _NUMBER_WORDS.index(number.lower()) + 1
    if re.fullmatch(_ROMAN, number.upper()) and (len(number) > 1 or number.upper() in "IVXLC"):
        # (A lone "C", "I", "V" may be a letter: "Part C" is the third part.)
        if len(number) > 1 or number.upper() not in "CLX":
            return roman_value(number)
    return ord(number.upper()) - ord("A") + 1 if len(number) == 1 else None


_LABEL_KINDS = ("chapter", "part", "title", "book", "appendix", "annex", "schedule", "section", "article")


def _nest_label_kinds(numbered: list[Draft]) -> None:
    """Numbered headings whose labels name two kinds of division or more ("CHAPTER I" and
    "Article 1", "PART ONE" and "Chapter 2", "Article I" and "Section 2", "§ 4"), each one a
    number deep at its own level: the kind met first in the document the outermost ("Article
    1" under "CHAPTER I" under "PART ONE" as a legal act sets them, a constitution's "Section
    2" under "Article I"), a back matter's "ANNEX" at the top, and sections numbered without a
    label ("2.1") under the innermost kind.  One kind of label alone changes nothing, nor do
    kinds numbered as one sequence: a form's "Part A", "Section 2", "Part C" are siblings
    (nested kinds number each their own: "CHAPTER I", "Article 1", "Article 2", "CHAPTER II")."""
    kinds: list[str] = []
    found = [(d, _label_kind(d.text)) for d in numbered]
    for _, kind in found:
        if kind and kind not in _BACK_MATTER and kind not in kinds:
            kinds.append(kind)
    if len(kinds) < 2:
        return
    values = [_label_value(d.text) for d, kind in found if kind and kind not in _BACK_MATTER]
    if all(a is not None and b is not None and a < b for a, b in zip(values, values[1:], strict=False)):
        return
    # An outer kind heads what follows it, one at a time ("CHAPTER I", its articles, "CHAPTER
    # II"); a kind set several in a row before another is a sibling of it ("Section 1" to
    # "Section 3", then "Part A", "Part B": a form's notes after its sections).
    order = [kind for _, kind in found if kind and kind not in _BACK_MATTER]
    if any(kind != kinds[-1] and kind == order[at + 1] for at, kind in enumerate(order[:-1])):
        return
    for draft, kind in found:
        if kind in _BACK_MATTER:
            continue
        if kind:  # (a label's dotted number is as deep as it says: "Section 1.1" under "Chapter 1")
            draft.number_depth = max(draft.number_depth, kinds.index(kind) + 1)
        else:
            draft.number_depth += len(kinds) - 1


class _Ladder:
    """Font sizes as levels, largest first; sizes within 10% of each other are one level (the
    same style measured on other glyphs), unless a step of a point or more with no heading
    set in it parts them, two headings or more on each side and the lower side above the
    body's size: two heading styles set close (Word 2010's Heading 1 and 2 at 14 and 13
    points, Word 2013's Heading 2 and 3 at 13 and 12), where one style's sizes measured on
    other glyphs or scaled stand a fraction of a point apart.  A size above the largest is
    one level above."""

    def __init__(self, used: Counter[float], body_size: float) -> None:
        self.tops: list[float] = []
        self._ranks: dict[float, int] = {}
        sizes = sorted(used, reverse=True)
        held = 0  # headings set in the current level's sizes
        for at, size in enumerate(sizes):
            if not self.tops or size < 0.9 * self.tops[-1] \
                    or (held >= _LEVEL_USES and self._steps_down(sizes, used, at, body_size)):
                self.tops.append(size)
                held = 0
            held += used[size]
            self._ranks[size] = len(self.tops) - 1

    def _steps_down(self, sizes: list[float], used: Counter[float], at: int, body_size: float) -> bool:
        """Whether ``sizes[at]`` (largest first) opens a level of its own inside the 10 % of the
        level above: a point or more under the size before it, and the run of sizes it opens
        (each within a point of the one before, all within 10 % of it) set in two headings or
        more, all above the body's size."""
        size = sizes[at]
        if sizes[at - 1] - size < _LEVEL_STEP:
            return False
        run = [size]
        for lower in sizes[at + 1:]:
            if run[-1] - lower >= _LEVEL_STEP or lower < 0.9 * size:
                break
            run.append(lower)
        return sum(used[s] for s in run) >= _LEVEL_USES and run[-1] >= body_size + _ABOVE_BODY

    def rank(self, size: float) -> int:
        if size in self._ranks:
            return self._ranks[size]
        if size >= self.tops[0] / 0.9:
            return -1
        at = next((i for i, top in enumerate(self.tops) if size >= 0.9 * top), len(self.tops))
        # (A size the ladder was not made of, between two levels a step apart within 10 %:
        # the nearer.)
        while at + 1 < len(self.tops) and self.tops[at + 1] >= 0.9 * self.tops[at] \
                and abs(size - self.tops[at + 1]) < abs(size - self.tops[at]):
            at += 1
        return at


def _set_levels(headings: list[Draft], ladder: _Ladder) -> int:
    """Levels by the ladder's rank, then bold before regular; how many levels that needed
    (those past _MAX_LEVEL share the last)."""
    keys = sorted({(ladder.rank(d.size), not d.bold) for d in headings})
    for draft in headings:
        draft.level = min(_MAX_LEVEL, keys.index((ladder.rank(draft.size), not draft.bold)) + 1)
    return len(keys)


def _level_by_depth(numbered: list[Draft], capped: bool) -> tuple[int, int]:
    """Numbered headings' levels: one per depth below the level the outermost are set at by
    size -- ``capped``, never below 2 nor so low that the deepest would pass _MAX_LEVEL.  The
    outermost depth and its level."""
    outer = min(d.number_depth for d in numbered)
    base = max(1, min(d.level or 1 for d in numbered if d.number_depth == outer))
    if capped:
        deepest = max(d.number_depth for d in numbered)
        base = max(1, min(2, base, _MAX_LEVEL - (deepest - outer)))
    for draft in numbered:
        draft.level = min(_MAX_LEVEL, base + draft.number_depth - outer)
    return outer, base


def _rank_by_numbering(numbered: list[Draft], others: list[Draft]) -> None:
    """Numbering decides the depth below the level its outermost sections are set at: "1."
    set like an unnumbered "Summary" is a level-1 heading, "1." set smaller than the
    document's title level 2 -- never lower, however many display sizes a cover or a back
    page uses ("1.1" then sits at level 4 of 4 under nine sizes of cover type); "1.1" is one
    level below "1." either way.  An unnumbered heading takes the level of the shallowest
    numbered sections set at its size or smaller ("Preface" set like "Chapter 1" is a
    chapter, "Authors" set like "1.1" a section); larger than all of them, the level above;
    smaller than all, the level below."""
    outer, base = _level_by_depth(numbered, capped=True)
    deepest = max(d.number_depth for d in numbered)
    # Each depth's size: the median of its headings' (a stray one set otherwise does not move it).
    sizes = {depth: sorted(d.size for d in numbered if d.number_depth == depth)
             for depth in range(outer, deepest + 1)}
    anchors = [(min(_MAX_LEVEL, base + depth - outer), found[len(found) // 2])
               for depth, found in sizes.items() if found]
    for draft in others:
        if draft.size >= anchors[0][1] / 0.9:
            draft.level = max(1, base - 1)
            continue
        draft.level = next((level for level, size in anchors if draft.size >= 0.9 * size),
                           min(_MAX_LEVEL, anchors[-1][0] + 1))


# A paragraph (or a title) of this many lines is running text, no table's row.
_RUNNING_LINES = 3


def unhead_table_rows(drafts: list[Draft], lines: list[Line]) -> None:
    """A one-line heading on one baseline with two or more other short lines is a cell of a
    table row the table finder left out (a header row of bold column names), not a heading."""
    # (Not beside lines of running text: the other column's "[0006] In some embodiments,
    # the", a paragraph's first line broken at a tab, beside a centred "BACKGROUND"; nor
    # beside a title wrapped over lines of its own in the other columns, "Management Plan for
    # the" and "Panel" beside a subheading, register_notice-501.)
    running = {id(line) for draft in drafts
               if draft.kind in ("paragraph", "heading") and len(draft.lines) >= _RUNNING_LINES
               for line in draft.lines}
    for draft in drafts:
        if draft.kind != "heading" or len(draft.lines) != 1:
            continue
        line = draft.lines[0]
        centre = (line.top + line.bottom) / 2
        row = [other for other in lines if other is not line and other.top <= centre <= other.bottom
               and id(other) not in running]
        if len(row) >= 2 and all(len(other.text.split()) <= 4 for other in row):
            draft.kind = "paragraph"
            continue
        # A field's value a tab after its label ("(10) Pub. No.:    US 2020/0123456 A1",
        # the number set bold and larger): the nearest line before it on its baseline ends
        # in a colon.
        # (Near it, a short label: not a paragraph's last line in the next column, "The
        # committee recommends:", beside the other column's heading.)
        before = max((other for other in row if other.x1 <= line.x0), key=attrgetter("x1"), default=None)
        if before is not None and before.text.rstrip().endswith(":") \
                and line.x0 - before.x1 <= 4 * line.size and len(before.text.split()) <= 4:
            draft.kind = "paragraph"
