"""`scripts/eval-grounding --passages`: `ground_passage` over each abstract of a PubTator corpus
file, over MCP stdio as an agent calls it ({"text": title + " " + abstract,
"sources": [...], "limit": 10}), scored against the corpus's mentions, group by group.

A corpus annotates some groups only (NCBI disease: diseases; BC5CDR: diseases and chemicals),
while a dictionary over MeSH also finds anatomy, organisms and genes. So a group's scores count
a prediction only when its first candidate is of that group: a disease is a MeSH descriptor with
a tree number under C (Diseases) or F03 (Mental Disorders), a chemical one under D; a
supplementary record takes the group of the headings it is mapped to (from the bundled MeSH 2024
tables). A gold mention is of the group its type names (BC5CDR's Chemical, Disease; every NCBI
type is a disease). Gold mentions whose gold is only OMIM ids (or -1) are left out, and so are
predictions overlapping them. The first group is reported at the top; with more, each under
`by_group`.

  mention P/R/F1   a predicted mention is right when it overlaps a gold mention and its first
                   candidate's MeSH id is one of that mention's gold ids; recall counts the
                   gold mentions some right prediction overlaps.
  concept P/R/F1   per abstract, the set of first-candidate MeSH ids against the set of gold
                   ids (micro-averaged over abstracts), as DNorm and TaggerOne report it.
  recall@10        the share of gold mentions overlapped by a returned mention (disease or
                   not) with a gold id among its first 10 candidates.
  calibration      the scored predictions' stated confidence (the mention's `confidence`, else
                   its first candidate's `confidence` or `score`) against whether they are right: ECE and the share stated
                   >= 0.9 that are wrong, those split into readings over no gold mention (the span is no
                   mention the corpus marks) and over a gold mention of another concept, and of
                   those how many are over gold whose ids are all absent from the MeSH tables read
                   (retired or moved since the corpus was annotated: the vintage ceiling).
  latency          client-side wall time of each ground_passage call, p50 and p99 in ms.

The baseline, computed by the same command: a plain dictionary tagger (exact folded matches of
MeSH labels and entry terms, longest first at word boundaries, left to right), its candidates
ordered as the find_concepts baseline orders them.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from pathlib import Path

WORD = re.compile(r"[^\W_]+")
MAX_NAME_WORDS = 12
# A gold type's group; any other type (NCBI's SpecificDisease, DiseaseClass...) is a disease.
TYPE_GROUPS = {"Chemical": "chemical", "Disease": "disease"}
# MeSH tree numbers that make a descriptor of a group.
GROUP_TREES = {"disease": ("C", "F03"), "chemical": ("D",)}


def read_documents(path: Path, gold_mesh_ids) -> list[dict]:
    """Each abstract: its text (title, a space, abstract) and its gold mentions."""
    docs: dict[str, dict] = {}
    order: list[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            head = re.match(r"^(\d+)\|([ta])\|(.*)$", line)
            if head:
                pmid, part, text = head.groups()
                if pmid not in docs:
                    docs[pmid] = {"pmid": pmid, "title": "", "abstract": "", "gold": []}
                    order.append(pmid)
                docs[pmid]["title" if part == "t" else "abstract"] = text
                continue
            cols = line.split("\t")
            if len(cols) < 5 or cols[0] not in docs:
                continue
            gold = cols[5] if len(cols) > 5 else ""
            docs[cols[0]]["gold"].append(
                {
                    "start": int(cols[1]),
                    "end": int(cols[2]),
                    "text": cols[3],
                    "ids": gold_mesh_ids(gold),
                    "group": TYPE_GROUPS.get(cols[4], "disease"),
                }
            )
    out = []
    for pmid in order:
        d = docs[pmid]
        d["text"] = d["title"] + " " + d["abstract"]
        out.append(d)
    return out


def table_ids(tables: list[Path]) -> set[str]:
    """Every descriptor and supplementary record id the MeSH tables hold."""
    ids: set[str] = set()
    for table in tables:
        with gzip.open(table, "rt", encoding="utf-8") as f:
            ids.update(line.split("\t", 1)[0] for line in f)
    return ids


def group_ids(tables: list[Path]) -> dict[str, set[str]]:
    """Each group's MeSH ids: descriptors under its trees, and supplementary records mapped to
    one of them."""
    groups: dict[str, set[str]] = {g: set() for g in GROUP_TREES}
    mapped: dict[str, list[str]] = {}
    for table in tables:
        with gzip.open(table, "rt", encoding="utf-8") as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if len(cols) < 4:
                    continue
                if cols[0].startswith("D"):
                    trees = cols[3].split("|")
                    for group, prefixes in GROUP_TREES.items():
                        if any(t.startswith(prefixes) for t in trees):
                            groups[group].add(cols[0])
                elif cols[0].startswith("C"):
                    mapped[cols[0]] = re.findall(r"D\d+", cols[3])
    for scr, targets in mapped.items():
        for ids in groups.values():
            if any(t in ids for t in targets):
                ids.add(scr)
    return groups


def dictionary_tagger(tables: list[Path], fold, id_order):
    """Folded name -> ordered MeSH ids, over every label and entry term."""
    best: dict[str, dict[str, int]] = {}
    for table in tables:
        with gzip.open(table, "rt", encoding="utf-8") as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if len(cols) < 2 or not re.match(r"^[CD]\d+$", cols[0]):
                    continue
                names = [(cols[1], 0)] + [(t, 1) for t in (cols[2].split("|") if len(cols) > 2 else []) if t]
                for name, rank in names:
                    key = fold(name)
                    if key:
                        ranks = best.setdefault(key, {})
                        if rank < ranks.get(cols[0], 9):
                            ranks[cols[0]] = rank
    return {k: sorted(r, key=lambda i: (r[i], *id_order(i))) for k, r in best.items()}


def tag_with_dictionary(text: str, dictionary: dict) -> list[dict]:
    """Longest first, left to right, at word boundaries."""
    words = [(m.start(), m.end(), m.group().lower()) for m in WORD.finditer(text)]
    out, i = [], 0
    while i < len(words):
        found = None
        for j in range(min(len(words), i + MAX_NAME_WORDS) - 1, i - 1, -1):
            key = " ".join(w[2] for w in words[i : j + 1])
            if key in dictionary:
                found = (j, dictionary[key])
                break
        if found:
            j, ids = found
            out.append({"start": words[i][0], "end": words[j][1], "ids": ids[:10]})
            i = j + 1
        else:
            i += 1
    return out


def mention_ids(mention: dict, mesh_local) -> list[str]:
    ids = []
    for c in mention.get("candidates") or []:
        concept = c.get("concept") or {}
        local = mesh_local(concept.get("curie") or concept.get("iri"))
        if local and local not in ids:
            ids.append(local)
    return ids


def first_stated(mention: dict):
    """The confidence a mention states that it names its first reading (the mention's
    `confidence`, else its first candidate's `confidence` or `score`)."""
    if isinstance(mention.get("confidence"), (int, float)):
        return float(mention["confidence"])
    for c in (mention.get("candidates") or [])[:1]:
        for key in ("confidence", "score"):
            if isinstance(c.get(key), (int, float)):
                return float(c[key])
    return None


def overlaps(a: dict, b: dict) -> bool:
    return a["start"] < b["end"] and b["start"] < a["end"]


def gold_and_scored(doc: dict, preds: list[dict], ids: set[str], group: str) -> tuple[list[dict], list[dict]]:
    """The abstract's gold mentions of the group with a MeSH id, and the predictions that are
    scored: those whose first candidate is of the group and that overlap no gold mention left
    out."""
    gold = [g for g in doc["gold"] if g["ids"] and g["group"] == group]
    excluded = [g for g in doc["gold"] if not g["ids"]]
    scored = [
        p for p in preds
        if p["ids"] and p["ids"][0] in ids and not any(overlaps(p, e) for e in excluded)
    ]
    return gold, scored


def score(docs: list[dict], predictions: list[list[dict]], ids: set[str], group: str, calibration=None, known: set[str] | None = None) -> dict:
    """Mention and concept P/R/F1 and recall@10, as the module doc says; with `calibration`,
    that of the scored predictions' stated confidence."""
    tp_pred = n_pred = gold_hit = n_gold = at10 = 0
    c_tp = c_pred = c_gold = 0
    stated: list[tuple[float, bool]] = []
    # Readings stated >= 0.9 and wrong: over no gold mention, or over one with another concept.
    confident_wrong = {"no_gold_mention": 0, "another_concept": 0, "retired_gold": 0}
    for doc, preds in zip(docs, predictions):
        gold, scored = gold_and_scored(doc, preds, ids, group)
        n_pred += len(scored)
        n_gold += len(gold)
        for p in scored:
            right = any(overlaps(p, g) and p["ids"][0] in g["ids"] for g in gold)
            if p.get("stated") is not None:
                stated.append((p["stated"], right))
                if p["stated"] >= 0.9 and not right:
                    under = [g for g in gold if overlaps(p, g)]
                    confident_wrong["another_concept" if under else "no_gold_mention"] += 1
                    if under and known is not None and not any(set(g["ids"]) & known for g in under):
                        confident_wrong["retired_gold"] += 1
            if right:
                tp_pred += 1
        for g in gold:
            if any(overlaps(p, g) and p["ids"][0] in g["ids"] for p in scored):
                gold_hit += 1
            if any(overlaps(p, g) and set(p["ids"][:10]) & set(g["ids"]) for p in preds):
                at10 += 1
        predicted = {p["ids"][0] for p in scored}
        wanted = {i for g in gold for i in g["ids"]}
        c_tp += len(predicted & wanted)
        c_pred += len(predicted)
        c_gold += len(wanted)

    def prf(tp_p, n_p, tp_g, n_g):
        p = tp_p / n_p if n_p else 0.0
        r = tp_g / n_g if n_g else 0.0
        return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}

    out = {
        "abstracts": len(docs),
        "gold_mentions": n_gold,
        "predicted_mentions": n_pred,
        "mention": prf(tp_pred, n_pred, gold_hit, n_gold),
        "concept": prf(c_tp, c_pred, c_tp, c_gold),
        "recall_at_10": at10 / n_gold if n_gold else 0.0,
    }
    if calibration is not None and stated:
        out["calibration"] = calibration(stated)
        out["calibration"]["stated_at_least_0_9_wrong_by_kind"] = confident_wrong
    return out


def concept_misses(docs: list[dict], predictions: list[list[dict]], diseases: set[str], group: str) -> list[list[str]]:
    """Per abstract, each gold concept no first candidate gave (`missed`, with its gold
    mentions' texts and what was returned over them) and each first-candidate disease concept
    the gold does not hold (`extra`, with the mentions that gave it)."""
    rows = []
    for doc, preds in zip(docs, predictions):
        gold, scored = gold_and_scored(doc, preds, diseases, group)
        predicted = {p["ids"][0] for p in scored}
        wanted = {i for g in gold for i in g["ids"]}
        text = doc["text"]
        for concept in sorted(wanted - predicted):
            mentions = [g for g in gold if concept in g["ids"]]
            returned = [
                f"{text[p['start']:p['end']]}={','.join(p['ids'][:3])}"
                for p in preds if any(overlaps(p, g) for g in mentions)
            ]
            rows.append([doc["pmid"], "missed", concept, " | ".join(sorted({g["text"] for g in mentions})), " ".join(returned)])
        for concept in sorted(predicted - wanted):
            mentions = [p for p in scored if p["ids"][0] == concept]
            rows.append([doc["pmid"], "extra", concept, " | ".join(sorted({text[p["start"]:p["end"]] for p in mentions})), ""])
    return rows


def run(args, corpora, tables, server_factory, helpers) -> dict:
    """Grounds every abstract over MCP and scores it beside the dictionary baseline."""
    fold, id_order, mesh_local, gold_mesh_ids, percentile, tool_payload, failure, calibration = helpers
    ids_of = group_ids(tables)
    known = table_ids(tables)
    dictionary = dictionary_tagger(tables, fold, id_order)
    sources = None if args.sources == "all" else [s for s in args.sources.split(",") if s]
    server = server_factory()
    results = []
    try:
        server.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "eval-passages", "version": "1"}},
            "initializing",
            timeout=max(args.timeout, 900.0),
        )
        server.notify("notifications/initialized")
        for path in corpora:
            docs = read_documents(path, gold_mesh_ids)
            if args.limit_mentions is not None:
                docs = docs[: args.limit_mentions]
            ours, baseline, latencies, errors = [], [], [], 0
            for doc in docs:
                arguments = {"text": doc["text"], "limit": 10}
                if sources:
                    arguments["sources"] = sources
                started = time.perf_counter()
                result = server.request("tools/call", {"name": "ground_passage", "arguments": arguments}, f"grounding {doc['pmid']}")
                latencies.append((time.perf_counter() - started) * 1000)
                payload = tool_payload(result)
                if result.get("isError") or not isinstance(payload, dict):
                    errors += 1
                    ours.append([])
                else:
                    mentions = (payload.get("result") or {}).get("mentions") or []
                    ours.append(
                        [
                            {
                                "start": m["start"],
                                "end": m["end"],
                                "ids": mention_ids(m, mesh_local),
                                "stated": first_stated(m),
                            }
                            for m in mentions
                        ]
                    )
                baseline.append(tag_with_dictionary(doc["text"], dictionary))
            latencies.sort()
            groups = sorted({g["group"] for d in docs for g in d["gold"]}, key=lambda g: g != "disease")
            if args.misses:
                with open(args.misses, "a", encoding="utf-8") as f:
                    for group in groups:
                        for row in concept_misses(docs, ours, ids_of[group], group):
                            f.write("\t".join([Path(path).name, group, *row]) + "\n")
            by_group = {
                group: {
                    "ontoresolve ground_passage": score(docs, ours, ids_of[group], group, calibration, known),
                    "plain dictionary tagger": score(docs, baseline, ids_of[group], group),
                }
                for group in groups
            }
            results.append(
                {
                    "corpus": str(path),
                    **by_group[groups[0]],
                    "by_group": by_group,
                    "tool_errors": errors,
                    "latency_ms": {"p50": percentile(latencies, 50), "p99": percentile(latencies, 99)},
                    "chars_per_abstract": sum(len(d["text"]) for d in docs) / max(1, len(docs)),
                }
            )
    finally:
        server.close()
    return {"sources": sources, "corpora": results}


def print_report(report: dict) -> None:
    for r in report["corpora"]:
        print(f"== {Path(r['corpus']).name}: {r['ontoresolve ground_passage']['abstracts']} abstracts "
              f"(sources={report['sources']})")
        for group, scores in r["by_group"].items():
            print(f"-- {group}: {scores['ontoresolve ground_passage']['gold_mentions']} gold mentions")
            print(f"{'system':30} {'mention P':>9} {'R':>6} {'F1':>6} {'concept P':>9} {'R':>6} {'F1':>6} {'recall@10':>9}")
            for name in ("ontoresolve ground_passage", "plain dictionary tagger"):
                s = scores[name]
                m, c = s["mention"], s["concept"]
                print(f"{name:30} {m['precision']:9.3f} {m['recall']:6.3f} {m['f1']:6.3f} "
                      f"{c['precision']:9.3f} {c['recall']:6.3f} {c['f1']:6.3f} {s['recall_at_10']:9.3f}")
            cal = scores["ontoresolve ground_passage"].get("calibration")
            if cal:
                print(f"first reading's stated confidence: ECE {cal['ece']:.3f} over {cal['answers']} mentions; "
                      f"stated >= 0.9: {cal['stated_at_least_0_9']}, of them wrong "
                      f"{cal['stated_at_least_0_9_wrong_share'] * 100:.1f} % "
                      f"({cal['stated_at_least_0_9_wrong_by_kind']['no_gold_mention']} over no gold mention, "
                      f"{cal['stated_at_least_0_9_wrong_by_kind']['another_concept']} over one of another concept, "
                      f"{cal['stated_at_least_0_9_wrong_by_kind']['retired_gold']} of those with gold ids all absent from the MeSH tables read)")
        lat = r["latency_ms"]
        print(f"ground_passage latency over stdio: p50 {lat['p50']:.2f} ms, p99 {lat['p99']:.2f} ms "
              f"({r['chars_per_abstract']:.0f} characters per abstract); tool errors {r['tool_errors']}")


def to_json(report: dict) -> str:
    return json.dumps(report, indent=2) + "\n"
