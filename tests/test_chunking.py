import pytest

from indexing.chunking import chunk_markdown
from indexing.tokens import SPECIAL_TOKENS, count_tokens


def test_chunks_follow_headings_and_carry_their_path():
    md = "# Guide\n\nIntro.\n\n## Install\n\nRun the command.\n\n## Use\n\nSearch things."
    chunks = chunk_markdown([(md, None)])
    assert [c.heading_path for c in chunks] == [("Guide",), ("Guide", "Install"), ("Guide", "Use")]
    assert [c.text for c in chunks] == ["Intro.", "Run the command.", "Search things."]


def test_no_chunk_exceeds_the_model_window_with_its_headings():
    sentences = " ".join(f"Measurement {i} showed a steady increase in throughput." for i in range(300))
    md = "# Report\n\n## Results\n\n" + sentences
    chunks = chunk_markdown([(md, 1)], max_tokens=128, overlap_tokens=16)
    assert len(chunks) > 5
    for chunk in chunks:
        assert count_tokens(chunk.context_text) + SPECIAL_TOKENS <= 128
    # Every sentence survives chunking.
    joined = " ".join(c.text for c in chunks)
    assert all(f"Measurement {i} " in joined for i in range(300))


def test_consecutive_chunks_of_a_section_overlap():
    md = "# S\n\n" + " ".join(f"Sentence {i} ends here." for i in range(200))
    chunks = chunk_markdown([(md, None)], max_tokens=64, overlap_tokens=16)
    first_tail = chunks[0].text.split(". ")[-1]
    assert first_tail.rstrip(".") in chunks[1].text


def test_text_without_sentence_breaks_is_cut_at_token_boundaries():
    md = "-".join(["x"] * 3000)
    chunks = chunk_markdown([(md, None)], max_tokens=64)
    assert len(chunks) > 1
    assert all(c.token_count <= 62 for c in chunks)


def test_page_ranges_come_from_segments():
    chunks = chunk_markdown([("first page text", 1), ("second page text", 2)], max_tokens=256)
    assert chunks[0].page_start == 1
    assert chunks[-1].page_end == 2


def test_title_only_document_still_yields_a_chunk():
    chunks = chunk_markdown([("# Only a title", None)])
    assert len(chunks) == 1 and chunks[0].text == "Only a title"


def test_empty_input_yields_nothing():
    assert chunk_markdown([("   \n\n", None)]) == []


def test_tables_stay_whole_in_chunks_of_their_own_and_are_described_for_embedding():
    from indexing.chunking import chunk_markdown

    rows = "\n".join(f"| Q{i % 4 + 1} {2000 + i} | {i * 7} | {i * 3} |" for i in range(60))
    markdown = ("# Revenue\n\nIntro paragraph about the quarterly figures.\n\n"
                "| Quarter | Revenue | Costs |\n|---|---|---|\n" + rows
                + "\n\nClosing remarks after the table.")
    chunks = chunk_markdown([(markdown, 3)], max_tokens=128, overlap_tokens=16)
    tables = [c for c in chunks if c.is_table]
    prose = [c for c in chunks if not c.is_table]
    assert len(tables) >= 2  # too long for one window: split between rows
    for table in tables:
        lines = table.text.split("\n")
        assert lines[0] == "| Quarter | Revenue | Costs |" and lines[1] == "|---|---|---|"
        assert all(line.startswith("|") for line in lines)
        assert table.page_start == 3 and table.heading_path == ("Revenue",)
    assert sum(len(t.text.split("\n")) - 2 for t in tables) == 60  # every row once
    assert [c.text for c in prose] == ["Intro paragraph about the quarterly figures.",
                                       "Closing remarks after the table."]
    # Reading order: intro, table parts, closing.
    assert chunks[0] in prose and chunks[-1] in prose
    described = tables[0].embed_text
    assert "Table with" in described and "columns: Quarter, Revenue, Costs" in described
    assert "Revenue" in tables[0].context_text and "| Q1 2000 |" in tables[0].context_text


@pytest.mark.system  # loads the embedding model
def test_semantic_chunker_splits_where_the_topic_changes():
    from indexing.chunking import chunk_markdown
    from indexing.semantic import similarity_breaks

    baking = ("Knead the dough for ten minutes until it is smooth. Let the dough rise in a warm place "
              "for an hour. Shape the loaf and place it in a greased tin. Bake the bread at two hundred "
              "degrees for forty minutes. Let the loaf cool on a rack before slicing.")
    quantum = ("Entangled photons share a single quantum state. Measuring one photon's polarisation fixes "
               "the other's outcome. Bell tests rule out local hidden variables. Quantum key distribution "
               "uses entanglement to detect eavesdroppers.")
    markdown = f"# Notes\n\n{baking} {quantum}"
    plain = chunk_markdown([(markdown, None)], max_tokens=256)
    semantic = chunk_markdown([(markdown, None)], max_tokens=256, breaker=similarity_breaks)
    assert len(plain) == 1  # everything fits one window
    assert len(semantic) >= 2
    assert not any("dough" in c.text and "photon" in c.text for c in semantic)
    assert "".join(c.text for c in semantic).replace(" ", "") == (baking + quantum).replace(" ", "")


def test_chunk_spans_point_at_the_text_they_hold_on_each_page():
    from indexing.chunking import chunk_markdown

    first = "# Intro\n\nFirst paragraph of page one.\n\n" + " ".join(
        f"Sentence {i} of the long paragraph." for i in range(80))
    second = "Continued on page two.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    chunks = chunk_markdown([(first, 1), (second, 2)], max_tokens=64, overlap_tokens=8)
    pages = {1: first, 2: second}
    assert all(chunk.spans for chunk in chunks)
    for chunk in chunks:
        held = " ".join(pages[page][start:end] for page, start, end in chunk.spans)
        # Every piece of the chunk's text is inside the Markdown its spans cover.
        for piece in chunk.text.split("\n\n"):
            assert piece.split(" ", 1)[0] in held, (piece, held)
    assert chunks[0].spans[0][1] == first.index("First paragraph")
    table = next(c for c in chunks if c.is_table)
    assert table.spans == ((2, second.index("| a"), len(second)),)
    continued = next(c for c in chunks if "Continued" in c.text)
    assert (2, 0, len("Continued on page two.")) in continued.spans


def test_chunk_boxes_are_those_of_the_blocks_their_text_overlaps():
    from indexing.chunking import chunk_markdown
    from indexing.provenance import page_regions, with_boxes

    markdown = "## Method\n\nWe measured twice.\n\nThen we compared the results."
    blocks = [
        {"kind": "header", "box": [0, 0, 100, 10], "text": "Report 2026"},
        {"kind": "heading", "box": [50, 40, 200, 52], "text": "## Method", "span": [0, 9]},
        {"kind": "paragraph", "box": [50, 60, 500, 72], "text": "We measured twice.", "span": [11, 29]},
        {"kind": "paragraph", "box": [50, 80, 500, 92], "text": "Then we compared the results."},
    ]
    regions = {3: page_regions(markdown, 3, (612.0, 792.0), blocks)}
    assert [r.box.top for r in regions[3]] == [40, 60, 80]  # the running header has none
    (chunk,) = with_boxes(chunk_markdown([(markdown, 3)]), regions)
    assert [(b.page, b.top, b.width, b.height) for b in chunk.boxes] == [(3, 60, 612, 792), (3, 80, 612, 792)]
    # A source without positions: chunks stay without boxes.
    (plain,) = with_boxes(chunk_markdown([(markdown, None)]), {})
    assert plain.boxes == ()
