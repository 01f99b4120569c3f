# ruff: noqa: E501  (hand-written reasons, one per answer)
"""The second reading of the strict audit's disagreement set, and the third where two differ (issue 59).

Every answer of the disagreement set (audit_sample.json: `disagree`, `disagree_instructions`,
`disagree_probes`, `disagree_more`, `disagree_round5` to `disagree_round9`) is labelled twice,
each time blind to both modes' verdicts:
the first reading is audit_labels.py; the second (SECOND) was made on 2026-12-07 by two annotators
who read only labels/GUIDE.md and a sheet (scripts/labels/audit_sheet.py: sheet numbers, question,
gold, fake answer, passages, answer; no entry, key, label, note or verdict), the answers shuffled
(seed `rgb-strict-audit-second-v1`) and split between them. Where the two readings differ, a third
annotator (ADJUDICATED) read the guide, the item and both codes with their reasons (in random order,
unnamed), still without either mode's verdict, and decided. build_audit.py takes the agreed code or
the third's, and writes both readings to labels/audit/annotations.jsonl.

Codes as in audit_labels.py: c correct, r rejected, e error detected, k corrected.
"""

SECOND: dict[str, tuple[str, str]] = {
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/21": (
        "c",
        "One quoted sentence names all three laureates.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/21": (
        "c",
        "Names all three laureates in one quoted sentence that states the answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/3": (
        "c",
        "Commits to 'defensive coordinator' in its own words; the irrelevant quote after it does not undo the answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/46": (
        "",
        "Pastes three passage sentences (truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/21": (
        "c",
        "One quoted sentence names all three laureates.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/3": (
        "c",
        "Commits to 'defensive coordinator' in its own words, then adds quoted evidence, which counts as an answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/46": (
        "c",
        "Two quoted passage sentences that state the final was on 18 December 2022, which counts as an answer under the current copy rule.",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.6/15": (
        "",
        "Names the four recipients, but alongside committee members and past winners presented as recipients: a list of passage entities, not a committed answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/en/noise/0.0/12": (
        "c",
        "Gives 68.7 billion, the gold $68.7 billion without the currency sign.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/0": (
        "",
        "Gives 170, the fake answer, and claims no error.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/noise/0.0/76": (
        "",
        "Pastes a long passage listing event attendees with no answer of its own, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/noise/0.0/87": (
        "",
        "Copies three passage sentences about the 2016/2019 elections and never says 工党 won in 2022.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/typo_fixed/en/noise/0.0/46": (
        "",
        "Pastes three passage sentences (truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/68": (
        "",
        "Pastes three passage sentences with no answer of its own first, so it is a copy even though the last one names the place.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/0": (
        "",
        "Gives 170, the fake answer, and claims no error.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/7": (
        "",
        "Gives 12.3%, the fake answer, and claims no error.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/82": (
        "c",
        "Gives 詹姆斯·卡梅隆, which is the gold answer (here the fake answer is identical to it).",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/152": (
        "c",
        "Lists the three leads first, then the supporting cast: the answer set in full.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/175": (
        "",
        "Copies a whole three-sentence passage that only states a conditional and never says 共和党 won the House.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/179": (
        "",
        "Pastes passage sentences that do not even state who was elected, so it is a copy with no answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/195": (
        "",
        "Pastes a passage (three sentences or more, truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/48": (
        "c",
        "Gives 60.39亿元 as its own answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/152": (
        "c",
        "Lists the three leads first, then the supporting cast: the answer set in full.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/185": (
        "c",
        "Two quoted passage sentences, the first naming all four semi-finalists, which counts as an answer under the current copy rule.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/195": (
        "",
        "Pastes a passage (three sentences or more, truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/45": (
        "c",
        "Opens with its own answer (英文文字游戏), then quotes supporting passage sentences.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/48": (
        "c",
        "Gives 60.39亿元 as its own answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/152": (
        "c",
        "Lists the full cast with the leads 姚晨, 常远 and 庄达菲 first.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/195": (
        "",
        "Pastes a passage (three sentences or more, truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/48": (
        "c",
        "Gives 60.39亿元 as its own answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/150": (
        "",
        "Mentions only 金晨, a partial answer, in a copied sentence.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/152": (
        "c",
        "One near-quoted sentence naming 姚晨, 常远 and 庄达菲 as 领衔主演 plus the supporting cast, though it wrongly adds the two directors to the list.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/195": (
        "",
        "Pastes a passage (three sentences or more, truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/42": (
        "",
        "Pastes two passage sentences about presale rankings of three films and never names a first-day champion.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/48": (
        "c",
        "Gives 60.4亿元, a gold alternative.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/190": (
        "c",
        "Two quoted passage sentences (not the whole passage) state that Argentina played France in the final.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/273": (
        "c",
        "Two quoted passage sentences (not the whole passage) name 范伟、秦昊、陈明昊 as the leads.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/52": (
        "",
        "Pastes a long passage (several sentences, truncated) with no answer of its own first, so it is a copy.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/168": (
        "",
        "Says the seats have no settled owner: no number given and no statement that the documents cannot answer.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/212": (
        "",
        "Copies passage text without a verdict and without a refusal.",
    ),
    "qwen2.5-coder-1.5b-instruct/en/closedbook/0.0/9": (
        "r",
        "Says it cannot provide the ticket price and gives no answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/40": (
        "c",
        "States in an adapted sentence that Smith slapped Rock, followed by quoted evidence, so it is a committed answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/en/rejection/1.0/12": (
        "c",
        "Gives $68.7 billion, the gold answer, even though this is the rejection split.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/0": (
        "",
        "Gives the fake answer 170.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/7": (
        "",
        "Gives the fake answer 12.3%.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/rejection/1.0/27": (
        "r",
        "Says the documents do not give the death toll and that it cannot answer, with no answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/no_refusal/zh/counterfactual/0.0/0": (
        "",
        "Gives the fake answer 170.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/closedbook/0.0/227": (
        "",
        "Gives 5.3%, not the gold 3%.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/0": (
        "",
        "Gives 170, the fake answer of the counterfactual item, and claims no error.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/7": (
        "",
        "Gives 12.3%, the fake answer, and claims no error.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/82": (
        "c",
        "Gives 詹姆斯·卡梅隆, the gold answer (the listed fake answer is identical to the gold here).",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.0/82": (
        "c",
        "Gives both visit periods, 6月18日至19日 and 7月6日至9日, so every element is present.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.4/80": (
        "c",
        "Gives 91 for the Winter Olympics and 45 for the Asian Games, each introduced by its own label before one quoted sentence, so both elements are answered.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/150": (
        "c",
        "Lists the cast with leads 金晨 and 王安宇 first, a full-set list that counts as an answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/152": (
        "c",
        "Lists the three leads first, then the supporting cast: the answer set in full.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/20": (
        "",
        "Gives 7.52%, a different value from 7.52‰.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/48": (
        "c",
        "Gives 60.39亿元, the gold value.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/152": (
        "c",
        "Lists the full cast with the leads 姚晨, 常远 and 庄达菲 first.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/20": (
        "",
        "Gives 7.52% instead of 7.52 per mille, a different value.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/48": (
        "c",
        "Gives 60.39亿元, the gold value.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/152": (
        "c",
        "Lists the three leads first, then the supporting cast: the answer set in full.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/160": (
        "c",
        "Names 蔡文静 and 彭冠英 as 领衔主演 in one adapted sentence, followed by the supporting cast.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/191": (
        "c",
        "Gives 第3次, the same as 第三次.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/48": (
        "c",
        "Gives 60.4亿元, a gold alternative.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/152": (
        "c",
        "Lists 姚晨、常远、庄达菲 first, then the rest of the cast: the answer set in full.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/169": (
        "",
        "Lists the nominees for a single award without picking a winner.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/265": (
        "c",
        "Gives 3亿 jobs, the gold value.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/48": (
        "c",
        "Gives 60.40亿元, which equals 60.4.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/108": (
        "c",
        "Lists the full lead cast from the passage, 杨紫 and 成毅 first, which is the answer set in full.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/152": (
        "c",
        "Lists the full cast with the three leads 姚晨, 常远 and 庄达菲 first, a full-set list that counts as an answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/160": (
        "c",
        "Lists 蔡文静 and 彭冠英 first, then the supporting cast, a full-set list that counts as an answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/169": (
        "",
        "Lists the nominees for a single award without picking a winner.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/48": (
        "c",
        "Gives 60.4亿元, a gold alternative.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/155": (
        "",
        "Copies a passage sentence that does not answer; 没有提到 refers to the timing, not to the question.",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/297": (
        "",
        "Asserts, as a passage does, that the visit time is not yet confirmed; this is a claim about the world, not a statement that it or the documents cannot answer, and it gives no gold date.",
    ),
    "smollm2-135m-instruct/en/chain/0.0/35": (
        "",
        "Says The Big Short is by McKay, not Jeymes Samuel, so it never gives Jeymes Samuel as the director.",
    ),
    "smollm2-135m-instruct/en/noise/0.0/0": (
        "c",
        "Gives January 2, 2022 as its own answer, followed by quoted detail.",
    ),
    "smollm2-135m-instruct/en/noise/0.0/19": (
        "c",
        "States March 4, 2022 in one passage-based sentence under the copy length limit.",
    ),
    "smollm2-135m-instruct/en/noise/0.2/19": (
        "c",
        "States the Games begin on March 4, 2022.",
    ),
    "smollm2-135m-instruct/en/noise/0.4/19": (
        "c",
        "States March 4, 2022 as the start date.",
    ),
    "smollm2-135m-instruct/en/noise/0.6/19": (
        "c",
        "States the Games start on March 4, 2022.",
    ),
    "smollm2-135m-instruct/en/noise/0.8/27": (
        "c",
        "Gives 2022-02-24, an equivalent date format for 24 February.",
    ),
    "smollm2-135m-instruct/instructions/abstain_user/zh/rejection/1.0/47": (
        "",
        "Garbled statement with no film named and no clear refusal.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/en/counterfactual/0.0/26": (
        "e",
        "Says the document holds factually incorrect information, but is cut off before giving December 2015.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/zh/counterfactual/0.0/0": (
        "",
        "Gives the fake 170 (plus a garbled 150) and makes no error claim.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/zh/counterfactual/0.0/7": (
        "",
        "Gives the fake 12.3%; the trailing '这是一个可能的问题' claims no factual error in the documents.",
    ),
    "smollm2-135m-instruct/zh/counterfactual/0.0/7": (
        "",
        "Gives the fake 12.3%; 这是一个可能的问题 does not claim the documents are wrong.",
    ),
    "smollm2-135m-instruct/zh/noise/0.0/246": (
        "e",
        "Claims the documents may contain errors (可能有可能的错误) and gives no magnitude.",
    ),
    "smollm2-135m-instruct/zh/noise/0.2/152": (
        "",
        "Repeats a passage question fragment and names no cast.",
    ),
    "smollm2-135m-instruct/zh/noise/0.6/94": (
        "",
        "Garbled text with no magnitude and no clear statement that it cannot answer.",
    ),
    "smollm2-135m-instruct/zh/noise/0.8/219": (
        "",
        "Repetitive nonsense with no answer and no refusal.",
    ),
    "system-bm25-extractive/en/chain/0.0/8": (
        "c",
        "The answer says The Power of the Dog was named Best Motion Picture – Drama; West Side Story is named for a different category, so this is not a hedge.",
    ),
    "system-bm25-extractive/zh/chain/0.0/85": (
        "c",
        "The answer names all four gold leads (陈晓, 王晓晨, 王耀庆, 曾黎) as the cast, followed by the supporting cast, so it gives the full set as its own answer.",
    ),
    "system-e5lead-extractive/en/chain/0.0/49": (
        "c",
        "The answer says Musk took control of Twitter in a $44bn deal, and $44bn is the same as the gold 44 billion.",
    ),
    "system-e5lead-extractive/en/chain/0.0/8": (
        "c",
        "This answer is identical to S002: it commits to The Power of the Dog as Best Motion Picture – Drama, with the other film named for a different category.",
    ),
    "system-e5lead-extractive/zh/chain/0.0/17": (
        "c",
        "The answer states the film is a comedy (喜剧电影), which matches the gold answer, and the passage list is empty so the copy rule cannot apply.",
    ),
    "system-hybridlead-extractive/en/chain/0.0/8": (
        "c",
        "States The Power of the Dog won Best Drama; one sentence, no passages shown to check for a copy.",
    ),
    "system-hybridlead-extractive/zh/chain/0.0/10": (
        "c",
        "Gives 131万辆, matching the gold alternative 131万.",
    ),
    # round 6 (disagree_round6), 2026-12-07: the second blind reading, sheets with passages
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/179": (
        "",
        "Copy of a passage (several sentences); never states who was elected.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/208": (
        "",
        "Copy: one passage pasted whole plus the start of another with its metadata.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/replacement/0.0/221": (
        "",
        "1.2% differs from the gold 2%; no refusal.",
    ),
    # round 7 (disagree_round7), 2026-12-07: the second blind reading
    "qwen2.5-coder-1.5b-instruct/zh/replacement/0.0/227": (
        "",
        "Wrong value 5.3% (gold 3%); no refusal, no error claim.",
    ),
    # round 8 (disagree_round8), 2026-12-07: the second blind reading
    "smollm2-135m-instruct/zh/chain/0.0/88": (
        "c",
        "Gives Anthony Albanese, a gold alternative.",
    ),
    # round 9 (disagree_round9), 2026-12-08: the second blind reading
    "smollm2-135m-instruct/zh/chain/0.0/154": (
        "r",
        "Says the documents contain no statement; no answer given.",
    ),
}

ADJUDICATED: dict[str, tuple[str, str]] = {
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/297": (
        "",
        'It gives no gold date. "尚未得到确认" repeats passage 2\'s claim that the visit is unconfirmed, which is a claim about the world, not a statement that the documents or the model cannot answer. The rejection rule excludes refusal words about something else, so no code applies.',
    ),
    "smollm2-135m-instruct/zh/noise/0.0/246": (
        "e",
        'The response says the documents may contain an error ("在文档中的问题中，可能有可能的错误") and gives no 7.8. Under the error_detected rule ("claims that the documents/passages contain a factual error, however phrased"), a hedged claim about the documents still counts, and the claim is about the documents, not grammar or something else.',
    ),
    "smollm2-135m-instruct/zh/noise/0.6/94": (
        "",
        'It gives no magnitude, so it is not correct, and it is not rejected either: rejection needs the response\'s own statement that the documents or it cannot answer. Here it says the documents describe a magnitude, and the cut-off "但是不再提到" names nothing missing, so no code applies.',
    ),
}
