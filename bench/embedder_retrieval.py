"""Retrieval quality per embedder, side by side in one run: does a faster embedder search as well?

    python bench/embedder_retrieval.py [--embedders torch,onnx-int8] [--collections scifact,cranfield]

For each embedder (``PAGEMILL_EMBEDDER``), a fresh embedded ``PAGEMILL_HOME`` ingests each
collection's whole corpus through the service (``pagemill ingest --jsonl … --wait``), then
``bench/retrieval_eval.py`` scores the collection's **test** qrels in every mode, the queries
embedded by the same embedder.  Prints each table and a summary of nDCG@10 per mode and
embedder with the difference to the first embedder.  The ONNX graphs are exported once into
``--cache-home`` and copied into each fresh home, as bench/ingest.py does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
COLLECTIONS = {"scifact": CORPUS / "beir-scifact", "cranfield": CORPUS / "cranfield" / "beir-format"}
_ROW = re.compile(r"^\| (\w+) \| ([0-9.]+) \|")


def _run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedders", default="torch,onnx-int8")
    parser.add_argument("--collections", default="scifact,cranfield")
    parser.add_argument("--cache-home", type=Path,
                        default=Path(tempfile.gettempdir()) / "pagemill-bench-onnx")
    args = parser.parse_args()
    embedders = args.embedders.split(",")
    collections = args.collections.split(",")
    ndcg: dict[tuple[str, str, str], float] = {}
    for embedder in embedders:
        home = Path(tempfile.mkdtemp(prefix=f"pagemill-quality-{embedder}-"))
        if embedder.startswith("onnx") and (args.cache_home / "models").exists():
            shutil.copytree(args.cache_home / "models", home / "models")
        env = {**os.environ, "PAGEMILL_HOME": str(home), "PAGEMILL_EMBEDDER": embedder,
               "HF_HUB_OFFLINE": "1", "PAGEMILL_LOG_LEVEL": "WARNING"}
        env.pop("DATABASE_URL", None)
        try:
            for name in collections:
                folder = COLLECTIONS[name]
                began = time.monotonic()
                _run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(folder / "corpus.jsonl"),
                      "--tenant", name, "--wait"], env)
                print(f"{embedder} {name}: ingested in {time.monotonic() - began:.0f} s", flush=True)
                table = _run([sys.executable, "bench/retrieval_eval.py", str(folder), "--split", "test",
                              "--tenant", name], env)
                print(table, flush=True)
                for line in table.splitlines():
                    if (match := _ROW.match(line)) and match.group(1) != "mode":
                        ndcg[(name, match.group(1), embedder)] = float(match.group(2))
        finally:
            shutil.rmtree(home, ignore_errors=True)
    print("| collection | mode | " + " | ".join(embedders) + " | Δ to " + embedders[0] + " |")
    print("|---|---|" + "---|" * (len(embedders) + 1))
    for name in collections:
        for mode in ("bm25", "dense", "hybrid"):
            values = [ndcg.get((name, mode, e)) for e in embedders]
            if values[0] is None:
                continue
            deltas = ", ".join(f"{v - values[0]:+.4f}" for v in values[1:] if v is not None)
            print(f"| {name} | {mode} | " + " | ".join(f"{v:.4f}" if v is not None else "-" for v in values)
                  + f" | {deltas} |")


if __name__ == "__main__":
    main()
