# ruff: noqa: E501  (hand-written notes, one per answer)
"""Hand labels of the strict-vs-rgb audit sets (scripts/labels/audit_sample.json), issue 59.

Each answer was read next to its question, gold answer, fake answer and passages and labelled as
labels/GUIDE.md says, before any strict rule changed. Codes: c correct, r rejected, e error
detected, k corrected. Keys are <entry>/<prediction key>.
"""

DISAGREE = {
    "smollm2-135m-instruct/en/noise/0.0/0": (
        "c",
        "answer sentence in own words, then one more passage sentence",
    ),
    "smollm2-135m-instruct/en/noise/0.0/19": ("c", "the date, then an unrelated list of channels"),
    "smollm2-135m-instruct/en/noise/0.2/19": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.4/19": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.6/19": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.8/27": ("c", "ISO date 2022-02-24"),
    "smollm2-135m-instruct/zh/counterfactual/0.0/7": ("", "12.3% is the fake answer, not 2.3%"),
    "smollm2-135m-instruct/zh/noise/0.0/246": (
        "",
        "speculates about 'possible errors' in 'the question': no claim that the documents hold a factual error",
    ),
    "smollm2-135m-instruct/zh/noise/0.2/152": (
        "",
        "asks back what the user means: no refusal, no answer",
    ),
    "smollm2-135m-instruct/zh/noise/0.6/94": (
        "r",
        "the documents 'no longer mention' it, no answer given: a refusal",
    ),
    "smollm2-135m-instruct/zh/noise/0.8/219": (
        "",
        "garbled; 其实 is no correction of the documents",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/21": (
        "c",
        "initials R. and K. inside the names, one sentence",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/21": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/3": ("c", "answer sentence, then quoted evidence"),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/46": (
        "",
        "three pasted passage sentences; the date is inside the second: a copy",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/21": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/3": (
        "c",
        "answer in its own words first, then evidence",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/46": (
        "c",
        "two passage sentences, the second states the date: an answer",
    ),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.6/15": (
        "",
        "an eight-item list adding earlier laureates as recipients",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/0": ("", "170 is the fake answer"),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/7": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/counterfactual/0.0/82": (
        "c",
        "the fake answer equals the gold here (data): the right director",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/152": (
        "c",
        "the cast of the drama in full: every name is an actor of it, not a list of candidates",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/175": (
        "",
        "pasted history, no statement of the result",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/179": (
        "",
        "pasted campaign news, does not say who was elected",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/195": (
        "",
        "the passage pasted, three sentences: a copy",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/48": (
        "c",
        "60.39亿元 is the gold 60.39 (亿元 implied by the question)",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/152": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/185": (
        "c",
        "answer sentence then one more passage sentence",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/195": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/45": (
        "c",
        "answer in its own first sentence (英文文字游戏), then the passage's description",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/48": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/152": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/195": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/48": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/150": ("", "only one of two leads; no error claim"),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/152": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/195": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/42": (
        "",
        "presale ranking, not the first day's champion",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/48": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/190": (
        "c",
        "a passage sentence stating both finalists, then one more",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/273": (
        "c",
        "one passage sentence naming the leads, then a release date",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/52": ("", "pasted schedule and headlines: a copy"),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/168": (
        "",
        "says the seats' outcome is undecided: no refusal, no number",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/212": (
        "",
        "pasted passage; 实际上 is no error claim; no verdict given",
    ),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/40": (
        "c",
        "answer in its own words first, then two sentences of context",
    ),
    "qwen2.5-coder-1.5b-instruct/en/rejection/1.0/12": (
        "c",
        "'or approximately $95 per share' restates the price, it is no other option",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/0": ("", "170 is the fake answer"),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/7": ("", ""),
    "qwen2.5-coder-1.5b-instruct/zh/counterfactual/0.0/82": (
        "c",
        "the fake answer equals the gold here (data): the right director",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.0/82": (
        "c",
        "bullet list with dashes: 6月18日至19日, 7月6日至9日",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.4/80": (
        "c",
        "one labelled line per event, each stating its number",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/150": ("c", "the cast in full, the two leads first"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/152": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/20": ("", "7.52% is not 7.52‰"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/152": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/20": ("", "7.52% is not 7.52‰"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/152": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/160": (
        "c",
        "names the leads and the rest of the cast by billing",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/191": ("c", "第3次 = 第三次"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/152": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/169": ("", "the nominees, not the winner"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/265": (
        "c",
        "reports Goldman Sachs's estimate: 或有 is the estimate's wording, not the response hedging",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/108": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/152": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/160": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/169": ("", "the nominees, not the winner"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/155": (
        "",
        "reports that the AFC did not mention the date: no own refusal",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/297": (
        "r",
        "says the time is not confirmed: declines to give a date",
    ),
}

AGREE = {
    "smollm2-135m-instruct/zh/counterfactual/0.0/62": ("", "4月26日 in the US, not the gold date"),
    "smollm2-135m-instruct/zh/integration/0.2/0": ("", ""),
    "smollm2-135m-instruct/zh/integration/0.4/16": ("", "one of two dates"),
    "smollm2-135m-instruct/zh/integration/0.4/65": ("", ""),
    "smollm2-135m-instruct/zh/integration/0.4/73": ("", ""),
    "smollm2-135m-instruct/zh/integration/0.4/85": ("", "only 海清 of three"),
    "smollm2-135m-instruct/zh/noise/0.0/100": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.0/250": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.0/53": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.2/13": ("c", ""),
    "smollm2-135m-instruct/zh/noise/0.2/16": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.2/214": ("c", ""),
    "smollm2-135m-instruct/zh/noise/0.2/251": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.2/29": ("", "cut off before the value"),
    "smollm2-135m-instruct/zh/noise/0.2/50": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.2/63": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.4/185": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.4/197": ("", "one of two dates, cut off"),
    "smollm2-135m-instruct/zh/noise/0.4/77": ("c", ""),
    "smollm2-135m-instruct/zh/noise/0.6/100": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.6/129": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.6/22": ("c", ""),
    "smollm2-135m-instruct/zh/noise/0.6/255": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.6/256": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.6/270": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.6/45": ("", ""),
    "smollm2-135m-instruct/zh/noise/0.8/90": ("c", "names 杨冬 as the director"),
    "smollm2-135m-instruct/zh/rejection/1.0/200": ("", ""),
    "smollm2-135m-instruct/zh/rejection/1.0/239": ("", ""),
    "smollm2-135m-instruct/zh/rejection/1.0/82": ("", ""),
    "smollm2-135m-instruct/en/counterfactual/0.0/1": ("", ""),
    "smollm2-135m-instruct/en/counterfactual/0.0/42": (
        "c",
        "'Nadal' for Rafael Nadal: a surname for the full name (both modes miss it)",
    ),
    "smollm2-135m-instruct/en/counterfactual/0.0/64": ("", ""),
    "smollm2-135m-instruct/en/counterfactual/0.0/87": ("", ""),
    "smollm2-135m-instruct/en/counterfactual/0.0/94": ("", ""),
    "smollm2-135m-instruct/en/counterfactual/0.0/97": ("", ""),
    "smollm2-135m-instruct/en/noise/0.0/1": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.0/23": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.0/44": ("", "March 2022 without the day"),
    "smollm2-135m-instruct/en/noise/0.2/23": ("c", "garbled, but names Erin Jackson as the winner"),
    "smollm2-135m-instruct/en/noise/0.2/27": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.2/33": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.2/46": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.2/8": ("", ""),
    "smollm2-135m-instruct/en/noise/0.6/10": ("c", ""),
    "smollm2-135m-instruct/en/noise/0.6/2": ("", ""),
    "smollm2-135m-instruct/en/noise/0.6/30": ("", ""),
    "smollm2-135m-instruct/en/noise/0.6/45": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/1": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/13": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/23": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/35": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/37": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/4": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/47": ("", ""),
    "smollm2-135m-instruct/en/noise/0.8/8": ("c", "right title, wrong attribution"),
    "smollm2-135m-instruct/en/rejection/1.0/20": ("", ""),
    "smollm2-135m-instruct/en/rejection/1.0/24": ("", ""),
    "smollm2-135m-instruct/en/rejection/1.0/43": ("", ""),
    "smollm2-135m-instruct/en/rejection/1.0/49": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.0/50": (
        "c",
        "巴厘省 for 巴厘岛: the same place (both modes miss it)",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.2/45": (
        "c",
        "西敏寺 for 威斯敏斯特: the same place, another transliteration (both modes miss it)",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.2/52": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.2/6": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.4/29": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/integration/0.4/85": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/107": ("", "only one of two countries"),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/178": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/269": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.0/64": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/142": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/299": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/38": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.2/77": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/150": (
        "",
        "'金晨的主演是王安宇': garbled, no statement that both lead",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/176": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/186": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/274": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.4/28": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.6/30": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/117": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/181": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/191": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/noise/0.8/258": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/128": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/207": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/258": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/265": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/5": ("", ""),
    "qwen2.5-coder-0.5b-instruct/zh/rejection/1.0/77": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/18": ("r", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/20": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/21": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/51": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/64": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/counterfactual/0.0/95": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/0": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/10": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/23": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/28": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/30": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/33": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.0/49": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/13": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/15": ("", "one of four recipients wrong"),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/38": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/5": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.2/9": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/20": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/26": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/31": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.4/40": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.6/10": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.6/19": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.6/43": ("c", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.8/17": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.8/2": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.8/35": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/noise/0.8/5": ("", ""),
    "qwen2.5-coder-0.5b-instruct/en/rejection/1.0/2": ("", ""),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.0/32": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.0/78": (
        "c",
        "both champions named (order of men's and women's swapped)",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/integration/0.2/51": ("", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/106": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/116": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/118": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/167": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/208": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/215": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/223": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.0/58": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/0": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/1": ("c", "all six named, India named as invited"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/143": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.2/180": ("c", "第16 = 16强"),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/10": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/196": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/247": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.4/49": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/124": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/210": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.6/291": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/101": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/109": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/193": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/noise/0.8/84": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/12": ("r", ""),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/198": ("", ""),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/62": ("", ""),
    "qwen2.5-coder-1.5b-instruct/zh/rejection/1.0/77": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/counterfactual/0.0/63": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/counterfactual/0.0/76": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/counterfactual/0.0/93": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/counterfactual/0.0/97": ("r", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.0/19": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.0/43": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/17": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/19": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/23": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.2/24": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/2": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/3": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/32": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/45": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/47": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.4/8": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/11": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/14": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/21": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/33": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/38": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/48": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/6": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.6/7": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.8/1": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.8/12": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.8/37": ("c", ""),
    "qwen2.5-coder-1.5b-instruct/en/noise/0.8/39": ("c", "both stars, plus a third who also stars"),
    "qwen2.5-coder-1.5b-instruct/en/rejection/1.0/30": ("", ""),
    "qwen2.5-coder-1.5b-instruct/en/rejection/1.0/38": ("", ""),
}

# Round 2 (issue 59): the instruction track's disagreements (dump_audit.py, `disagree_instructions`),
# labelled blind by an annotator who read only labels/GUIDE.md and a sheet of question, gold, fake
# answer, passages and answer (no verdict of either mode), before any rule was looked at again.
DISAGREE_INSTRUCTIONS = {
    "smollm2-135m-instruct/instructions/abstain_user/zh/rejection/1.0/47": (
        "",
        "Garbled reuse of a passage phrase about scheduling being unsettled plus 'can confirm it is in 2021'; no statement that it cannot answer, and no gold answer.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/en/counterfactual/0.0/26": (
        "e",
        "Claims the document contains factually incorrect information but only reports the fake 2005 date and never gives December 2015.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/zh/counterfactual/0.0/0": (
        "",
        "Gives the fake answer 170 (plus 150) with no error claim.",
    ),
    "smollm2-135m-instruct/instructions/no_refusal/zh/counterfactual/0.0/7": (
        "",
        "Commits to the fake 12.3%; 'this is a possible question' is not a claim that the documents are wrong.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/en/noise/0.0/12": (
        "c",
        "'68.7 billion' is the gold value with only the dollar sign left implicit; I treat it as an equivalent form, not a number cut off before its unit.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/0": (
        "",
        "Fake answer 170 seats.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/noise/0.0/76": (
        "",
        "A near-verbatim paste of a whole two-sentence passage listing many people, so it is a copy, not an answer, even though it contains both names.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/abstain_user/zh/noise/0.0/87": (
        "",
        "Pastes a passage about the 2016/2019 elections and never says who won in 2022.",
    ),
    "qwen2.5-coder-0.5b-instruct/instructions/typo_fixed/en/noise/0.0/46": (
        "",
        "Pastes three sentences of a passage (truncated) with no answer of its own first, so it is a copy even though it contains 18 December.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/0": (
        "",
        "Fake answer 170.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/counterfactual/0.0/7": (
        "",
        "Fake answer 12.3%.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/abstain_user/zh/rejection/1.0/27": (
        "r",
        "States that the documents do not give the death toll and that it cannot answer; gives no answer.",
    ),
    "qwen2.5-coder-1.5b-instruct/instructions/no_refusal/zh/counterfactual/0.0/0": (
        "",
        "Fake answer 170 seats, with no error claim.",
    ),
}

# Round 3 (audit_sample.json `disagree_probes`): the probe answers (chain, replacement, closedbook,
# closedbook_fact) where the modes differ, labelled blind from a sheet without either mode's
# verdict (a fifth annotator, who read only the guide and the sheet; 2026-12-06).
DISAGREE_PROBES: dict[str, tuple[str, str]] = {
    "smollm2-135m-instruct/en/chain/0.0/35": (
        "",
        "Negated answer: names Jeymes Samuel only as 'not Jeymes Samuel' (about The Big Short/Adam McKay), so the gold is not its own answer; no refusal; no claim that the passages contain an error",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/68": (
        "",
        "Copy: 129 of 130 characters are passage [1] verbatim (3 sentences, >80 zh chars, no answer of its own first); the gold 梧州市藤县 appears only inside the copied text; no refusal or error claim",
    ),
    "qwen2.5-coder-1.5b-instruct/en/closedbook/0.0/9": (
        "r",
        "Closed-book: says it cannot provide the ticket price and gives no figure (only advises checking the official site), so it is a rejection; no error claim",
    ),
    "qwen2.5-coder-1.5b-instruct/zh/closedbook/0.0/227": (
        "",
        "Closed-book: commits to 5.3%, a value that differs from the gold 3%; no refusal; no error claim",
    ),
}

# Round 4 (audit_sample.json `disagree_more`): the answers committed after round 3 where the modes
# differ (later instruction runs, the RAG systems), the first of two blind readings (the second in
# audit_second.py), each from a sheet without either mode's verdict (2026-12-07). The five are the
# extractive RAG systems' chain answers; the sheet showed no passages (a system's instance holds
# none: it retrieved its own), so no copy could be judged.
DISAGREE_MORE: dict[str, tuple[str, str]] = {
    "system-bm25-extractive/en/chain/0.0/8": (
        "c",
        "One quoted sentence (after a tag line) stating The Power of the Dog was named Best Motion Picture – Drama; West Side Story is a detail for another category, not a hedge.",
    ),
    "system-bm25-extractive/zh/chain/0.0/85": (
        "c",
        "One sentence naming all four gold leads (陈晓, 王晓晨, 王耀庆, 曾黎) with the rest of the cast, a full-set list that counts as an answer.",
    ),
    "system-e5lead-extractive/en/chain/0.0/49": (
        "c",
        "Short headline-style answer stating a $44bn deal, equivalent to 44 billion; not long enough to be a copy.",
    ),
    "system-e5lead-extractive/en/chain/0.0/8": (
        "c",
        "Same text as S002: one quoted sentence naming The Power of the Dog as Best Motion Picture – Drama, which counts as an answer under the audit copy rule.",
    ),
    "system-e5lead-extractive/zh/chain/0.0/17": (
        "c",
        "A single (truncated) passage-style sentence stating the film is a 喜剧电影, which the audit copy rule counts as an answer, not a copy.",
    ),
}

# Round 5 (audit_sample.json `disagree_round5`): the answers of RAG systems committed after round 4
# where the modes differ (trivial systems left out), the first of two blind readings (the second
# in audit_second.py), each from a sheet without either mode's verdict (2026-12-07). Both are the
# hybrid system's (system-hybridlead-extractive) chain answers; as in round 4 the sheet showed no
# passages. (Since round 5 the audit items of a system's answers record the passages it cited, as
# its results.json judged them: board.instances; no strict verdict on the 7 system items moved.)
DISAGREE_ROUND5: dict[str, tuple[str, str]] = {
    "system-hybridlead-extractive/en/chain/0.0/8": (
        "c",
        "Says The Power of the Dog won Best Drama; a single quoted sentence stating the answer counts.",
    ),
    "system-hybridlead-extractive/zh/chain/0.0/10": (
        "c",
        "Gives 131万 deliveries as its own answer; the extra details are not other options.",
    ),
}

# Round 6 (audit_sample.json `disagree_round6`): every committed answer no earlier round holds where
# the modes differ (the zh chain and replacement probes widened to 300 records), the first of two
# blind readings (the second in audit_second.py), each from a sheet that shows the passages the
# answer was given and neither mode's verdict (2026-12-07). The same two sheets also held the 7
# system answers of rounds 4-5, whose sheets had shown no passages: read again with the passages
# each system cited, both annotators gave all 7 the code they carry (c), so no label moved.
DISAGREE_ROUND6: dict[str, tuple[str, str]] = {
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/179": (
        "",
        "A copy of three passage sentences; never says who was elected.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/chain/0.0/208": (
        "",
        "A copy: a whole passage plus header fragments of another, no answer of its own.",
    ),
    "qwen2.5-coder-0.5b-instruct/zh/replacement/0.0/221": (
        "",
        "1.2% is a different value from the gold 2%.",
    ),
}

# Round 7 (audit_sample.json `disagree_round7`): what Qwen2.5-Coder-1.5B's widened zh chain and
# replacement probes added, the first of two blind readings, as round 6.
DISAGREE_ROUND7: dict[str, tuple[str, str]] = {
    "qwen2.5-coder-1.5b-instruct/zh/replacement/0.0/227": (
        "",
        "5.3% is a different value from the gold 3%; a committed answer, no refusal.",
    ),
}

# Round 8 (audit_sample.json `disagree_round8`): what SmolLM2-135M's zh chain and replacement
# probes added when widened from 50 to 100 records, the first of two blind readings, as round 6.
DISAGREE_ROUND8: dict[str, tuple[str, str]] = {
    "smollm2-135m-instruct/zh/chain/0.0/88": (
        "c",
        "Names Anthony Albanese as its answer, a gold alternative.",
    ),
}

# Round 9 (audit_sample.json `disagree_round9`): what SmolLM2-135M's zh chain and replacement
# probes added when widened from 150 to all 300 records, the first of two blind readings, as
# round 6.
DISAGREE_ROUND9: dict[str, tuple[str, str]] = {
    "smollm2-135m-instruct/zh/chain/0.0/154": (
        "r",
        "Garbled claim that the documents have no 说明 (no information); no date given.",
    ),
}
