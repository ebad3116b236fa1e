#!/usr/bin/env python3
"""Proposes expected bubble texts for the corpus replies whose earlier messages are in the corpus.

A reply's quoted part reproduces an earlier message of its thread (Fixtures/corpus/THREADS.tsv), so its
lines can be told apart from the new text: `>` lines, unquoted lines whose words appear in an earlier
message, attribution lines and header blocks above them. What is left, minus the signature after "-- ",
mobile footers and mailing-list footers, is the expected bubble.

Interleaved replies (new text both before and after a quote, or two or more answered quotes) keep the
quotes that are answered: without them the answers read as non sequiturs. Their attribution lines and
the quote left unanswered at the end go.

Usage:
  derive.py --proposals DIR   write every proposal (and its flags) to DIR, for review
  derive.py                   write the reviewed cases into Fixtures/quality/corpus-*/

Review verdicts are in scripts/quality/derived-review.tsv (name, verdict, note): `keep` takes the
proposal, `fixed` takes scripts/quality/derived-fixes/<name>.expected.txt (a hand fix), `drop` skips it.
"""

import argparse
import csv
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_mail  # noqa: E402
from reply_lines import classify_lines, labelled_segments  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "Fixtures", "corpus")
QUALITY = os.path.join(ROOT, "Fixtures", "quality")
REVIEW = os.path.join(ROOT, "scripts", "quality", "derived-review.tsv")
FIXES = os.path.join(ROOT, "scripts", "quality", "derived-fixes")


def fuzzed_files():
    """Corpus files that a parser test suite fuzzed (MANIFEST.tsv names where each file came from)."""
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8") as handle:
        return {row[0] for row in csv.reader(handle, delimiter="\t") if len(row) > 4 and "/fuzz/" in row[4]}


FUZZED = fuzzed_files()


def message_ids(value):
    return re.findall(r"<[^<>\s]+>", value)


def case_name(path):
    source, stem = path.split("/", 1)
    stem = os.path.splitext(stem)[0]
    stem = stem.replace("vault-export-mbox_ubuntu_me_u.jaylee.us_", "ubuntu-")
    return re.sub(r"[^A-Za-z0-9]+", "-", f"{source}-{stem}").strip("-")


def load_threads():
    with open(os.path.join(CORPUS, "THREADS.tsv"), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    messages = {}
    for row in rows:
        with open(os.path.join(CORPUS, row["file"]), "rb") as handle:
            raw = handle.read()
        row["raw"] = raw
        row["message"] = corpus_mail.parse(raw)
        messages[row["message_id"]] = row
    return rows, messages


def searchable_text(row):
    """An earlier message's words, from its plain part or, failing that, its HTML with tags dropped."""
    plain, html = corpus_mail.select_body(row["message"])
    if plain is not None:
        return corpus_mail.decoded_text(plain)
    if html is not None:
        return re.sub(r"(?s)<[^>]*>", " ", corpus_mail.decoded_text(html))
    return ""


def propose(row, messages):
    """(category, expected text, flags) for one reply, or None when it cannot be derived."""
    message = row["message"]
    ids = message_ids(header(message, "In-Reply-To")) + message_ids(header(message, "References"))[::-1]
    earlier = [messages[i] for i in ids if i in messages and i != row["message_id"]]
    if not earlier:
        return None
    if row["file"] in FUZZED:
        return None  # fuzzed headers and bodies: no sender wrote them
    body = corpus_mail.plain_body(message)
    if body is None:
        return None
    text, flowed = body
    lines = text.split("\n")
    streams = [" " + " ".join(tokens(searchable_text(e))) + " " for e in earlier]
    labels, flags = classify_lines(lines, streams)
    if "-----BEGIN PGP SIGNED MESSAGE-----" in text:
        return None  # inline PGP armour around the text: whether a bubble shows it is a question of its own
    if is_patch(text):
        return None  # a patch of a series, threaded but not a reply: its `>` lines are code, not quotes
    segments = labelled_segments(lines, labels)
    kept, shape = assemble(segments, flags)
    expected = "\n".join(kept)
    # The app trims a bubble at both ends, indentation of its first line included.
    expected = corpus_mail.tidy(expected if flowed else corpus_mail.unwrap(corpus_mail.tidy(expected))).strip()
    if not expected.strip():
        return None
    return shape, expected, sorted(flags)


def is_patch(text):
    return bool(re.search(r"^(diff --git |--- a/|\+\+\+ b/|Index: )", text, re.MULTILINE))


def header(message, name):
    return corpus_mail.header(message, name)


def tokens(text):
    return re.findall(r"\w+", text.lower())


def assemble(segments, flags):
    """Keeps new text; keeps answered quotes of an interleaved reply; names the reply's shape."""
    kinds = [kind for kind, _ in segments]
    new_positions = [i for i, kind in enumerate(kinds) if kind == "new"]
    quote_positions = [i for i, kind in enumerate(kinds) if kind == "quote"]
    if not new_positions:
        return [], "none"
    # "Hey there," above a quote or "Cheers, Gene" below one neither answers nor introduces anything.
    answering = [i for i in new_positions if not is_formality(segments[i][1])]
    answered = [i for i in quote_positions if any(n > i for n in answering)]
    before = [n for n in answering if answered and n < answered[0]]
    interleaved = len(answered) >= 2 or (len(answered) == 1 and bool(before))
    kept = []
    for index, (kind, items) in enumerate(segments):
        if kind in ("new", "blank"):
            kept += [line for _, line in items]
        elif kind == "quote" and interleaved and index in answered:
            kept += [line for label, line in items if label != "attribution"]
    if "header-block" in flags:
        shape = "corpus-outlook"
    elif interleaved:
        shape = "corpus-interleaved"
    elif quote_positions and quote_positions[0] < (answering or new_positions)[0]:
        shape = "corpus-bottom"
    elif quote_positions:
        shape = "corpus-top"
    else:
        shape = "corpus-no-quote"
    return kept, shape


def is_formality(items):
    """A greeting or sign-off: at most two short lines, no question."""
    lines = [line.strip() for _, line in items if line.strip()]
    return len(lines) <= 2 and all(len(line) <= 30 and not line.endswith("?") for line in lines)


def read_review():
    verdicts = {}
    if os.path.exists(REVIEW):
        with open(REVIEW, encoding="utf-8") as handle:
            for row in csv.reader(handle, delimiter="\t"):
                if row and not row[0].startswith("#") and row[0] != "name":
                    verdicts[row[0]] = (row[1], row[2] if len(row) > 2 else "")
    return verdicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--proposals", help="write every proposal here for review instead of the fixtures")
    args = parser.parse_args()
    rows, messages = load_threads()
    verdicts = read_review()
    written = {}
    provenance = []
    for row in rows:
        proposal = propose(row, messages)
        if proposal is None:
            continue
        shape, expected, flags = proposal
        name = case_name(row["file"])
        if args.proposals:
            os.makedirs(args.proposals, exist_ok=True)
            with open(os.path.join(args.proposals, name + ".txt"), "w", encoding="utf-8") as handle:
                handle.write(f"{row['file']}\t{shape}\t{','.join(flags)}\n{expected}\n")
            continue
        verdict, _ = verdicts.get(name, ("unreviewed", ""))
        if verdict == "keep":
            text = expected
        elif verdict == "fixed":
            with open(os.path.join(FIXES, name + ".expected.txt"), encoding="utf-8") as handle:
                text = handle.read().rstrip("\n")
            shape = verdicts[name][1].split(";")[0] if verdicts[name][1].startswith("corpus-") else shape
        else:
            continue
        folder = os.path.join(QUALITY, shape)
        os.makedirs(folder, exist_ok=True)
        shutil.copyfile(os.path.join(CORPUS, row["file"]), os.path.join(folder, name + ".eml"))
        with open(os.path.join(folder, name + ".expected.txt"), "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        written[shape] = written.get(shape, 0) + 1
        provenance.append((f"{shape}/{name}", row["file"], row["file"].split("/")[0], verdict))
    if not args.proposals:
        with open(os.path.join(QUALITY, "corpus-cases.tsv"), "w", encoding="utf-8") as handle:
            handle.write("case\tcorpus_file\tsource\treview\n")
            for entry in sorted(provenance):
                handle.write("\t".join(entry) + "\n")
        missing = [n for n, (v, _) in verdicts.items() if v in ("keep", "fixed")
                   and not any(os.path.exists(os.path.join(QUALITY, s, n + ".eml")) for s in written)]
        for name in missing:
            print(f"warning: reviewed case {name} was not derived", file=sys.stderr)
        for shape in sorted(written):
            print(f"{shape}: {written[shape]}")


if __name__ == "__main__":
    main()
