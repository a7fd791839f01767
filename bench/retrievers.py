"""The framework retrievers against pagemill's own search, on every query of a BEIR split.

    PAGEMILL_HOME=/tmp/pm-eval python -m bench.retrievers ../shared/corpus/beir-scifact \\
        --tenant scifact --split test

After ``pagemill ingest --jsonl <collection>/corpus.jsonl --tenant scifact --wait`` in that
home.  Starts ``pagemill serve --no-worker`` on a free port (the home's database and
settings), makes a key for the tenant, and asks every query of the split, top 10, of:

- ``rest``: the Python client's ``search`` (``POST /v1/search``);
- ``langchain``: ``pagemill_client.langchain.PagemillRetriever.invoke`` in this interpreter;
- ``llamaindex``: ``pagemill_client.llama_index.PagemillRetriever.retrieve`` in ``.venv-client``
  (llama-index-core cannot share pagemill's venv: README, LlamaIndex);
- ``cli``: ``pagemill search --queries FILE --k 10 --json`` (in process, no HTTP).

Prints, per system, how many queries returned exactly REST's ranked (document, chunk) list,
nDCG@10 against the split's judgements, and the median and p95 milliseconds per query seen by
the caller (the CLI's is its whole run divided by the queries, start-up included).  What the
retrievers add is their own wrapping; the ranking is the server's, so agreement should be 1.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.retrieval_eval import load_qrels, ndcg_at

ROOT = Path(__file__).resolve().parents[1]
CLIENT_PYTHON = ROOT / ".venv-client" / "bin" / "python"

#: Run in .venv-client: each query's hits as [document_id, chunk_id] and its milliseconds.
_LLAMA_INDEX = """
import json, sys, time
from pagemill_client import Client
from pagemill_client.llama_index import PagemillRetriever
url, key, path = sys.argv[1], sys.argv[2], sys.argv[3]
retriever = PagemillRetriever(Client(url, key), k=10)
for line in open(path):
    query = json.loads(line)
    began = time.perf_counter()
    nodes = retriever.retrieve(query["text"])
    ms = (time.perf_counter() - began) * 1000
    hits = [[n.node.metadata["document_id"], n.node.metadata["chunk_id"]] for n in nodes]
    print(json.dumps({"query_id": query["_id"], "hits": hits, "ms": ms}))
"""

Hits = list[tuple[str, int]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pagemill(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, check=True, **kwargs)


def _start_server(port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        command = [sys.executable, "-m", "app.cli", "serve", "--no-worker", "--port", str(port)]
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    proc.terminate()
    raise SystemExit(f"pagemill serve did not become ready; its log: {log}")


def _queries(collection: Path, split: str) -> list[dict[str, str]]:
    judged = load_qrels(collection / "qrels" / f"{split}.tsv")
    with (collection / "queries.jsonl").open() as lines:
        every = [json.loads(line) for line in lines]
    return [{"_id": q["_id"], "text": q["text"]} for q in every if q["_id"] in judged]


def _timed(ask: Any, queries: list[dict[str, str]]) -> tuple[dict[str, Hits], list[float]]:
    answers, times = {}, []
    for query in queries:
        began = time.perf_counter()
        answers[query["_id"]] = ask(query["text"])
        times.append((time.perf_counter() - began) * 1000)
    return answers, times


def _summary(name: str, answers: dict[str, Hits], times: list[float], rest: dict[str, Hits],
             qrels: dict[str, dict[str, int]]) -> dict[str, Any]:
    same = sum(answers.get(q) == hits for q, hits in rest.items())
    ndcg = statistics.fmean(ndcg_at([doc for doc, _ in answers.get(q, [])], qrels[q], 10) for q in rest)
    ordered = sorted(times)
    return {"system": name, "queries": len(rest), "same_as_rest": same, "ndcg@10": round(ndcg, 4),
            "p50_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--split", default="test")
    parser.add_argument("--json", type=Path, help="also write the summary rows here")
    args = parser.parse_args()
    if "PAGEMILL_HOME" not in os.environ:
        raise SystemExit("set PAGEMILL_HOME to the home the collection was ingested into")

    from pagemill_client import Client
    from pagemill_client.langchain import PagemillRetriever

    queries = _queries(args.collection, args.split)
    qrels = load_qrels(args.collection / "qrels" / f"{args.split}.tsv")
    work = Path(tempfile.mkdtemp(prefix="pagemill-retrievers-"))
    query_file = work / "queries.jsonl"
    query_file.write_text("".join(json.dumps(q) + "\n" for q in queries))
    created = _pagemill("keys", "create", "--tenant", args.tenant, "--rate-limit", "0")
    key = created.stdout.strip().splitlines()[-1]
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = _start_server(port, work / "serve.log")
    rows = []
    try:
        with Client(url, key) as client:
            client.search(queries[0]["text"], k=10)  # warm: the query embedder loads on first use
            rest, rest_ms = _timed(lambda text: [(h.document_id, h.chunk_id)
                                                 for h in client.search(text, k=10).results], queries)
            retriever = PagemillRetriever(client=client, k=10)
            langchain, langchain_ms = _timed(lambda text: [(d.metadata["document_id"], d.metadata["chunk_id"])
                                                           for d in retriever.invoke(text)], queries)
        rows.append(_summary("rest", rest, rest_ms, rest, qrels))
        rows.append(_summary("langchain", langchain, langchain_ms, rest, qrels))
        if CLIENT_PYTHON.exists():
            out = subprocess.run([str(CLIENT_PYTHON), "-c", _LLAMA_INDEX, url, key, str(query_file)],
                                 capture_output=True, text=True, check=True, timeout=3600)
            llama, llama_ms = {}, []
            for line in out.stdout.splitlines():
                answer = json.loads(line)
                llama[answer["query_id"]] = [(doc, chunk) for doc, chunk in answer["hits"]]
                llama_ms.append(answer["ms"])
            rows.append(_summary("llamaindex", llama, llama_ms, rest, qrels))
        else:
            print(f"llamaindex: skipped, {CLIENT_PYTHON} is absent (.ci/setup makes it)")
    finally:
        server.terminate()
        server.wait(timeout=30)
    began = time.perf_counter()
    cli_out = _pagemill("search", "--queries", str(query_file), "--k", "10", "--json",
                        "--tenant", args.tenant)
    cli_ms = (time.perf_counter() - began) * 1000 / len(queries)
    cli = {}
    for line in cli_out.stdout.splitlines():
        answer = json.loads(line)
        cli[answer["query_id"]] = [(r["document_id"], r["chunk_id"]) for r in answer["results"]]
    rows.append(_summary("cli", cli, [cli_ms] * len(queries), rest, qrels))

    print(f"{args.collection.name} {args.split}: {len(queries)} queries, top 10, tenant {args.tenant}")
    print(f"{'system':<11} {'same as REST':>13} {'nDCG@10':>8} {'p50 ms':>8} {'p95 ms':>8}")
    for row in rows:
        print(f"{row['system']:<11} {row['same_as_rest']:>6}/{row['queries']:<6} {row['ndcg@10']:>8.4f} "
              f"{row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
