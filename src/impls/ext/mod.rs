//! `Reflect` for the types of other crates, each behind the optional feature of the same name:
//! `chrono`, `time`, `uuid`, `indexmap`, `smallvec` and `bytes`. The impls are direct (no
//! detour through serde), so each type reads and writes at the speed of the std types it is
//! laid out like.

#[cfg(feature = "bytes")]
mod bytes;
#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "indexmap")]
mod indexmap;
#[cfg(feature = "smallvec")]
mod smallvec;
#[cfg(feature = "time")]
mod time;
#[cfg(feature = "uuid")]
mod uuid;
