//! Hostile trees for `from_value` / `from_value_ref` / `to_value` (a `Value` read into a typed
//! value and back): untagged enums that re-read a nest (linear time: the re-read budget counts
//! values), trees deeper than any limit built in code (the depth error, on a small stack, also
//! for skipped members; `to_value` of such a tree), types with large inline data nested under
//! the depth limit on a small stack, a megabyte key and string in messages, and a wide array
//! read as large elements (memory bounded by what the tree holds).

use structio::{from_value_ref, from_value_ref_with, to_value, ReadOptions, UnknownKeys, Value};

use super::{bounded, err, timed};
use crate::shapes::limits::{on_small_stack, Blob, HugeChain, Nest};

/// `levels` one-element arrays around an empty one.
fn nest(levels: usize) -> Value {
    let mut v = Value::Array(Default::default());
    for _ in 0..levels {
        v = Value::from(vec![v]);
    }
    v
}

/// An untagged enum whose first variant fails only at the bottom re-reads the nest once per
/// level and variant: exponential without the budget. From a tree the budget counts values,
/// so the read ends (a value or the budget's error) in linear time.
#[test]
fn untagged_nests_in_a_tree_are_read_in_linear_time() {
    for levels in [25, 200] {
        let v = nest(levels);
        let r = timed("from_value_ref::<Nest>", 2000, || {
            from_value_ref::<Nest>(&v)
        });
        if let Err(e) = r {
            assert_eq!(e.category(), structio::Category::Limit, "{e}");
        }
    }
    // A shallow nest reads, as from JSON.
    let v = nest(3);
    let text = structio::to_json(&v);
    assert_eq!(
        from_value_ref::<Nest>(&v).unwrap(),
        structio::from_json::<Nest>(&text).unwrap()
    );
}

/// A tree a million levels deep (built in code: no reader would make one) into a typed value,
/// into a `Value`, and skipped as an unknown member: the depth error, on a 2 MiB stack; and
/// `to_value` of it does not recurse.
#[test]
fn trees_deeper_than_any_limit() {
    bounded("value::trees_deeper_than_any_limit", 1024, || {
        let levels = 1_000_000;
        let mut v = Value::Null;
        for _ in 0..levels {
            v = Value::from_iter([("next", v)]);
        }
        let v = std::sync::Arc::new(v);
        let w = v.clone();
        on_small_stack(move || {
            #[derive(structio::Reflect, Debug)]
            struct Chain {
                #[allow(dead_code)]
                next: Option<Box<Chain>>,
            }
            let e = err("Chain", from_value_ref::<Chain>(&w));
            assert_eq!(e.category(), structio::Category::Limit, "{e}");
            let e = err("Value", from_value_ref::<Value>(&w));
            assert_eq!(e.category(), structio::Category::Limit, "{e}");
            #[derive(structio::Reflect, Debug)]
            struct Nothing {}
            let skip = ReadOptions {
                unknown_keys: UnknownKeys::Skip,
                ..ReadOptions::default()
            };
            let e = err("skipped", from_value_ref_with::<Nothing>(&w, &skip));
            assert_eq!(e.category(), structio::Category::Limit, "{e}");
            // With the limit lifted, a type that recurses stops on the stack check instead.
            let lifted = ReadOptions {
                max_depth: usize::MAX,
                ..ReadOptions::default()
            };
            let e = err("lifted", from_value_ref_with::<Chain>(&w, &lifted));
            assert!(e.message().contains("stack"), "{e}");
            let copy = to_value(&*w);
            assert!(copy == *w);
        });
    });
}

/// 160 levels of a type with 32 KiB inline, under the depth limit, on a 2 MiB stack: a value
/// or the stack limit's error, never an overflow.
#[test]
fn large_inline_types_nested_in_a_tree() {
    bounded("value::large_inline_types_nested_in_a_tree", 1024, || {
        let mut v = Value::Null;
        for _ in 0..160 {
            v = Value::from_iter([("next", v)]);
        }
        on_small_stack(move || {
            if let Err(e) = from_value_ref::<HugeChain>(&v) {
                assert_eq!(e.category(), structio::Category::Limit, "{e}");
            }
        });
    });
}

/// A megabyte key and a megabyte string in errors: clipped in the message and the path.
#[test]
fn megabyte_keys_and_strings_are_clipped() {
    #[derive(structio::Reflect, Debug)]
    struct Small {
        #[allow(dead_code)]
        a: u8,
    }
    let key = "k".repeat(1 << 20);
    let v = Value::from_iter([(key.as_str(), Value::from(1))]);
    let e = err("key", from_value_ref::<Small>(&v));
    assert!(e.to_string().len() < 1000, "{} bytes", e.to_string().len());
    let v = Value::from_iter([("a", Value::from("s".repeat(1 << 20)))]);
    let e = err("string", from_value_ref::<Small>(&v));
    assert!(e.to_string().len() < 1000, "{} bytes", e.to_string().len());
    let v = Value::from("x".repeat(1 << 20));
    #[derive(structio::Reflect, Debug, PartialEq)]
    enum Unit {
        A,
    }
    let e = err("variant", from_value_ref::<Unit>(&v));
    assert!(e.to_string().len() < 1000, "{} bytes", e.to_string().len());
}

/// A million nulls read as 4 KiB elements: the reservation is bounded (the count is real, but
/// the elements are not there), and the error comes at the first element.
#[test]
fn a_wide_array_of_large_elements_reserves_a_bounded_amount() {
    bounded(
        "value::a_wide_array_of_large_elements_reserves_a_bounded_amount",
        256,
        || {
            let v = Value::from(vec![Value::Null; 1 << 20]);
            let e = err("Vec<Blob>", from_value_ref::<Vec<Blob>>(&v));
            assert_eq!(e.path(), "$[0]");
        },
    );
}
