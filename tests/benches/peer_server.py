"""The peer for the MCP benchmark: the Python MCP SDK's server (mcp 2.x, MCPServer) over
stateless Streamable HTTP with JSON answers, with one tool shaped like ours,
`resolve_identifier`, answering from an in-memory dict of the HPO ids and labels. With
ONTORESOLVE_AUTH_TOKEN set it requires that bearer token, checked in constant time, as
ontoresolve does.

    python peer_server.py PORT HP_OBO_GZ
"""

import gzip
import hmac
import os
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer


def load_hpo(path):
    labels = {}
    current = None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("id: HP:"):
                current = line[4:].strip()
            elif line.startswith("name: ") and current:
                labels[current] = line[6:].strip()
                current = None
    return labels


def main():
    port = int(sys.argv[1])
    labels = load_hpo(sys.argv[2])
    server = MCPServer("peer")

    @server.tool()
    def resolve_identifier(identifier: str) -> dict:
        """What is this identifier?"""
        curie = identifier.strip().upper().replace("_", ":", 1)
        label = labels.get(curie)
        outcome = "found" if label else "not_in_loaded_sources"
        return {"query": {"input": identifier, "normalized": curie}, "result": {"outcome": outcome, "label": label}}

    app = server.streamable_http_app(json_response=True, stateless_http=True)
    token = os.environ.get("ONTORESOLVE_AUTH_TOKEN")
    if token:
        expected = f"Bearer {token}".encode()
        inner = app

        async def app(scope, receive, send):  # noqa: F811 - the gate wraps the SDK's app
            if scope["type"] == "http":
                given = dict(scope["headers"]).get(b"authorization", b"")
                if not hmac.compare_digest(given, expected):
                    await send({"type": "http.response.start", "status": 401,
                                "headers": [(b"www-authenticate", b"Bearer"), (b"content-length", b"0")]})
                    await send({"type": "http.response.body", "body": b""})
                    return
            await inner(scope, receive, send)

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error")


if __name__ == "__main__":
    main()
