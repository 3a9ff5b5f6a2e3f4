"""what_changed for a whole source over stdio, page by page: the first page computes the
release pair's changes, later pages read them (docs/benchmarks.md). Usage: BINARY INDEX [SOURCE]"""
import json, subprocess, sys, time
binary, index = sys.argv[1], sys.argv[2]
source = sys.argv[3] if len(sys.argv) > 3 else "mondo"
def run():
    p = subprocess.Popen([binary, "serve", "--index", index], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1<<20)
    n = [0]
    def call(method, params, notify=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            n[0] += 1; msg["id"] = n[0]
        p.stdin.write((json.dumps(msg) + "\n").encode()); p.stdin.flush()
        if notify: return None
        while True:
            line = p.stdout.readline()
            r = json.loads(line)
            if r.get("id") == n[0]: return r
    call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}})
    call("notifications/initialized", {}, notify=True)
    times = []; cursor = None; sizes = []
    for page in range(4):
        args = {"source": source}
        if cursor: args["cursor"] = cursor
        t = time.perf_counter()
        r = call("tools/call", {"name": "what_changed", "arguments": args})
        times.append((time.perf_counter() - t) * 1000)
        sc = r["result"].get("structuredContent", {})
        sizes.append(len(json.dumps(r)))
        cursor = sc.get("cursor")
        total = sc.get("total")
    p.stdin.close(); p.wait()
    return times, sizes, total
for i in range(3):
    times, sizes, total = run()
    print("round", i, "total", total, "pages ms", " ".join(f"{t:.1f}" for t in times), "bytes", sizes[0])
