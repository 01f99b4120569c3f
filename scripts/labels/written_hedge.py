# ruff: noqa: E741  (data tables: one template per line)
"""Hedge batch (issue 25, 2026-12-01), ids `<lang>-h-…`: written before the hedge rule existed.

A response that offers the gold answer as one of several options ("可能是甲方、{gold}或者乙方",
"It is either {gold} or {fake}") does not commit to an answer: it is labelled not correct. The
near-hedges next to them keep their credit: a committed answer with a caveat that names no other
option, an answer followed by a supporting detail, other options named as wrong, 或许 ("perhaps"),
multi-part answers, and names or titles that contain or / 和 / 与. Unlike the d2/d3 batches this
one has both parts: each template falls in dev or test by the hash of its group (common.split_of),
so the held-out part measures the rule on phrasings it was not developed on.

Same format as written_zh.py: (template, ability, labels code, text, instances, note); codes: c
correct, r rejected, e error detected, k corrected. {o1} and {o2} are candidate spans of the
instance's passages of the gold's type (a number for a number, else a name: build.py `options`).
HAND items carry their own question and answer (names and titles with or / 和 / 与, which the RGB
records lack); SMOLLM2 lists real SmolLM2-135M outputs near a hedge, by prediction key.
"""

N, R, I, C = "noise", "rejection", "integration", "counterfactual"

ZH = [
    # hedges: the gold among options of its type
    ("hedge-list", N, "", "可能是{o1}、{a}或者{o2}。", 3, "the issue's example"),
    ("hedge-fake", C, "", "可能是{a}，也可能是{f}。", 3, "gold and planted fake as options"),
    ("hedge-or", N, "", "答案是{o1}或{a}。", 3, ""),
    ("hedge-yaomo", N, "", "要么是{a}，要么是{o1}。", 3, ""),
    ("hedge-haishi", N, "", "是{a}还是{o1}，两者都有可能。", 3, ""),
    ("hedge-also", N, "", "答案是{a}。不过也可能是{o1}。", 3, "an answer, then another option"),
    ("hedge-oneof", N, "", "答案是{o1}、{a}、{o2}中的一个。", 3, ""),
    ("hedge-fake-or", C, "", "{f}或者{a}。", 3, ""),
    ("hedge-huozheshi", N, "", "大概是{a}，或者是{o1}。", 3, ""),
    ("hedge-doukeneng", N, "", "{o1}、{o2}或{a}都有可能。", 3, ""),
    # near-hedges: committed answers
    ("ctl-caveat", N, "c", "答案是{a}。不过也可能存在其他说法。", 3, "caveat naming no option"),
    ("ctl-not", N, "c", "答案是{a}，而不是{o1}。", 3, "another option ruled out"),
    ("ctl-detail", N, "c", "答案是{a}。文档中也提到了{o1}和{o2}。", 3, "a supporting detail"),
    ("ctl-huoxu", N, "c", "答案是{a}，或许文档还有更多细节。", 3, "或许 (perhaps) is not 或 (or)"),
    ("ctl-question-then", N, "c", "是{a}还是{o1}？根据文档，答案是{a}。", 3, "options, then one"),
    (
        "ctl-others-wrong",
        N,
        "c",
        "答案是{a}，{o1}或{o2}都不对。",
        3,
        "other options named as wrong",
    ),
    ("ctl-error-fake", C, "cek", "文档说是{f}，这是错误的，正确答案是{a}。", 3, "fake named wrong"),
    ("ctl-int", I, "c", "答案包括{a}。", 3, "a multi-part answer"),
]

EN = [
    # hedges
    ("hedge-either-fake", C, "", "It is either {a} or {f}.", 3, "the issue's example"),
    ("hedge-list", N, "", "It could be {o1}, {a} or {o2}.", 3, ""),
    ("hedge-possibly", N, "", "Possibly {a}, {o1} or {o2}.", 3, ""),
    ("hedge-oneof", N, "", "The answer is one of {o1}, {a} and {o2}.", 3, ""),
    ("hedge-or", N, "", "{o1} or {a}.", 3, ""),
    ("hedge-might", N, "", "It might be {a}, or it might be {o1}.", 3, ""),
    ("hedge-also", N, "", "The answer is {a}, although it could also be {o1}.", 3, ""),
    ("hedge-maybe-fake", C, "", "I think it's {a} or maybe {f}.", 3, ""),
    ("hedge-either", N, "", "Either {o1} or {a}, according to the documents.", 3, ""),
    # near-hedges
    ("ctl-not", N, "c", "The answer is {a}, not {o1}.", 3, "another option ruled out"),
    ("ctl-detail", N, "c", "The answer is {a}. {o1} and {o2} are also mentioned.", 3, "detail"),
    ("ctl-caveat", N, "c", "The answer is {a}, though other sources may differ.", 3, "caveat"),
    (
        "ctl-or-detail",
        N,
        "c",
        "The answer is {a}, or at least that is what the documents report.",
        3,
        "'or' followed by no other option",
    ),
    (
        "ctl-question-then",
        N,
        "c",
        "Was it {a} or {o1}? According to the documents, it was {a}.",
        3,
        "options, then one",
    ),
    ("ctl-others-wrong", N, "c", "The answer is {a}. {o1} or {o2} would be wrong.", 3, ""),
    (
        "ctl-error-fake",
        C,
        "cek",
        "The documents say {f}, but that is wrong: the answer is {a}.",
        3,
        "fake named wrong",
    ),
    ("ctl-int", I, "c", "The answers are {a}.", 3, "a multi-part answer"),
]

# (name, ability, question, answer, fakeanswer, code, prediction, note)
HAND_ZH = [
    (
        "name-zhanzheng",
        N,
        "托尔斯泰最著名的长篇小说是哪部？",
        ["战争与和平"],
        None,
        "c",
        "托尔斯泰最著名的长篇小说是《战争与和平》。",
        "a title with 与",
    ),
    (
        "name-zhanzheng-hedge",
        N,
        "托尔斯泰最著名的长篇小说是哪部？",
        ["战争与和平"],
        None,
        "",
        "可能是《战争与和平》或者《安娜·卡列尼娜》。",
        "a title with 与, offered as an option",
    ),
    (
        "name-yuanheping",
        N,
        "《七人乐队》的导演是谁？",
        ["袁和平"],
        None,
        "c",
        "导演包括袁和平与洪金宝等七位导演。",
        "a name with 和 in a 与 list",
    ),
    (
        "name-gonghedang",
        N,
        "2022年美国中期选举后众议院多数党？",
        ["共和党"],
        None,
        "",
        "共和党或者民主党。",
        "a name with 和, offered as an option",
    ),
]
HAND_EN = [
    (
        "name-birdman",
        N,
        "Which film won Best Picture at the 87th Academy Awards?",
        [["Birdman or (The Unexpected Virtue of Ignorance)", "Birdman"]],
        None,
        "c",
        "The winner was Birdman or (The Unexpected Virtue of Ignorance).",
        "a title with 'or'",
    ),
    (
        "name-birdman-hedge",
        N,
        "Which film won Best Picture at the 87th Academy Awards?",
        [["Birdman or (The Unexpected Virtue of Ignorance)", "Birdman"]],
        None,
        "",
        "It was either Birdman or Boyhood.",
        "a title offered as an option",
    ),
    (
        "name-twelfth",
        N,
        "Which Shakespeare comedy features Viola and Orsino?",
        [["Twelfth Night, or What You Will", "Twelfth Night"]],
        None,
        "c",
        "Viola and Orsino appear in Twelfth Night, or What You Will.",
        "a title with ', or'",
    ),
    (
        "name-pride",
        N,
        "Which Jane Austen novel features Elizabeth Bennet?",
        ["Pride and Prejudice"],
        None,
        "c",
        "Elizabeth Bennet is the heroine of Pride and Prejudice.",
        "a title with 'and'",
    ),
    (
        "name-pride-hedge",
        N,
        "Which Jane Austen novel features Elizabeth Bennet?",
        ["Pride and Prejudice"],
        None,
        "",
        "It is Pride and Prejudice or Emma.",
        "a title with 'and', offered as an option",
    ),
]

# Real SmolLM2-135M outputs near a hedge (a committed answer, then "…之一" describing it).
SMOLLM2_ZH = [
    ("zh/noise/0.2/93", "c", "之一 describes the conference, the answer is committed"),
    ("zh/noise/0.4/93", "c", "之一 describes the conference, the answer is committed"),
    ("zh/noise/0.6/93", "c", "之一 describes the conference, the answer is committed"),
]
SMOLLM2_EN: list = []
