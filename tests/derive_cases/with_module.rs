//! `#[structio(with = "module")]`: a field written by `module::write` and read by
//! `module::read` instead of its type's `Reflect` impl, in structs, tuple structs, newtypes and
//! enum variants, with errors and paths as for any field.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use structio::{Error, Reader, Reflect, Writer};

use super::common::{both, json_error};

/// A `SystemTime` as whole seconds since the Unix epoch (an integer in both formats).
mod unix_seconds {
    use super::*;

    pub fn write<W: Writer>(t: &SystemTime, w: &mut W) {
        let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Reflect::write(&secs, w);
    }

    pub fn read<'de, R: Reader<'de>>(t: &mut SystemTime, r: &mut R) -> structio::Result<()> {
        let mut secs = 0u64;
        Reflect::read(&mut secs, r)?;
        *t = UNIX_EPOCH + Duration::from_secs(secs);
        Ok(())
    }

    pub fn read_new<'de, R: Reader<'de>>(r: &mut R) -> structio::Result<SystemTime> {
        let mut t = UNIX_EPOCH;
        read(&mut t, r)?;
        Ok(t)
    }
}

/// A `u32` as a string of hexadecimal digits; other text is an error at the string.
mod hex {
    use super::*;

    pub fn write<W: Writer>(v: &u32, w: &mut W) {
        Reflect::write(&format!("{v:x}"), w);
    }

    pub fn read<'de, R: Reader<'de>>(v: &mut u32, r: &mut R) -> structio::Result<()> {
        let at = r.offset();
        let mut s = String::new();
        Reflect::read(&mut s, r)?;
        *v = u32::from_str_radix(&s, 16)
            .map_err(|_| Error::custom(format!("`{s}` is not hexadecimal"), at))?;
        Ok(())
    }

    pub fn read_new<'de, R: Reader<'de>>(r: &mut R) -> structio::Result<u32> {
        let mut v = 0;
        read(&mut v, r)?;
        Ok(v)
    }
}

#[derive(Reflect, Debug, PartialEq)]
struct Stamped {
    id: u32,
    #[structio(with = "unix_seconds")]
    at: SystemTime,
    #[structio(with = "hex", rename = "mask")]
    bits: u32,
}

impl Default for Stamped {
    fn default() -> Self {
        Stamped {
            id: 0,
            at: UNIX_EPOCH,
            bits: 0,
        }
    }
}

#[test]
fn fields_go_through_the_module_in_both_formats() {
    let s = Stamped {
        id: 7,
        at: UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        bits: 0xBEEF,
    };
    both(
        &s,
        r#"{"id":7,"at":1700000000,"mask":"beef"}"#,
        r#"
            03 0c                                 // object, 3 members
            08 69 64  51 07 00 00 00              // "id": u32 7
            08 61 74  71 00 f1 53 65 00 00 00 00  // "at": u64 1700000000
            10 6d 61 73 6b  02 10 62 65 65 66     // "mask": string "beef"
        "#,
    );
    // BEVE holds what the module wrote: a u64 and a string.
    let bytes = structio::to_beve(&s);
    let v: structio::Value = structio::from_beve(&bytes).unwrap();
    assert_eq!(v["at"], structio::Value::from(1_700_000_000u64));
    assert_eq!(v["mask"], structio::Value::from("beef"));
}

#[test]
fn module_errors_carry_the_field_path() {
    let (msg, path) = json_error::<Stamped>(r#"{"id":1,"mask":"xyz"}"#);
    assert_eq!(msg, "`xyz` is not hexadecimal");
    assert_eq!(path, "$.mask");
    let (msg, path) = json_error::<Stamped>(r#"{"at":-1}"#);
    assert!(msg.contains("out of range"), "{msg}");
    assert_eq!(path, "$.at");
    let e = structio::from_json::<Stamped>(r#"{"mask":"zz"}"#).unwrap_err();
    assert_eq!(e.offset(), 8);
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Masks(
    #[structio(with = "hex")] u32,
    u8,
    #[structio(with = "hex")] u32,
);

#[derive(Reflect, Debug, PartialEq, Default)]
struct Mask(#[structio(with = "hex")] u32);

#[test]
fn tuple_structs_and_newtypes() {
    both(
        &Masks(255, 3, 16),
        r#"["ff",3,"10"]"#,
        r#"
            05 0c          // generic array, 3 elements
              02 08 66 66  // string "ff"
              11 03        // u8 3
              02 08 31 30  // string "10"
        "#,
    );
    both(
        &Mask(0xABC),
        r#""abc""#,
        r#"
            02 0c 61 62 63  // string "abc"
        "#,
    );
    both(
        &vec![Mask(1), Mask(2)],
        r#"["1","2"]"#,
        r#"
            05 08       // generic array, 2 elements
              02 04 31  // string "1"
              02 04 32  // string "2"
        "#,
    );
    let (msg, path) = json_error::<Masks>(r#"["ff",3,"q"]"#);
    assert_eq!(
        (msg.as_str(), path.as_str()),
        ("`q` is not hexadecimal", "$[2]")
    );
}

#[derive(Reflect, Debug, PartialEq, Default)]
enum Reg {
    #[default]
    None,
    One(#[structio(with = "hex")] u32),
    Pair(#[structio(with = "hex")] u32, u32),
    Named {
        #[structio(with = "hex")]
        value: u32,
        width: u8,
    },
}

#[derive(Reflect, Debug, PartialEq, Default)]
#[structio(tag = "kind")]
enum Tagged {
    #[default]
    Empty,
    Word {
        #[structio(with = "hex")]
        value: u32,
    },
}

#[test]
fn enum_variants() {
    both(
        &Reg::One(10),
        r#"{"One":"a"}"#,
        r#"
            03 04                  // object, 1 member
            0c 4f 6e 65  02 04 61  // "One": string "a"
        "#,
    );
    both(
        &Reg::Pair(10, 10),
        r#"{"Pair":["a",10]}"#,
        r#"
            03 04                  // object, 1 member
            10 50 61 69 72  05 08  // "Pair": generic array, 2 elements
              02 04 61             // string "a"
              51 0a 00 00 00       // u32 10
        "#,
    );
    both(
        &Reg::Named {
            value: 4096,
            width: 16,
        },
        r#"{"Named":{"value":"1000","width":16}}"#,
        r#"
            03 04                                   // object, 1 member
            14 4e 61 6d 65 64  03 08                // "Named": object, 2 members
              14 76 61 6c 75 65  02 10 31 30 30 30  // "value": string "1000"
              14 77 69 64 74 68  11 10              // "width": u8 16
        "#,
    );
    both(
        &Tagged::Word { value: 1 },
        r#"{"kind":"Word","value":"1"}"#,
        r#"
            03 08                              // object, 2 members
            10 6b 69 6e 64  02 10 57 6f 72 64  // "kind": string "Word"
            14 76 61 6c 75 65  02 04 31        // "value": string "1"
        "#,
    );
    let (msg, path) = json_error::<Reg>(r#"{"Named":{"value":"g"}}"#);
    assert_eq!(
        (msg.as_str(), path.as_str()),
        ("`g` is not hexadecimal", "$.Named.value")
    );
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(untagged)]
enum Loose {
    Hex(#[structio(with = "hex")] u32),
    Plain(f64),
}

impl Default for Loose {
    fn default() -> Self {
        Loose::Plain(0.0)
    }
}

#[test]
fn untagged_variants_are_tried_by_what_the_module_reads() {
    // The type of `Hex`'s field is a number, but its module reads a string.
    both(
        &Loose::Hex(255),
        r#""ff""#,
        r#"
            02 08 66 66  // string "ff"
        "#,
    );
    both(
        &Loose::Plain(1.5),
        "1.5",
        r#"
            61 00 00 00 00 00 00 f8 3f  // f64 1.5
        "#,
    );
    assert!(structio::from_json::<Loose>(r#""zz""#).is_err());
}

/// A generic field through a generic module: the derive asks nothing of `T` for it, so the
/// module's own bounds come through `bound`.
mod as_text {
    use super::*;

    pub fn write<T: ToString, W: Writer>(v: &T, w: &mut W) {
        Reflect::write(&v.to_string(), w);
    }

    pub fn read<'de, T: std::str::FromStr, R: Reader<'de>>(
        v: &mut T,
        r: &mut R,
    ) -> structio::Result<()> {
        let at = r.offset();
        let mut s = String::new();
        Reflect::read(&mut s, r)?;
        *v = s.parse().map_err(|_| Error::custom("cannot parse", at))?;
        Ok(())
    }

    pub fn read_new<'de, T: std::str::FromStr, R: Reader<'de>>(r: &mut R) -> structio::Result<T> {
        let at = r.offset();
        let s = String::read_new(r)?;
        s.parse().map_err(|_| Error::custom("cannot parse", at))
    }
}

#[derive(Reflect, Debug, PartialEq, Default)]
#[structio(bound = "T: ToString + std::str::FromStr")]
struct Text<T> {
    #[structio(with = "as_text")]
    v: T,
}

#[test]
fn generic_fields_with_a_bound() {
    both(
        &Text { v: 2.5f64 },
        r#"{"v":"2.5"}"#,
        r#"
            03 04                  // object, 1 member
            04 76  02 0c 32 2e 35  // "v": string "2.5"
        "#,
    );
    both(
        &Text { v: -3i8 },
        r#"{"v":"-3"}"#,
        r#"
            03 04               // object, 1 member
            04 76  02 08 2d 33  // "v": string "-3"
        "#,
    );
    let (msg, _) = json_error::<Text<u8>>(r#"{"v":"300"}"#);
    assert_eq!(msg, "cannot parse");
}
