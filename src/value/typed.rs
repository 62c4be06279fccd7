//! [`TypedArray`]: BEVE's homogeneous arrays (numeric, packed bool, string), kept compact.

use half::{bf16, f16};

use super::{Num, Value};
use crate::number::NumKind;

/// A BEVE typed array: every element of one numeric kind (one header, then the raw
/// little-endian values), a packed bool array, or a string array.
///
/// [`Value`] keeps these apart from generic arrays so that BEVE -> `Value` -> BEVE writes the same
/// bytes, and so that a large numeric array costs its elements' size, not a `Value` each. JSON
/// writes them as ordinary arrays, and reading JSON never makes one. A typed array equals a
/// generic array with equal elements.
///
/// Elements are not `Value`s, so `value[i]` cannot borrow one: read them through the slices
/// ([`Value::as_f64_slice`] and friends, or by matching), [`TypedArray::get`] (a copy), or turn
/// the array into a generic one with [`TypedArray::to_values`].
#[derive(Clone, Debug)]
pub enum TypedArray {
    /// `i8` elements.
    I8(Vec<i8>),
    /// `i16` elements.
    I16(Vec<i16>),
    /// `i32` elements.
    I32(Vec<i32>),
    /// `i64` elements.
    I64(Vec<i64>),
    /// `i128` elements.
    I128(Vec<i128>),
    /// `u8` elements.
    U8(Vec<u8>),
    /// `u16` elements.
    U16(Vec<u16>),
    /// `u32` elements.
    U32(Vec<u32>),
    /// `u64` elements.
    U64(Vec<u64>),
    /// `u128` elements.
    U128(Vec<u128>),
    /// `half::f16` elements.
    F16(Vec<f16>),
    /// `half::bf16` elements.
    BF16(Vec<bf16>),
    /// `f32` elements.
    F32(Vec<f32>),
    /// `f64` elements.
    F64(Vec<f64>),
    /// Booleans (BEVE packs them eight to a byte).
    Bool(Vec<bool>),
    /// Strings (BEVE string array: lengths and bytes, no per-element header).
    Str(Vec<String>),
}

/// Runs `$num` with `$v` bound to the vector of a numeric typed array, or `$bool` / `$str` for
/// the other two.
macro_rules! with_typed {
    ($arr:expr, $v:ident => $num:expr, $b:ident => $bool:expr, $s:ident => $str:expr) => {
        match $arr {
            TypedArray::I8($v) => $num,
            TypedArray::I16($v) => $num,
            TypedArray::I32($v) => $num,
            TypedArray::I64($v) => $num,
            TypedArray::I128($v) => $num,
            TypedArray::U8($v) => $num,
            TypedArray::U16($v) => $num,
            TypedArray::U32($v) => $num,
            TypedArray::U64($v) => $num,
            TypedArray::U128($v) => $num,
            TypedArray::F16($v) => $num,
            TypedArray::BF16($v) => $num,
            TypedArray::F32($v) => $num,
            TypedArray::F64($v) => $num,
            TypedArray::Bool($b) => $bool,
            TypedArray::Str($s) => $str,
        }
    };
}
pub(crate) use with_typed;

macro_rules! typed_from {
    ($($t:ty => $variant:ident),*) => {$(
        impl From<Vec<$t>> for TypedArray {
            #[inline]
            fn from(v: Vec<$t>) -> TypedArray {
                TypedArray::$variant(v)
            }
        }
        impl From<&[$t]> for TypedArray {
            #[inline]
            fn from(v: &[$t]) -> TypedArray {
                TypedArray::$variant(v.to_vec())
            }
        }
    )*};
}

typed_from!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, u128 => U128, f16 => F16, bf16 => BF16, f32 => F32, f64 => F64,
    bool => Bool, String => Str);

impl From<Vec<&str>> for TypedArray {
    fn from(v: Vec<&str>) -> TypedArray {
        TypedArray::Str(v.into_iter().map(str::to_owned).collect())
    }
}

impl TypedArray {
    /// The number of elements.
    pub fn len(&self) -> usize {
        with_typed!(self, v => v.len(), b => b.len(), s => s.len())
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element kind of a numeric array; `None` for bool and string arrays.
    pub fn num_kind(&self) -> Option<NumKind> {
        Some(match self {
            TypedArray::I8(_) => NumKind::I8,
            TypedArray::I16(_) => NumKind::I16,
            TypedArray::I32(_) => NumKind::I32,
            TypedArray::I64(_) => NumKind::I64,
            TypedArray::I128(_) => NumKind::I128,
            TypedArray::U8(_) => NumKind::U8,
            TypedArray::U16(_) => NumKind::U16,
            TypedArray::U32(_) => NumKind::U32,
            TypedArray::U64(_) => NumKind::U64,
            TypedArray::U128(_) => NumKind::U128,
            TypedArray::F16(_) => NumKind::F16,
            TypedArray::BF16(_) => NumKind::BF16,
            TypedArray::F32(_) => NumKind::F32,
            TypedArray::F64(_) => NumKind::F64,
            TypedArray::Bool(_) | TypedArray::Str(_) => return None,
        })
    }

    /// Element `i` of a numeric array.
    pub fn num(&self, i: usize) -> Option<Num> {
        with_typed!(self, v => v.get(i).map(|&x| Num::from(x)), _b => None, _s => None)
    }

    /// A copy of element `i` as a [`Value`] (a string element is cloned).
    pub fn get(&self, i: usize) -> Option<Value> {
        with_typed!(self,
            v => v.get(i).map(|&x| Value::Number(Num::from(x))),
            b => b.get(i).map(|&x| Value::Bool(x)),
            s => s.get(i).map(|x| Value::String(x.clone())))
    }

    /// The elements as values (a generic array; BEVE then writes each with its own header).
    pub fn to_values(&self) -> Vec<Value> {
        with_typed!(self,
            v => v.iter().map(|&x| Value::Number(Num::from(x))).collect(),
            b => b.iter().map(|&x| Value::Bool(x)).collect(),
            s => s.iter().map(|x| Value::String(x.clone())).collect())
    }

    /// The typed array holding `values`, if they are all booleans, all strings, or all
    /// numbers: numbers of one kind keep it; otherwise integers become the first of `i64`,
    /// `u64`, `i128`, `u128` that holds them all, and a mix with floats becomes `f64` when every
    /// number converts exactly. An empty slice gives an empty `f64` array.
    ///
    /// ```
    /// use structio::value::{TypedArray, Value};
    /// let v = [Value::from(1u8), Value::from(-2i64)];
    /// assert_eq!(TypedArray::from_values(&v), Some(TypedArray::I64(vec![1, -2])));
    /// let mixed = [Value::from(1), Value::from(0.5)];
    /// assert_eq!(TypedArray::from_values(&mixed), Some(TypedArray::F64(vec![1.0, 0.5])));
    /// assert_eq!(TypedArray::from_values(&[Value::from(1), Value::Null]), None);
    /// ```
    pub fn from_values(values: &[Value]) -> Option<TypedArray> {
        if values.is_empty() {
            return Some(TypedArray::default());
        }
        if let Some(t) = TypedArray::from_values_like(values, &TypedArray::Bool(Vec::new())) {
            return Some(t);
        }
        if let Some(t) = TypedArray::from_values_like(values, &TypedArray::Str(Vec::new())) {
            return Some(t);
        }
        let first = values
            .first()
            .map_or(Some(NumKind::F64), |v| Some(v.as_number()?.kind()))?;
        let all_integers = values
            .iter()
            .all(|v| v.as_number().is_some_and(|n| n.is_integer()));
        let candidates: &[NumKind] = if all_integers {
            &[NumKind::I64, NumKind::U64, NumKind::I128, NumKind::U128]
        } else {
            &[NumKind::F64]
        };
        std::iter::once(first)
            .chain(candidates.iter().copied())
            .find_map(|k| TypedArray::numbers_of_kind(values, k))
    }

    /// `values` as an array of the same element type as `like`, if every one converts exactly.
    pub(crate) fn from_values_like(values: &[Value], like: &TypedArray) -> Option<TypedArray> {
        match like {
            TypedArray::Bool(_) => values
                .iter()
                .map(Value::as_bool)
                .collect::<Option<Vec<_>>>()
                .map(TypedArray::Bool),
            TypedArray::Str(_) => values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .map(TypedArray::Str),
            _ => TypedArray::numbers_of_kind(values, like.num_kind()?),
        }
    }

    /// `values` as numbers of kind `kind`, if every one converts exactly.
    fn numbers_of_kind(values: &[Value], kind: NumKind) -> Option<TypedArray> {
        super::number::by_kind!(kind, T => values
            .iter()
            .map(|v| {
                let n = v.as_number()?;
                let x: T = n.to::<T>()?;
                (Num::from(x) == n).then_some(x)
            })
            .collect::<Option<Vec<T>>>()
            .map(TypedArray::from))
    }

    /// Whether element `i` equals `v` (a number, boolean or string of equal value).
    pub(crate) fn elem_eq(&self, i: usize, v: &Value) -> bool {
        match (self, v) {
            (TypedArray::Bool(b), Value::Bool(x)) => b.get(i) == Some(x),
            (TypedArray::Str(s), Value::String(x)) => s.get(i) == Some(x),
            (_, Value::Number(x)) => self.num(i).is_some_and(|n| n == *x),
            _ => false,
        }
    }
}

impl Default for TypedArray {
    /// An empty `f64` array.
    fn default() -> TypedArray {
        TypedArray::F64(Vec::new())
    }
}

impl PartialEq for TypedArray {
    /// Element by element, numbers by value across kinds (`[1u8]` equals `[1.0f64]`).
    fn eq(&self, other: &TypedArray) -> bool {
        use TypedArray::*;
        match (self, other) {
            (I8(a), I8(b)) => a == b,
            (I16(a), I16(b)) => a == b,
            (I32(a), I32(b)) => a == b,
            (I64(a), I64(b)) => a == b,
            (I128(a), I128(b)) => a == b,
            (U8(a), U8(b)) => a == b,
            (U16(a), U16(b)) => a == b,
            (U32(a), U32(b)) => a == b,
            (U64(a), U64(b)) => a == b,
            (U128(a), U128(b)) => a == b,
            (F16(a), F16(b)) => a == b,
            (BF16(a), BF16(b)) => a == b,
            (F32(a), F32(b)) => a == b,
            (F64(a), F64(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Str(a), Str(b)) => a == b,
            (Bool(_) | Str(_), _) | (_, Bool(_) | Str(_)) => false,
            _ => self.len() == other.len() && (0..self.len()).all(|i| self.num(i) == other.num(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access() {
        let t = TypedArray::from(vec![1.5f64, -2.0]);
        assert_eq!(t.len(), 2);
        assert_eq!(t.num_kind(), Some(NumKind::F64));
        assert_eq!(t.num(1), Some(Num::from(-2.0)));
        assert_eq!(t.num(2), None);
        assert_eq!(t.get(0), Some(Value::from(1.5)));
        assert_eq!(t.to_values(), vec![Value::from(1.5), Value::from(-2.0)]);
        let s = TypedArray::from(vec!["a", "b"]);
        assert_eq!(s.num_kind(), None);
        assert_eq!(s.get(1), Some(Value::from("b")));
        assert_eq!(s.num(0), None);
        assert!(TypedArray::Bool(vec![]).is_empty());
        let vals = |v: Vec<Value>| TypedArray::from_values(&v);
        assert_eq!(vals(vec![]), Some(TypedArray::F64(vec![])));
        assert_eq!(
            vals(vec![Value::from(true)]),
            Some(TypedArray::Bool(vec![true]))
        );
        assert_eq!(
            vals(vec![Value::from("s")]),
            Some(TypedArray::from(vec!["s"]))
        );
        assert_eq!(
            vals(vec![Value::from(1u8), Value::from(2u8)]),
            Some(TypedArray::U8(vec![1, 2]))
        );
        assert_eq!(
            vals(vec![Value::from(1u8), Value::from(u64::MAX)]),
            Some(TypedArray::U64(vec![1, u64::MAX]))
        );
        assert_eq!(
            vals(vec![Value::from(-1), Value::from(u64::MAX)]),
            Some(TypedArray::I128(vec![-1, u64::MAX as i128]))
        );
        assert_eq!(vals(vec![Value::from(-1), Value::from(u128::MAX)]), None);
        assert_eq!(
            vals(vec![Value::from(0.5f32), Value::from(2)]),
            Some(TypedArray::F32(vec![0.5, 2.0]))
        );
        assert_eq!(vals(vec![Value::from(0.5), Value::from(u64::MAX)]), None);
        assert_eq!(vals(vec![Value::from(1), Value::from("1")]), None);
        let like = TypedArray::U16(vec![]);
        assert_eq!(
            TypedArray::from_values_like(&[Value::from(7)], &like),
            Some(TypedArray::U16(vec![7]))
        );
        assert_eq!(
            TypedArray::from_values_like(&[Value::from(-7)], &like),
            None
        );
    }

    #[test]
    fn equality_crosses_numeric_kinds() {
        assert_eq!(
            TypedArray::from(vec![1u8, 2]),
            TypedArray::from(vec![1.0f64, 2.0])
        );
        assert_ne!(TypedArray::from(vec![1u8, 2]), TypedArray::from(vec![1i32]));
        assert_ne!(TypedArray::from(vec![1u8]), TypedArray::from(vec![true]));
        assert_ne!(
            TypedArray::from(vec![f64::NAN]),
            TypedArray::from(vec![f64::NAN])
        );
        assert_eq!(TypedArray::from(vec![true]), TypedArray::from(vec![true]));
    }
}
