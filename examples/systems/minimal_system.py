"""A minimal RGB system (standard library only): copy it, then swap in your retriever and model.

Retrieval: character-bigram overlap over the corpus `rgb-leaderboard corpus export` wrote.
Generation: extractive, the best passage's first sentence (replace `generate` with your LLM).
Contract: leaderboard/backends/resources/system-api.v1.json (POST {question, lang}).
Run: python examples/systems/minimal_system.py --corpus-dir DIR --port 8780
"""

import argparse
import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def grams(text: str) -> set[str]:
    t = re.sub(r"\W+", "", text.lower())
    return {t[i : i + 2] for i in range(len(t) - 1)}


def load(corpus_dir: Path) -> dict[str, list[tuple[str, str, set[str]]]]:
    out = {}
    for lang in ("zh", "en"):
        path = corpus_dir / f"corpus-{lang}.jsonl"
        lines = path.read_text("utf-8").splitlines() if path.exists() else []
        out[lang] = [(r["id"], r["text"], grams(r["text"])) for r in map(json.loads, lines)]
    return out


def generate(question: str, passages: list[str]) -> str:
    if not passages:
        return "I can not answer the question because of the insufficient information in documents."
    return re.split(r"(?<=[。！？.!?])\s*", passages[0])[0]


def answer(corpus, question: str, lang: str, k: int = 5) -> dict:
    q = grams(question)
    top = sorted(corpus[lang], key=lambda row: -len(q & row[2]))[:k]
    passages, ids = [t for _, t, _ in top], [i for i, _, _ in top]
    return {"answer": generate(question, passages), "passage_ids": ids}


def make_handler(corpus):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            data = json.dumps(answer(corpus, body["question"], body["lang"])).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus-dir", type=Path, required=True)
    ap.add_argument("--port", type=int, default=8780)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(load(args.corpus_dir)))
    print(f"listening on http://127.0.0.1:{server.server_port}/", flush=True)
    server.serve_forever()
