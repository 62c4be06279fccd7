"""Drives the example MCP server (rpc/examples/mcp_server.rs) with the official Python MCP SDK.

Usage: python mcp_sdk_client.py PATH_TO_mcp_server_BINARY

Uses the SDK's stdio client and ClientSession: initialize, list the tools (and check their
schemas), call `add`, call `search` with valid and invalid arguments. Prints one line per check
and "N passed, N failed" at the end; exits non-zero if any check failed.
"""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


def check_schema(tool, properties):
    """The input schema is an object schema; once the derive generates schemas, its properties
    are the argument members."""
    schema = tool.input_schema
    check(f"{tool.name}: inputSchema is an object schema", schema.get("type") == "object", schema)
    if "properties" in schema:
        check(
            f"{tool.name}: inputSchema properties",
            sorted(schema["properties"]) == sorted(properties),
            schema,
        )
        check(
            f"{tool.name}: inputSchema required",
            sorted(schema.get("required", [])) == sorted(properties),
            schema,
        )


async def main(server_path):
    params = StdioServerParameters(command=server_path, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("initialize: protocol version", init.protocol_version == "2025-11-25", init.protocol_version)
            check("initialize: server name", init.server_info.name == "structio-example", init.server_info)
            check("initialize: tools capability", init.capabilities.tools is not None, init.capabilities)

            await session.send_ping()
            check("ping", True)

            listed = await session.list_tools()
            tools = {t.name: t for t in listed.tools}
            check("tools/list: add and search", sorted(tools) == ["add", "search"], sorted(tools))
            if "add" in tools:
                check_schema(tools["add"], ["left", "right"])
                check("add: description", tools["add"].description == "Adds two integers", tools["add"].description)
            if "search" in tools:
                check_schema(tools["search"], ["query", "limit"])

            r = await session.call_tool("add", {"left": 2, "right": 40})
            check("add: not an error", not r.is_error, r)
            check("add: structured result", r.structured_content == {"result": 42}, r.structured_content)
            check("add: text is the same JSON", text_of(r) == '{"result":42}', text_of(r))

            r = await session.call_tool("search", {"query": "rust", "limit": 3})
            check("search: not an error", not r.is_error, r)
            results = (r.structured_content or {}).get("result")
            check("search: three strings", isinstance(results, list) and len(results) == 3
                  and all(isinstance(s, str) for s in results), r.structured_content)

            r = await session.call_tool("search", {"query": "", "limit": 500})
            check("search, invalid: isError", r.is_error, r)
            check("search, invalid: names $.query", "$.query" in text_of(r), text_of(r))
            check("search, invalid: names $.limit", "$.limit" in text_of(r), text_of(r))

            r = await session.call_tool("search", {"query": "rust"})
            check("search, missing limit: isError", r.is_error, r)
            check("search, missing limit: names $.limit", "$.limit" in text_of(r), text_of(r))

            r = await session.call_tool("add", {"left": "two", "right": 3})
            check("add, wrong type: isError", r.is_error, r)
            check("add, wrong type: names $.left", "$.left" in text_of(r), text_of(r))

            try:
                await session.call_tool("nonesuch", {})
                check("unknown tool: protocol error", False, "no error raised")
            except Exception as e:  # McpError: -32602
                check("unknown tool: protocol error", "nonesuch" in str(e) or "Unknown tool" in str(e), e)

            r = await session.call_tool("add", {"left": 1, "right": 1})
            check("still serving after errors", r.structured_content == {"result": 2}, r)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    asyncio.run(main(sys.argv[1]))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
