//! `Display` for values: their compact JSON text (`{:#}` for the pretty form).

use std::fmt;

use super::{Array, IntMap, Map, Num, TypedArray, Value};
use crate::reflect::Reflect;

/// Writes `v` as JSON: compact, or prettified with the alternate flag.
fn json<'de, T: Reflect<'de>>(v: &T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let text = crate::to_json(v);
    if f.alternate() {
        // The text was just written by the JSON writer, so prettifying it cannot fail; fall
        // back to the compact form rather than assert it.
        if let Ok(pretty) = crate::prettify(&text) {
            return f.write_str(&pretty);
        }
    }
    f.write_str(&text)
}

macro_rules! display_as_json {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            /// The JSON text: compact, or pretty with `{:#}`.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                json(self, f)
            }
        }
    )*};
}

display_as_json!(Value, Num, Map, Array, IntMap, TypedArray);
