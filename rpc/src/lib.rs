//! JSON-RPC 2.0 and an MCP tool server on structio.
//!
//! - **Envelopes that borrow and defer.** [`Request`] reads `jsonrpc` (checked to be `"2.0"`),
//!   `id` and `method` borrowed from the input, and keeps `params` as validated text
//!   ([`structio::RawJson`]) until the method is known: then [`structio::RawJson::parse`] reads
//!   it into the method's type, borrowing where the type borrows. A typed `Request<P>` reads
//!   everything in one pass. The same types read and write BEVE.
//! - **Responses into a reused buffer.** [`write_result`] and [`write_error`] append the
//!   response for an id straight to a `Vec<u8>` ([`beve::write_result`] for BEVE).
//! - **Every bad input answered.** [`dispatch`] handles a single request, a notification or a
//!   batch (bounded by [`Limits::max_batch`]) and answers what cannot be read with the error
//!   the specification prescribes ([`code`]).
//! - **An MCP server** ([`mcp::Server`]): tools from typed functions, served over stdio, in
//!   both protocol eras; a tool's result is structured content, plain text or content blocks
//!   (images, audio, resource links, embedded resources) as its type says
//!   ([`mcp::IntoToolResult`]), with a title, hints and icons ([`mcp::ToolOptions`]), its name
//!   checked ([`mcp::BuildError`]).
//!
//! ```
//! use structio_rpc::{dispatch, write_result, code, ErrorObject, Fault, Id, Limits};
//!
//! #[derive(structio::Reflect)]
//! struct Add { left: i32, right: i32 }
//!
//! let mut out = Vec::new();
//! let line = br#"{"jsonrpc":"2.0","id":7,"method":"add","params":{"left":2,"right":3}}"#;
//! dispatch(line, &mut out, &Limits::default(), |req, out| match req.method.as_ref() {
//!     "add" => {
//!         let a: Add = req.parse_params().map_err(|e| -> Fault {
//!             ErrorObject::new(code::INVALID_PARAMS, format!("Invalid params: {e}"))
//!         })?;
//!         write_result(out, req.id.as_ref().unwrap_or(&Id::Null), &(a.left + a.right));
//!         Ok(())
//!     }
//!     _ => Err(ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found")),
//! });
//! assert_eq!(out, br#"{"jsonrpc":"2.0","id":7,"result":5}"#);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod dispatch;
mod id;
pub mod mcp;
mod request;
mod response;

pub use dispatch::{classify, dispatch, recover_id, Fault, Limits};
pub use id::Id;
pub use request::Request;
pub use response::{beve, code, write_error, write_result, ErrorObject, Response};
