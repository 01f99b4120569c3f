"""Every table column of the site, declared once as data: id -> label, tooltip and format.

As HELM declares its metrics once (name, description, direction), a page asks for a column by id
(`column("decision.rej_rgb", lg)`) instead of spelling its label and tooltip at every call, so the
same column reads the same in every table that shows it and in both languages. Labels and tooltips
are message keys (site/messages/<lang>.yaml: both languages; tests/site/test_columns.py checks
every key is in both tables); a `plain` label is written as is in every language (a symbol, a
metric's code, a template of such). The id is "<family>.<field>": the field (the row's cell key,
also the download's column) is the part after the last dot unless `key` says otherwise. `key`
and a plain label may hold {name}s, and a message its own; `column(..., name=value)` fills them.
"""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.site.render.i18n import ui
from leaderboard.site.render.tables import Column


@dataclass(frozen=True)
class Spec:
    label: str  # message key; the label itself when `plain`
    tip: str | None = None  # message key of the tooltip (the column's definition)
    numeric: bool = False  # sorted and aligned as a number
    key: str | None = None  # the row field, when not the id's last part ({name}s filled in)
    plain: bool = False  # the label is not a message key but the same text in every language


def _num(label: str, tip: str | None = None, key: str | None = None) -> Spec:
    return Spec(label, tip, True, key)


def _tipped(label: str, key: str | None = None) -> Spec:
    """A number column whose tooltip is its label's message with `_tip`."""
    return Spec(label, f"{label}_tip", True, key)


def _plain(
    label: str, tip: str | None = None, numeric: bool = True, key: str | None = None
) -> Spec:
    return Spec(label, tip, numeric, key, plain=True)


# fmt: off
COLUMNS: dict[str, Spec] = {
    # shared by many tables
    "col.model": Spec("col.model"),
    "col.lang": Spec("col.lang"),
    "col.rank": Spec("col.rank"),
    "col.n": _num("col.n"),
    "plain.n": _plain("n"),
    "model.ability": Spec("model.col_ability"),
    "out.answer_rate": _tipped("out.answer_rate"),
    # home: the ranking, the paper's reported numbers
    "rank.rank": _tipped("col.rank"),
    "rank.overall": _num("col.overall"),
    "rank.coverage": _tipped("col.coverage"),
    "rank.overall_other": _tipped("col.overall_other"),
    **{f"rank.{p}": _num(f"short.{p}") for p in ("noise", "rejection", "integration",
                                                "counterfactual", "zh", "en")},
    "rank.n": _tipped("col.n"),
    "reported.noise": _tipped("col.noise_mean"),
    "reported.rej": _tipped("col.rej"),
    "reported.integration": _tipped("col.integration_mean"),
    "reported.ed": _tipped("col.ed"),
    "reported.cr": _tipped("col.cr"),
    # the "whom to trust" columns (pages.trust_columns)
    "trust.made_up": _tipped("trust.made_up"),
    "trust.answer_rate": _tipped("trust.answer_rate"),
    "trust.truthfulness": _tipped("trust.truthfulness"),
    # a model's facts and costs (render.facts)
    **{f"facts.f_{k}": Spec(f"facts.col_{k}", f"facts.col_{k}_tip", k == "context")
       for k in ("params", "quant", "engine", "licence", "open", "context", "weights")},
    **{f"facts.c_{k}": Spec(f"facts.col_{k}", f"facts.col_{k}_tip", k != "hardware")
       for k in ("median_s", "tokens", "peak_memory", "hardware")},
    # ability pages: curves and decision tables
    "abpage.acc": _num("abpage.col_acc", "abpage.col_acc_tip", key="acc_{rate}"),
    "abpage.score": _num("abpage.col_score", "abpage.col_score_tip"),
    "abpage.n": _num("col.n", "abpage.col_n_tip"),
    **{f"decision.{k}": _tipped(f"decision.{k}")
       for k in ("rej_rgb", "rej_strict", "over_rgb", "over_strict", "score_strict", "shown",
                 "n_shown", "rej_star", "accuracy", "ed", "ed_star", "fa", "cr", "cr_all")},
    "decision.acc_nodoc": _num("decision.acc_nodoc"),
    # model page: card, scores, cells, judges
    "card.score": _plain("{lang} {mode_name}", key="{lang}_{mode}"),
    "card.n": Spec("zhen.col_n", "zhen.col_n_tip", key="n"),
    "model.metric": Spec("model.col_metric"),
    "model.rgb": _num("model.col_rgb"),
    "model.strict": _num("model.col_strict"),
    "model.questions": _num("model.col_questions", key="n"),
    "model.complete": Spec("model.col_complete"),
    "model.noise_rate": _num("model.col_noise"),
    "model.mode": Spec("model.col_mode"),
    "model.accuracy": _num("decision.accuracy"),
    "model.rejection": _num("model.col_rejection"),
    "model.over_refusal": _num("model.col_over_refusal"),
    "model.ed": _num("decision.ed"),
    "model.cr": _num("decision.cr"),
    "model.f1": _num("model.col_f1"),
    "model.n_expected": _num("model.col_n_expected", key="n"),
    "model.errors": _num("model.col_errors"),
    "model.data": Spec("model.col_data"),
    "model.chars": _num("model.col_chars"),
    "model.judged": _num("model.col_judged", key="value"),
    "model.kappa": _num("model.col_kappa", "model.col_kappa_tip"),
    # model page: outcomes and closed book
    **{f"out.{k}": _tipped(f"out.{k}")
       for k in ("correct", "refused", "error_claimed", "wrong", "truthfulness")},
    "out.rate": _num("out.col_rate"),
    "out.n": _num("out.col_n", key="n"),
    **{f"cb.{k}": _tipped(f"cb.{k}")
       for k in ("accuracy", "accuracy_fact", "knew", "context_gain", "context_harm",
                 "context_net", "made_up", "made_up_unknown", "knew_but_repeated")},
    "cb.n": _num("out.col_n", key="{metric}_n"),
    # model page: where the answers came from (pages/model/grounding)
    **{f"grc.{k}": _tipped(f"grc.{k}")
       for k in ("correct_grounded", "correct_from_memory", "wrong_from_gold",
                 "wrong_from_noise", "wrong_from_altered", "invented", "refused",
                 "error_claimed", "undetermined")},
    **{f"gr.{k}": _tipped(f"gr.{k}")
       for k in ("grounded", "invented", "made_up", "from_passage", "from_noise",
                 "from_altered", "invented_of_made_up", "copied_noise", "undetermined",
                 "relevant", "omission", "copied_altered")},
    "gr.n": _num("gr.col_n", key="n"),
    # model page: the statement judge (pages/model/faithfulness)
    "faith.judge": Spec("agree.judge_col_judge"),
    "faith.kappa": _num("faith.col_kappa", "faith.col_kappa_tip"),
    "faith.judged": _num("faith.col_judged", "faith.col_judged_tip"),
    **{f"faith.{f}": _tipped(f"faith.{f}")
       for f in ("supported", "unsupported", "contradicted", "hallucination",
                 "misrepresentation")},
    "faith.answers": _num("faith.col_answers", "faith.col_answers_tip"),
    **{f"faith.{c}": _tipped(f"faith.{c}")
       for c in ("eligible_statements", "judged_statements", "n_unparsable", "n_unjudged",
                 "eligible_answers", "judged_answers")},
    **{f"faith.count_{f}": _num(f"faith.{f}", "faith.count_tip", key=f"{f}_n")
       for f in ("supported", "unsupported", "contradicted", "hallucination",
                 "misrepresentation")},
    # model page: relevance by judge beside relevance by code (pages/model/relevance)
    "rel.judge": Spec("agree.judge_col_judge"),
    "rel.kappa": _num("rel.col_kappa", "rel.col_kappa_tip"),
    "rel.judged": _num("rel.col_judged", "rel.col_judged_tip"),
    "rel.ability": Spec("rel.col_ability"),
    **{f"rel.{f}": _tipped(f"rel.{f}") for f in ("judge_share", "code", "combined")},
    **{f"rel.{c}": _tipped(f"rel.{c}")
       for c in ("eligible", "judged_n", "n_unparsable", "n_unjudged", "typed")},
    # zh vs en: the difference tables (two families), the reliance table
    "zhen.ability": Spec("zhen.col_ability"),
    "zhen.n": _tipped("zhen.col_n"),
    "zhen.zh": _plain("zh"),
    "zhen.en": _plain("en"),
    "zhen.diff": _num("zhen.col_diff", "zhen.diff_tip"),
    "zhen.better": Spec("zhen.col_better"),
    "zhtruth.zh": _plain("zh", "out.truthfulness_tip"),
    "zhtruth.en": _plain("en", "out.truthfulness_tip"),
    "zhtruth.diff": _num("zhen.col_diff", "zhtruth.diff_tip"),
    "zhtruth.better": Spec("zhtruth.col_better"),
    "reliance.zh": _num("probes.reliance_col_zh", "probes.reliance_tip"),
    "reliance.en": _num("probes.reliance_col_en", "probes.reliance_tip"),
    # retrieval to answer: the probes
    "probes.lang": Spec("probes.col_lang"),
    **{f"probes.{k}": _tipped(f"probes.col_{k}")
       for k in ("recall_at_k", "accuracy_given_support", "end_to_end", "loss_retrieval",
                 "loss_generation", "own_accuracy", "memory_accuracy", "context_reliance",
                 "refusal", "rgb_rejection", "drop")},
    "probes.where": Spec("probes.col_where"),
    "probes.half": Spec("probes.col_half", "probes.col_half_tip"),
    # retrieval
    **{f"retr.{k}": Spec(f"retr.col_{k}")
       for k in ("split", "lang", "retriever", "view", "setting", "metric", "wins", "size",
                 "overlap")},
    "retr.n": _tipped("retr.col_n"),
    "retr.p": _num("retr.col_p"),
    "retr.chunks": _num("retr.col_chunks"),
    "retr.measure": _plain("{metric}", "retr.metric_tip", key="{metric}"),
    "retr.value": _plain("{metric}", key="{metric}"),
    "retr.en": _plain("en", numeric=False),
    "retr.gap_zh": _plain("{metric} zh", key="{metric}-zh"),
    "retr.gap_en": _plain("{metric} en", key="{metric}-en"),
    "retr.gap": _plain("{metric} zh − en", "retr.gap_tip", key="{metric}-gap"),
    "retr.a": _plain("A", numeric=False),
    "retr.b": _plain("B", numeric=False),
    "retr.diff": _plain("A − B"),
    # systems
    "systems.system": Spec("systems.col_system"),
    "systems.n": _plain("n", "systems.col_n_tip"),
    **{f"systems.{k}": _tipped(f"systems.col_{k}")
       for k in ("e2e_strict", "e2e_rgb", "recall", "retrieval_miss", "generation_miss", "p50",
                 "p95", "errors")},
    **{f"syspair.{k}": Spec(f"systems.pair_{k}", f"systems.pair_{k}_tip",
                            k in ("diff", "n", "only_a", "only_b"))
       for k in ("lang", "mode", "a", "b", "diff", "n", "only_a", "only_b", "verdict")},
    "systems.band_e2e": _num("systems.band_e2e", "systems.col_e2e_strict_tip", key="{lang}"),
    "systems.band_recall": _num("systems.band_recall", "systems.col_recall_tip",
                                key="recall_{lang}"),
    # downloads: the index of entries
    "downloads.id": Spec("model.index_entry"),
    "downloads.model_ref": Spec("model.index_weights"),
    "downloads.backend": Spec("model.index_backend"),
    "downloads.size": Spec("col.size"),
    "downloads.quant": Spec("col.quant"),
    "downloads.coverage": _num("model.index_coverage"),
    # methodology: the trivial baselines, the data audit, scorer and judge agreement
    "baseline.model": Spec("method.baseline_col_model"),
    "baseline.lang": Spec("method.baseline_col_lang"),
    "baseline.rgb_overall_score": _num("method.baseline_rgb_overall"),
    **{f"baseline.strict_{a}_score": _num(f"method.baseline_strict_{a}")
       for a in ("overall", "noise", "rejection", "integration", "counterfactual")},
    "baseline.strict_rejection_over_refusal": _num("method.baseline_over_refusal"),
    "baseline.strict_counterfactual_ed_false_alarm": _num("method.baseline_ed_false_alarm"),
    **{f"audit.{k}": Spec(f"method.audit_col_{k}", None, k == "id")
       for k in ("lang", "file", "id", "kind", "detail")},
    "audit.field": _plain("{field}", numeric=False, key="{field}"),  # a field not named above
    "agree.lang": Spec("agree.col_lang"),
    "agree.detector": Spec("agree.col_detector"),
    **{f"agree.{m}": _num(f"agree.col_{m}", key=f"{{mode}}_{m}") for m in ("p", "r", "f1", "acc")},
    "judgeagree.judge": Spec("agree.judge_col_judge"),
    "judgeagree.split": Spec("agree.judge_col_split"),
    "judgeagree.task": Spec("agree.judge_col_task"),
    "judgeagree.n": _plain("n", "agree.judge_col_n_tip"),
    "judgeagree.judged": _num("agree.judge_col_judged"),
    "judgeagree.unparsable": _num("agree.judge_col_unparsable"),
    **{f"judgeagree.kappa_{r}": _num(f"agree.judge_col_kappa_{r}", "agree.judge_tip")
       for r in ("judge", "strict", "rgb")},
    # the statement judge against the hand-labelled statements (methodology)
    "faithagree.judge": Spec("agree.judge_col_judge"),
    "faithagree.split": Spec("agree.judge_col_split"),
    "faithagree.lang": Spec("agree.col_lang"),
    "faithagree.n_labelled": _num("faithagree.col_labelled", "faithagree.col_labelled_tip"),
    "faithagree.n_stale": _num("faithagree.col_stale", "faithagree.col_stale_tip"),
    "faithagree.n": _num("agree.judge_col_judged", "faithagree.col_n_tip"),
    "faithagree.unparsable": _num("agree.judge_col_unparsable"),
    "faithagree.observed": _num("faithagree.col_observed", "faithagree.col_observed_tip"),
    "faithagree.kappa": _num("agree.judge_col_kappa_judge", "faithagree.col_kappa_tip"),
    "faithagree.verdict": Spec("faithagree.col_verdict"),
    **{f"faithagree.label_{v}": _num(f"faithagree.col_label_{v}", key=v)
       for v in ("supported", "unsupported", "contradicted")},
    # the relevance judge against the grounding labels (methodology)
    "relagree.judge": Spec("agree.judge_col_judge"),
    "relagree.split": Spec("agree.judge_col_split"),
    "relagree.lang": Spec("agree.col_lang"),
    "relagree.n_labelled": _num("faithagree.col_labelled", "relagree.col_labelled_tip"),
    "relagree.n": _num("agree.judge_col_judged", "relagree.col_n_tip"),
    "relagree.unparsable": _num("agree.judge_col_unparsable"),
    "relagree.observed": _num("relagree.col_observed", "relagree.col_observed_tip"),
    "relagree.kappa": _num("agree.judge_col_kappa_judge", "relagree.col_kappa_tip"),
    "relagree.verdict": Spec("faithagree.col_verdict"),
    **{f"relagree.label_{v}": _num(f"relagree.col_label_{v}", key=v)
       for v in ("relevant", "not_relevant")},
    # instruction track
    "instr.model": Spec("instr.col.model"),
    "instr.instruction": Spec("instr.col.instruction"),
    **{f"instr.{m}": _num(f"instr.col.{m}", f"instr.tip.{m}")
       for m in ("refused", "made_up", "truthfulness", "accuracy", "over_refusal",
                 "error_detection", "repeated_fake")},
    "instr.n": Spec("instr.col.n", "instr.tip.n"),
    # knowledge-conflict track
    "conf.model": Spec("conf.col.model"),
    "conf.effect": Spec("conf.col.effect"),
    **{f"conf.{m}_{lang}": _num(f"conf.col.{m}_{lang}", f"conf.tip.effect_{m}")
       for m in ("truthful", "misled") for lang in ("zh", "en")},
    **{f"conf.{m}_zh_en": _num(f"conf.col.{m}_zh_en", "conf.tip.effect_gap")
       for m in ("truthful", "misled")},
    "conf.condition": Spec("conf.col.condition"),
    **{f"conf.{m}": _num(f"conf.label.{m}", f"conf.tip.{m}")
       for m in ("truthful", "misled", "flagged", "error_claimed", "refused", "both_flagged",
                 "both_merged", "true_only", "fake_only", "other")},
    "conf.n": _num("conf.col.n", "conf.tip.n"),
    "conf.lang": Spec("col.lang"),
    "conf.prior": Spec("conf.col.prior", "conf.tip.prior"),
    **{f"conf.{k}": _num(f"conf.col.{k}", f"conf.tip.{k}")
       for k in ("eligible", "left_out", "answered")},
    # the conflict outcome reader against the hand labels (methodology)
    "confagree.lang": Spec("col.lang"),
    "confagree.split": Spec("agree.judge_col_split"),
    "confagree.n": _num("conf.col.n", "conf.agree_tip_n"),
    "confagree.agreement": _num("conf.agree_col_agreement", "conf.agree_tip_agreement"),
    "confagree.confusions": Spec("conf.agree_col_confusions", "conf.agree_tip_confusions"),
    # the grounding check against the hand labels (methodology)
    "gragree.lang": Spec("col.lang"),
    "gragree.split": Spec("agree.judge_col_split"),
    "gragree.measure": Spec("grag.col_measure", "grag.tip_measure"),
    "gragree.n": _num("grag.col_n", "grag.tip_n"),
    "gragree.agreement": _num("conf.agree_col_agreement", "grag.tip_agreement"),
    "gragree.hand": Spec("grag.col_hand"),
    "gragree.check": Spec("grag.col_check"),
    "gragree.count": _num("grag.col_count", "grag.tip_count"),
}
# fmt: on


def column(
    name: str,
    lg: str,
    *,
    definition: str | None = None,
    extra: bool = False,
    narrow: bool = False,
    **values: str,
) -> Column:
    """The declared column `name` (an id of COLUMNS) in interface language `lg`; `values` fill
    the {name}s of its key, label and tooltip. `definition` is the tooltip of a column that
    declares none, given by the data (an ability's definition in results.json); `extra`/`narrow`
    fold it away (tables.Column)."""
    spec = COLUMNS.get(name)
    if spec is None:
        raise KeyError(f"no column {name!r} in leaderboard/site/render/columns.py (COLUMNS)")
    key = (spec.key or name.rsplit(".", 1)[1]).format(**values)
    label = spec.label.format(**values) if spec.plain else ui(lg, spec.label, **values)
    title = ui(lg, spec.tip, **values) if spec.tip else definition
    return Column(key, label, spec.numeric, title, extra=extra, narrow=narrow)


def columns(lg: str, *names: str, **values: str) -> tuple[Column, ...]:
    """The declared columns `names`, in that order (see `column`)."""
    return tuple(column(n, lg, **values) for n in names)
