"""Drives the example MCP server (rpc/examples/mcp_server.rs) with the official Python MCP SDK.

Usage: python mcp_sdk_client.py PATH_TO_mcp_server_BINARY [--http]

Uses the SDK's stdio client (with --http: starts the server with `--http 127.0.0.1:PORT` and
uses the SDK's Streamable HTTP client at http://127.0.0.1:PORT/mcp instead) and ClientSession: initialize (the handshake revisions), list the
tools (and check their schemas, `add`'s title and annotations, `greet`'s lack of an output
schema), call `add`, call `search` with valid and invalid arguments, call `greet` (plain text),
list and read the resources and the template, get the prompt `review` and complete its argument,
call `slow` (concurrent, asynchronous tools: a progress callback receives every step, a `ping`
is answered while it runs, and a running call is cancelled, which the SDK sends as
`notifications/cancelled`), call `order` (which asks the quantity: the server sends
`elicitation/create`, which the session's `elicitation_callback` answers);
then (SDK 2.x) the high-level Client in its default auto mode, which probes `server/discover`
at revision 2026-07-28 and, the server answering it, speaks 2026-07-28 (no handshake, the
version and capabilities in every request's `_meta`): the same tools, calls, resources, prompt,
completion and `slow` (with `tools/list` in place of `ping`, which 2026-07-28 does not have), and
`order` through multi round-trip requests: the server answers with an `InputRequiredResult`, the
Client hands its `elicitation/create` entry to the same `elicitation_callback` and retries the call
with `inputResponses` and the echoed `requestState`; without the callback, the Client declares no
elicitation capability and the call fails with -32021. Both parts also call `extras`, which adds
and then removes the tool `echo` while the server serves: the handshake session is told by
`notifications/tools/list_changed` (its message handler), the 2026-07-28 client by its
`subscriptions/listen` stream (`Client.listen`); the list and a call of `echo` follow each
change. Prints one line
per check and "N passed, N failed" at the end; exits non-zero if any check failed.
"""

import asyncio
import contextlib
import socket
import subprocess
import sys
import time

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


def elicitation(answer):
    """An `elicitation_callback` answering every form with `answer` (an ElicitResult's members),
    and the list of the requests' parameters it was given."""
    from mcp import types

    asked = []

    async def callback(context, params):
        asked.append(params)
        return types.ElicitResult(**answer)

    return callback, asked


def check_order(r, asked, where, expected="ordered 3 pears"):
    """The result of `order` {"item": "pears"} and the one form the callback was given."""
    check(f"{where}order: not an error", not r.is_error, r)
    check(f"{where}order: {expected!r}", text_of(r) == expected, text_of(r))
    check(f"{where}order: asked once", len(asked) == 1, asked)
    if asked:
        params = asked[0]
        check(f"{where}order: the form's message", params.message == "How many pears do you want?", params)
        schema = params.requested_schema
        schema = schema if isinstance(schema, dict) else schema.model_dump(exclude_none=True)
        props = schema.get("properties", {})
        check(f"{where}order: the form asks an integer quantity 1 to 99",
              props.get("quantity", {}).get("type") == "integer"
              and props["quantity"].get("minimum") == 1 and props["quantity"].get("maximum") == 99
              and schema.get("required") == ["quantity"], schema)


def check_greet_and_add_metadata(tools, where):
    """`greet` returns plain text, so it lists no output schema; `add` is listed with its title
    and the hint readOnlyHint."""
    if "greet" in tools:
        check_schema(tools["greet"], ["name"], output=False)
        check(f"{where}greet: no outputSchema", tools["greet"].output_schema is None,
              tools["greet"].output_schema)
    if "add" in tools:
        add = tools["add"]
        check(f"{where}add: title", add.title == "Add two integers", add.title)
        check(f"{where}add: readOnlyHint", add.annotations is not None and add.annotations.read_only_hint is True,
              add.annotations)
        check(f"{where}add: other hints unset", add.annotations is not None
              and add.annotations.destructive_hint is None and add.annotations.open_world_hint is None,
              add.annotations)


def check_greet_call(r, where):
    check(f"{where}greet: not an error", not r.is_error, r)
    check(f"{where}greet: the text", text_of(r) == "Hello, Ada!", text_of(r))
    check(f"{where}greet: one text block", len(r.content) == 1 and r.content[0].type == "text", r.content)
    check(f"{where}greet: no structured content", r.structured_content is None, r.structured_content)


async def check_slow(api, where, answered_while_running):
    """`slow` through `api` (a ClientSession or a Client): every step reported to the progress
    callback, `answered_while_running()` (a ping, or tools/list) answered while it sleeps, and a
    running call cancelled: the SDK sends `notifications/cancelled`, the progress stops, and
    the server goes on serving at once."""
    import time

    steps = []

    async def on_progress(progress, total, message):
        steps.append((progress, total))

    r = await api.call_tool("slow", {"steps": 4, "ms": 20}, progress_callback=on_progress)
    check(f"{where}slow: the result", not r.is_error and r.structured_content == {"done": 4}, r)
    check(f"{where}slow: every step's progress", steps == [(1, 4), (2, 4), (3, 4), (4, 4)], steps)

    r = await api.call_tool("slow", {"steps": 0, "ms": 1})
    check(f"{where}slow, steps 0: isError names $.steps", r.is_error and "$.steps" in text_of(r), text_of(r))

    running = asyncio.create_task(api.call_tool("slow", {"steps": 3, "ms": 400}))
    await asyncio.sleep(0.2)
    start = time.monotonic()
    await answered_while_running()
    took = time.monotonic() - start
    check(f"{where}answered while slow runs", took < 0.3 and not running.done(), (took, running.done()))
    r = await running
    check(f"{where}slow: done after the other request", r.structured_content == {"done": 3}, r)

    steps.clear()
    cancelled = asyncio.create_task(
        api.call_tool("slow", {"steps": 50, "ms": 100}, progress_callback=on_progress))
    for _ in range(100):
        if len(steps) >= 2:
            break
        await asyncio.sleep(0.05)
    check(f"{where}slow: progress before the cancellation", len(steps) >= 2, steps)
    cancelled.cancel()
    try:
        await cancelled
        check(f"{where}slow: cancelled", False, "the call finished")
    except asyncio.CancelledError:
        check(f"{where}slow: cancelled", True)
    seen = len(steps)
    start = time.monotonic()
    r = await api.call_tool("add", {"left": 1, "right": 2})
    took = time.monotonic() - start
    check(f"{where}serving at once after the cancellation", r.structured_content == {"result": 3} and took < 0.3,
          (r, took))
    await asyncio.sleep(0.4)
    check(f"{where}slow: no progress after the cancellation", len(steps) == seen, (seen, steps))


async def check_resources_and_prompts(api, where):
    """Resources, the template, the prompt `review` and its completion, through `api` (a
    ClientSession or a Client: the same methods)."""
    from mcp.types import PromptReference, ResourceTemplateReference

    listed = await api.list_resources()
    by_uri = {str(r.uri): r for r in listed.resources}
    check(f"{where}resources/list: the readme", list(by_uri) == ["test://static/readme"], list(by_uri))
    readme = by_uri.get("test://static/readme")
    if readme is not None:
        check(f"{where}resources/list: name, title, mimeType",
              (readme.name, readme.title, readme.mime_type) == ("readme", "Read me", "text/plain"), readme)
    templates = await api.list_resource_templates()
    uris = [t.uri_template for t in templates.resource_templates]
    check(f"{where}resources/templates/list", uris == ["test://items/{id}"], uris)

    r = await api.read_resource("test://static/readme")
    check(f"{where}resources/read: the readme's text",
          len(r.contents) == 1 and r.contents[0].text.startswith("An example MCP server"), r)
    r = await api.read_resource("test://items/7")
    check(f"{where}resources/read: an item of the template",
          len(r.contents) == 1 and r.contents[0].text == '{"id":7}'
          and r.contents[0].mime_type == "application/json", r)
    try:
        await api.read_resource("test://items/700")
        check(f"{where}resources/read: not found is an error", False, "no error raised")
    except Exception as e:
        check(f"{where}resources/read: not found is an error", "not found" in str(e).lower(), e)

    prompts = await api.list_prompts()
    by_name = {p.name: p for p in prompts.prompts}
    check(f"{where}prompts/list: review", list(by_name) == ["review"], list(by_name))
    if "review" in by_name:
        args = [(a.name, a.required, a.description) for a in by_name["review"].arguments or []]
        check(f"{where}prompts/list: review's arguments",
              args == [("code", True, "The code to review"), ("language", False, "The language it is written in")],
              args)
    r = await api.get_prompt("review", {"code": "fn main() {}", "language": "rust"})
    check(f"{where}prompts/get: one user message",
          len(r.messages) == 1 and r.messages[0].role == "user"
          and r.messages[0].content.text == "Please review this rust:\n\nfn main() {}", r)
    try:
        await api.get_prompt("review", {"language": "rust"})
        check(f"{where}prompts/get: a missing argument is an error", False, "no error raised")
    except Exception as e:
        check(f"{where}prompts/get: a missing argument is an error", "code" in str(e), e)

    r = await api.complete(PromptReference(type="ref/prompt", name="review"), {"name": "language", "value": "r"})
    check(f"{where}completion/complete: languages starting with r",
          r.completion.values == ["rust", "ruby"] and r.completion.total == 2 and r.completion.has_more is False,
          r.completion)
    r = await api.complete(ResourceTemplateReference(type="ref/resource", uri="test://items/{id}"),
                           {"name": "id", "value": "1"})
    check(f"{where}completion/complete: a variable without completions", r.completion.values == [], r.completion)


def check_schema(tool, properties, output=True):
    """The input schema, generated by the derive, is an object schema whose properties are the
    argument members, all required; the output schema is an object schema too."""
    schema = tool.input_schema
    check(f"{tool.name}: inputSchema is an object schema", schema.get("type") == "object", schema)
    check(
        f"{tool.name}: inputSchema properties",
        sorted(schema.get("properties", {})) == sorted(properties),
        schema,
    )
    check(
        f"{tool.name}: inputSchema required",
        sorted(schema.get("required", [])) == sorted(properties),
        schema,
    )
    if output:
        out = tool.output_schema or {}
        check(f"{tool.name}: outputSchema is an object schema", out.get("type") == "object", out)


@contextlib.asynccontextmanager
async def streams(server):
    """The SDK's (read, write) streams to `server`: a StdioServerParameters (stdio) or a URL
    (Streamable HTTP; SDK 2.x `streamable_http_client`, 1.x `streamablehttp_client`)."""
    if isinstance(server, str):
        try:
            from mcp.client.streamable_http import streamable_http_client as http_client
        except ImportError:
            from mcp.client.streamable_http import streamablehttp_client as http_client
        async with http_client(server) as got:
            yield got[0], got[1]
    else:
        async with stdio_client(server) as (read, write):
            yield read, write


async def next_change(changes, where):
    """Waits (at most 10 s) for the next tools-list change `changes` (an asyncio.Queue) receives."""
    try:
        return await asyncio.wait_for(changes.get(), 10)
    except asyncio.TimeoutError:
        check(f"{where}: the change announced", False, "no notification in 10 s")
        return None


async def check_extras(api, changes, where):
    """`extras` adds `echo`, announced, listed and called; then removes it, announced and gone."""
    r = await api.call_tool("extras", {"on": True})
    check(f"{where}extras on: changed", text_of(r) == "changed", text_of(r))
    check(f"{where}extras on: tools/list_changed", await next_change(changes, where) is not None)
    names = sorted(t.name for t in (await api.list_tools()).tools)
    check(f"{where}extras on: echo listed", "echo" in names, names)
    r = await api.call_tool("echo", {"text": "hi there"})
    check(f"{where}echo: says it back", not r.is_error and text_of(r) == "hi there", r)
    r = await api.call_tool("extras", {"on": True})
    check(f"{where}extras on again: unchanged", text_of(r) == "unchanged", text_of(r))
    r = await api.call_tool("extras", {"on": False})
    check(f"{where}extras off: changed", text_of(r) == "changed", text_of(r))
    check(f"{where}extras off: tools/list_changed", await next_change(changes, where) is not None)
    names = sorted(t.name for t in (await api.list_tools()).tools)
    check(f"{where}extras off: echo gone", "echo" not in names, names)
    check(f"{where}no other change announced", changes.empty(), changes.qsize())


async def main(server):
    changes = asyncio.Queue()

    async def on_message(message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/tools/list_changed":
            changes.put_nowait(root)

    async with streams(server) as (read, write):
        answer, asked = elicitation({"action": "accept", "content": {"quantity": 3}})
        async with ClientSession(read, write, elicitation_callback=answer,
                                 message_handler=on_message) as session:
            init = await session.initialize()
            check("initialize: protocol version", init.protocol_version == "2025-11-25", init.protocol_version)
            check("initialize: server name", init.server_info.name == "structio-example", init.server_info)
            check("initialize: tools capability", init.capabilities.tools is not None, init.capabilities)

            await session.send_ping()
            check("ping", True)

            listed = await session.list_tools()
            tools = {t.name: t for t in listed.tools}
            check("tools/list: add, extras, greet, order, search and slow",
                  sorted(tools) == ["add", "extras", "greet", "order", "search", "slow"], sorted(tools))
            check("initialize: tools.listChanged", init.capabilities.tools.list_changed is True,
                  init.capabilities.tools)
            check_greet_and_add_metadata(tools, "")
            if "add" in tools:
                check_schema(tools["add"], ["left", "right"])
                check("add: description", tools["add"].description == "Adds two integers", tools["add"].description)
            if "search" in tools:
                check_schema(tools["search"], ["query", "limit"])
                props = tools["search"].input_schema.get("properties", {})
                check("search: query length 1 to 64 in the schema",
                      props.get("query", {}).get("minLength") == 1 and props.get("query", {}).get("maxLength") == 64, props)
                check("search: limit 1 to 100 in the schema",
                      props.get("limit", {}).get("minimum") == 1 and props.get("limit", {}).get("maximum") == 100, props)

            r = await session.call_tool("add", {"left": 2, "right": 40})
            check("add: not an error", not r.is_error, r)
            check("add: structured result", r.structured_content == {"result": 42}, r.structured_content)
            check("add: text is the same JSON", text_of(r) == '{"result":42}', text_of(r))

            r = await session.call_tool("greet", {"name": "Ada"})
            check_greet_call(r, "")

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

            check("initialize: resources, prompts and completions capabilities",
                  init.capabilities.resources is not None and init.capabilities.prompts is not None
                  and init.capabilities.completions is not None, init.capabilities)
            await check_resources_and_prompts(session, "")
            if "slow" in tools:
                check_schema(tools["slow"], ["steps", "ms"])
            await check_slow(session, "", session.send_ping)
            await check_extras(session, changes, "")

            r = await session.call_tool("order", {"item": "pears"})
            check_order(r, asked, "")


async def auto_client(server):
    """The SDK's high-level `Client` (SDK 2.x), in its default `mode='auto'`: it probes
    `server/discover` at revision 2026-07-28, which this server answers, so the connection speaks
    2026-07-28 (every request carries the protocol version and client capabilities in `_meta`;
    every result `resultType` and the server's name and version). With an SDK that does not
    speak 2026-07-28, the Client falls back to `initialize` and the calls are checked the same."""
    try:
        from mcp import Client
    except ImportError:  # SDK 1.x: no high-level client, nothing to check
        print("skip auto-mode Client (SDK 1.x)")
        return
    try:
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS
    except ImportError:  # an SDK 2.x before revision 2026-07-28
        MODERN_PROTOCOL_VERSIONS = ()
    modern = "2026-07-28" in MODERN_PROTOCOL_VERSIONS
    async with Client(server) as client:
        if modern:
            check("auto-mode Client: speaks 2026-07-28", client.protocol_version == "2026-07-28",
                  client.protocol_version)
            discovered = client.session.discover_result
            check("server/discover: succeeded", discovered is not None, discovered)
            if discovered is not None:
                check("server/discover: supportedVersions",
                      list(discovered.supported_versions) == ["2026-07-28"], discovered)
                check("server/discover: tools capability", discovered.capabilities.tools is not None,
                      discovered.capabilities)
            info = client.server_info
            check("server/discover: server info from _meta",
                  info is not None and info.name == "structio-example", info)
        else:
            print(f"note: this SDK does not speak 2026-07-28; the Client negotiated {client.protocol_version}")

        tools = await client.list_tools()
        by_name = {t.name: t for t in tools.tools}
        check("auto-mode Client: tools", sorted(by_name) == ["add", "extras", "greet", "order", "search", "slow"],
              sorted(by_name))
        check_greet_and_add_metadata(by_name, "auto-mode Client: ")
        if "add" in by_name:
            check_schema(by_name["add"], ["left", "right"])
        if "search" in by_name:
            check_schema(by_name["search"], ["query", "limit"])

        r = await client.call_tool("add", {"left": 2, "right": 40})
        check("auto-mode Client: add", r.structured_content == {"result": 42}, r)
        check("auto-mode Client: add text", text_of(r) == '{"result":42}', text_of(r))

        r = await client.call_tool("greet", {"name": "Ada"})
        check_greet_call(r, "auto-mode Client: ")

        r = await client.call_tool("search", {"query": "rust", "limit": 3})
        results = (r.structured_content or {}).get("result")
        check("auto-mode Client: search", not r.is_error and isinstance(results, list) and len(results) == 3,
              r)

        r = await client.call_tool("search", {"query": "", "limit": 500})
        check("auto-mode Client: search invalid, isError", r.is_error, r)
        check("auto-mode Client: search invalid names $.query and $.limit",
              "$.query" in text_of(r) and "$.limit" in text_of(r), text_of(r))

        try:
            await client.call_tool("nonesuch", {})
            check("auto-mode Client: unknown tool is a protocol error", False, "no error raised")
        except Exception as e:  # MCPError: -32602
            check("auto-mode Client: unknown tool is a protocol error",
                  "nonesuch" in str(e) or "Unknown tool" in str(e), e)

        r = await client.call_tool("add", {"left": 1, "right": 1})
        check("auto-mode Client: still serving after errors", r.structured_content == {"result": 2}, r)

        await check_resources_and_prompts(client, "auto-mode Client: ")
        await check_slow(client, "auto-mode Client: ", client.list_tools)
        # No elicitation callback: the Client declares no elicitation capability.
        try:
            r = await client.call_tool("order", {"item": "pears"})
            check("auto-mode Client without elicitation: -32021", False, r)
        except Exception as e:  # MCPError
            code = getattr(getattr(e, "error", None), "code", None)
            expected = -32021 if modern else None
            check("auto-mode Client without elicitation: an error"
                  + (" (-32021, requiredCapabilities)" if modern else ""),
                  expected is None or code == expected, repr(e))
        if modern:
            await check_listen(client)

    # The same tool with an elicitation callback: in 2026-07-28 the Client runs the
    # input-required loop (one InputRequiredResult, one retry); in the handshake era the server
    # sends `elicitation/create`. The same callback answers either way.
    for answer_with, expected in (({"action": "accept", "content": {"quantity": 3}}, "ordered 3 pears"),
                                  ({"action": "decline"}, "no order")):
        answer, asked = elicitation(answer_with)
        async with Client(server, elicitation_callback=answer) as client:
            r = await client.call_tool("order", {"item": "pears"})
            check_order(r, asked, "auto-mode Client: ", expected)
            if modern and asked:
                check("auto-mode Client: order asked in form mode",
                      getattr(asked[0], "mode", "form") == "form", asked[0])


async def check_listen(client):
    """Revision 2026-07-28: a `subscriptions/listen` stream asking for tool-list changes is
    acknowledged with `toolsListChanged` honored, and carries `extras`' two changes."""
    from mcp.client.subscriptions import ToolsListChanged

    where = "auto-mode Client: listen: "
    async with client.listen(tools_list_changed=True, prompts_list_changed=True) as sub:
        check(f"{where}toolsListChanged honored", sub.honored.tools_list_changed is True, sub.honored)
        check(f"{where}promptsListChanged not honored (the server announces no prompt change)",
              not sub.honored.prompts_list_changed, sub.honored)
        changes = asyncio.Queue()
        others = []

        async def watch():
            async for event in sub:
                if isinstance(event, ToolsListChanged):
                    changes.put_nowait(event)
                else:
                    others.append(event)

        watcher = asyncio.create_task(watch())
        try:
            await check_extras(client, changes, where)
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        check(f"{where}no other event", not others, others)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def http_server(server_path):
    """Starts `server_path --http 127.0.0.1:PORT`; yields its endpoint's URL once it accepts."""
    port = free_port()
    proc = subprocess.Popen([server_path, "--http", f"127.0.0.1:{port}"])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start listening on port {port}")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--http"):
        print(__doc__)
        sys.exit(2)
    if len(sys.argv) == 3:
        print("over Streamable HTTP")
        with http_server(sys.argv[1]) as url:
            asyncio.run(main(url))
            asyncio.run(auto_client(url))
    else:
        stdio = StdioServerParameters(command=sys.argv[1], args=[])
        asyncio.run(main(stdio))
        asyncio.run(auto_client(stdio))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
