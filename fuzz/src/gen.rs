//! Builds arbitrary `Value`s (every variant but extensions, every number kind, NaN and
//! infinities included) from fuzzer bytes, for the round-trip target.

use arbitrary::{Result, Unstructured};
use half::{bf16, f16};
use structio::value::{IntMap, Num, TypedArray};
use structio::{Map, NumKind, Value};

/// Deepest nesting generated.
const MAX_DEPTH: usize = 12;

/// An arbitrary number of any kind.
pub fn num(u: &mut Unstructured<'_>) -> Result<Num> {
    Ok(match u.int_in_range(0..=13u8)? {
        0 => Num::from(u.arbitrary::<i8>()?),
        1 => Num::from(u.arbitrary::<i16>()?),
        2 => Num::from(u.arbitrary::<i32>()?),
        3 => Num::from(u.arbitrary::<i64>()?),
        4 => Num::from(u.arbitrary::<i128>()?),
        5 => Num::from(u.arbitrary::<u8>()?),
        6 => Num::from(u.arbitrary::<u16>()?),
        7 => Num::from(u.arbitrary::<u32>()?),
        8 => Num::from(u.arbitrary::<u64>()?),
        9 => Num::from(u.arbitrary::<u128>()?),
        10 => Num::from(f16::from_bits(u.arbitrary()?)),
        11 => Num::from(bf16::from_bits(u.arbitrary()?)),
        12 => Num::from(f32::from_bits(u.arbitrary()?)),
        _ => Num::from(f64::from_bits(u.arbitrary()?)),
    })
}

/// An arbitrary typed array.
fn typed(u: &mut Unstructured<'_>) -> Result<TypedArray> {
    let n = u.int_in_range(0..=6usize)?;
    macro_rules! v {
        ($f:expr) => {{
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push($f);
            }
            v
        }};
    }
    Ok(match u.int_in_range(0..=15u8)? {
        0 => TypedArray::I8(v!(u.arbitrary()?)),
        1 => TypedArray::I16(v!(u.arbitrary()?)),
        2 => TypedArray::I32(v!(u.arbitrary()?)),
        3 => TypedArray::I64(v!(u.arbitrary()?)),
        4 => TypedArray::I128(v!(u.arbitrary()?)),
        5 => TypedArray::U8(v!(u.arbitrary()?)),
        6 => TypedArray::U16(v!(u.arbitrary()?)),
        7 => TypedArray::U32(v!(u.arbitrary()?)),
        8 => TypedArray::U64(v!(u.arbitrary()?)),
        9 => TypedArray::U128(v!(u.arbitrary()?)),
        10 => TypedArray::F16(v!(f16::from_bits(u.arbitrary()?))),
        11 => TypedArray::BF16(v!(bf16::from_bits(u.arbitrary()?))),
        12 => TypedArray::F32(v!(f32::from_bits(u.arbitrary()?))),
        13 => TypedArray::F64(v!(f64::from_bits(u.arbitrary()?))),
        14 => TypedArray::Bool(v!(u.arbitrary()?)),
        _ => TypedArray::Str(v!(u.arbitrary()?)),
    })
}

/// An arbitrary value at most `MAX_DEPTH - depth` levels deep.
pub fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
    let leaf_only = depth >= MAX_DEPTH;
    let pick = u.int_in_range(0..=if leaf_only { 4u8 } else { 8 })?;
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(num(u)?),
        3 => Value::String(u.arbitrary()?),
        4 => Value::Typed(typed(u)?),
        5 => {
            let n = u.int_in_range(0..=5usize)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(value(u, depth + 1)?);
            }
            Value::from(items)
        }
        6 | 7 => {
            let n = u.int_in_range(0..=5usize)?;
            let mut m = Map::new();
            for _ in 0..n {
                let k: String = u.arbitrary()?;
                m.insert(k, value(u, depth + 1)?);
            }
            Value::Object(m)
        }
        _ => {
            let kinds = [
                NumKind::I8,
                NumKind::I16,
                NumKind::I32,
                NumKind::I64,
                NumKind::U8,
                NumKind::U64,
                NumKind::U128,
                NumKind::I128,
            ];
            let kind = *u.choose(&kinds)?;
            let mut m = IntMap::new(kind);
            let n = u.int_in_range(0..=5usize)?;
            for _ in 0..n {
                let k: i128 = u.arbitrary()?;
                let _ = m.try_insert(k, value(u, depth + 1)?);
            }
            Value::IntObject(m)
        }
    })
}
