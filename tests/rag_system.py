"""A real small RAG system behind the `system` submission's HTTP contract, for the tests and as a
reference for people bringing their own: BM25 (the retrieval track's bm25s retriever) over the
corpus `rgb-leaderboard corpus export` wrote, then a generator (any leaderboard backend: the tiny
random Llama in fast tests, SmolLM2-135M-Instruct for real) given the top 5 passages in the RGB
prompt.

POST / {"question": "...", "lang": "zh"|"en"} -> {"answer": "...", "passage_ids": [...]}.
Every request body is kept in `bodies`, so a test can check the system was never sent passages.

Run it by hand: python -m tests.rag_system --corpus-dir DIR --submission submissions/smollm2-...
(DIR holding corpus-zh.jsonl / corpus-en.jsonl); it prints its URL. The maintained reference
system is examples/systems/reference_system.py (scripts/reference_system.sh runs it end to end).
"""

from __future__ import annotations

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from leaderboard.core.types import TestInstance
from leaderboard.protocol.prompts import build_request
from leaderboard.retrieval.base import ranking_from_scores
from leaderboard.retrieval.bm25 import K1, B, analyser

TOP_K = 5


def read_corpus(path: Path) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [(r["id"], r["text"]) for r in rows]


class BM25RagSystem:
    """Retrieve with BM25 over the whole exported corpus of the language, then generate."""

    def __init__(self, corpora: dict[str, list[tuple[str, str]]], backend, config) -> None:
        self.corpora = corpora
        self.backend = backend
        self.config = config
        self.lock = threading.Lock()  # one generation at a time (a CPU model)
        self.bodies: list[dict] = []
        self.indexes: dict[str, object] = {}

    def _index(self, lang: str):
        """One bm25s index per language, built on first use (the retrieval track's tokens)."""
        with self.lock:
            if lang not in self.indexes:
                import bm25s  # deferred: only a running system needs it

                model = bm25s.BM25(k1=K1, b=B, method="lucene")
                model.index(
                    [list(analyser(lang)(t)) or ["\0"] for _, t in self.corpora[lang]],
                    show_progress=False,
                )
                self.indexes[lang] = model
            return self.indexes[lang]

    def answer(self, question: str, lang: str) -> dict[str, object]:
        ids, texts = zip(*self.corpora[lang], strict=True)
        model = self._index(lang)
        query = [t for t in analyser(lang)(question) if t in model.vocab_dict]
        scores = model.get_scores(query) if query else [0.0] * len(ids)
        ranking = ranking_from_scores(scores, TOP_K)
        top = [ids[i] for i in ranking.order]
        docs = tuple(texts[i] for i in ranking.order)
        inst = TestInstance(lang, "chain", 0.0, 0, question, (), docs)  # type: ignore[arg-type]
        with self.lock:
            out = self.backend.generate([build_request(inst)], self.config)[0]
        if out.error:
            raise RuntimeError(out.error)
        return {"answer": out.text, "passage_ids": top}


def serve(system: BM25RagSystem, port: int = 0) -> ThreadingHTTPServer:
    """Start the system on 127.0.0.1 (a free port by default) in a daemon thread."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            system.bodies.append(body)
            try:
                data = json.dumps(system.answer(body["question"], body["lang"])).encode()
                self.send_response(200)
            except Exception as exc:  # the runner records it as an error Completion
                data = json.dumps({"error": str(exc)}).encode()
                self.send_response(500)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    from leaderboard.backends.registry import load_backend  # deferred: loads torch
    from leaderboard.core.submission import load_submission

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus-dir", type=Path, required=True)
    ap.add_argument("--submission", type=Path, required=True, help="the generator's model.yaml")
    ap.add_argument("--port", type=int, default=8765)
    args = ap.parse_args()
    sub = load_submission(args.submission)
    corpora = {
        lang: read_corpus(args.corpus_dir / f"corpus-{lang}.jsonl")
        for lang in ("zh", "en")
        if (args.corpus_dir / f"corpus-{lang}.jsonl").exists()
    }
    system = BM25RagSystem(corpora, load_backend(sub), sub.generation.to_config())
    server = serve(system, args.port)
    print(f"listening on http://127.0.0.1:{server.server_port}/", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
