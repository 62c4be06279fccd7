#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the golden files, all in the repository: formats/ (Glaze
# bench documents and exchange pairs), tests/shapes/, tests/regressions/ and
# tests/data/JSONTestSuite. Run from anywhere; existing corpus entries are kept. The corpora are
# git-ignored.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"

json=("$root"/formats/json/bench/*.json "$root"/formats/beve/exchange/*.json "$root"/tests/data/JSONTestSuite/test_parsing/*.json "$root"/tests/shapes/everything.json "$root"/tests/shapes/tree.json "$root"/tests/regressions/*.json)
beve=("$root"/formats/beve/bench/*.beve "$root"/formats/beve/exchange/*.beve "$root"/tests/shapes/everything.beve "$root"/tests/shapes/tree.beve "$root"/tests/regressions/*.beve)

seed() { # target files...
  local dir="$fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/$(basename "$f")"
  done
  echo "$dir: $(ls "$dir" | wc -l) files"
}

for t in json_value json_typed pretty_minify json_differential value_convert; do seed "$t" "${json[@]}"; done
for t in beve_value beve_typed beve_transcode beve_to_json; do seed "$t" "${beve[@]}"; done
# limits reads its input in both formats (delimited BEVE, deep nests of large types).
seed limits "${json[@]}" "${beve[@]}"
# value_patch builds a document and a JSON Patch from any bytes (tests/shapes/patch.rs): the
# saved patch inputs and the golden files' bytes.
seed value_patch "$root"/tests/regressions/*.patch "${json[@]}"
# streams reads a selector byte (how the input is cut into pieces), then NDJSON, delimited BEVE
# or a JSON array: each golden file behind two selectors.
mkdir -p "$fuzz/corpus/streams"
for f in "${json[@]}" "${beve[@]}"; do
  [ -f "$f" ] || continue
  for sel in 0 2; do
    { printf "$(printf '\\x%02x' "$sel")"; cat "$f"; } >"$fuzz/corpus/streams/$sel-$(basename "$f")"
  done
done
echo "$fuzz/corpus/streams: $(ls "$fuzz/corpus/streams" | wc -l) files"
# json_values reads consecutive JSON values: every JSON golden file, and the bench documents
# back to back (with and without a line break between them).
seed json_values "${json[@]}"
bench=("$root"/formats/json/bench/*.json)
if [ -f "${bench[0]}" ]; then
  for f in "${bench[@]}"; do cat "$f"; echo; done >"$fuzz/corpus/json_values/bench-lines.json"
  cat "${bench[@]}" >"$fuzz/corpus/json_values/bench-joined.json"
fi
# json_get reads a JSON pointer up to the first line break, then a document: every JSON golden
# file behind the empty pointer and behind `/0`.
mkdir -p "$fuzz/corpus/json_get"
for f in "${json[@]}"; do
  [ -f "$f" ] || continue
  { echo; cat "$f"; } >"$fuzz/corpus/json_get/root-$(basename "$f")"
  { echo "/0"; cat "$f"; } >"$fuzz/corpus/json_get/0-$(basename "$f")"
done
echo "$fuzz/corpus/json_get: $(ls "$fuzz/corpus/json_get" | wc -l) files"
# more_types reads its input as JSON and as BEVE: the samples of tests/shapes/more.rs and every
# golden file.
seed more_types "${json[@]}" "${beve[@]}" "$root"/tests/shapes/more*.json "$root"/tests/shapes/more*.beve "$root"/tests/data/glaze/*
# serde_bridge reads a selector byte (even: JSON, odd: BEVE), then the document.
mkdir -p "$fuzz/corpus/serde_bridge"
for f in "${json[@]}"; do
  [ -f "$f" ] && { printf '\x00'; cat "$f"; } >"$fuzz/corpus/serde_bridge/j-$(basename "$f")"
done
for f in "${beve[@]}"; do
  [ -f "$f" ] && { printf '\x01'; cat "$f"; } >"$fuzz/corpus/serde_bridge/b-$(basename "$f")"
done
echo "$fuzz/corpus/serde_bridge: $(ls "$fuzz/corpus/serde_bridge" | wc -l) files"
# rpc_line reads lines of JSON-RPC: requests of every method, batches, bad lines; and the JSON
# files as lines.
mkdir -p "$fuzz/corpus/rpc_line"
i=0
while IFS= read -r line; do
  printf '%s\n' "$line" >"$fuzz/corpus/rpc_line/msg-$i.jsonl"
  i=$((i + 1))
done <<'LINES'
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}
{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"search","arguments":{"query":"q","limit":3}}}
[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"},1]
{"jsonrpc":"1.0","id":1e400,"method":7}
{ "params" : { "arguments" : { "right" : 40, "left" : 2 }, "name" : "add" }, "method" : "tools/call", "id" : 3, "jsonrpc" : "2.0" }
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":["add",{"left":2,"right":40}]}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a\u0064d","protocolVersion":7,"arguments":null}}
{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"capabilities":{},"protocolVersion":null}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","name":"search","arguments":{"query":"q","limit":3},"_meta":{"progressToken":1}}}
{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":[]},"name":"search","arguments":{"query":"","limit":0}}}
{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientInfo":null}}}
{"jsonrpc":"2.0","id":1,"method":"ping","params":3}
{"jsonrpc":"2.0","method":"tools/call","params":"add","id":"late"}
{"jsonrpc":"2.0","id":1,"method":["ping"],"id":"z"}
{"jsonrpc":"2.0","id":-0,"method":"ping"}
{"jsonrpc":"2.0","id":1.0,"method":"ping","params":3}
[{"jsonrpc":"2.0","id":1,"method":"ping","params":3},{"jsonrpc":"2.0","method":7,"id":"b"}]
LINES
# issue 42: lines at the oracle's 256-byte limit, ending in \r\n.
for len in 256 257; do
  { printf '{"jsonrpc":"2.0","id":1,"method":"ping"%*s}\r\n' $((len - 40)) ''; } >"$fuzz/corpus/rpc_line/crlf-$len.jsonl"
done
seed rpc_line "${json[@]}"
# rpc_http reads the raw bytes of an HTTP/1.1 request (and, again, the input as the body of a
# POST in a session): requests of every shape the transport answers, malformed ones, and the
# rpc_line messages as bodies.
mkdir -p "$fuzz/corpus/rpc_http"
head='POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n'
body='{"jsonrpc":"2.0","id":1,"method":"ping"}'
i=0
for req in \
  "${head}Content-Length: ${#body}\r\n\r\n$body" \
  "${head}Connection: close\r\nContent-Length: ${#body}\r\n\r\n$body" \
  "${head}Transfer-Encoding: chunked\r\n\r\n$(printf %x ${#body})\r\n$body\r\n0\r\n\r\n" \
  "${head}Mcp-Session-Id: 0123456789abcdef0123456789abcdef\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${#body}\r\n\r\n$body" \
  "${head}Content-Length: 1000000\r\n\r\n{" \
  "${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n" \
  "${head}NoColon\r\n\r\n" \
  'DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: x\r\n\r\n' \
  'GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n' \
  'GET /other HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\n\r\n' \
  'NONSENSE\r\n\r\n'; do
  printf '%b' "$req" >"$fuzz/corpus/rpc_http/req-$i.http"
  i=$((i + 1))
done
cp "$fuzz"/corpus/rpc_line/msg-*.jsonl "$fuzz/corpus/rpc_http/"
echo "$fuzz/corpus/rpc_http: $(ls "$fuzz/corpus/rpc_http" | wc -l) files"
# value_roundtrip builds values from raw bytes: any bytes do; start from the BEVE files.
seed value_roundtrip "${beve[@]}"

# typed_options reads a selector byte (read options, format, shape: see
# tests/shapes/oracles.rs, selected_options and typed_options) and then the document. Each golden
# document gets the option sets tests/regressions.rs uses, into both shapes; each entry of the
# json_typed and beve_typed corpora, when present, one of them.
sets=(0x00 0x07 0x38 0x39 0x3E 0x11 0x23)
byte() { printf "$(printf '\\x%02x' "$1")"; }
prefixed() { # selector file
  local name
  name="$(printf %02x "$1")-$(basename "$2")"
  { byte "$1"; cat "$2"; } >"$fuzz/corpus/typed_options/$name"
}
mkdir -p "$fuzz/corpus/typed_options"
for f in "${json[@]}" "${beve[@]}"; do
  [ -f "$f" ] || continue
  fmt=0
  [ "${f%.beve}" != "$f" ] && fmt=0x40
  for sel in "${sets[@]}"; do
    prefixed $((sel | fmt)) "$f"
    prefixed $((sel | fmt | 0x80)) "$f"
  done
done
n=0
for t in json_typed beve_typed; do
  [ -d "$fuzz/corpus/$t" ] || continue
  fmt=0
  [ $t = beve_typed ] && fmt=0x40
  for f in "$fuzz/corpus/$t"/*; do
    prefixed $((${sets[n % 7]} | fmt)) "$f"
    n=$((n + 1))
  done
done
echo "$fuzz/corpus/typed_options: $(ls "$fuzz/corpus/typed_options" | wc -l) files"

# beve_strings: recipes of valid arrays (tests/shapes/oracles.rs, `string_array_of`): a mode
# byte (SIZE width, raw bytes or whole characters, ASCII text first), then strings of a length
# byte, 0xFF (no corruption) and the content; the fuzzer corrupts and lengthens them.
dir="$fuzz/corpus/beve_strings"
mkdir -p "$dir"
for mode in 0 1 2 3 8 9; do
  for len in 1 31 63 64 65 100 127; do
    {
      byte "$mode"
      for _ in 1 2 3 4 5 6 7 8; do
        byte "$len"
        byte 255
        head -c "$len" /dev/zero | tr '\0' 'a'
      done
    } >"$dir/seed-$mode-$len"
  done
done
# Whole characters: each content byte picks one of 16, some of them multi-byte.
for mode in 4 12; do
  {
    byte "$mode"
    for _ in 1 2 3 4 5 6; do
      byte 88
      byte 255
      for i in $(seq 0 87); do byte $((i * 7 % 16)); done
    done
  } >"$dir/seed-chars-$mode"
done
echo "$dir: $(ls "$dir" | wc -l) files"
