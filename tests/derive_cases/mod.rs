//! Test cases of `#[derive(Reflect)]`, one module per kind of item.

mod as_attrs;
mod common;
mod enums_data;
mod enums_unit;
mod flatten;
mod generics;
mod keys;
mod no_default;
mod options;
mod structs;
mod table;
mod tuples;
mod with_module;
