//! JSON backend (skeleton; being implemented).
#![allow(missing_docs, unused_variables)]
use crate::error::Result;
use crate::reflect::Reflect;

pub fn to_json<'de, T: Reflect<'de>>(v: &T) -> String { todo!() }
pub fn write_json<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>) { todo!() }
pub fn from_json<'de, T: Reflect<'de> + Default, I: AsRef<[u8]> + ?Sized>(input: &'de I) -> Result<T> { todo!() }
pub fn read_json<'de, T: Reflect<'de>, I: AsRef<[u8]> + ?Sized>(v: &mut T, input: &'de I) -> Result<()> { todo!() }
pub fn prettify<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> { todo!() }
pub fn minify<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> { todo!() }
pub fn validate(input: &[u8]) -> Result<()> { todo!() }
