//! Budgets that hold across a whole input and whatever the element type: the re-read budget of
//! a delimited BEVE sequence, the reservation for a claimed element count, and the stack taken
//! by nesting types with large inline data.

use structio::beve::{from_delimited, Delimited};

use super::{bounded, timed};
use crate::shapes::limits::{on_small_stack, Blob, Huge, HugeChain, Nest, Tree};

/// `count` values of 25 one-element arrays around an empty one, joined by delimiters.
fn nests(count: usize) -> Vec<u8> {
    let mut one = Vec::new();
    for _ in 0..25 {
        one.extend_from_slice(&[0x05, 0x04]);
    }
    one.extend_from_slice(&[0x05, 0x00]);
    let mut all = Vec::new();
    for i in 0..count {
        if i > 0 {
            all.push(0x06);
        }
        all.extend_from_slice(&one);
    }
    all
}

/// One re-read budget for the whole sequence: each value used to get 64 times the whole input,
/// so 51 KB took 18 s. Now the sequence stops with the budget's error in linear time, through
/// every delimited reader.
#[test]
fn delimited_beve_shares_one_reread_budget() {
    let input = nests(1000);
    let e = timed("from_delimited", 2000, || {
        super::err("from_delimited", from_delimited::<Nest>(&input))
    });
    assert_eq!(e.category(), structio::Category::Limit, "{e}");
    timed("Delimited::read", 2000, || {
        let mut seq = Delimited::new(&input);
        while let Some(r) = seq.read::<Nest>() {
            if r.is_err() {
                break;
            }
        }
    });
    timed("Delimited::read_into", 2000, || {
        let mut seq = Delimited::new(&input);
        let mut v = Nest::default();
        while let Some(r) = seq.read_into(&mut v) {
            if r.is_err() {
                break;
            }
        }
    });
    // A value that needs little re-reading still reads, one after another, to the end.
    let mut small = Vec::new();
    for i in 0..2000 {
        if i > 0 {
            small.push(0x06);
        }
        small.extend_from_slice(&[0x05, 0x04, 0x05, 0x00]);
    }
    let all = from_delimited::<Nest>(&small).unwrap();
    assert_eq!(all.len(), 2000);
}

/// A generic array claiming a million elements, one byte each, read as 4 KiB elements: the
/// reservation is bounded in bytes, not by the claimed count (it asked for 4 GiB and aborted).
#[test]
fn a_claimed_count_of_large_elements_reserves_a_bounded_amount() {
    bounded(
        "limits::a_claimed_count_of_large_elements_reserves_a_bounded_amount",
        256,
        || {
            let n: u64 = 1_048_567;
            let mut doc = vec![0x05];
            doc.extend_from_slice(&((n << 2) | 3).to_le_bytes());
            doc.extend(std::iter::repeat_n(0x18u8, n as usize));
            let r = structio::from_beve::<Vec<Blob>>(&doc);
            assert!(r.is_err(), "null read as a Blob");
            // Truthful counts still read, in both formats.
            let three = vec![Blob::default(), Blob::default(), Blob::default()];
            let back = structio::from_beve::<Vec<Blob>>(&structio::to_beve(&three)).unwrap();
            assert_eq!(back.len(), 3);
            let back = structio::from_json::<Vec<Blob>>(&structio::to_json(&three)).unwrap();
            assert_eq!(back.len(), 3);
        },
    );
}

/// A value read or a clean error of the limit category, never anything else.
fn value_or_limit<T>(what: &str, r: structio::Result<T>) {
    if let Err(e) = r {
        assert_eq!(e.category(), structio::Category::Limit, "{what}: {e}");
        assert!(e.message().contains("stack"), "{what}: {e}");
    }
}

/// 160 levels of a type with 32 KiB inline, under the depth limit of 256, on a 2 MiB stack: a
/// clean error or a value, never a stack overflow (the release build aborted), in both formats
/// and through `Vec` and `Option<Box<_>>`; and a small type nested 200,000 deep with the depth
/// limit lifted.
#[test]
fn nesting_large_inline_types_never_overflows_the_stack() {
    bounded(
        "limits::nesting_large_inline_types_never_overflows_the_stack",
        1024,
        || {
            let levels = 160;
            let kids = format!("{}{}", r#"{"kids":["#.repeat(levels), "]}".repeat(levels));
            let chain = format!("{}null{}", r#"{"next":"#.repeat(levels), "}".repeat(levels));
            let v: structio::value::Value = structio::json::from_json_with(&kids, &deep()).unwrap();
            let kids_beve = structio::to_beve(&v);
            let v: structio::value::Value =
                structio::json::from_json_with(&chain, &deep()).unwrap();
            let chain_beve = structio::to_beve(&v);
            on_small_stack(move || {
                value_or_limit("Huge JSON", structio::from_json::<Huge>(&kids));
                value_or_limit("Huge BEVE", structio::from_beve::<Huge>(&kids_beve));
                value_or_limit("HugeChain JSON", structio::from_json::<HugeChain>(&chain));
                value_or_limit(
                    "HugeChain BEVE",
                    structio::from_beve::<HugeChain>(&chain_beve),
                );
            });
            let levels = 200_000;
            let tree = format!("{}{}", r#"{"kids":["#.repeat(levels), "]}".repeat(levels));
            on_small_stack(move || {
                let r = structio::json::from_json_with::<Tree>(&tree, &deep());
                assert!(r.is_err(), "200,000 levels read on a 2 MiB stack");
                value_or_limit("Tree JSON", r);
            });
        },
    );
}

/// Options with the depth limit lifted.
fn deep() -> structio::json::Options {
    let mut o = structio::json::Options::default();
    o.read.max_depth = 1_000_000;
    o
}
