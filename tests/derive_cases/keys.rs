//! Every perfect-hash strategy, forced by the keys of a derived struct: the derive picks it at
//! compile time, and reading finds every key in any order and rejects near misses.

use structio::__private::Fields;
use structio::{Reflect, ReflectOwned};

use super::common::{both, from_json, json_error};

fn strategy<T: for<'de> Fields<'de>>() -> &'static str {
    <T as Fields<'static>>::INFO.probe.name()
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Single {
    only: u32,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct ByteAt {
    x: u8,
    y: u8,
    z: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct LenByte {
    ab: u8,
    ba: u8,
    abc: u8,
    bac: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Front {
    aa: u8,
    ab: u8,
    ba: u8,
    bb: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Full {
    prefix_common_aaaa: u8,
    prefix_common_aaab: u8,
    prefix_common_aaba: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Nothing {}

/// Aliases take part in the table: `x`/`y` alone would be `byte_at`, the alias `xy` shares
/// the first byte of `x` and its length with nothing, so a mixed probe is needed.
#[derive(Reflect, Default, Debug, PartialEq)]
struct WithAlias {
    #[structio(alias = "xx")]
    x: u8,
    y: u8,
}

/// Reads the struct from its keys in reverse order (so the probe, not the in-order guess,
/// finds each key) and checks that near misses are unknown.
fn reversed_and_misses<T>(v: &T, keys: &[&str], misses: &[&str])
where
    T: ReflectOwned + Default + PartialEq + std::fmt::Debug,
{
    let members: Vec<String> = keys
        .iter()
        .enumerate()
        .rev()
        .map(|(i, k)| format!("\"{k}\":{}", i + 1))
        .collect();
    let text = format!("{{{}}}", members.join(","));
    assert_eq!(&from_json::<T>(&text), v, "{text}");
    for miss in misses {
        let (msg, _) = json_error::<T>(&format!("{{\"{miss}\":1}}"));
        assert_eq!(msg, format!("unknown key `{miss}`"));
    }
}

#[test]
fn single() {
    assert_eq!(strategy::<Single>(), "single");
    both(
        &Single { only: 1 },
        r#"{"only":1}"#,
        r#"
            03 04                           // object, 1 member
            10 6f 6e 6c 79  51 01 00 00 00  // "only": u32 1
        "#,
    );
    reversed_and_misses(&Single { only: 1 }, &["only"], &["onl", "only_", "x"]);
}

#[test]
fn byte_at() {
    assert_eq!(strategy::<ByteAt>(), "byte_at");
    let v = ByteAt { x: 1, y: 2, z: 3 };
    both(
        &v,
        r#"{"x":1,"y":2,"z":3}"#,
        r#"
            03 0c         // object, 3 members
            04 78  11 01  // "x": u8 1
            04 79  11 02  // "y": u8 2
            04 7a  11 03  // "z": u8 3
        "#,
    );
    reversed_and_misses(&v, &["x", "y", "z"], &["xx", "w", ""]);
}

#[test]
fn len_byte() {
    assert_eq!(strategy::<LenByte>(), "len_byte");
    let v = LenByte {
        ab: 1,
        ba: 2,
        abc: 3,
        bac: 4,
    };
    both(
        &v,
        r#"{"ab":1,"ba":2,"abc":3,"bac":4}"#,
        r#"
            03 10               // object, 4 members
            08 61 62  11 01     // "ab": u8 1
            08 62 61  11 02     // "ba": u8 2
            0c 61 62 63  11 03  // "abc": u8 3
            0c 62 61 63  11 04  // "bac": u8 4
        "#,
    );
    reversed_and_misses(&v, &["ab", "ba", "abc", "bac"], &["aa", "abd", "b", ""]);
}

#[test]
fn front() {
    assert_eq!(strategy::<Front>(), "front");
    let v = Front {
        aa: 1,
        ab: 2,
        ba: 3,
        bb: 4,
    };
    both(
        &v,
        r#"{"aa":1,"ab":2,"ba":3,"bb":4}"#,
        r#"
            03 10            // object, 4 members
            08 61 61  11 01  // "aa": u8 1
            08 61 62  11 02  // "ab": u8 2
            08 62 61  11 03  // "ba": u8 3
            08 62 62  11 04  // "bb": u8 4
        "#,
    );
    reversed_and_misses(&v, &["aa", "ab", "ba", "bb"], &["ac", "aab", "a", ""]);
}

#[test]
fn full() {
    assert_eq!(strategy::<Full>(), "full");
    let v = Full {
        prefix_common_aaaa: 1,
        prefix_common_aaab: 2,
        prefix_common_aaba: 3,
    };
    both(
        &v,
        r#"{"prefix_common_aaaa":1,"prefix_common_aaab":2,"prefix_common_aaba":3}"#,
        r#"
            03 0c                                         // object, 3 members
            48 70 72 65 66 69 78 5f 63 6f 6d 6d 6f 6e 5f 61 61 61 61  11 01  // "prefix_common_aaaa": u8 1
            48 70 72 65 66 69 78 5f 63 6f 6d 6d 6f 6e 5f 61 61 61 62  11 02  // "prefix_common_aaab": u8 2
            48 70 72 65 66 69 78 5f 63 6f 6d 6d 6f 6e 5f 61 61 62 61  11 03  // "prefix_common_aaba": u8 3
        "#,
    );
    reversed_and_misses(
        &v,
        &[
            "prefix_common_aaaa",
            "prefix_common_aaab",
            "prefix_common_aaba",
        ],
        &[
            "prefix_common_abaa",
            "prefix_common_aaa",
            "prefix_common_aaaaa",
        ],
    );
}

#[test]
fn empty() {
    assert_eq!(strategy::<Nothing>(), "empty");
    reversed_and_misses(&Nothing {}, &[], &["a", ""]);
}

#[test]
fn aliases_are_in_the_table() {
    assert_eq!(
        <WithAlias as Fields<'static>>::INFO.keys,
        &["x", "y", "xx"][..]
    );
    assert_eq!(strategy::<WithAlias>(), "len_byte");
    let v: WithAlias = from_json(r#"{"y":2,"xx":1}"#);
    assert_eq!(v, WithAlias { x: 1, y: 2 });
}
