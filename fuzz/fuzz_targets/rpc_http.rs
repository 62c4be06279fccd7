//! Fuzz target `rpc_http`: any bytes to the MCP server's Streamable HTTP transport, as a raw
//! request and as the body of a POST in a session (see `structio_fuzz::rpc::rpc_http`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::rpc::rpc_http(data));
