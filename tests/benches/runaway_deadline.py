"""How long runaway SPARQL queries sent at once wait for their answer, for each binary given.

Usage: runaway_deadline.py BINARY=INDEX [BINARY=INDEX...]

For each binary: `serve --http` on its index (each binary reads its own format) with the rate limit off; four clients keep calling
find_concepts; three rounds of four runaway queries (a cross product counted), each from its own
address, are sent at once. Prints, per binary, the time from sending to the answer (p50, max),
how many answers came later than the 5 s deadline plus 0.5 s, and the answers' codes. Responses
are read whole (buffered) before the clock stops.
"""

import http.client
import json
import socket
import statistics
import subprocess
import sys
import threading
import time

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }"
DEADLINE = 5.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, tool, arguments, source="127.0.0.1"):
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": META},
        }
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    conn.request(
        "POST",
        "/mcp",
        body,
        {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/call",
            "Mcp-Name": tool,
        },
    )
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data.decode("utf-8", "replace")


def code_of(status, body):
    if status != 200:
        return f"http {status}"
    try:
        text = json.loads(body)["result"]["content"][0]["text"]
        return json.loads(text)["error"]["code"]
    except (KeyError, ValueError, IndexError, TypeError):
        return "answered"


def measure(binary, index):
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--index", index, "--http", f"127.0.0.1:{port}", "--rate-limit", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            try:
                call(port, "list_sources", {})
                break
            except OSError:
                time.sleep(0.1)
        stop = threading.Event()

        def load(n):
            while not stop.is_set():
                call(port, "find_concepts", {"text": "breast cancer"}, f"127.0.1.{n + 1}")

        loaders = [threading.Thread(target=load, args=(n,)) for n in range(4)]
        for t in loaders:
            t.start()
        time.sleep(0.3)
        took, codes = [], []
        for _round in range(3):
            results = [None] * 4

            def query(n):
                sent = time.perf_counter()
                status, body = call(port, "sparql_query", {"query": RUNAWAY}, f"127.0.2.{n + 1}")
                results[n] = (time.perf_counter() - sent, code_of(status, body))

            threads = [threading.Thread(target=query, args=(n,)) for n in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for elapsed, code in results:
                took.append(elapsed)
                codes.append(code)
        stop.set()
        for t in loaders:
            t.join()
        late = sum(1 for t in took if t > DEADLINE + 0.5)
        print(
            f"{binary}: 12 runaway queries, sent to answered p50 {statistics.median(took):.2f} s,"
            f" max {max(took):.2f} s; later than {DEADLINE + 0.5:.1f} s: {late};"
            f" codes {sorted(set(codes))}"
        )
    finally:
        server.kill()
        server.wait()


def main():
    for pair in sys.argv[1:]:
        binary, index = pair.split("=", 1)
        measure(binary, index)


if __name__ == "__main__":
    main()
