"""The hand-labelled heading set's scorer (bench/labelled_headings.py) and its labels."""

from __future__ import annotations

from bench.labelled_headings import LABEL_SETS, _labels, score_file


def test_a_heading_matches_its_label_with_or_without_its_number_and_either_lines_count_neither_way() -> None:
    labels = [("Title of the paper", 1), ("1 Introduction", 2), ("2 Method", 2)]
    emitted = [("Title of the paper", 1), ("Introduction", 3), ("Key points", 3), ("Key points", 3),
               ("Figure 2 shows", 2)]
    row = score_file(emitted, labels, either=["Key points"])
    # One "Key points" is ambiguous and dropped; the second is a false positive like the caption.
    assert (row["tp"], row["emitted"], row["ambiguous"], row["truth"]) == (2, 4, 1, 3)
    assert row["level_ok"] == 1
    assert row["extra"] == ["### Key points", "## Figure 2 shows"]
    assert row["missed"] == ["2 Method"]


def test_a_label_is_used_once_and_the_check_files_are_labelled_files() -> None:
    row = score_file([("Results", 2), ("Results", 2)], [("6.2 Results", 3)], either=[])
    assert (row["tp"], row["emitted"], row["level_ok"]) == (1, 2, 0)
    # Every label set, the ICDAR 2013 one too: its check files are labelled files, its levels 1-4.
    assert len(LABEL_SETS) >= 2
    for path in LABEL_SETS.values():
        data = _labels(path)
        assert data["check"] and set(data["check"]) <= set(data["files"])
        for entry in data["files"].values():
            assert all(isinstance(text, str) and 1 <= level <= 4 for text, level in entry["headings"])
            assert all(isinstance(text, str) for text in entry["either"])


def test_the_icdar_check_files_are_every_third_file_of_each_folder() -> None:
    """The split its note states, fixed before any measurement: it must stay the one scored."""
    data = _labels(LABEL_SETS["icdar2013"])
    expected = []
    for folder in ("competition-dataset-eu", "competition-dataset-us"):
        names = sorted(name for name in data["files"] if name.startswith(folder + "/"))
        expected += names[2::3]
    assert sorted(data["check"]) == sorted(expected)
    assert len(data["files"]) == 67
