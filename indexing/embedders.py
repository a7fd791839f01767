"""The names ``PAGEMILL_EMBEDDER`` takes, apart from the code that runs them: app/config.py
validates the setting without importing numpy or torch (every process reads its config)."""

from __future__ import annotations

# "torch": sentence-transformers, the reference; "onnx", "onnx-int8": the same weights on
# ONNX Runtime, fp32 and with int8 MatMul weights (indexing/onnx_embedder.py).
EMBEDDERS = ("torch", "onnx", "onnx-int8")
DEFAULT_EMBEDDER = "torch"
