//! The JSON API on typed values: options, borrowing, raw fragments, enums, map keys, reading
//! into existing values, limits. Structs and enums are written out by hand as the derive would
//! emit them.

mod json_common;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use structio::__private as p;
use structio::json::{
    from_json_with, read_json, read_json_with, to_json_with, FloatStyle, Options,
};
use structio::{RawJson, RawJsonBuf, ReadOptions, UnknownKeys};

#[derive(Default, Debug, PartialEq)]
struct Item<'a> {
    id: u32,
    tag: Option<u8>,
    name: String,
    label: &'a str,
}

const _: () = {
    const INFO: p::FieldsInfo = p::FieldsInfo {
        names: &["id", "tag", "name", "label"],
        optional: &[],
        keys: &["id", "tag", "name", "label"],
        key_field: &[0, 1, 2, 3],
        probe: p::Probe::Linear,
        plain: true,
    };
    impl<'de: 'a, 'a> p::Reflect<'de> for Item<'a> {
        fn write<W: p::Writer>(&self, w: &mut W) {
            let nulls = w.write_null_members();
            let tag = nulls || !p::Reflect::is_absent(&self.tag);
            w.begin_object(3 + usize::from(tag));
            w.key(INFO.names[0]);
            p::Reflect::write(&self.id, w);
            if tag {
                w.sep();
                w.key(INFO.names[1]);
                p::Reflect::write(&self.tag, w);
            }
            w.sep();
            w.key(INFO.names[2]);
            p::Reflect::write(&self.name, w);
            w.sep();
            w.key(INFO.names[3]);
            p::Reflect::write(&self.label, w);
            w.end_object();
        }
        fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
            p::read_fields(r, &INFO, None, |m, r| match m {
                p::Member::Index(0) => p::Reflect::read(&mut self.id, r),
                p::Member::Index(1) => p::Reflect::read(&mut self.tag, r),
                p::Member::Index(2) => p::Reflect::read(&mut self.name, r),
                p::Member::Index(3) => p::Reflect::read(&mut self.label, r),
                // As derived code: `tag` may be left out (it becomes `None`), any other member
                // left out is a missing key.
                p::Member::Absent(1) => {
                    if !r.options().merge {
                        self.tag = None;
                    }
                    Ok(())
                }
                p::Member::Absent(i) if r.options().error_on_missing_keys => {
                    Err(p::missing_key(INFO.names[i], r.offset()))
                }
                _ => Ok(()),
            })
        }
        fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
            let mut v = <Self as Default>::default();
            v.read(r)?;
            Ok(v)
        }
    }
};

#[derive(Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Color {
    #[default]
    Red,
    Green,
    Blue,
}

const COLOR: p::EnumInfo = p::EnumInfo {
    name: "Color",
    names: &["red", "green", "blue"],
    probe: p::Probe::Linear,
    discriminants: &[0, 1, 2],
    repr: p::NumKind::I32,
};

impl Color {
    fn index(self) -> usize {
        self as usize
    }
    fn from_index(i: usize) -> Color {
        [Color::Red, Color::Green, Color::Blue][i]
    }
}

impl<'de> p::Reflect<'de> for Color {
    fn write<W: p::Writer>(&self, w: &mut W) {
        let i = self.index();
        w.unit_variant(COLOR.names[i], COLOR.discriminants[i], COLOR.repr);
    }
    fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
        *self = Color::from_index(r.read_unit_variant(&COLOR)?);
        Ok(())
    }
    fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

impl<'de> p::MapKey<'de> for Color {
    const KIND: p::KeyKind = p::KeyKind::Int(p::NumKind::I32);
    fn write_key<W: p::Writer>(&self, w: &mut W) {
        let i = self.index();
        w.enum_key(COLOR.names[i], COLOR.discriminants[i], COLOR.repr);
    }
    fn from_key(key: p::Key<'de, '_>, offset: usize) -> p::Result<Self> {
        match key {
            p::Key::Str(s) => COLOR
                .by_name(s.as_str().as_bytes())
                .map(Color::from_index)
                .ok_or_else(|| p::unknown_variant(s.as_str(), offset)),
            p::Key::Int(_) => Err(p::no_matching_variant(offset)),
        }
    }
}

fn opts(f: impl FnOnce(&mut Options)) -> Options {
    let mut o = Options::default();
    f(&mut o);
    o
}

#[test]
fn none_members_are_left_out_or_written_as_null() {
    let v = Item {
        id: 7,
        tag: None,
        name: "n".into(),
        label: "l",
    };
    assert_eq!(structio::to_json(&v), r#"{"id":7,"name":"n","label":"l"}"#);
    let o = opts(|o| o.write_null_members = true);
    assert_eq!(
        to_json_with(&v, &o),
        r#"{"id":7,"tag":null,"name":"n","label":"l"}"#
    );
    let back: Item = structio::from_json(r#"{"id":7,"tag":null,"name":"n","label":"l"}"#).unwrap();
    assert_eq!(back, v);
}

#[test]
fn pretty_writes_match_prettify() {
    let mut m: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    m.insert("empty".into(), vec![]);
    m.insert(
        "full".into(),
        vec![Item {
            id: 1,
            tag: Some(2),
            name: "x".into(),
            label: "y",
        }],
    );
    let o = opts(|o| o.pretty = true);
    let pretty = to_json_with(&m, &o);
    assert_eq!(
        pretty,
        "{\n   \"empty\": [],\n   \"full\": [\n      {\n         \"id\": 1,\n         \"tag\": 2,\n         \"name\": \"x\",\n         \"label\": \"y\"\n      }\n   ]\n}"
    );
    assert_eq!(structio::prettify(&structio::to_json(&m)).unwrap(), pretty);
    let empty: BTreeMap<String, u8> = BTreeMap::new();
    assert_eq!(to_json_with(&empty, &o), "{}");
    assert_eq!(
        to_json_with(&(Vec::<u8>::new(), ()), &o),
        "[\n   [],\n   null\n]"
    );
    let o2 = opts(|o| {
        o.pretty = true;
        o.indent = 1;
    });
    assert_eq!(to_json_with(&vec![true], &o2), "[\n true\n]");
    let opts = structio::json::PrettyOptions {
        indent: 1,
        ..Default::default()
    };
    assert_eq!(
        structio::json::prettify_with("[true]", &opts).unwrap(),
        "[\n true\n]"
    );
}

/// Glaze's pretty writer keeps an empty struct's line breaks (`{`, newline, inner indent,
/// newline, outer indent, `}`), also when every member is a skipped `None`, while empty maps
/// and arrays stay `{}` and `[]`. The expected text is what Glaze 8.1 writes for the same C++
/// types (`glz::write<glz::opts{.prettify = true}>`).
#[test]
fn pretty_empty_structs_as_glaze() {
    #[derive(structio::Reflect, Default)]
    struct Empty {}
    #[derive(structio::Reflect, Default)]
    struct Nones {
        a: Option<i32>,
        b: Option<i32>,
    }
    #[derive(structio::Reflect, Default)]
    struct LastSkipped {
        b: i32,
        a: Option<i32>,
    }
    #[derive(structio::Reflect, Default)]
    struct Doc {
        ve: Vec<Empty>,
        n: Nones,
        n2: LastSkipped,
        vn: Vec<Nones>,
        m: BTreeMap<String, Vec<i32>>,
        em: BTreeMap<String, i32>,
    }
    let mut m = BTreeMap::new();
    m.insert("a".to_string(), vec![]);
    let doc = Doc {
        ve: vec![Empty {}, Empty {}],
        n2: LastSkipped { b: 1, a: None },
        vn: vec![Nones::default()],
        m,
        ..Doc::default()
    };
    let o = opts(|o| o.pretty = true);
    assert_eq!(
        to_json_with(&doc, &o),
        "{\n   \"ve\": [\n      {\n         \n      },\n      {\n         \n      }\n   ],\n   \"n\": {\n      \n   },\n   \"n2\": {\n      \"b\": 1\n   },\n   \"vn\": [\n      {\n         \n      }\n   ],\n   \"m\": {\n      \"a\": []\n   },\n   \"em\": {}\n}"
    );
    assert_eq!(to_json_with(&Empty {}, &o), "{\n   \n}");
    assert_eq!(
        structio::to_json(&doc),
        r#"{"ve":[{},{}],"n":{},"n2":{"b":1},"vn":[{}],"m":{"a":[]},"em":{}}"#
    );
    // With every member named, nothing is empty.
    let all = opts(|o| {
        o.pretty = true;
        o.write_null_members = true;
    });
    assert_eq!(
        to_json_with(&Nones::default(), &all),
        "{\n   \"a\": null,\n   \"b\": null\n}"
    );
}

#[test]
fn float_styles() {
    let v = vec![1.0, 0.1, 1e16, 1.5e-7, -0.0, f64::NAN];
    assert_eq!(structio::to_json(&v), "[1,0.1,1E16,1.5E-7,-0,null]");
    let o = opts(|o| o.float_style = FloatStyle::Serde);
    assert_eq!(to_json_with(&v, &o), "[1.0,0.1,1e+16,1.5e-7,-0.0,null]");
    assert_eq!(to_json_with(&vec![1.5f32, 1e7], &o), "[1.5,10000000.0]");
    assert_eq!(structio::to_json(&vec![1.5f32, 1e7]), "[1.5,1E7]");
}

#[test]
fn unknown_keys_error_or_are_skipped_after_checking() {
    let text = r#"{"id":1,"junk":{"a":[1,2.5,{"b":null}],"c":"\u00e9"},"name":"x","label":"y"}"#;
    let e = structio::from_json::<Item>(text).unwrap_err();
    assert_eq!(e.message(), "unknown key `junk`");
    assert_eq!(e.key(), Some("junk"));
    assert_eq!(e.offset(), 8);
    let skip = opts(|o| o.read.unknown_keys = UnknownKeys::Skip);
    let v: Item = from_json_with(text, &skip).unwrap();
    assert_eq!((v.id, v.name.as_str(), v.label), (1, "x", "y"));
    let bad = r#"{"id":1,"junk":[1,"\q"],"name":"x"}"#;
    let e = from_json_with::<Item>(bad, &skip).unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("invalid escape", 20));
    let deep = format!(r#"{{"junk":{}}}"#, "[".repeat(100_000));
    let e = from_json_with::<Item>(&deep, &skip).unwrap_err();
    assert_eq!(e.message(), "nesting deeper than the limit of 256");
    // The object is level 1, so the 256th `[` (at 8 + 255) is level 257.
    assert_eq!(e.offset(), 8 + 255);
}

#[test]
fn missing_and_duplicate_keys() {
    let e = from_json_with::<Item>(
        r#"{"id":1,"name":"x"}"#,
        &opts(|o| o.read.error_on_missing_keys = true),
    )
    .unwrap_err();
    assert_eq!(e.message(), "missing key `label`");
    let v: Item = from_json_with::<Item>(
        r#"{"id":1,"id":2}"#,
        &opts(|o| o.read.error_on_missing_keys = false),
    )
    .unwrap();
    assert_eq!(v.id, 2);
    let e = from_json_with::<Item>(
        r#"{"id":1,"id":2}"#,
        &opts(|o| o.read.error_on_duplicate_keys = true),
    )
    .unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("duplicate key `id`", 8)
    );
}

#[test]
fn depth_limit_applies_to_typed_reads() {
    let o = opts(|o| o.read.max_depth = 2);
    from_json_with::<Vec<Vec<u8>>>("[[1]]", &o).unwrap();
    let e = from_json_with::<Vec<Vec<Vec<u8>>>>("[[[1]]]", &o).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("nesting deeper than the limit of 2", 2)
    );
    assert_eq!(e.category(), structio::Category::Limit);
}

/// A recursive type: its reader recurses once per level, so the depth limit bounds the stack.
#[derive(Default, Debug)]
struct Tree(Vec<Tree>);

impl<'de> p::Reflect<'de> for Tree {
    fn write<W: p::Writer>(&self, w: &mut W) {
        p::Reflect::write(&self.0, w)
    }
    fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
        p::Reflect::read(&mut self.0, r)
    }
    fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

#[test]
fn a_million_brackets_stop_at_the_depth_limit() {
    let deep = "[".repeat(1_000_000);
    let e = structio::from_json::<Tree>(&deep).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("nesting deeper than the limit of 256", 256)
    );
    let e = structio::from_json::<json_common::Any>(&deep).unwrap_err();
    assert_eq!(e.offset(), 256);
    let ok = format!("{}{}", "[".repeat(256), "]".repeat(256));
    let t: Tree = structio::from_json(&ok).unwrap();
    assert_eq!(structio::to_json(&t), ok);
    for f in [structio::prettify::<str>, structio::minify::<str>] {
        assert_eq!(f(&deep).unwrap_err().offset(), 256);
    }
    assert_eq!(
        structio::json::validate(deep.as_bytes())
            .unwrap_err()
            .offset(),
        256
    );
}

#[test]
fn strings_borrow_when_they_can() {
    let text = String::from(r#"{"id":1,"name":"a\"b","label":"plain"}"#);
    let v: Item = structio::from_json(&text).unwrap();
    assert_eq!(v.name, "a\"b");
    let range = text.as_bytes().as_ptr_range();
    assert!(
        range.contains(&v.label.as_ptr()),
        "label is borrowed from the input"
    );
    let e = structio::from_json::<Item>(r#"{"label":"a\nb"}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "string with escapes cannot be borrowed as `&str` (use String or Cow)"
    );
    assert_eq!(e.path(), "$.label");
    assert_eq!(
        e.offset(),
        9,
        "the error points at the string's opening quote"
    );
    let c: Vec<Cow<str>> = structio::from_json(r#"["plain","esc\t"]"#).unwrap();
    assert!(matches!(c[0], Cow::Borrowed("plain")));
    assert!(matches!(&c[1], Cow::Owned(s) if s == "esc\t"));
    let keys: BTreeMap<Cow<str>, u8> = structio::from_json(r#"{"k":1,"\u006b2":2}"#).unwrap();
    assert_eq!(keys.keys().cloned().collect::<Vec<_>>(), ["k", "k2"]);
}

#[test]
fn raw_json_is_kept_verbatim() {
    let text = r#"[1, {"b": [1, 2]} , "s"]"#;
    let v: (u8, RawJson, String) = structio::from_json(text).unwrap();
    assert_eq!(v.1.get(), r#"{"b": [1, 2]}"#);
    assert_eq!(structio::to_json(&v), r#"[1,{"b": [1, 2]},"s"]"#);
    // Verbatim in the pretty layout too (as Glaze writes `raw_json`), so that it reads back.
    let o = opts(|o| o.pretty = true);
    let pretty = to_json_with(&v, &o);
    assert_eq!(pretty, "[\n   1,\n   {\"b\": [1, 2]},\n   \"s\"\n]");
    let owned: Vec<RawJsonBuf> = structio::from_json("[ null , [ ] ]").unwrap();
    assert_eq!(owned[1].get(), "[ ]");
    assert!(RawJson::new("[1,").is_err());
    assert!(RawJsonBuf::new("{\"a\":1}").is_ok());
    let e = structio::from_json::<Vec<RawJsonBuf>>("[[1,]]").unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("expected a value", 4));
}

#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Envelope<'a> {
    id: u32,
    params: RawJson<'a>,
    owned: RawJsonBuf,
    after: Vec<String>,
}

#[test]
fn raw_json_reads_back_from_pretty_output() {
    let params = "{\"list\": [ 1,\n\t2 , {\"deep\" :[ [ ], { } ,\"s  p\\n\"]}],\r\n  \"e\": {}}";
    let owned = "[\n  \"x\" ,\n  {\"y\":\n    [true, null]}\n]";
    let v = Envelope {
        id: 7,
        params: RawJson::new(params).unwrap(),
        owned: RawJsonBuf::new(owned).unwrap(),
        after: vec!["a".into()],
    };
    for indent in [0, 1, 3, 4, 16] {
        let o = opts(|o| {
            o.pretty = true;
            o.indent = indent;
        });
        let pretty = to_json_with(&v, &o);
        assert!(
            pretty.contains(params) && pretty.contains(owned),
            "{pretty}"
        );
        let back: Envelope = structio::from_json(&pretty).unwrap();
        assert_eq!(back, v, "{pretty}");
        let mut bytes = Vec::new();
        structio::json::write_json_with(&v, &mut bytes, &o);
        assert_eq!(bytes, pretty.as_bytes());
    }
    // In BEVE a raw fragment is a string: it reads back verbatim too.
    let bytes = structio::to_beve(&v);
    let back: Envelope = structio::from_beve(&bytes).unwrap();
    assert_eq!(back, v);
}

#[test]
fn unit_enums_are_names() {
    let v = vec![Color::Blue, Color::Red];
    assert_eq!(structio::to_json(&v), r#"["blue","red"]"#);
    let back: Vec<Color> = structio::from_json(r#"["blue", "red", "gr\u0065en"]"#).unwrap();
    assert_eq!(back, [Color::Blue, Color::Red, Color::Green]);
    let e = structio::from_json::<Vec<Color>>(r#"["red","purple"]"#).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset(), e.path().as_str()),
        ("unknown variant `purple`", 7, "$[1]")
    );
    let e = structio::from_json::<Color>("1").unwrap_err();
    assert_eq!(e.message(), "expected a string, found a number");
    let mut m = BTreeMap::new();
    m.insert(Color::Green, 1u8);
    m.insert(Color::Red, 2);
    assert_eq!(structio::to_json(&m), r#"{"red":2,"green":1}"#);
    assert_eq!(
        structio::from_json::<BTreeMap<Color, u8>>(r#"{"red":2,"green":1}"#).unwrap(),
        m
    );
}

#[test]
fn integer_keys_are_quoted() {
    let mut m = BTreeMap::new();
    m.insert(-5i32, "minus five".to_string());
    m.insert(42, "answer".to_string());
    let text = structio::to_json(&m);
    assert_eq!(text, r#"{"-5":"minus five","42":"answer"}"#);
    assert_eq!(
        structio::from_json::<BTreeMap<i32, String>>(&text).unwrap(),
        m
    );
    let big: HashMap<u64, f64> = structio::from_json(r#"{"18446744073709551615":-1}"#).unwrap();
    assert_eq!(big[&u64::MAX], -1.0);
    let e = structio::from_json::<BTreeMap<i8, bool>>(r#"{"1":true,"x":false}"#).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("invalid integer map key `x`", 10)
    );
    let e = structio::from_json::<BTreeMap<u8, bool>>(r#"{"256":true}"#).unwrap_err();
    assert_eq!(e.message(), "number out of range for u8");
}

#[test]
fn numbers_of_every_width() {
    let v: (i128, u128, isize, usize, half::f16, half::bf16) = structio::from_json(
        "[-170141183460469231731687303715884105728, 340282366920938463463374607431768211455, -1, 1e3, 0.5, 1.5]",
    )
    .unwrap();
    assert_eq!(v.0, i128::MIN);
    assert_eq!(v.1, u128::MAX);
    assert_eq!((v.2, v.3), (-1, 1000));
    assert_eq!(
        structio::to_json(&v),
        "[-170141183460469231731687303715884105728,340282366920938463463374607431768211455,-1,1000,0.5,1.5]"
    );
    let e = structio::from_json::<Vec<i16>>("[1, -32769]").unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("number out of range for i16", 4)
    );
    assert_eq!(structio::from_json::<i8>("-0").unwrap(), 0);
    // `-0` has the value 0, in range for an unsigned type too.
    assert_eq!(structio::from_json::<u8>("-0").unwrap(), 0);
    assert!(structio::from_json::<u8>("-1").is_err());
    assert_eq!(
        structio::from_json::<f32>("-0").unwrap().to_bits(),
        (-0.0f32).to_bits()
    );
    let e = structio::from_json::<Vec<f32>>("[1e39]").unwrap_err();
    assert_eq!(e.message(), "number out of range for f32");
}

#[test]
fn chars_unit_tuples_and_options() {
    assert_eq!(structio::to_json(&('A', 'é', '"')), r#"["A","é","\""]"#);
    let c: (char, char) = structio::from_json(r#"["\u00e9", "\ud83d\ude00"]"#).unwrap();
    assert_eq!(c, ('é', '😀'));
    let e = structio::from_json::<char>(r#""ab""#).unwrap_err();
    assert_eq!(e.message(), "expected a string of exactly one character");
    let t: ((), Option<u8>, Option<u8>) = structio::from_json("[null, null, 3]").unwrap();
    assert_eq!(t, ((), None, Some(3)));
    let e = structio::from_json::<(u8, u8)>("[1]").unwrap_err();
    assert_eq!(e.message(), "expected 2 elements, found 1");
    let e = structio::from_json::<[u8; 2]>("[1, 2, 3]").unwrap_err();
    assert_eq!(e.message(), "expected 2 elements, found 3");
}

#[test]
fn reading_into_an_existing_value_keeps_what_is_not_mentioned() {
    let mut v = Item {
        id: 1,
        tag: Some(3),
        name: String::with_capacity(64),
        label: "keep",
    };
    v.name.push_str("old");
    let cap = v.name.capacity();
    // Glaze's merging read: every member left out keeps its value.
    let merge = opts(|o| {
        o.read.error_on_missing_keys = false;
        o.read.merge = true;
    });
    structio::json::read_json_with(&mut v, r#"{"name":"new"}"#, &merge).unwrap();
    assert_eq!(
        (v.id, v.tag, v.name.as_str(), v.label),
        (1, Some(3), "new", "keep")
    );
    // By default a required member left out is an error.
    let e = structio::read_json(&mut v, r#"{"name":"new"}"#).unwrap_err();
    assert_eq!(e.message(), "missing key `id`");
    assert_eq!(v.name.capacity(), cap);
    let mut nums = Vec::with_capacity(100);
    nums.extend([9u32; 10]);
    structio::read_json(&mut nums, "[1,2]").unwrap();
    assert_eq!((nums.as_slice(), nums.capacity()), (&[1, 2][..], 100));
    let o = opts(|o| {
        o.read.unknown_keys = UnknownKeys::Skip;
        o.read.error_on_missing_keys = false;
    });
    read_json_with(&mut v, r#"{"x":[],"id":5}"#, &o).unwrap();
    assert_eq!(v.id, 5);
}

#[test]
fn whitespace_inputs_and_encodings() {
    let v: Vec<u8> = structio::from_json(" \t\r\n[ 1 ,\n2 ]\n ").unwrap();
    assert_eq!(v, [1, 2]);
    let v: Vec<u8> = structio::from_json(&b"[1]"[..]).unwrap();
    assert_eq!(v, [1]);
    let v: Vec<u8> = structio::from_json(&b"[1]".to_vec()).unwrap();
    assert_eq!(v, [1]);
    for bad in ["\u{feff}[1]", "[1]\u{a0}", "[\u{c}1]", "", " "] {
        assert!(structio::from_json::<Vec<u8>>(bad).is_err(), "{bad:?}");
    }
    let e = structio::from_json::<String>(&b"\"ab\xC3(\""[..]).unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("invalid UTF-8", 3));
    let e = structio::from_json::<String>(&b"\"\\n\xFF\""[..]).unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("invalid UTF-8", 3));
    let e = structio::from_json::<BTreeMap<String, u8>>(&b"{\"\xFF\":1}"[..]).unwrap_err();
    assert_eq!(e.message(), "invalid UTF-8");
    let e = structio::from_json::<String>("\"tab\there\"").unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("control character in string", 4)
    );
}

/// Tries a number, then a string: exercises `save`/`restore`.
#[derive(Default, Debug, PartialEq)]
enum NumOrText {
    #[default]
    None,
    Num(u32),
    Text(String),
}

impl<'de> p::Reflect<'de> for NumOrText {
    fn write<W: p::Writer>(&self, w: &mut W) {
        match self {
            NumOrText::None => w.null(),
            NumOrText::Num(n) => w.number(*n),
            NumOrText::Text(s) => w.str(s),
        }
    }
    fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
        let at = r.save();
        let mut n = 0u32;
        if p::Reflect::read(&mut n, r).is_ok() {
            *self = NumOrText::Num(n);
            return Ok(());
        }
        r.restore(at);
        let mut s = String::new();
        p::Reflect::read(&mut s, r)?;
        *self = NumOrText::Text(s);
        Ok(())
    }
    fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

#[test]
fn save_and_restore() {
    let v: Vec<NumOrText> = structio::from_json(r#"[1, "two", 3]"#).unwrap();
    assert_eq!(
        v,
        [
            NumOrText::Num(1),
            NumOrText::Text("two".into()),
            NumOrText::Num(3)
        ]
    );
    assert_eq!(structio::to_json(&v), r#"[1,"two",3]"#);
}

#[test]
fn peek_kind_and_wire_numbers_through_the_reader_trait() {
    let v: json_common::Any =
        structio::from_json(r#"{"a":[true,null,-1,2,1.5,"s",{}],"b":-0}"#).unwrap();
    assert_eq!(
        structio::to_json(&v),
        r#"{"a":[true,null,-1,2,1.5,"s",{}],"b":-0}"#
    );
    let opts = ReadOptions::default();
    assert_eq!(opts.max_depth, 256);
}

/// Writes `rows` (fixed-size numeric arrays, which take the one-pass row writer) and the same
/// numbers as nested `Vec`s (a generic array of typed arrays) every way, and checks that the
/// texts and the BEVE bytes are the same.
fn rows_match_nested_vecs<N, const M: usize>(rows: &[[N; M]])
where
    N: Copy + std::fmt::Debug + Default + for<'de> p::Reflect<'de>,
    [N; M]: for<'de> p::Reflect<'de> + Default,
{
    let nested: Vec<Vec<N>> = rows.iter().map(|r| r.to_vec()).collect();
    let as_vec: Vec<[N; M]> = rows.to_vec();
    let styles = [
        Options::default(),
        opts(|o| o.float_style = FloatStyle::Serde),
        opts(|o| o.pretty = true),
        opts(|o| {
            o.pretty = true;
            o.indent = 1;
        }),
    ];
    for o in &styles {
        let want = to_json_with(&nested, o);
        assert_eq!(to_json_with(&as_vec, o), want, "{rows:?}");
        let mut bytes = b"x".to_vec();
        structio::json::write_json_with(&as_vec, &mut bytes, o);
        assert_eq!(&bytes[1..], want.as_bytes());
        let boxed: Box<[[N; M]]> = as_vec.clone().into_boxed_slice();
        assert_eq!(to_json_with(&boxed, o), want);
        // Not contiguous: the generic element-by-element path.
        let mut dq: std::collections::VecDeque<[N; M]> = as_vec.iter().copied().collect();
        if let Some(x) = dq.pop_back() {
            dq.push_front(x);
            dq.rotate_left(1);
        }
        assert_eq!(to_json_with(&dq, o), want);
    }
    assert_eq!(structio::to_beve(&as_vec), structio::to_beve(&nested));
}

#[test]
// Coordinates as `canada.json` writes them.
#[allow(clippy::excessive_precision)]
fn rows_of_fixed_size_numeric_arrays() {
    rows_match_nested_vecs::<f64, 2>(&[]);
    rows_match_nested_vecs::<f64, 2>(&[[-65.613616999999977, 43.420273000000009]]);
    rows_match_nested_vecs::<f64, 0>(&[[], [], []]);
    // Rows starting with each kind of double: whole, short binary fractions below and above
    // 10^5, 2^53, signed zero, subnormal, power of two, huge, NaN.
    let starts = [
        1.0,
        -2.5,
        99_999.5,
        100_000.5,
        269_802_022_996_847.56,
        9_007_199_254_740_992.0,
        -0.0,
        5e-324,
        0.5,
        -1e300,
        1e-7,
        123.456,
        f64::NAN,
    ];
    let rows: Vec<[f64; 2]> = starts.iter().map(|&v| [v, -v]).collect();
    rows_match_nested_vecs::<f64, 2>(&rows);
    let rows: Vec<[f64; 1]> = starts.iter().map(|&v| [v]).collect();
    rows_match_nested_vecs::<f64, 1>(&rows);
    rows_match_nested_vecs::<u8, 3>(&[[0, 1, 255], [7, 8, 9]]);
    rows_match_nested_vecs::<i64, 1>(&[[i64::MIN], [0], [i64::MAX]]);
    rows_match_nested_vecs::<f32, 3>(&[[1.5, -0.0, f32::MAX], [f32::NAN, 1e-7, 3.0]]);
    rows_match_nested_vecs::<i128, 2>(&[[i128::MIN, 1], [2, i128::MAX]]);
    // Many long numbers: the writer's first guess at the size is short and it grows.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut big = Vec::new();
    for _ in 0..5_000 {
        let mut row = [0.0f64; 2];
        for v in &mut row {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *v = f64::from_bits(x);
        }
        big.push(row);
    }
    rows_match_nested_vecs::<f64, 2>(&big);
    // Rings of points, some empty, as in GeoJSON; and rows of rows.
    let rings: Vec<Vec<[f64; 2]>> = vec![vec![], vec![[1.0, 2.5], [-0.1, 1e300]], vec![]];
    assert_eq!(structio::to_json(&rings), "[[],[[1,2.5],[-0.1,1E300]],[]]");
    let o = opts(|o| o.pretty = true);
    assert_eq!(
        to_json_with(&rings, &o),
        structio::prettify(&structio::to_json(&rings)).unwrap()
    );
    let cube = [[[1u16, 2], [3, 4]], [[5, 6], [7, 8]]];
    assert_eq!(structio::to_json(&cube), "[[[1,2],[3,4]],[[5,6],[7,8]]]");
    assert_eq!(
        to_json_with(&cube, &o),
        structio::prettify(&structio::to_json(&cube)).unwrap()
    );
    let back: [[[u16; 2]; 2]; 2] = structio::from_json(&structio::to_json(&cube)).unwrap();
    assert_eq!(back, cube);
}

/// Key errors point at the key itself, past the whitespace and the comma before it (the walk
/// saves the position before each key and turns it into an offset only for an error).
#[test]
fn key_errors_point_at_the_key_past_whitespace_and_comma() {
    let text = "{ \"id\" : 1 ,\n   \"junk\" : 2 }";
    let e = structio::from_json::<Item>(text).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("unknown key `junk`", text.find("\"junk").unwrap())
    );
    let text = "{\"id\":1 \n , \t\"id\":2}";
    let e =
        from_json_with::<Item>(text, &opts(|o| o.read.error_on_duplicate_keys = true)).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("duplicate key `id`", text.rfind("\"id").unwrap())
    );
    // The first key of an object, after the brace and whitespace.
    let text = "{  \n\"junk\":1}";
    let e = structio::from_json::<Item>(text).unwrap_err();
    assert_eq!(e.offset(), text.find("\"junk").unwrap());
}

/// A reused `Vec<String>`: existing elements keep their buffers, new ones are read fresh, extra
/// ones are dropped; a non-string element is the same error whichever kind of slot it meets.
#[test]
fn string_vectors_grow_shrink_and_reject_non_strings_alike() {
    let mut v = vec!["keep me".to_string()];
    read_json(
        &mut v,
        r#"["a","","c\n","long enough to need a block or two"]"#,
    )
    .unwrap();
    assert_eq!(v, ["a", "", "c\n", "long enough to need a block or two"]);
    read_json(&mut v, r#"[ "x" ]"#).unwrap();
    assert_eq!(v, ["x"]);
    let text = r#"["a", 5]"#;
    for start in [vec![], vec!["q".to_string(); 3]] {
        let mut v = start;
        let e = read_json(&mut v, text).unwrap_err();
        assert_eq!(e.offset(), 6, "{e}");
        assert!(e.to_string().contains("[1]"), "{e}");
    }
}

/// `Vec<bool>` reads runs of `true,`/`false,` two at a time: every length, every pattern of
/// a few lengths, and every single-byte change of the text must give what reading the same
/// text as generic values and then as booleans gives (the value, or an error).
#[test]
fn bool_arrays_agree_with_generic_values_at_every_position() {
    fn reference(text: &str) -> Option<Vec<bool>> {
        let v: structio::Value = structio::from_json(text).ok()?;
        let structio::Value::Array(items) = v else {
            return None;
        };
        items
            .iter()
            .map(|x| match x {
                structio::Value::Bool(b) => Some(*b),
                _ => None,
            })
            .collect()
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for n in 0..24 {
        for _ in 0..6 {
            let bits = next();
            let want: Vec<bool> = (0..n).map(|k| bits >> k & 1 == 1).collect();
            let text = structio::to_json(&want);
            assert_eq!(
                structio::from_json::<Vec<bool>>(&text).ok(),
                Some(want.clone())
            );
            let mut reused = vec![true; 3];
            read_json(&mut reused, &text).unwrap();
            assert_eq!(reused, want);
            for at in 0..text.len() {
                for b in [b' ', b',', b'x', b'e', b't', b'f', b']', b'0', b'"'] {
                    let mut bytes = text.clone().into_bytes();
                    bytes[at] = b;
                    let Ok(changed) = String::from_utf8(bytes) else {
                        continue;
                    };
                    assert_eq!(
                        structio::from_json::<Vec<bool>>(&changed).ok(),
                        reference(&changed),
                        "{changed}"
                    );
                }
            }
        }
    }
}
