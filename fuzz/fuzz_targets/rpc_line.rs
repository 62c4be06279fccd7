//! Fuzz target `rpc_line`: any bytes to the MCP server's line handler and stdio loop (see
//! `structio_fuzz::rpc::rpc_line`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::rpc::rpc_line(data));
