from indexing.analyzer import analyze, term_frequencies


def test_stop_words_removed_and_words_stemmed():
    assert analyze("The running of the tests") == ["run", "test"]


def test_dotted_identifiers_stay_whole_and_case_is_folded():
    terms = analyze("Upgrade to V2.3.1 now")
    assert "v2.3.1" in terms


def test_unicode_is_normalised():
    assert analyze("Ｃafé") == analyze("café")


def test_term_frequencies_count_repeats():
    counts, length = term_frequencies("cell cells cell division")
    assert counts["cell"] == 3 and length == 4
