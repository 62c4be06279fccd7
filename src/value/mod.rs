//! Dynamic values (skeleton; being implemented).
#![allow(missing_docs)]
pub enum Value { Null }
pub struct Map;
