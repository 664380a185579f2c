"""Build the compact WordNet 3.0 synonym table that rapideval's METEOR ships (rust/data/wordnet/).

    python tools/build_wordnet_table.py /work/nltk_data/corpora/wordnet rust/data/wordnet

METEOR (nltk 3.10.4) only needs, for a word w, the set of lemma names without "_" of every synset in
``wordnet.synsets(w)``: the union, over the parts of speech n, v, a, r, of the names of the index
entries of w's morphy candidates. So the table keeps, per part of speech, the names of all synsets of
every index lemma (lemma names without "_", syntactic markers such as "(a)" removed, case kept), and the
exception lists (``<pos>.exc``) verbatim. Lemmas whose name set is empty contribute nothing to any union
and are left out. The morphy rules are applied at run time (rust/metrics/wordnet.rs).

Output (deterministic, ASCII, LF): ``synonyms.txt`` and a copy of the WordNet licence as ``LICENSE``.

    rapideval-wordnet-synonyms 1 WordNet-3.0
    names <N>
    <one name per line, sorted by code point; a name's id is its line number from 0>
    index <K>
    <lemma> TAB <n ids> TAB <v ids> TAB <a ids> TAB <r ids>
    exceptions <E>
    <pos> TAB <form> TAB <base forms, comma-separated>

Lemmas are sorted. An id field lists the lemma's name ids for that part of speech in increasing order,
as base-36 differences from the previous id (the first from 0), comma-separated; empty when the lemma
has no names for that part of speech.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import sys

POS = ("n", "v", "a", "r")
FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# nltk's WordNetCorpusReader strips a trailing syntactic marker such as "(a)", "(p)", "(ip)".
MARKER = re.compile(r"(.*?)(\([^()]*\))?$")
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def base36(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = DIGITS[r] + out
        if n == 0:
            return out


def synset_names(wordnet: pathlib.Path, pos: str) -> dict[int, list[str]]:
    """Offset -> lemma names of every synset line of data.<pos>."""
    out: dict[int, list[str]] = {}
    with open(wordnet / f"data.{FILES[pos]}", encoding="ascii", newline="\n") as f:
        for line in f:
            if line.startswith(" "):
                continue
            fields = line.split("|", 1)[0].split()
            count = int(fields[3], 16)
            words = fields[4 : 4 + 2 * count : 2]
            out[int(fields[0])] = [MARKER.match(w).group(1) for w in words]
    return out


def index_names(wordnet: pathlib.Path, pos: str) -> dict[str, set[str]]:
    """Index lemma -> names without "_" of all its synsets."""
    synsets = synset_names(wordnet, pos)
    out: dict[str, set[str]] = {}
    with open(wordnet / f"index.{FILES[pos]}", encoding="ascii", newline="\n") as f:
        for line in f:
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
            offsets = fields[6 + n_pointers : 6 + n_pointers + n_synsets]
            out[lemma] = {name for o in offsets for name in synsets[int(o)] if "_" not in name}
    return out


def exceptions(wordnet: pathlib.Path, pos: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with open(wordnet / f"{FILES[pos]}.exc", encoding="ascii", newline="\n") as f:
        for line in f:
            terms = line.split()
            out[terms[0]] = terms[1:]
    return out


def build(wordnet: pathlib.Path) -> str:
    index = {p: index_names(wordnet, p) for p in POS}
    names = sorted({n for p in POS for s in index[p].values() for n in s})
    name_id = {n: i for i, n in enumerate(names)}
    forms = sorted({f for p in POS for f, s in index[p].items() if s})

    def ids(s: set[str]) -> str:
        sorted_ids = sorted(name_id[n] for n in s)
        deltas = [b - a for a, b in zip([0, *sorted_ids], sorted_ids)]
        return ",".join(base36(d) for d in deltas)

    lines = ["rapideval-wordnet-synonyms 1 WordNet-3.0", f"names {len(names)}", *names, f"index {len(forms)}"]
    lines += ["\t".join([form, *(ids(index[p].get(form, set())) for p in POS)]) for form in forms]
    exc = [(p, form, bases) for p in POS for form, bases in sorted(exceptions(wordnet, p).items())]
    lines.append(f"exceptions {len(exc)}")
    lines += [f"{p}\t{form}\t{','.join(bases)}" for p, form, bases in exc]
    return "\n".join(lines) + "\n"


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wordnet, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    (out / "synonyms.txt").write_text(build(wordnet), encoding="ascii", newline="\n")
    shutil.copyfile(wordnet / "LICENSE", out / "LICENSE")


if __name__ == "__main__":
    main()
