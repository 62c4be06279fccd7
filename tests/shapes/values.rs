//! `structio::json::values` (consecutive JSON values in one text) against reading each value
//! alone with `from_json`, and `values_from_reader` fed in pieces against `values` on the whole
//! input. Used by the `json_values` fuzz target and `tests/json_values.rs`.

use structio::json::{values, values_from_reader};
use structio::Value;

use super::streams::{said, Pieces, Said};

/// What `values::<Value>` hands out: each item (a value by its debug form, or an error) with
/// `offset()` after it.
pub type Items = Vec<(Result<String, Said>, usize)>;

/// Every item of `values::<Value>(data)`, with `offset()` after each; checks that the
/// iteration ends after an error and stays ended.
pub fn items(data: &[u8]) -> Items {
    let mut it = values::<Value>(data);
    let mut out: Items = Vec::new();
    while let Some(r) = it.next() {
        let failed = r.is_err();
        out.push((
            r.map(|v| format!("{v:?}")).map_err(|e| said(&e)),
            it.offset(),
        ));
        if failed {
            assert!(it.next().is_none(), "an item after an error");
        }
    }
    assert!(it.next().is_none(), "an item after the end");
    out
}

/// Whether a byte is JSON whitespace.
fn ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The oracle of the `json_values` fuzz target, on any bytes:
///
/// - each value handed out is what `from_json::<Value>` reads from its text alone (from the
///   first byte after the whitespace that follows the previous value to `offset()`), and only
///   whitespace comes between two values;
/// - a number or literal is followed by whitespace, the end, or one of `"[]{},:`;
/// - an error ends the iteration, leaves `offset()` where it was, names the item's index
///   first in its path, points at or after where the item starts, and `from_json` rejects the
///   text from there to the end too; without an error only whitespace is left after the last;
/// - `values_from_reader` fed in pieces of 1, 3-1-7 and 64 bytes hands out the same items,
///   offsets and errors (message, offset, line and column, path).
pub fn values_oracle(data: &[u8]) {
    let got = items(data);
    let mut prev = 0;
    for (i, (r, off)) in got.iter().enumerate() {
        let start = prev + data[prev..].iter().take_while(|&&b| ws(b)).count();
        assert!(start < data.len(), "item {i} in whitespace only");
        match r {
            Ok(v) => {
                let end = *off;
                assert!(end > start && end <= data.len(), "item {i}: offset {end}");
                let alone = structio::from_json::<Value>(&data[start..end])
                    .map(|v| format!("{v:?}"))
                    .unwrap_or_else(|e| panic!("item {i} read alone fails: {e}"));
                assert_eq!(&alone, v, "item {i} read alone differs");
                if !matches!(data[start], b'[' | b'{' | b'"') {
                    if let Some(&b) = data.get(end) {
                        assert!(
                            ws(b) || b"\"[]{},:".contains(&b),
                            "item {i}: a scalar followed by {b:#04x}"
                        );
                    }
                }
                prev = end;
            }
            Err((msg, at, line_col, path)) => {
                assert_eq!(i, got.len() - 1, "an item after an error");
                assert_eq!(*off, prev, "an error moved the offset");
                assert!(
                    *at >= start,
                    "item {i}: error at {at} before its start {start}: {msg}"
                );
                assert!(line_col.is_some(), "item {i}: no line and column");
                assert!(
                    path.starts_with(&format!("$[{i}]")),
                    "item {i}: path {path}"
                );
                assert!(
                    structio::from_json::<Value>(&data[start..]).is_err(),
                    "item {i}: values fails ({msg}) where from_json reads the rest"
                );
            }
        }
    }
    if !matches!(got.last(), Some((Err(_), _))) {
        assert!(
            data[prev..].iter().all(|&b| ws(b)),
            "left over after the last item"
        );
    }
    for sizes in [&[1][..], &[3, 1, 7], &[64]] {
        let mut it = values_from_reader::<Value, _>(Pieces::new(data, sizes));
        let mut streamed: Items = Vec::new();
        while let Some(r) = it.next() {
            streamed.push((
                r.map(|v| format!("{v:?}")).map_err(|e| said(&e)),
                it.offset(),
            ));
            assert!(streamed.len() <= got.len(), "more items from the reader");
        }
        assert_eq!(
            streamed,
            got,
            "values_from_reader in pieces of {sizes:?} differs on {:?}",
            String::from_utf8_lossy(data)
        );
    }
}
