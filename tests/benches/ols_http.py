"""The OLS API over HTTP beside MCP's find_concepts, in one run on one server.

Usage: ols_http.py BINARY INDEX [SECONDS]

Starts `serve --http` on INDEX with the rate limit off, takes 200 HPO and MONDO term labels and
IRIs from the API itself, then for each workload runs one client for SECONDS/2 and 8 clients
(threads, keep-alive connections) for SECONDS (default 10): `/api/search?q=LABEL`, a term lookup
`/api/ontologies/{id}/terms/{IRI}`, and the same search as MCP `find_concepts` (stateless
2026-07-28 calls on `/mcp`). Prints, per workload, requests/s, p50 and p99 of each request
(sent to the whole body read, buffered), bytes per answer, and the server's resident memory
(VmRSS now, VmHWM peak) after all of them.
"""

import http.client
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

CLIENTS = 8
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port):
    for _ in range(600):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def twice(iri):
    return urllib.parse.quote(urllib.parse.quote(iri, safe=""), safe="")


def sample(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    out = []
    for ontology in ("hp", "mondo"):
        conn.request("GET", f"/api/ontologies/{ontology}/terms?page=3&size=100")
        page = json.loads(conn.getresponse().read())
        for term in page["_embedded"]["terms"]:
            out.append((ontology, term["iri"], term["label"]))
    return out


def request_for(workload, item):
    ontology, iri, label = item
    if workload == "search":
        return "GET", "/api/search?" + urllib.parse.urlencode({"q": label, "ontology": ontology}), None, {}
    if workload == "term":
        return "GET", f"/api/ontologies/{ontology}/terms/{twice(iri)}", None, {}
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "find_concepts",
                "arguments": {"text": label, "sources": [ontology]},
                "_meta": META,
            },
        }
    )
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "find_concepts",
    }
    return "POST", "/mcp", body, headers


def run(port, workload, items, seconds, clients=CLIENTS):
    latencies, sizes, failures = [], [], []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(offset):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine, got, bad = [], [], 0
        i = offset
        while time.monotonic() < stop:
            method, path, body, headers = request_for(workload, items[i % len(items)])
            i += clients
            start = time.perf_counter()
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            data = response.read()
            mine.append(time.perf_counter() - start)
            got.append(len(data))
            bad += response.status != 200
        with lock:
            latencies.extend(mine)
            sizes.extend(got)
            failures.append(bad)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(
        f"{workload:>14}: {len(latencies) / elapsed:8.0f} req/s, p50 {p(0.5):.2f} ms, "
        f"p99 {p(0.99):.2f} ms, {statistics.mean(sizes):.0f} bytes/answer, "
        f"{sum(failures)} not 200, {clients} client(s), {elapsed:.1f} s",
        flush=True,
    )


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields.get("VmRSS"), fields.get("VmHWM")


def main():
    binary, index = sys.argv[1], sys.argv[2]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--index", index, "--http", f"127.0.0.1:{port}", "--rate-limit", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(port)
        items = sample(port)
        for workload in ("search", "term", "find_concepts"):
            run(port, workload, items, 2.0)  # warm
            run(port, workload, items, seconds / 2, clients=1)
            run(port, workload, items, seconds)
        rss, peak = memory(server.pid)
        print(f"server memory after: VmRSS {rss}, VmHWM {peak}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
