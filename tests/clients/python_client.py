"""Drives `ontoresolve serve` with the official Python MCP SDK (PyPI mcp 2.3.0).

Usage: python_client.py BINARY INDEX_DIR
Runs stdio in mode="auto" (2026-07-28) and mode="legacy" (2025-11-25), then HTTP in both
modes, and exits non-zero on the first failed check.
"""

import asyncio
import json
import subprocess
import sys
import threading

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

BINARY, INDEX = sys.argv[1], sys.argv[2]


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def exercise(client, label, expected_version):
    check(client.protocol_version == expected_version, f"{label}: negotiated {client.protocol_version}")
    check(client.server_info is not None and client.server_info.name == "ontoresolve", f"{label}: server name")
    check("TOOL GUIDE" in (client.instructions or ""), f"{label}: instructions")
    tools = await client.list_tools()
    names = sorted(t.name for t in tools.tools)
    check(names == ["describe_schema", "find_concepts", "get_concept", "ground_passage", "list_sources", "map_identifier", "map_identifiers", "resolve_identifier", "sparql_query", "what_changed"], f"{label}: tools {names}")

    # An answer's SPARQL re-runs through sparql_query; an update is refused.
    result = await client.call_tool("get_concept", {"identifier": "HP:0000118"})
    query = result.structured_content["sparql"]
    result = await client.call_tool("sparql_query", {"query": query, "limit": 5})
    check(not result.is_error, f"{label}: sparql_query runs an answer's query")
    check(len(result.structured_content["result"]["rows"]) == 5, f"{label}: rows capped at 5")
    result = await client.call_tool("sparql_query", {"query": "DROP ALL"})
    check(result.is_error and json.loads(result.content[0].text)["error"]["code"] == "read_only_query", f"{label}: update refused")

    # describe_schema mirrors `source` into an Mcp-Param-Source header (SEP-2243); the SDK sends it.
    result = await client.call_tool("describe_schema", {"source": "hp"})
    check(not result.is_error, f"{label}: describe_schema for one source: {result.content}")
    graphs = (result.structured_content or {}).get("result", {}).get("graphs", [])
    check([g.get("source") for g in graphs] == ["hp"], f"{label}: describe_schema graphs {graphs}")
    result = await client.call_tool("map_identifier", {"identifier": "MONDO:0005148", "targets": ["mesh"]})
    check(not result.is_error, f"{label}: map_identifier is not an error")
    mesh = result.structured_content["result"]["candidates"][0]
    check(mesh["object"] == "MESH:D003924" and mesh["predicate"] == "skos:exactMatch", f"{label}: MONDO to MeSH {mesh['object']}")
    check(any(e["mapping_set_id"].endswith("mondo_exactmatch_mesh.sssom.tsv") for e in mesh["evidence"]), f"{label}: mapping set named")

    read = await client.read_resource("ontoresolve://mapping-set/gilda-mesh")
    body = json.loads(read.contents[0].text)
    check(body["rows"] == 32067, f"{label}: mapping-set resource rows {body['rows']}")

    result = await client.call_tool("resolve_identifier", {"identifier": "hp:0000118"})
    check(not result.is_error, f"{label}: resolve is not an error")
    data = result.structured_content
    check(data["result"]["outcome"] == "found", f"{label}: outcome {data['result']['outcome']}")
    check(data["result"]["concepts"][0]["label"] == "Phenotypic abnormality", f"{label}: label")
    check(json.loads(result.content[0].text) == data, f"{label}: text block mirrors structuredContent")

    result = await client.call_tool("find_concepts", {"text": "Abnormality of body height"})
    first = result.structured_content["result"]["candidates"][0]
    check(first["concept"]["curie"] == "HP:0000002" and first["match_kind"] == "label", f"{label}: exact first")

    result = await client.call_tool("resolve_identifier", {"identifier": "XYZ:1"})
    check(result.is_error and result.structured_content is None, f"{label}: error without structuredContent")
    check(json.loads(result.content[0].text)["error"]["code"] == "unknown_prefix", f"{label}: unknown prefix")

    result = await client.call_tool("resolve_identifier", {"identifier": "HGNC:HGNC:5"})
    data = result.structured_content
    check(data["result"]["outcome"] == "found" and data["query"]["normalized"] == "HGNC:5", f"{label}: doubled prefix normalized")
    check(data["result"]["concepts"][0]["label"] == "A1BG", f"{label}: HGNC:5 is A1BG")

    result = await client.call_tool("find_concepts", {"text": "SIP1"})
    data = result.structured_content["result"]
    kinds = {c["concept"]["curie"]: c["match_kind"] for c in data["candidates"]}
    check(data["ambiguous"] and kinds.get("HGNC:10884") == "previous_symbol" and kinds.get("HGNC:14881") == "alias_symbol", f"{label}: ambiguous symbol {kinds}")

    read = await client.read_resource("ontoresolve://prefix/MSH")
    body = json.loads(read.contents[0].text)
    check(body["prefix"] == "MESH" and body["record"]["pattern"] == "^(C|D|Q)\\d+$", f"{label}: prefix resource")

    read = await client.read_resource("http://purl.obolibrary.org/obo/HP_0000118")
    mimes = [c.mime_type for c in read.contents]
    check(mimes == ["application/json", "text/turtle"], f"{label}: resource mime types {mimes}")

    try:
        await client.read_resource("http://example.org/nothing")
        check(False, f"{label}: unknown resource must be an error")
    except MCPError as e:
        want = -32602 if expected_version == "2026-07-28" else -32002
        check(e.error.code == want, f"{label}: unknown resource code {e.error.code}, want {want}")
    print(f"ok: {label} ({client.protocol_version})")


def start_http_server():
    """Starts `serve --http` on port 0 and returns it with the URL it announces on stderr
    (choosing a free port first and passing it on would race with other tests)."""
    server = subprocess.Popen(
        [BINARY, "serve", "--index", INDEX, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True
    )
    prefix = "ontoresolve: MCP over Streamable HTTP at "
    for line in server.stderr:
        if line.startswith(prefix):
            # Drain the rest so the server never blocks on a full pipe.
            threading.Thread(target=server.stderr.read, daemon=True).start()
            return server, line[len(prefix):].strip()
    server.wait()
    raise SystemExit(f"serve --http announced no address (exit {server.returncode})")


async def main():
    params = StdioServerParameters(command=BINARY, args=["serve", "--index", INDEX])
    async with Client(params, mode="auto") as client:
        await exercise(client, "stdio auto", "2026-07-28")
    async with Client(params, mode="legacy") as client:
        await exercise(client, "stdio legacy", "2025-11-25")

    server, url = start_http_server()
    try:
        async with Client(url, mode="auto") as client:
            await exercise(client, "http auto", "2026-07-28")
        async with Client(url, mode="legacy") as client:
            await exercise(client, "http legacy", "2025-11-25")
    finally:
        server.terminate()
        server.wait()


asyncio.run(main())
