//! Byte-exact exchange with Glaze: every golden file in `formats/beve/` (written by Glaze 8.1)
//! is read into its Rust type and written back identically, transcoded identically, and every
//! truncation of it is an end-of-input error.
//!
//! The Rust types mirror the C++ definitions in `formats/beve/exchange/NAME.txt`.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

use structio::beve::{transcode, BeveWriter};
use structio::{Reader, Reflect, Result, Writer};

#[path = "common/files.rs"]
mod files;

fn dir(sub: &str) -> PathBuf {
    files::root().join("formats/beve").join(sub)
}

fn golden(sub: &str, name: &str) -> Vec<u8> {
    files::read(&format!("formats/beve/{sub}/{name}.beve"))
}

/// Every `.beve` file in a folder, with its name.
fn all(sub: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "beve"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// A BEVE extension value (complex, matrix, v1 type tag) kept as its bytes.
#[derive(Debug, Default, PartialEq, Clone)]
struct Ext(Vec<u8>);

impl<'de> Reflect<'de> for Ext {
    fn write<W: Writer>(&self, w: &mut W) {
        w.raw_beve(&self.0)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.0 = r.read_extension()?.to_vec();
        Ok(())
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Empty {}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Scalars {
    b_true: bool,
    b_false: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    f32: f32,
    f64: f64,
    i32_small: i32,
    f64_whole: f64,
    f32_tenth: f32,
    f64_tenth: f64,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Strings {
    empty: String,
    ascii: String,
    escapes: String,
    control: String,
    nul_inside: String,
    unicode: String,
    line_seps: String,
    len_63: String,
    len_64: String,
    html: String,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct TypedArrays {
    i8: Vec<i8>,
    i16: Vec<i16>,
    i32: Vec<i32>,
    i64: Vec<i64>,
    u8: Vec<u8>,
    u16: Vec<u16>,
    u32: Vec<u32>,
    u64: Vec<u64>,
    f32: Vec<f32>,
    f64: Vec<f64>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct BoolStringArrays {
    bits_1: Vec<bool>,
    bits_8: Vec<bool>,
    bits_11: Vec<bool>,
    strs: Vec<String>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct GenericArrays {
    points: Vec<Point>,
    nested_ints: Vec<Vec<i32>>,
    nested_strs: Vec<Vec<String>>,
    opt_ints: Vec<Option<i32>>,
    tuple_mixed: (i32, String, f64, bool),
    maps: Vec<BTreeMap<String, i32>>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Maps {
    str_i32: BTreeMap<String, i32>,
    str_struct: BTreeMap<String, Point>,
    str_vec: BTreeMap<String, Vec<f64>>,
    i32_str: BTreeMap<i32, String>,
    u64_f64: BTreeMap<u64, f64>,
    i8_bool: BTreeMap<i8, bool>,
    u16_struct: BTreeMap<u16, Point>,
    i64_strs: BTreeMap<i64, Vec<String>>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Optionals {
    opt_set: Option<i32>,
    opt_unset: Option<i32>,
    opt_str_set: Option<String>,
    opt_str_unset: Option<String>,
    opt_struct: Option<Point>,
    uptr_set: Option<Box<f64>>,
    uptr_null: Option<Box<f64>>,
    sptr_set: Option<String>,
    after: i32,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Inner2 {
    name: String,
    ids: Vec<i32>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Inner1 {
    deep: Inner2,
    weight: f64,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Nested {
    mid: Inner1,
    top: i32,
    nothing: Empty,
    list: Vec<Inner1>,
}

// Glaze's variants carry no type on the wire in BEVE v2: each member is read as the type of
// the alternative it holds.
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Rect {
    #[structio(rename = "type")]
    kind: String,
    width: f64,
    height: f64,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct AdjVec {
    #[structio(rename = "type")]
    kind: String,
    value: Vec<f64>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct AdjNum {
    #[structio(rename = "type")]
    kind: String,
    value: i32,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Variants {
    v_int: i64,
    v_double: f64,
    v_string: String,
    v_bool: bool,
    v_vec: Vec<f64>,
    v_struct: Point,
    v_mono: (),
    list: (i64, String, f64),
    internal_tagged: Rect,
    adjacent_tagged: AdjVec,
    adjacent_num: AdjNum,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct VariantsV1 {
    v_int: Ext,
    v_double: Ext,
    v_string: Ext,
    v_bool: Ext,
    v_vec: Ext,
    v_struct: Ext,
    v_mono: Ext,
    list: Vec<Ext>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Complex {
    cd: Ext,
    cf: Ext,
    vcf: Ext,
    vcd: Ext,
    vcd_empty: Ext,
}

#[derive(Reflect, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(rename_all = "lowercase")]
#[repr(u8)]
enum Color {
    #[default]
    Red = 0,
    Green = 1,
    Blue = 2,
}

// Glaze tags a `glz::enumerate` enum with a signed underlying type as unsigned: `low = -1` of
// an int16 enum is on the wire as the u16 65535.
#[derive(Reflect, Debug, Default, PartialEq, Clone, Copy)]
#[structio(rename_all = "lowercase")]
#[repr(u16)]
enum Level {
    Low = 65535,
    #[default]
    Mid = 0,
    High = 1,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone, Copy)]
#[structio(rename_all = "lowercase")]
#[repr(u32)]
enum RawEnum {
    #[default]
    A = 1,
    B = 2,
    Big = 4000000000,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Enums {
    c: Color,
    l: Level,
    r: RawEnum,
    cs: Vec<Color>,
    by_name: BTreeMap<String, Color>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Fixed {
    ai: [i32; 3],
    ad: [f64; 2],
    #[structio(rename = "as")]
    strs: [String; 2],
    ab: [bool; 3],
    ap: [Point; 1],
    pr: BTreeMap<String, i32>,
    tup: (String, Vec<i32>, Point),
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Matrix {
    fixed_colmajor: Ext,
    fixed_rowmajor: Ext,
    dynamic: Ext,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Empties {
    vi: Vec<i32>,
    vd: Vec<f64>,
    vb: Vec<bool>,
    vs: Vec<String>,
    vp: Vec<Point>,
    ms: BTreeMap<String, i32>,
    mi: BTreeMap<i32, i32>,
    s: String,
    e: Empty,
    a0: [i32; 0],
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Sizes {
    str_16383: String,
    str_16384: String,
    u8_64: Vec<u8>,
    bits_64: Vec<bool>,
    strs_64: Vec<String>,
    map_64: BTreeMap<String, i32>,
}

// C++ `char` is an i8 in BEVE (and a one-character string in Glaze's JSON).
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Misc {
    ch: i8,
    set_i: BTreeSet<i32>,
    deq: VecDeque<f64>,
    lst: Vec<String>,
    ms: i64,
    byte_val: u8,
    bytes: Vec<u8>,
    chars: String,
    enum_keyed: BTreeMap<Color, i32>,
}

/// Reads `name` into `T`, checks it writes back byte for byte, and returns the value.
fn exchange<T>(name: &str) -> T
where
    T: for<'de> Reflect<'de> + Default + std::fmt::Debug + PartialEq,
{
    let bytes = golden("exchange", name);
    let v: T = structio::from_beve(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = structio::to_beve(&v);
    assert_eq!(out, bytes, "{name}: written back differently");
    assert_eq!(structio::beve::beve_size(&v), bytes.len());
    // Reading into the value again (buffers reused) gives the same value.
    let mut again = structio::from_beve::<T>(&bytes).unwrap();
    structio::read_beve(&mut again, &bytes).unwrap();
    assert_eq!(again, v);
    // The value read from Glaze's BEVE is the value of Glaze's JSON, written identically.
    let json_file = match name {
        "strings" => Some("strings.escctl.json".to_string()),
        "enums" | "matrix" | "misc" | "variants_v1" => None,
        _ => Some(format!("{name}.json")),
    };
    if let Some(file) = json_file {
        let text = json(&file);
        assert_eq!(structio::to_json(&v), text, "{name}: JSON");
        if !matches!(name, "complex") {
            assert_eq!(
                structio::from_json::<T>(&text).unwrap(),
                v,
                "{name}: from JSON"
            );
        }
    }
    v
}

#[test]
fn scalars() {
    let v: Scalars = exchange("scalars");
    assert_eq!(
        (v.i64, v.u64, v.f32),
        (i64::MIN, u64::MAX, std::f32::consts::PI)
    );
}

#[test]
fn strings() {
    let v: Strings = exchange("strings");
    assert_eq!(v.nul_inside, "a\0b");
    assert_eq!(v.len_64.len(), 64);
}

#[test]
fn typed_arrays() {
    let v: TypedArrays = exchange("typed_arrays");
    assert_eq!(v.u64[2], 9007199254740993);
    assert!(v.f64[1].is_sign_negative());
}

#[test]
fn bool_string_arrays() {
    let v: BoolStringArrays = exchange("bool_string_arrays");
    assert_eq!(
        v.bits_11,
        [true, true, false, false, false, false, false, false, true, false, true]
    );
}

#[test]
fn generic_arrays() {
    let v: GenericArrays = exchange("generic_arrays");
    assert_eq!(v.opt_ints, [Some(1), None, Some(3)]);
}

#[test]
fn maps() {
    let v: Maps = exchange("maps");
    assert_eq!(v.u64_f64[&u64::MAX], -1.0);
    assert!(v.i8_bool[&-128]);
}

#[test]
fn optionals() {
    let v: Optionals = exchange("optionals");
    assert_eq!((v.opt_unset, v.uptr_set.as_deref()), (None, Some(&2.5)));
}

#[test]
fn nested() {
    let v: Nested = exchange("nested");
    assert_eq!(v.list[1].deep.name, "other");
}

#[test]
fn variants() {
    let v: Variants = exchange("variants");
    assert_eq!(v.adjacent_num.value, 42);
}

#[test]
fn variants_v1() {
    let v: VariantsV1 = exchange("variants_v1");
    assert_eq!(v.v_bool.0, [0x0E, 0x0C, 0x18]);
    assert_eq!(v.list.len(), 3);
}

#[test]
fn complex() {
    let v: Complex = exchange("complex");
    assert_eq!(v.vcd_empty.0, [0x1E, 0x61, 0x00]);
}

#[test]
fn enums() {
    let v: Enums = exchange("enums");
    assert_eq!((v.c, v.l, v.r), (Color::Green, Level::Low, RawEnum::Big));
    assert_eq!(v.cs, [Color::Red, Color::Blue]);
}

#[test]
fn fixed() {
    let v: Fixed = exchange("fixed");
    assert_eq!(v.strs, ["p", "q"]);
    assert_eq!(v.ab, [true, false, true]);
}

#[test]
fn matrix() {
    let v: Matrix = exchange("matrix");
    assert_eq!(&v.fixed_rowmajor.0[..3], &[0x16, 0x00, 0x6C]);
}

#[test]
fn empties() {
    let v: Empties = exchange("empties");
    assert_eq!(v, Empties::default());
}

#[test]
fn sizes() {
    let v: Sizes = exchange("sizes");
    assert_eq!((v.str_16383.len(), v.str_16384.len()), (16383, 16384));
    assert_eq!(v.map_64.len(), 64);
}

#[test]
fn misc() {
    let v: Misc = exchange("misc");
    assert_eq!(v.ch, b'A' as i8);
    assert_eq!(v.enum_keyed[&Color::Blue], 3);
}

#[test]
fn every_exchange_file_has_a_test() {
    let tested = [
        "bool_string_arrays",
        "complex",
        "empties",
        "enums",
        "fixed",
        "generic_arrays",
        "maps",
        "matrix",
        "misc",
        "nested",
        "optionals",
        "scalars",
        "sizes",
        "strings",
        "typed_arrays",
        "variants",
        "variants_v1",
    ];
    let names: Vec<String> = all("exchange").into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, tested);
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
#[structio(rename_all = "camelCase")]
struct TestStruct {
    test_strings: Vec<String>,
    test_uints: Vec<u64>,
    test_doubles: Vec<f64>,
    test_ints: Vec<i64>,
    test_bools: Vec<bool>,
}

/// Reads a bench document into `T`, writes it back, and reads it again into the same value.
fn bench<T>(name: &str) -> T
where
    T: for<'de> Reflect<'de> + Default + std::fmt::Debug + PartialEq,
{
    let bytes = golden("bench", name);
    let mut v: T = structio::from_beve(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        structio::to_beve(&v),
        bytes,
        "{name}: written back differently"
    );
    let mut out = Vec::new();
    structio::write_beve(&v, &mut out);
    assert_eq!(out, bytes);
    structio::read_beve(&mut v, &bytes).unwrap();
    assert_eq!(structio::to_beve(&v), bytes);
    v
}

#[test]
fn bench_documents_round_trip() {
    let mixed: BTreeMap<String, Vec<TestStruct>> = bench("mixed");
    assert_eq!(mixed.len(), 26);
    assert_eq!(mixed.values().map(Vec::len).sum::<usize>(), 107);
    let s: BTreeMap<String, Vec<String>> = bench("strings");
    assert_eq!(s.keys().next().map(String::as_str), Some("a"));
    let _: BTreeMap<String, Vec<u64>> = bench("uints");
    let _: BTreeMap<String, Vec<i64>> = bench("ints");
    let _: BTreeMap<String, Vec<f64>> = bench("doubles");
    let d: BTreeMap<String, Vec<f64>> = bench("exact_decimals");
    assert!(d["a"].iter().all(|x| (x * 8.0).fract() == 0.0));
    let _: BTreeMap<String, Vec<bool>> = bench("bools");
    assert_eq!(all("bench").len(), 7);
}

#[test]
fn transcoding_reproduces_every_golden_file() {
    for sub in ["exchange", "bench"] {
        for (name, bytes) in all(sub) {
            let mut w = BeveWriter::new(Vec::new());
            transcode(&bytes, &mut w).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(w.into_inner(), bytes, "{name}");
        }
    }
}

/// Checks that walking (skipping) `bytes[from..cut]` fails with an end-of-input error.
fn truncated_is_eof(name: &str, bytes: &[u8], from: usize, cut: usize) {
    let res = match structio::beve::Delimited::new(&bytes[from..cut]).next() {
        Some(r) => r.map(<[u8]>::len),
        None => transcode(&[], &mut BeveWriter::new(Vec::new())).map(|()| 0),
    };
    match res {
        Err(e) if e.is_eof() => {}
        other => panic!("{name} cut at {cut} (walked from {from}): {other:?}"),
    }
}

/// Reads a SIZE (test-side decoder, independent of the library's).
fn size_at(b: &[u8], pos: &mut usize) -> usize {
    let width = 1 << (b[*pos] & 3);
    let mut word = [0u8; 8];
    word[..width].copy_from_slice(&b[*pos..*pos + width]);
    *pos += width;
    (u64::from_le_bytes(word) >> 2) as usize
}

/// The byte ranges of the member values of a top-level string-keyed object.
fn member_values(bytes: &[u8]) -> Vec<(usize, usize)> {
    assert_eq!(bytes[0], 0x03);
    let mut pos = 1;
    let n = size_at(bytes, &mut pos);
    let mut out = Vec::new();
    for _ in 0..n {
        let k = size_at(bytes, &mut pos);
        pos += k;
        let value = structio::beve::Delimited::new(&bytes[pos..])
            .next()
            .unwrap()
            .unwrap();
        out.push((pos, pos + value.len()));
        pos += value.len();
    }
    assert_eq!(pos, bytes.len());
    out
}

/// Every truncation is an end-of-input error (never a panic, never a success). The walk of a
/// truncated document repeats the walk of the whole one up to the value the cut falls into, so
/// for the two large string-heavy documents (where walking each of 10^5 prefixes from the
/// start would take minutes unoptimised) a cut inside a top-level member's value is walked
/// from that value's start; every other cut is walked from offset 0.
fn check_truncations(name: &str, bytes: &[u8]) {
    if bytes.len() < 64 * 1024 {
        for cut in 0..bytes.len() {
            truncated_is_eof(name, bytes, 0, cut);
        }
        return;
    }
    let members = member_values(bytes);
    let mut m = 0;
    for cut in 0..bytes.len() {
        while m < members.len() && members[m].1 <= cut {
            m += 1;
        }
        match members.get(m) {
            Some(&(start, _)) if start < cut => truncated_is_eof(name, bytes, start, cut),
            _ => truncated_is_eof(name, bytes, 0, cut),
        }
    }
}

#[test]
fn every_truncation_of_every_exchange_file_is_an_eof_error() {
    for (name, bytes) in all("exchange") {
        check_truncations(&name, &bytes);
    }
}

#[test]
fn every_truncation_of_the_typed_bench_documents_is_an_eof_error() {
    for name in ["uints", "ints", "doubles", "exact_decimals", "bools"] {
        check_truncations(name, &golden("bench", name));
    }
}

#[test]
fn every_truncation_of_bench_mixed_is_an_eof_error() {
    check_truncations("mixed", &golden("bench", "mixed"));
}

#[test]
fn every_truncation_of_bench_strings_is_an_eof_error() {
    check_truncations("strings", &golden("bench", "strings"));
}

#[test]
fn truncated_exchange_files_fail_typed_reads_too() {
    let bytes = golden("exchange", "maps");
    for cut in 0..bytes.len() {
        let e = structio::from_beve::<Maps>(&bytes[..cut]).unwrap_err();
        assert!(e.is_eof(), "cut at {cut}: {e}");
    }
    let bytes = golden("exchange", "variants_v1");
    for cut in 0..bytes.len() {
        assert!(structio::from_beve::<VariantsV1>(&bytes[..cut]).is_err());
    }
}

fn json(name: &str) -> String {
    let path = dir("exchange").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn beve_to_json_matches_glaze_json() {
    // Files whose JSON Glaze writes without enum names, raw control bytes or matrix shapes:
    // the schemaless conversion gives exactly Glaze's JSON of the typed value. (Glaze's own
    // beve_to_json fails on several of them: it has no bool arrays.)
    for name in [
        "scalars",
        "typed_arrays",
        "generic_arrays",
        "maps",
        "optionals",
        "nested",
        "variants",
        "complex",
        "bool_string_arrays",
        "fixed",
        "empties",
        "sizes",
    ] {
        let got = structio::beve_to_json(&golden("exchange", name)).unwrap();
        assert_eq!(got, json(&format!("{name}.json")), "{name}");
    }
    // Control characters are escaped (Glaze's default writes them raw, which is not JSON).
    let got = structio::beve_to_json(&golden("exchange", "strings")).unwrap();
    assert_eq!(got, json("strings.escctl.json"));
}

#[test]
fn beve_to_json_of_what_has_no_names_on_the_wire() {
    // Enums are numbers in BEVE, and `char` is an i8: the same output as glz::beve_to_json.
    assert_eq!(
        structio::beve_to_json(&golden("exchange", "enums")).unwrap(),
        r#"{"c":1,"l":65535,"r":4000000000,"cs":[0,2],"by_name":{"bg":2}}"#
    );
    assert_eq!(
        structio::beve_to_json(&golden("exchange", "misc")).unwrap(),
        r#"{"ch":65,"set_i":[1,2,3],"deq":[1,2],"lst":["l1","l2"],"ms":1500,"byte_val":171,"bytes":[0,255],"chars":"hi","enum_keyed":{"0":1,"2":3}}"#
    );
    // Matrices as the spec's object; layout bit 0 = 1 is column-major, "layout_left" (Glaze's
    // beve_to_json prints the two names swapped).
    assert_eq!(
        structio::beve_to_json(&golden("exchange", "matrix")).unwrap(),
        concat!(
            r#"{"fixed_colmajor":{"layout":"layout_left","extents":[2,3],"value":[1,4,2,5,3,6]},"#,
            r#""fixed_rowmajor":{"layout":"layout_right","extents":[2,2],"value":[1,2,3,4]},"#,
            r#""dynamic":{"layout":"layout_left","extents":[2,2],"value":[1.5,3.5,2.5,4.5]}}"#
        )
    );
    // v1 type tags as the spec's {"index":i,"value":..}.
    assert_eq!(
        structio::beve_to_json(&golden("exchange", "variants_v1")).unwrap(),
        concat!(
            r#"{"v_int":{"index":0,"value":-7},"v_double":{"index":1,"value":2.5},"#,
            r#""v_string":{"index":2,"value":"str"},"v_bool":{"index":3,"value":true},"#,
            r#""v_vec":{"index":4,"value":[1,2]},"v_struct":{"index":5,"value":{"x":3,"y":4}},"#,
            r#""v_mono":{"index":0,"value":null},"list":[{"index":0,"value":1},"#,
            r#"{"index":2,"value":"two"},{"index":1,"value":3}]}"#
        )
    );
}

#[test]
fn beve_to_json_of_the_bench_documents_is_glazes_json() {
    for name in files::DOCS {
        let expected = files::read(&format!("formats/json/bench/{name}.json"));
        let expected = String::from_utf8(expected).unwrap();
        assert_eq!(
            structio::beve_to_json(&golden("bench", name)).unwrap(),
            expected,
            "{name}"
        );
    }
}

#[cfg(feature = "num-complex")]
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct ComplexTyped {
    cd: num_complex::Complex<f64>,
    cf: num_complex::Complex<f32>,
    vcf: Vec<num_complex::Complex<f32>>,
    vcd: Vec<num_complex::Complex<f64>>,
    vcd_empty: Vec<num_complex::Complex<f64>>,
}

#[cfg(feature = "num-complex")]
#[test]
fn complex_numbers_as_num_complex() {
    use num_complex::Complex;
    let v: ComplexTyped = exchange("complex");
    // Glaze's pretty writer keeps each complex number on one line (`[re,im]`), arrays of them
    // one per line (found by the typed differential, examples/glaze_differential).
    let pretty = structio::json::Options {
        pretty: true,
        ..Default::default()
    };
    assert_eq!(
        structio::json::to_json_with(&v, &pretty),
        "{\n   \"cd\": [1.5,-2.5],\n   \"cf\": [0.5,4],\n   \"vcf\": [\n      [1,2],\n      \
         [3,4]\n   ],\n   \"vcd\": [\n      [-1,0.25]\n   ],\n   \"vcd_empty\": []\n}"
    );
    assert_eq!(v.cd, Complex::new(1.5, -2.5));
    assert_eq!(v.vcf, [Complex::new(1.0, 2.0), Complex::new(3.0, 4.0)]);
    assert_eq!(
        structio::from_json::<ComplexTyped>(&json("complex.json")).unwrap(),
        v
    );
}

/// Reads `bytes` every way that needs no particular type; errors are fine, panics are not.
fn read_every_way(bytes: &[u8]) {
    let _ = transcode(bytes, &mut BeveWriter::new(Vec::new()));
    let _ = structio::beve_to_json(bytes);
    let _ = structio::from_beve::<structio::Value>(bytes);
    for part in structio::beve::Delimited::new(bytes) {
        let _ = part;
    }
}

#[test]
fn corrupted_exchange_files_give_errors_not_panics() {
    // Every byte of every small file set to a few telling values, read as its own type and
    // schemalessly.
    fn each<T: for<'de> Reflect<'de> + Default>(name: &str) {
        let good = golden("exchange", name);
        let mut bytes = good.clone();
        for i in 0..good.len() {
            for v in [
                0x00,
                0xFF,
                0x80,
                0x3F,
                good[i] ^ 0x01,
                good[i] ^ 0x40,
                good[i].wrapping_add(4),
            ] {
                bytes[i] = v;
                let _ = structio::from_beve::<T>(&bytes);
                read_every_way(&bytes);
            }
            bytes[i] = good[i];
        }
    }
    each::<Scalars>("scalars");
    each::<Strings>("strings");
    each::<TypedArrays>("typed_arrays");
    each::<BoolStringArrays>("bool_string_arrays");
    each::<GenericArrays>("generic_arrays");
    each::<Maps>("maps");
    each::<Optionals>("optionals");
    each::<Nested>("nested");
    each::<Variants>("variants");
    each::<VariantsV1>("variants_v1");
    each::<Complex>("complex");
    each::<Enums>("enums");
    each::<Fixed>("fixed");
    each::<Matrix>("matrix");
    each::<Empties>("empties");
    each::<Misc>("misc");
}

/// Glaze leaves map entries holding an empty `std::optional` out (default `skip_null_members`)
/// in BEVE (counted out of the size) and JSON; a non-empty map left with none is `{}` compact
/// and laid out as an empty struct when pretty (found by the typed differential,
/// examples/glaze_differential).
#[test]
fn map_entries_holding_none_are_left_out_as_glaze_does() {
    let m: BTreeMap<String, Option<i32>> = [("a".into(), Some(1)), ("b".into(), None)].into();
    assert_eq!(
        structio::to_beve(&m),
        [0x03, 0x04, 0x04, b'a', 0x49, 1, 0, 0, 0]
    );
    assert_eq!(structio::to_json(&m), r#"{"a":1}"#);
    let none: BTreeMap<i32, Option<String>> = [(-1, None)].into();
    assert_eq!(structio::to_beve(&none), [0x4B, 0x00]);
    assert_eq!(structio::to_json(&none), "{}");
    let pretty = structio::json::Options {
        pretty: true,
        ..Default::default()
    };
    assert_eq!(
        structio::json::to_json_with(&vec![none.clone()], &pretty),
        "[\n   {\n      \n   }\n]"
    );
    assert_eq!(
        structio::json::to_json_with(&BTreeMap::<i32, Option<String>>::new(), &pretty),
        "{}"
    );
    // With null members written, the entries stay.
    let nulls = structio::json::Options {
        write_null_members: true,
        ..Default::default()
    };
    assert_eq!(
        structio::json::to_json_with(&m, &nulls),
        r#"{"a":1,"b":null}"#
    );
}
