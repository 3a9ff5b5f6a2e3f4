#!/usr/bin/env python3
"""Gilda, the grounding peer, on the same MeSH and the same corpus as scripts/eval-grounding.

A Gilda `Grounder` is built from the bundled MeSH 2024 tables (ontologies/mesh2024_descriptors.tsv.gz
and mesh2024_supplementary.tsv.gz: each label and entry term a `Term`, labels as `name`, entry
terms as `synonym`), with no disambiguation models (they download). Then, on a PubTator corpus:

  names     every mention with MeSH gold grounded alone (`Grounder.ground`): recall@1 and @10 (a
            hit when a gold id is among the first k matches' ids), and per-call latency.
  passages  every abstract (title, a space, abstract) annotated (`gilda.ner.annotate`): concept
            P / R / F1 per group, each abstract's set of first-match ids of the group (MeSH tree
            C or F03 a disease, D a chemical; a supplementary record by its mapped headings)
            against its gold ids of that type, micro-averaged; and per-abstract latency.

Usage: gilda_peer.py CORPUS [--limit N]   (run with the venv of scripts/setup-clients plus gilda)
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MESH_ID = re.compile(r"^[CD]\d+$")


def mesh_rows(path: Path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= 4:
                yield cells


def build_grounder():
    from gilda import Grounder
    from gilda.process import normalize
    from gilda.term import Term

    terms = []
    groups: dict[str, set[str]] = {}
    for file in ("mesh2024_descriptors.tsv.gz", "mesh2024_supplementary.tsv.gz"):
        for cells in mesh_rows(REPO / "ontologies" / file):
            mesh_id, label, entries, last = cells[0], cells[1], cells[2], cells[3]
            names = [(label, "name")] + [(e, "synonym") for e in entries.split("|") if e]
            for text, status in names:
                terms.append(Term(normalize(text), text, "MESH", mesh_id, label, status, "mesh"))
            if mesh_id.startswith("D"):
                groups[mesh_id] = {
                    "disease" if t.startswith(("C", "F03")) else "chemical"
                    for t in last.split("|")
                    if t.startswith(("C", "F03", "D"))
                }
            else:
                mapped = [h.lstrip("*") for h in last.split("|") if h]
                groups[mesh_id] = set().union(*(groups.get(h, set()) for h in mapped)) if mapped else set()
    grounder = Grounder(terms)
    # Disambiguation models off: they download, and a plain grounder is the peer.
    grounder.gilda_disambiguators = {}
    grounder.adeft_disambiguators = {}
    return grounder, groups


def read_corpus(path: Path):
    docs, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if "|t|" in line:
            pmid, title = line.split("|t|", 1)
            current = {"pmid": pmid, "text": title, "gold": []}
        elif "|a|" in line and current:
            current["text"] += " " + line.split("|a|", 1)[1]
            docs.append(current)
        elif current and line.count("\t") >= 5:
            cells = line.split("\t")
            ids = [i.removeprefix("MESH:") for i in re.split(r"[|+]", cells[5])]
            kind = "chemical" if cells[4] == "Chemical" else "disease"
            current["gold"].append({"text": cells[3], "group": kind, "ids": [i for i in ids if MESH_ID.match(i)]})
    return docs


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="at most this many abstracts")
    args = parser.parse_args()
    from gilda.ner import annotate

    started = time.perf_counter()
    grounder, groups = build_grounder()
    print(f"gilda grounder from the bundled MeSH tables: {time.perf_counter() - started:.1f} s")
    docs = read_corpus(args.corpus)
    if args.limit:
        docs = docs[: args.limit]
    at1 = at10 = n = 0
    calls = []
    for doc in docs:
        for g in doc["gold"]:
            if not g["ids"]:
                continue
            t = time.perf_counter()
            matches = grounder.ground(g["text"])
            calls.append((time.perf_counter() - t) * 1000)
            ids = [m.term.id for m in matches]
            n += 1
            at1 += bool(ids[:1] and ids[0] in g["ids"])
            at10 += any(i in g["ids"] for i in ids[:10])
    calls.sort()
    print(f"{args.corpus.name}: {n} mentions; gilda ground recall@1 {at1 / n:.3f} recall@10 "
          f"{at10 / n:.3f}; p50 {statistics.median(calls):.2f} ms p99 {calls[int(0.99 * len(calls))]:.2f} ms")
    totals = {"disease": [0, 0, 0], "chemical": [0, 0, 0]}
    times = []
    for doc in docs:
        t = time.perf_counter()
        found = annotate(doc["text"], grounder=grounder)
        times.append((time.perf_counter() - t) * 1000)
        predicted = set()
        for a in found:
            matches = getattr(a, "matches", None) or (a[1] if isinstance(a, tuple) else [])
            if matches:
                mesh_id = matches[0].term.id
                for group in groups.get(mesh_id, ()):
                    predicted.add((group, mesh_id))
        for group, counts in totals.items():
            pred = {i for gr, i in predicted if gr == group}
            gold = {i for g in doc["gold"] if g["group"] == group for i in g["ids"]}
            counts[0] += len(pred & gold)
            counts[1] += len(pred - gold)
            counts[2] += len(gold - pred)
    times.sort()
    for group, (tp, fp, fn) in totals.items():
        if tp + fn == 0:
            continue
        p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        print(f"  gilda annotate {group}: concept P {p:.3f} R {r:.3f} F1 {f1:.3f}")
    print(f"  gilda annotate latency: p50 {statistics.median(times):.2f} ms per abstract")
    return 0


if __name__ == "__main__":
    sys.exit(main())
