#!/usr/bin/env python3
"""Tool-call round trips over stdio, ontoresolve beside the Python MCP SDK peer, in one run.

Both servers are driven the same way: raw JSON-RPC lines on a pipe, replies read buffered, one
call at a time after a warm-up. Reports p50 and p99 in milliseconds and the bytes of each
answer (the JSON-RPC line and its structuredContent).

usage: stdio_peer.py ONTORESOLVE_BIN INDEX_DIR [--peer PEER_SCRIPT] [--hpo HPO_OBO_GZ]
                     [--corpus NCBI_PUBTATOR] [--rounds N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


class Stdio:
    """One MCP server over stdio, spoken to in 2025-11-25 with raw lines."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1 << 16
        )
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server closed during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply, len(line)

    def call(self, tool, arguments):
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def timed(server, tool, arguments_list, rounds):
    for arguments in arguments_list[:20]:
        server.call(tool, arguments)
    samples, line_bytes, structured_bytes = [], [], []
    slowest = []
    for r in range(rounds):
        for arguments in arguments_list:
            started = time.perf_counter()
            reply, size = server.call(tool, arguments)
            samples.append((time.perf_counter() - started) * 1000)
            slowest.append((samples[-1], json.dumps(arguments)))
            if r == 0:
                line_bytes.append(size)
                content = reply.get("result", {}).get("structuredContent")
                structured_bytes.append(len(json.dumps(content, separators=(",", ":"))) if content else 0)
    if SHOW_SLOWEST:
        for ms, arguments in sorted(slowest, reverse=True)[:SHOW_SLOWEST]:
            print(f"    {ms:8.3f} ms  {arguments}")
    return samples, line_bytes, structured_bytes


SHOW_SLOWEST = 0


def mentions(corpus, limit):
    """The annotated disease mentions of a PubTator file, once each."""
    seen, out = set(), []
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 6 and parts[1].isdigit():
                text = parts[3]
                if text not in seen:
                    seen.add(text)
                    out.append(text)
    return out[:limit]


def report(name, samples, line_bytes, structured_bytes):
    print(f"{name:58} p50 {statistics.median(samples):7.3f} ms  p99 {percentile(samples, 0.99):7.3f} ms  "
          f"n={len(samples):5}  bytes/answer {statistics.median(line_bytes):7.0f} (structured {statistics.median(structured_bytes):6.0f})")
    sys.stdout.flush()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.environ.get("ONTORESOLVE_SHARED_DATA", os.path.join(here, "..", "..", "..", "shared", "data"))
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("index")
    parser.add_argument("--peer", default=os.path.join(shared, "..", "tools", "peer-mcp-server"))
    parser.add_argument("--hpo", default=os.path.join(shared, "obo", "hp-2025-01-16.obo.gz"))
    parser.add_argument("--corpus", default=os.path.join(shared, "corpora", "ncbi-disease", "NCBIdevelopset_corpus.txt"))
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest calls of each timing")
    args = parser.parse_args()
    global SHOW_SLOWEST
    SHOW_SLOWEST = args.slowest

    ours = Stdio([args.binary, "serve", "--index", args.index])
    peer = Stdio([sys.executable, args.peer, args.hpo])
    exact = [{"text": "Abnormality of body height"}]
    resolve = [{"identifier": "HP:0000118"}]
    for name, server in (("ontoresolve", ours), ("peer (Python MCP SDK)", peer)):
        report(f"{name}: resolve_identifier HP:0000118", *timed(server, "resolve_identifier", resolve, args.rounds))
        report(f"{name}: find_concepts exact name", *timed(server, "find_concepts", exact, args.rounds))
    if os.path.exists(args.corpus):
        texts = mentions(args.corpus, 10_000)
        for name, server in (("ontoresolve", ours), ("peer (Python MCP SDK)", peer)):
            report(f"{name}: find_concepts NCBI develop mentions ({len(texts)})",
                   *timed(server, "find_concepts", [{"text": t} for t in texts], 1))
        report("ontoresolve: the same, sources=[mesh]",
               *timed(ours, "find_concepts", [{"text": t, "sources": ["mesh"]} for t in texts], 1))
    ours.close()
    peer.close()


if __name__ == "__main__":
    main()
