"""A large ingest through the service, the automatic HNSW policy against per-chunk insertion,
side by side in one run (issue 23).

    python -m bench.bulk_ingest ../shared/corpus/beir-scifact --chunks 200000
        [--sections 20] [--embedder torch] [--runs bulk,kept] [--probe 2000]

SciFact's 5,183 records make 10,067 chunks; a corpus of 200k chunks is made from its
sentences: record i carries a SciFact title and ``--sections`` sections, each a heading and
two sentences drawn (seeded, so every run makes the same corpus) from the whole collection.
Chunks never cross a heading, so every section is one chunk and every chunk text differs.

Each run is ``pagemill ingest --jsonl … --wait`` on a fresh embedded home, as (c) of
bench/ingest.py: ``bulk`` with the default policy (the job adds all of an empty index, so
its first batch drops the HNSW graph and the worker builds it once after the job; the CLI
waits for that build), ``kept`` with ``PAGEMILL_HNSW_BULK_SHARE=0`` (every chunk inserted
into the graph as it is written).  Runs alternate in the order given.

``--probe N`` first embeds N of the corpus' chunk texts with the chosen embedder and prints
the model's rate, so that the length of a full run can be judged before it starts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Config  # noqa: E402
from bench.ingest import corpus_file, end_to_end, print_run, record_chunks, records_input  # noqa: E402

RUNS = {"bulk": "", "kept": "PAGEMILL_HNSW_BULK_SHARE=0"}

# A sentence ends at . ! or ? followed by a space and a capital letter or digit.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def scifact(path: Path) -> tuple[list[str], list[str]]:
    """SciFact's titles and the sentences of its abstracts (at least six words each)."""
    titles: list[str] = []
    sentences: list[str] = []
    with path.open() as fh:
        for line in fh:
            if not line.strip():
                continue
            doc = json.loads(line)
            titles.append(doc["title"].strip())
            sentences.extend(s for s in _SENTENCE_END.split(doc["text"]) if len(s.split()) >= 6)
    return titles, sentences


def synthetic_records(titles: list[str], sentences: list[str], count: int, sections: int,
                      seed: int = 23) -> list[dict[str, Any]]:
    """``count`` records of ``sections`` headed sections, two sentences each."""
    rng = random.Random(seed)
    records = []
    for i in range(count):
        parts = []
        for j in range(sections):
            first, second = rng.sample(sentences, 2)
            heading = " ".join(first.split()[:4]).rstrip(".,;:")
            parts.append(f"## {j + 1}. {heading}\n\n{first} {second}")
        records.append({"id": f"bulk-{i:06d}", "title": rng.choice(titles), "text": "\n\n".join(parts)})
    return records


def probe(records: list[dict[str, Any]], config: Config, texts_wanted: int) -> None:
    """The chosen embedder's own rate on the corpus' chunk texts."""
    from indexing import embedding

    embedding.configure(config.embedding.embedder, config.home, config.embedding.torch_threads)
    texts: list[str] = []
    for record in records:
        texts.extend(record_chunks(record, config))
        if len(texts) >= texts_wanted:
            break
    embedding.embed(texts[:16])  # model load and first-call allocations
    began = time.perf_counter()
    embedding.embed(texts)
    seconds = time.perf_counter() - began
    print(f"probe: {embedding.embedder_in_use()} embedded {len(texts)} chunk texts (mean "
          f"{statistics.mean(map(len, texts)):.0f} characters) at {len(texts) / seconds:.1f} texts/s; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, nargs="?", default=ROOT.parent / "shared/corpus/beir-scifact")
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--sections", type=int, default=20, help="sections (chunks) per record")
    parser.add_argument("--embedder", default="torch", help="PAGEMILL_EMBEDDER of every run")
    parser.add_argument("--runs", default="bulk,kept", help=f"comma-separated, of {', '.join(RUNS)}")
    parser.add_argument("--probe", type=int, default=0, help="embed this many chunk texts first")
    parser.add_argument("--probe-only", action="store_true")
    parser.add_argument("--cache-home", type=Path, default=Path("/tmp/pagemill-bench-onnx"),
                        help="where ONNX graphs are exported once (as bench/ingest.py)")
    args = parser.parse_args()

    titles, sentences = scifact(corpus_file(args.corpus))
    records = synthetic_records(titles, sentences, -(-args.chunks // args.sections), args.sections)
    print(f"{len(records)} records of {args.sections} sections from {len(sentences)} SciFact "
          f"sentences; load average {os.getloadavg()[0]:.2f}", flush=True)
    if args.probe:
        os.environ.setdefault("PAGEMILL_HOME", str(args.cache_home))
        os.environ["PAGEMILL_EMBEDDER"] = args.embedder
        probe(records, Config.from_env(), args.probe)
    if args.probe_only:
        return
    staging = records_input(records)
    for run in [r.strip() for r in args.runs.split(",") if r.strip()]:
        settings = RUNS[run]
        embedder = f"{args.embedder}:{settings}" if settings else args.embedder
        print_run(end_to_end(staging, embedder, args.cache_home),
                  f"{run}: pagemill ingest --jsonl ({len(records)} records) --wait")

if __name__ == "__main__":
    main()
