//! BEVE backend (skeleton; being implemented).
#![allow(missing_docs, unused_variables)]
use crate::error::Result;
use crate::reflect::Reflect;

pub struct AlignedBytes(Vec<u8>);
pub fn to_beve<'de, T: Reflect<'de>>(v: &T) -> Vec<u8> { todo!() }
pub fn write_beve<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>) { todo!() }
pub fn to_beve_aligned<'de, T: Reflect<'de>>(v: &T) -> AlignedBytes { todo!() }
pub fn from_beve<'de, T: Reflect<'de> + Default, I: AsRef<[u8]> + ?Sized>(input: &'de I) -> Result<T> { todo!() }
pub fn read_beve<'de, T: Reflect<'de>, I: AsRef<[u8]> + ?Sized>(v: &mut T, input: &'de I) -> Result<()> { todo!() }
pub fn beve_to_json<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> { todo!() }
/// Walks one complete BEVE value in `bytes` and replays it into `w` (used for BEVE -> JSON).
pub fn transcode<W: crate::reflect::Writer>(bytes: &[u8], w: &mut W) -> Result<()> { todo!() }
