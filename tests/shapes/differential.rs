//! structio against serde_json (with `float_roundtrip`) on the same JSON text: both accept or
//! both reject, and what both accept has the same value, floats to the bit.
//!
//! Intentional differences, encoded below:
//! - Depth: serde_json accepts 127 levels of nesting and rejects 128; structio's limit is a
//!   read option (default 256), set to 127 here so the two agree.
//! - Duplicate keys: both keep the last value (structio's `Map` keeps the first key's position;
//!   objects are compared without regard to order).
//! - Integers beyond `u64`: serde_json (without `arbitrary_precision`) makes them `f64`;
//!   structio keeps them exact as `i128`/`u128` (and as `f64` beyond those). They compare
//!   equal when the exact integer rounds to serde_json's `f64`.

use serde_json::{Number as SNumber, Value as SValue};
use structio::json::Options as JsonOptions;
use structio::value::Num;
use structio::Value;

/// serde_json's nesting limit, as a structio `max_depth`.
pub const SERDE_DEPTH: usize = 127;

/// The input, printable.
fn show(data: &[u8]) -> String {
    if data.len() > 300 {
        let head = String::from_utf8_lossy(&data[..300]);
        format!("{head}... ({} bytes)", data.len())
    } else {
        String::from_utf8_lossy(data).into_owned()
    }
}

/// Whether structio's number equals serde_json's.
fn same_number(a: &Num, b: &SNumber) -> bool {
    if let Some(i) = b.as_i64() {
        return a.as_i128() == Some(i128::from(i));
    }
    if let Some(u) = b.as_u64() {
        return a.as_u128() == Some(u128::from(u));
    }
    let Some(f) = b.as_f64() else { return false };
    a.as_f64_lossy().to_bits() == f.to_bits()
}

/// `Ok` when the two values are the same, else where they differ.
pub fn same(a: &Value, b: &SValue, path: &mut String) -> Result<(), String> {
    let differ = |path: &str| Err(format!("at {path}: structio {a:?} vs serde_json {b:?}"));
    match (a, b) {
        (Value::Null, SValue::Null) => Ok(()),
        (Value::Bool(x), SValue::Bool(y)) if x == y => Ok(()),
        (Value::String(x), SValue::String(y)) if x == y => Ok(()),
        (Value::Number(x), SValue::Number(y)) if same_number(x, y) => Ok(()),
        (Value::Array(x), SValue::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let n = path.len();
                path.push_str(&format!("[{i}]"));
                same(p, q, path)?;
                path.truncate(n);
            }
            Ok(())
        }
        (Value::Object(x), SValue::Object(y)) if x.len() == y.len() => {
            for (k, p) in x {
                let Some(q) = y.get(k) else {
                    return differ(path);
                };
                let n = path.len();
                path.push_str(&format!(".{k}"));
                same(p, q, path)?;
                path.truncate(n);
            }
            Ok(())
        }
        _ => differ(path),
    }
}

/// Reads `data` with both; panics if they disagree.
pub fn json_differential(data: &[u8]) {
    let mut opts = JsonOptions::default();
    opts.read.max_depth = SERDE_DEPTH;
    let ours = structio::json::from_json_with::<Value>(data, &opts);
    let theirs = serde_json::from_slice::<SValue>(data);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            if let Err(m) = same(&a, &b, &mut String::from("$")) {
                panic!("different values {m}\ninput: {}", show(data));
            }
        }
        (Err(_), Err(_)) => {}
        (Ok(a), Err(e)) => panic!(
            "structio accepts ({a:?}), serde_json rejects ({e})\ninput: {}",
            show(data)
        ),
        (Err(e), Ok(b)) => panic!(
            "structio rejects ({e}), serde_json accepts ({b:?})\ninput: {}",
            show(data)
        ),
    }
}
