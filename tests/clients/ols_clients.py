"""Real OLS clients against ontoresolve's OLS API (driven by tests/integration/ols_api.rs).

    ols_clients.py ols-client BASE_URL EXPECTED.json   # PyPI ols-client 0.2.1
    ols_clients.py ebi BASE_URL EXPECTED.json          # PyPI ebi-ols-client 1.1.0 (own venv)

EXPECTED.json holds what the index says, worked out by the Rust test from the index itself:
{"ontologies": [ids], "ancestors": [IRIs of HP:0000002's ancestors]}. BASE_URL may carry
HTTP Basic credentials (http://user:TOKEN@host:port), as a client of a guarded server uses.
Prints one line per check; exits non-zero at the first failure.
"""

import json
import sys

HP_0000118 = "http://purl.obolibrary.org/obo/HP_0000118"
HP_0000002 = "http://purl.obolibrary.org/obo/HP_0000002"


def check(ok, what):
    if not ok:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def with_ols_client(base, expected):
    from ols_client import Client

    client = Client(base)
    ids = sorted(o["ontologyId"] for o in client.get_ontologies())
    check(ids == sorted(expected["ontologies"]), f"get_ontologies lists every loaded release: {ids}")
    hp = client.get_ontology("hp")
    check(hp["ontologyId"] == "hp" and hp["numberOfTerms"] > 0, "get_ontology('hp')")
    term = client.get_term("hp", HP_0000118)["_embedded"]["terms"][0]
    check(term["obo_id"] == "HP:0000118" and term["label"] == "Phenotypic abnormality",
          f"get_term('hp', HP_0000118): {term['label']}")
    docs = client.search("Abnormality of body height")
    check(docs and docs[0]["obo_id"] == "HP:0000002", f"search gives HP:0000002 first: {docs[:1]}")
    suggested = client.suggest("abnormality of body", ontology="hp")["response"]["docs"]
    check(suggested and all(d["autosuggest"].lower().startswith("abnormality of body") for d in suggested),
          f"suggest: {[d['autosuggest'] for d in suggested[:3]]}")
    ancestors = sorted(t["iri"] for t in client.iter_ancestors("hp", HP_0000002))
    check(ancestors == sorted(expected["ancestors"]), f"iter_ancestors: {len(ancestors)} terms")
    hierarchical = sorted(t["iri"] for t in client.iter_hierarchical_ancestors("hp", HP_0000002))
    check(hierarchical == sorted(expected["ancestors"]),
          f"iter_hierarchical_ancestors: {len(hierarchical)} terms")


def with_ebi_client(base, expected):
    from ebi.ols.api.client import OlsClient

    client = OlsClient(base_site=base.rstrip("/") + ("" if base.rstrip("/").endswith("/api") else "/api"))
    hp = client.ontology("hp")
    check(hp.ontology_id == "hp", f"ontology('hp'): {hp}")
    term = client.term(HP_0000118)
    check(term.obo_id == "HP:0000118", f"term(HP_0000118): {term}")
    found = client.search(query="Abnormality of body height")
    check(len(found) > 0 and found[0].obo_id == "HP:0000002", f"search: {found[0] if len(found) else None}")


def main():
    which, base, expected_file = sys.argv[1:4]
    with open(expected_file) as f:
        expected = json.load(f)
    {"ols-client": with_ols_client, "ebi": with_ebi_client}[which](base, expected)


if __name__ == "__main__":
    main()
