"""Build python/rapideval/data/example.jsonl, the dataset `rapideval score` scores by default.

References are sentences of the CPython 3.11 documentation (pydoc_data/topics.py, PSF licence); each
response is a seeded, rule-based rewrite of its reference (verbatim, shortened, reordered, with words
swapped for near-synonyms, truncated, or unrelated), so the scores spread over the whole 0-1 range the way
real model outputs do. Deterministic: rerunning writes the same file.
"""

import json
import random
import re
import sys

from pydoc_data.topics import topics

SYNONYMS = {
    "function": "routine", "returns": "gives back", "value": "result", "object": "instance",
    "list": "sequence", "string": "text", "used": "employed", "called": "invoked", "new": "fresh",
    "must": "has to", "can": "may", "method": "function", "argument": "parameter", "raised": "thrown",
    "error": "exception", "the": "a", "is": "becomes", "class": "type", "module": "package",
}


def sentences():
    out = []
    for key in sorted(topics):
        for para in re.split(r"\n\s*\n", topics[key]):
            text = " ".join(para.split())
            for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
                if 50 <= len(sent) <= 220 and sent[-1] in ".!?" and not sent.startswith((">>>", "*", "...")):
                    out.append(sent)
    return out


def rewrite(rng, ref, other):
    words = ref.split()
    kind = rng.choice(["verbatim", "shorter", "reorder", "synonyms", "synonyms", "truncate", "unrelated"])
    if kind == "shorter":
        keep = [w for w in words if rng.random() > 0.25]
        return kind, " ".join(keep or words[:1])
    if kind == "reorder":
        cut = rng.randrange(1, len(words))
        return kind, " ".join(words[cut:] + words[:cut])
    if kind == "synonyms":
        return kind, " ".join(SYNONYMS.get(w, w) if rng.random() < 0.7 else w for w in words)
    if kind == "truncate":
        return kind, " ".join(words[: max(1, len(words) // 2)])
    if kind == "unrelated":
        return kind, other
    return kind, ref


def main(path, rows=500):
    rng = random.Random(20261130)
    pool = sentences()
    refs = rng.sample(pool, rows)
    with open(path, "w", encoding="utf8", newline="\n") as f:
        for i, ref in enumerate(refs):
            kind, response = rewrite(rng, ref, rng.choice(pool))
            f.write(json.dumps({"id": i, "kind": kind, "response": response, "reference": ref}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "python/rapideval/data/example.jsonl")
