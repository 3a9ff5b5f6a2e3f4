"""Checks the linked-data formats and content negotiation of `ontoresolve serve --http`'s pages.

Usage: pages_linked_data.py BASE_URL        (e.g. http://127.0.0.1:PORT)
Parses each concept's JSON-LD with pyld (nothing may be fetched: the context is inline),
pyoxigraph and rdflib, its Turtle with pyoxigraph and rdflib, and its JSON with the standard
library; checks suffixes, q-values, 406 and the 303 to the canonical CURIE. Collects every
failed check, prints one line for each and exits 1; exits 0 with one summary line per concept.
Needs the venv of scripts/setup-clients (pyld 3.3.0, pyoxigraph, rdflib).
"""

import json
import sys
import time
import urllib.error
import urllib.request

import pyoxigraph
import rdflib
from pyld import jsonld

BASE = sys.argv[1].rstrip("/")
CONCEPTS = {
    "MONDO:0005148": "http://purl.obolibrary.org/obo/MONDO_0005148",
    "MESH:D003924": "http://id.nlm.nih.gov/mesh/D003924",
    "HP:0000535": "http://purl.obolibrary.org/obo/HP_0000535",
}
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_PREF_LABEL = "http://www.w3.org/2004/02/skos/core#prefLabel"
LABELS = (RDFS_LABEL, SKOS_PREF_LABEL)

failures = []
notes = []


def fail(curie, message):
    failures.append(f"{curie}: {message}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def get(path, accept):
    """GET BASE+path without following redirects; returns (status, headers, body bytes)."""
    request = urllib.request.Request(BASE + path, headers={"Accept": accept})
    try:
        with OPENER.open(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def content_type(headers):
    return (headers.get("Content-Type") or "").strip().lower()


def expect(curie, path, accept, status, type_prefix):
    """GET and check status and Content-Type; returns the body, or None when a check failed."""
    try:
        got_status, headers, body = get(path, accept)
    except Exception as error:  # connection refused, timeout, ...
        fail(curie, f"GET {path} (Accept: {accept}): request failed: {error!r}")
        return None
    ok = True
    if got_status != status:
        fail(curie, f"GET {path} (Accept: {accept}): status {got_status}, expected {status}")
        ok = False
    if type_prefix is not None and not content_type(headers).startswith(type_prefix):
        fail(curie, f"GET {path} (Accept: {accept}): Content-Type {headers.get('Content-Type')!r}, expected {type_prefix}")
        ok = False
    negotiated = "." not in path.rsplit("/", 1)[-1]
    if got_status == 200 and negotiated and "accept" not in (headers.get("Vary") or "").lower():
        note = f"GET {path} (Accept: {accept}): no 'Vary: Accept' on a negotiated response (Vary: {headers.get('Vary')!r})"
        if note not in notes:
            notes.append(note)
    return body if ok else None


fetched = []


def no_fetch_loader(url, options=None):
    fetched.append(url)
    raise RuntimeError(f"the JSON-LD must not make the parser fetch anything, but it asked for {url}")


def label_values(triples, iri):
    """Label literals among (subject, predicate, object) string triples for subject iri."""
    return [o for s, p, o in triples if s == iri and p in LABELS]


def check_json_ld(curie, iri, body):
    counts = {}
    try:
        document = json.loads(body)
    except ValueError as error:
        fail(curie, f"JSON-LD body is not JSON: {error}")
        return counts, None
    if not isinstance(document, dict):
        fail(curie, f"JSON-LD body is a {type(document).__name__}, expected an object with @id")
        return counts, None
    if document.get("@id") != iri:
        fail(curie, f"JSON-LD top-level @id is {document.get('@id')!r}, expected {iri!r}")
    if not isinstance(document.get("@context"), (dict, list)):
        fail(curie, f"JSON-LD @context is {type(document.get('@context')).__name__}, expected an inline object")

    # pyld: expand (and to RDF) with a loader that refuses every fetch.
    fetched.clear()
    try:
        options = {"documentLoader": no_fetch_loader}
        expanded = jsonld.expand(document, options)
        if not expanded:
            fail(curie, "pyld: expansion is empty")
        dataset = jsonld.to_rdf(expanded, options)
        triples = [
            (q["subject"]["value"], q["predicate"]["value"], q["object"]["value"])
            for q in dataset.get("@default", [])
        ]
        counts["pyld"] = len(triples)
        if not label_values(triples, iri):
            fail(curie, f"pyld: no rdfs:label/skos:prefLabel triple for <{iri}> among {len(triples)} triples")
    except Exception as error:
        fail(curie, f"pyld: {type(error).__name__}: {str(error)[:300]}")
    if fetched:
        fail(curie, f"pyld: tried to fetch {fetched}")

    # pyoxigraph (0.5 parses JSON-LD; a remote context would fail, nothing is fetched).
    try:
        quads = list(pyoxigraph.parse(body, format=pyoxigraph.RdfFormat.JSON_LD))
        triples = [(q.subject.value, q.predicate.value, q.object.value) for q in quads]
        counts["pyoxigraph"] = len(triples)
        if not label_values(triples, iri):
            fail(curie, f"pyoxigraph JSON-LD: no label triple for <{iri}> among {len(triples)} triples")
    except Exception as error:
        fail(curie, f"pyoxigraph JSON-LD: {type(error).__name__}: {error}")

    # rdflib
    try:
        graph = rdflib.Graph().parse(data=body.decode("utf-8"), format="json-ld")
        triples = [(str(s), str(p), str(o)) for s, p, o in graph]
        counts["rdflib"] = len(triples)
        if not label_values(triples, iri):
            fail(curie, f"rdflib JSON-LD: no label triple for <{iri}> among {len(triples)} triples")
    except Exception as error:
        fail(curie, f"rdflib JSON-LD: {type(error).__name__}: {error}")
    return counts, document


def check_turtle(curie, iri, body, path):
    counts = {}
    labels = []
    try:
        triples = [
            (t.subject.value, t.predicate.value, t.object.value)
            for t in pyoxigraph.parse(body, format=pyoxigraph.RdfFormat.TURTLE, base_iri=BASE + path)
        ]
        counts["pyoxigraph"] = len(triples)
        labels = label_values(triples, iri)
        if not labels:
            fail(curie, f"pyoxigraph Turtle: no label triple for <{iri}> among {len(triples)} triples")
    except Exception as error:
        fail(curie, f"pyoxigraph Turtle: {type(error).__name__}: {error}")
    try:
        graph = rdflib.Graph().parse(data=body.decode("utf-8"), format="turtle", publicID=BASE + path)
        triples = [(str(s), str(p), str(o)) for s, p, o in graph]
        counts["rdflib"] = len(triples)
        if not label_values(triples, iri):
            fail(curie, f"rdflib Turtle: no label triple for <{iri}> among {len(triples)} triples")
    except Exception as error:
        fail(curie, f"rdflib Turtle: {type(error).__name__}: {error}")
    return counts, labels


def check_concept(curie, iri):
    path = f"/concept/{curie}"
    before = len(failures)
    started = time.monotonic()

    body = expect(curie, path, "application/ld+json", 200, "application/ld+json")
    ld_counts = {}
    if body is not None:
        ld_counts, _ = check_json_ld(curie, iri, body)

    body = expect(curie, path, "text/turtle", 200, "text/turtle")
    ttl_counts, labels = {}, []
    if body is not None:
        ttl_counts, labels = check_turtle(curie, iri, body, path)

    body = expect(curie, path, "application/json", 200, "application/json")
    if body is not None:
        try:
            document = json.loads(body)
            got = document.get("concept", {}).get("curie") if isinstance(document, dict) else None
            if got != curie:
                fail(curie, f"JSON: concept.curie is {got!r}, expected {curie!r}")
        except (ValueError, AttributeError) as error:
            fail(curie, f"JSON: body is not a JSON object with concept.curie: {error}")

    # A suffix overrides Accept (each asked with an Accept that names another format).
    for suffix, accept, expected in [
        (".ttl", "application/json", "text/turtle"),
        (".jsonld", "application/json", "application/ld+json"),
        (".json", "text/turtle", "application/json"),
        (".html", "application/json", "text/html"),
    ]:
        expect(curie, path + suffix, accept, 200, expected)

    # q-values, */*, and a type it cannot give.
    expect(curie, path, "text/html;q=0.1, text/turtle;q=0.9", 200, "text/turtle")
    expect(curie, path, "*/*", 200, "text/html")
    expect(curie, path, "image/png", 406, None)

    # A non-canonical CURIE (lower-case prefix) is redirected, 303, to the canonical one.
    prefix, local = curie.split(":", 1)
    lower = f"/concept/{prefix.lower()}:{local}"
    try:
        status, headers, _ = get(lower, "text/html")
        location = headers.get("Location") or ""
        if status != 303:
            fail(curie, f"GET {lower}: status {status}, expected 303 (Location: {location!r})")
        if not location.endswith(f"/concept/{curie}"):
            fail(curie, f"GET {lower}: Location {location!r}, expected one ending /concept/{curie}")
    except Exception as error:
        fail(curie, f"GET {lower}: request failed: {error!r}")

    if len(failures) == before:
        label = labels[0] if labels else "?"
        print(
            f"ok {curie} <{iri}> label {label!r}: JSON-LD triples pyld={ld_counts.get('pyld')} "
            f"pyoxigraph={ld_counts.get('pyoxigraph')} rdflib={ld_counts.get('rdflib')}; Turtle triples "
            f"pyoxigraph={ttl_counts.get('pyoxigraph')} rdflib={ttl_counts.get('rdflib')}; JSON, suffixes, "
            f"q-values, 406, 303 ok ({time.monotonic() - started:.2f}s)"
        )


def main():
    for curie, iri in CONCEPTS.items():
        check_concept(curie, iri)
    for note in notes:
        print(f"note: {note}")
    if failures:
        for message in failures:
            print(f"FAIL {message}")
        print(f"pages_linked_data: {len(failures)} failed checks")
        sys.exit(1)
    print(f"pages_linked_data: all checks passed for {len(CONCEPTS)} concepts")


if __name__ == "__main__":
    main()
