//! Round trips, conversions and hostile input through the public entry points.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use half::{bf16, f16};

use super::*;
use crate::error::Error;
use crate::number::{NumKind, Number};
use crate::reflect::{EnumInfo, FieldsInfo, Reader, UnknownKeys, ValueKind, Writer};
use structio_keys::Probe;

/// A struct written the way the derive writes it (as in tests/hand_expanded.rs).
#[derive(Debug, Default, PartialEq, Clone)]
struct Rec {
    id: u32,
    name: String,
    xs: Vec<f64>,
    tag: Option<i16>,
}

const REC: FieldsInfo = FieldsInfo {
    names: &["id", "name", "xs", "tag"],
    // Every member may be left out: the tests read partial documents.
    optional: &[true, true, true, true],
    keys: &["id", "name", "xs", "tag"],
    key_field: &[0, 1, 2, 3],
    probe: Probe::Linear,
    plain: true,
};

impl<'de> Reflect<'de> for Rec {
    fn write<W: Writer>(&self, w: &mut W) {
        let with_tag = w.write_null_members() || !self.tag.is_absent();
        w.begin_object(3 + usize::from(with_tag));
        w.key("id");
        self.id.write(w);
        w.sep();
        w.key("name");
        self.name.write(w);
        w.sep();
        w.key("xs");
        self.xs.write(w);
        if with_tag {
            w.sep();
            w.key("tag");
            self.tag.write(w);
        }
        w.end_object();
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        crate::read::read_fields(r, &REC, None, |m, r| match m {
            crate::read::Member::Index(0) => self.id.read(r),
            crate::read::Member::Index(1) => self.name.read(r),
            crate::read::Member::Index(2) => self.xs.read(r),
            crate::read::Member::Index(3) => self.tag.read(r),
            _ => Ok(()),
        })
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

/// Arbitrarily deep nesting, for the depth limit.
#[derive(Debug, Default, PartialEq)]
struct Nest(Vec<Nest>);

impl<'de> Reflect<'de> for Nest {
    fn write<W: Writer>(&self, w: &mut W) {
        self.0.write(w)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.0.read(r)
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

/// A unit-only enum as the derive writes it, `#[repr(u16)]` like Glaze's `level`.
#[derive(Debug, Default, PartialEq, Clone, Copy)]
enum Level {
    Low = 65535,
    #[default]
    Mid = 0,
    High = 1,
}

static LEVEL: EnumInfo = EnumInfo {
    name: "Level",
    names: &["low", "mid", "high"],
    probe: Probe::Linear,
    discriminants: &[65535, 0, 1],
    repr: NumKind::U16,
};

impl<'de> Reflect<'de> for Level {
    fn write<W: Writer>(&self, w: &mut W) {
        let i = *self as usize;
        let i = [Level::Low, Level::Mid, Level::High]
            .iter()
            .position(|l| *l as usize == i)
            .unwrap();
        w.unit_variant(LEVEL.names[i], LEVEL.discriminants[i], LEVEL.repr)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = [Level::Low, Level::Mid, Level::High][r.read_unit_variant(&LEVEL)?];
        Ok(())
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

fn round_trip<T>(v: &T) -> Vec<u8>
where
    T: for<'de> Reflect<'de> + Default + PartialEq + std::fmt::Debug,
{
    let b = to_beve(v);
    let back: T = from_beve(&b).unwrap_or_else(|e| panic!("{v:?}: {e}"));
    assert_eq!(&back, v);
    assert_eq!(beve_size(v), b.len());
    // Transcoding reproduces the bytes, and so does the aligned writer's size count.
    let mut w = BeveWriter::new(Vec::new());
    transcode(&b, &mut w).unwrap();
    assert_eq!(w.into_inner(), b);
    let a = to_beve_aligned(v);
    let back: T = from_beve(&a).unwrap();
    assert_eq!(&back, v);
    let mut w = BeveWriter::new(Vec::new()).aligned_arrays(true);
    transcode(&a, &mut w).unwrap();
    assert_eq!(w.into_inner(), &a[..]);
    b
}

fn err<T: for<'de> Reflect<'de> + Default + std::fmt::Debug>(b: &[u8]) -> Error {
    from_beve::<T>(b).unwrap_err()
}

#[test]
fn scalars_round_trip() {
    assert_eq!(round_trip(&true), [0x18]);
    assert_eq!(round_trip(&-5i8), [0x09, 0xFB]);
    round_trip(&i16::MIN);
    round_trip(&i32::MAX);
    round_trip(&i64::MIN);
    round_trip(&i128::MIN);
    round_trip(&u8::MAX);
    round_trip(&u16::MAX);
    round_trip(&u32::MAX);
    round_trip(&u64::MAX);
    assert_eq!(round_trip(&u128::MAX)[0], 0x91);
    round_trip(&f32::MIN_POSITIVE);
    round_trip(&-0.0f64);
    assert_eq!(round_trip(&bf16::from_f32(1.5))[0], 0x01);
    assert_eq!(round_trip(&f16::from_f32(-2.0))[0], 0x21);
    assert_eq!(round_trip(&usize::MAX)[0], 0x71);
    assert_eq!(round_trip(&isize::MIN)[0], 0x69);
    assert_eq!(round_trip(&'é'), [0x02, 0x08, 0xC3, 0xA9]);
    assert_eq!(round_trip(&()), [0x00]);
    assert_eq!(round_trip(&Some(3u8)), [0x11, 3]);
    assert_eq!(round_trip(&None::<u8>), [0x00]);
    round_trip(&Box::new(7i32));
}

#[test]
fn strings_at_size_boundaries() {
    for n in [0, 1, 63, 64, 16383, 16384, 70000] {
        let s = "x".repeat(n);
        let b = round_trip(&s);
        let head = match n {
            0..=63 => 1,
            64..=16383 => 2,
            _ => 4,
        };
        assert_eq!(b.len(), 1 + head + n, "{n}");
    }
    round_trip(&"a\u{0}b\u{2028}😀".to_string());
}

#[test]
fn typed_arrays_of_every_numeric_type() {
    fn each<N: Number + for<'de> Reflect<'de>>(v: Vec<N>) {
        let b = round_trip(&v);
        assert_eq!(b[0], header::typed_array(N::KIND));
        let arr: [N; 3] = [v[0], v[1], v[2]];
        assert_eq!(round_trip(&arr.to_vec()), b);
        let back: [N; 3] = from_beve(&b).unwrap();
        assert_eq!(back, arr);
    }
    each(vec![i8::MIN, 0, i8::MAX]);
    each(vec![i16::MIN, 0, i16::MAX]);
    each(vec![i32::MIN, 0, i32::MAX]);
    each(vec![i64::MIN, 0, i64::MAX]);
    each(vec![i128::MIN, 0, i128::MAX]);
    each(vec![0, 1, u8::MAX]);
    each(vec![0, 1, u16::MAX]);
    each(vec![0, 1, u32::MAX]);
    each(vec![0, 1, u64::MAX]);
    each(vec![0, 1, u128::MAX]);
    each(vec![bf16::MIN, bf16::ZERO, bf16::MAX]);
    each(vec![f16::MIN, f16::ZERO, f16::MAX]);
    each(vec![f32::MIN, -0.0, f32::MAX]);
    each(vec![f64::MIN, 5e-324, f64::MAX]);
    assert_eq!(to_beve(&Vec::<f64>::new()), [0x64, 0x00]);
    assert_eq!(to_beve(&[0i32; 0]), [0x4C, 0x00]);
    round_trip(&VecDeque::from(vec![1.5f64, 2.5]));
    let cow = to_beve(&Cow::<[u16]>::Owned(vec![1, 2]));
    assert_eq!(cow, to_beve(&vec![1u16, 2]));
    let back: Cow<[u16]> = from_beve(&cow).unwrap();
    assert_eq!(&*back, &[1, 2]);
    round_trip(&BTreeSet::from([3i32, 1, 2]));
    let set: HashSet<u64> = from_beve(&to_beve(&vec![5u64, 6])).unwrap();
    assert_eq!(set, HashSet::from([5, 6]));
    let b: Box<[u32]> = from_beve(&to_beve(&vec![9u32])).unwrap();
    assert_eq!(&*b, &[9]);
}

#[test]
fn array_lengths_at_size_boundaries() {
    for n in [0usize, 1, 63, 64, 16383, 16384] {
        let v: Vec<u8> = (0..n).map(|i| i as u8).collect();
        let b = round_trip(&v);
        assert_eq!(b.len(), 1 + size_len(n) + n);
        let bools: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
        let b = round_trip(&bools);
        assert_eq!(b.len(), 1 + size_len(n) + n.div_ceil(8));
        let strs: Vec<String> = (0..n.min(100)).map(|i| i.to_string()).collect();
        round_trip(&strs);
    }
}

fn size_len(n: usize) -> usize {
    let mut v = Vec::new();
    length_prefix::write(&mut v, n);
    v.len()
}

#[test]
fn bool_arrays_pack_lsb_first() {
    let v = vec![
        true, true, false, false, false, false, false, false, true, false, true,
    ];
    assert_eq!(round_trip(&v), [0x1C, 0x2C, 0x03, 0x05]);
    let fixed: [bool; 3] = from_beve(&to_beve(&[true, false, true])).unwrap();
    assert_eq!(fixed, [true, false, true]);
    assert_eq!(to_beve(&[true, false, true]), [0x1C, 0x0C, 0x05]);
    // Bits past the count must be zero.
    assert_eq!(
        err::<Vec<bool>>(&[0x1C, 0x0C, 0x0D]).message(),
        "unused bits must be zero"
    );
}

#[test]
fn strings_and_containers() {
    assert_eq!(
        round_trip(&vec!["a".to_string(), String::new()]),
        [0x3C, 0x08, 0x04, b'a', 0x00]
    );
    assert_eq!(to_beve(&Vec::<String>::new()), [0x3C, 0x00]);
    let borrowed: Vec<&str> = from_beve(&[0x3C, 0x04, 0x04, b'z'][..]).unwrap();
    assert_eq!(borrowed, ["z"]);
    round_trip(&vec![vec![1i32, 2], vec![], vec![3]]);
    round_trip(&vec![Some(1i32), None, Some(3)]);
    round_trip(&(7i32, "seven".to_string(), 7.5f64, true));
    let mut m = HashMap::new();
    m.insert("xs".to_string(), vec![1.0f64, 2.0]);
    m.insert("ys".to_string(), vec![]);
    round_trip(&m);
    let mut im = BTreeMap::new();
    im.insert(-5i32, "minus five".to_string());
    im.insert(42, "answer".to_string());
    assert_eq!(round_trip(&im)[0], 0x4B);
    let mut um = BTreeMap::new();
    um.insert(u64::MAX, -1.0f64);
    assert_eq!(round_trip(&um)[..2], [0x73, 0x04]);
    let mut i8m = BTreeMap::new();
    i8m.insert(-128i8, true);
    assert_eq!(round_trip(&i8m), [0x0B, 0x04, 0x80, 0x18]);
    round_trip(&BTreeMap::<u16, Vec<String>>::new());
    round_trip(&BTreeMap::<i128, u8>::from([(i128::MIN, 1)]));
    let mut bytes = vec![0u8; 0];
    write_beve(&1u8, &mut bytes);
    write_beve(&2u8, &mut bytes);
    assert_eq!(bytes, [0x11, 1, 0x11, 2]);
}

#[test]
fn struct_members_and_options() {
    let r = Rec {
        id: 7,
        name: "n".into(),
        xs: vec![0.5],
        tag: None,
    };
    let b = round_trip(&r);
    assert_eq!(&b[..2], &[0x03, 0x0C]);
    let with_nulls = to_beve_with(
        &r,
        &Options {
            write_null_members: true,
            ..Options::default()
        },
    );
    assert_eq!(&with_nulls[..2], &[0x03, 0x10]);
    assert_eq!(
        &with_nulls[with_nulls.len() - 5..],
        &[0x0C, b't', b'a', b'g', 0x00]
    );
    assert_eq!(from_beve::<Rec>(&with_nulls).unwrap(), r);
    round_trip(&Rec {
        tag: Some(-3),
        ..r.clone()
    });
    round_trip(&vec![r.clone(), Rec::default()]);

    // Unknown keys: an error by default, skipped (and checked) on request.
    let mut extra = BTreeMap::new();
    extra.insert("id".to_string(), vec![1u32]);
    extra.insert("zz".to_string(), vec![2u32]);
    let b = to_beve(&extra);
    assert_eq!(
        err::<Rec>(&b).message(),
        "expected a number, found an array"
    );
    let mut m = BTreeMap::new();
    m.insert("id", 3u32);
    m.insert("other", 9);
    let b = to_beve(&m);
    let e = err::<Rec>(&b);
    assert_eq!(e.message(), "unknown key `other`");
    assert_eq!(e.offset(), 10);
    let skip = Options {
        read: ReadOptions {
            unknown_keys: UnknownKeys::Skip,
            ..ReadOptions::default()
        },
        ..Options::default()
    };
    let rec: Rec = from_beve_with(&b, &skip).unwrap();
    assert_eq!(rec.id, 3);

    // A skipped value nested past the limit: the error names the limit, not what was left.
    let deep = to_beve(&BTreeMap::from([("other", vec![vec![0u8; 0]])]));
    let mut limited = skip;
    limited.read.max_depth = 2;
    let e = from_beve_with::<Rec>(&deep, &limited).unwrap_err();
    assert_eq!(e.message(), "nesting deeper than the limit of 2");
    limited.read.max_depth = 3;
    from_beve_with::<Rec>(&deep, &limited).unwrap();

    // Reading into an existing value keeps what the input does not mention.
    let mut existing = r.clone();
    read_beve(&mut existing, &to_beve(&BTreeMap::from([("id", 9u32)]))).unwrap();
    assert_eq!(existing, Rec { id: 9, ..r });
}

#[test]
fn enums_as_integers() {
    assert_eq!(round_trip(&Level::Low), [0x31, 0xFF, 0xFF]);
    assert_eq!(round_trip(&Level::High), [0x31, 0x01, 0x00]);
    // Any integer header is accepted.
    assert_eq!(from_beve::<Level>(&[0x09, 0x01][..]).unwrap(), Level::High);
    assert_eq!(
        from_beve::<Level>(&[0x71, 0, 0, 0, 0, 0, 0, 0, 0][..]).unwrap(),
        Level::Mid
    );
    // And the name, from writers that store it.
    assert_eq!(
        from_beve::<Level>(&[0x02, 0x0C, b'l', b'o', b'w'][..]).unwrap(),
        Level::Low
    );
    assert_eq!(
        err::<Level>(&[0x31, 0x05, 0x00]).message(),
        "unknown variant `5`"
    );
    assert_eq!(
        err::<Level>(&[0x49, 0xFF, 0xFF, 0xFF, 0xFF]).message(),
        "unknown variant `-1`"
    );
    assert_eq!(
        err::<Level>(&[0x41, 0, 0, 0, 0]).message(),
        "expected an integer for Level"
    );
    assert_eq!(
        err::<Level>(&[0x18]).message(),
        "expected an enum variant (an integer), found a boolean"
    );
    let mut w = BeveWriter::new(Vec::new());
    w.begin_map(1, crate::reflect::KeyKind::Int(NumKind::U8));
    w.enum_key("blue", 2, NumKind::U8);
    w.number(3i32);
    assert_eq!(w.into_inner(), [0x13, 0x04, 0x02, 0x49, 3, 0, 0, 0]);
}

#[test]
fn numbers_convert_across_widths_with_range_checks() {
    let b = to_beve(&300u64);
    assert_eq!(from_beve::<u16>(&b).unwrap(), 300);
    assert_eq!(from_beve::<i128>(&b).unwrap(), 300);
    assert_eq!(from_beve::<f32>(&b).unwrap(), 300.0);
    assert_eq!(err::<u8>(&b).message(), "number out of range for u8");
    assert_eq!(
        err::<i8>(&to_beve(&-129i32)).message(),
        "number out of range for i8"
    );
    assert_eq!(
        err::<u32>(&to_beve(&-1i8)).message(),
        "number out of range for u32"
    );
    assert_eq!(from_beve::<i8>(&to_beve(&-1i64)).unwrap(), -1);
    assert_eq!(
        err::<i32>(&to_beve(&1.0f64)).message(),
        "expected an integer for i32"
    );
    assert_eq!(from_beve::<f64>(&to_beve(&0.1f32)).unwrap(), 0.1f32 as f64);
    assert_eq!(from_beve::<f32>(&to_beve(&0.5f64)).unwrap(), 0.5);
    assert_eq!(
        err::<f32>(&to_beve(&1e39f64)).message(),
        "number out of range for f32"
    );
    assert_eq!(
        from_beve::<f32>(&to_beve(&f64::INFINITY)).unwrap(),
        f32::INFINITY
    );
    assert_eq!(
        from_beve::<f64>(&to_beve(&f16::from_f32(0.5))).unwrap(),
        0.5
    );
    assert_eq!(
        from_beve::<bf16>(&to_beve(&2u8)).unwrap(),
        bf16::from_f32(2.0)
    );
    assert_eq!(
        err::<u8>(&to_beve(&"1")).message(),
        "expected a number, found a string"
    );
    assert_eq!(from_beve::<usize>(&to_beve(&5u8)).unwrap(), 5);
}

#[test]
fn typed_arrays_convert_element_wise() {
    let b = to_beve(&vec![1u8, 2, 255]);
    assert_eq!(from_beve::<Vec<u64>>(&b).unwrap(), [1, 2, 255]);
    assert_eq!(from_beve::<Vec<f64>>(&b).unwrap(), [1.0, 2.0, 255.0]);
    assert_eq!(from_beve::<[i16; 3]>(&b).unwrap(), [1, 2, 255]);
    let e = err::<Vec<i8>>(&b);
    assert_eq!(e.message(), "number out of range for i8");
    assert_eq!(e.path(), "$[2]");
    assert_eq!(e.offset(), 4);
    let e = err::<Vec<u32>>(&to_beve(&vec![1.0f32, 2.5]));
    assert_eq!(e.message(), "expected an integer for u32");
    assert_eq!(e.path(), "$[0]");
    assert_eq!(
        from_beve::<Vec<f32>>(&to_beve(&vec![0.5f64])).unwrap(),
        [0.5]
    );
    // Fixed-size arrays need the exact count.
    let e = err::<[u8; 2]>(&b);
    assert_eq!(e.message(), "expected 2 elements, found 3");
    // A numeric Vec from a generic array of numbers.
    let generic = to_beve(&(1u8, -2i64, 3.0f32));
    assert_eq!(from_beve::<Vec<f64>>(&generic).unwrap(), [1.0, -2.0, 3.0]);
    assert_eq!(from_beve::<[f64; 3]>(&generic).unwrap(), [1.0, -2.0, 3.0]);
    let e = err::<Vec<u8>>(&generic);
    assert_eq!(
        (e.message().as_str(), e.path().as_str()),
        ("number out of range for u8", "$[1]")
    );
    // Elements of compact arrays read one by one where a type needs it.
    let opt: Vec<Option<f64>> = from_beve(&to_beve(&vec![1.0f64, 2.0])).unwrap();
    assert_eq!(opt, [Some(1.0), Some(2.0)]);
    let opt: Vec<Option<bool>> = from_beve(&to_beve(&vec![true, false])).unwrap();
    assert_eq!(opt, [Some(true), Some(false)]);
    let opt: Vec<Option<String>> = from_beve(&to_beve(&vec!["a".to_string()])).unwrap();
    assert_eq!(opt, [Some("a".to_string())]);
    let t: (f32, f64) = from_beve(&to_beve(&vec![4.0f64, 5.0])).unwrap();
    assert_eq!(t, (4.0, 5.0));
    let e = err::<(u8, f64)>(&to_beve(&vec![4.0f64, 5.0]));
    assert_eq!(
        (e.message().as_str(), e.path().as_str()),
        ("expected an integer for u8", "$[0]")
    );
    let e = err::<Vec<Vec<u8>>>(&to_beve(&vec![1u8]));
    assert_eq!(e.message(), "expected an array of numbers, found a number");
    assert_eq!(e.path(), "$[0]");
}

#[test]
fn errors_name_offset_and_path() {
    let mut m = BTreeMap::new();
    m.insert("k".to_string(), vec![1.0f64, 2.0]);
    let b = to_beve(&m);
    let e = err::<BTreeMap<String, Vec<u8>>>(&b);
    assert_eq!(e.path(), "$[\"k\"][0]");
    assert_eq!(e.offset(), 6);
    assert_eq!(e.message(), "expected an integer for u8");
    let shown = e.to_string();
    assert!(
        shown.starts_with("expected an integer for u8 at byte 6"),
        "{shown}"
    );
    assert!(e.line_column().is_none());
    let e = err::<u8>(&[0x11, 1, 0]);
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("trailing characters after the value", 2)
    );
    let e = err::<Vec<Rec>>(&to_beve(&vec![BTreeMap::from([("name", 1u8)])]));
    assert_eq!(e.path(), "$[0].name");
    assert_eq!(e.message(), "expected a string, found a number");
}

#[test]
fn aligned_arrays_borrow_without_copying() {
    #[derive(Default, Debug, PartialEq)]
    struct Big<'a>(Cow<'a, [f64]>);
    impl<'de: 'a, 'a> Reflect<'de> for Big<'a> {
        fn write<W: Writer>(&self, w: &mut W) {
            self.0.write(w)
        }
        fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
            self.0.read(r)
        }
        fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
            let mut v = <Self as Default>::default();
            v.read(r)?;
            Ok(v)
        }
    }
    let data: Vec<f64> = (0..10_000_000).map(|i| i as f64).collect();
    let bytes = to_beve_aligned(&data);
    assert_eq!(bytes.as_ptr() as usize % 16, 0);
    assert_eq!(bytes[0], 0x5C);
    let v: Big = from_beve(&bytes).unwrap();
    let Cow::Borrowed(s) = &v.0 else {
        panic!("copied")
    };
    assert_eq!(s.len(), 10_000_000);
    // 5C 64 | 4-byte SIZE | PADDING_LENGTH at 6 | 1 pad byte | data at 8.
    assert_eq!(s.as_ptr() as usize, bytes.as_ptr() as usize + 8);
    assert_eq!(s[9_999_999], 9_999_999.0);
    // Glaze-readable: the plain reader path reads it into a Vec too.
    assert_eq!(from_beve::<Vec<f64>>(&bytes).unwrap().len(), 10_000_000);

    // Misaligned data is copied once, never referenced.
    let plain = to_beve(&vec![1.0f64, 2.0]);
    let mut shifted = AlignedBytes::from_slice(&[0]);
    shifted.extend_from_slice(&plain);
    let mut c: Cow<[f64]> = Cow::Borrowed(&[]);
    let mut r = BeveReader::new(&shifted, ReadOptions::default());
    r.pos = 1;
    r.read_typed_cow(&mut c).unwrap();
    assert!(matches!(c, Cow::Owned(_)));
    assert_eq!(&*c, &[1.0, 2.0]);
    // A plain typed array that happens to be aligned is borrowed.
    let mut padded = AlignedBytes::from_slice(&[0; 14]);
    padded.extend_from_slice(&plain);
    let mut r = BeveReader::new(&padded, ReadOptions::default());
    r.pos = 14;
    r.read_typed_cow(&mut c).unwrap();
    assert!(matches!(c, Cow::Borrowed(_)));
    // Other element types convert into an owned buffer.
    let mut r = BeveReader::new(&[0x14, 0x04, 7][..], ReadOptions::default());
    r.read_typed_cow(&mut c).unwrap();
    assert_eq!(c, Cow::<[f64]>::Owned(vec![7.0]));
}

#[test]
fn aligned_output_has_aligned_payloads_everywhere() {
    let r = Rec {
        id: 1,
        name: "abc".into(),
        xs: vec![1.0, 2.0, 3.0],
        tag: Some(1),
    };
    let v = vec![r.clone(), r.clone(), r];
    let a = to_beve_aligned(&v);
    assert_eq!(
        a.len(),
        beve_size_with(
            &v,
            &Options {
                aligned_arrays: true,
                ..Options::default()
            }
        )
    );
    let mut found = 0;
    for i in 0..a.len() - 2 {
        if a[i] == 0x5C && a[i + 1] == 0x64 {
            let data = i + 4 + a[i + 3] as usize;
            assert_eq!((a.as_ptr() as usize + data) % 8, 0);
            found += 1;
        }
    }
    assert_eq!(found, 3);
    let back: Vec<Rec> = from_beve(&a).unwrap();
    assert_eq!(back, v);
    // Appending: padding counts from the start of the caller's buffer.
    let mut out = vec![0xAA; 3];
    write_beve_with(
        &vec![1u32, 2],
        &mut out,
        &Options {
            aligned_arrays: true,
            ..Options::default()
        },
    );
    // PADDING_LENGTH at 6, so one pad byte puts the data at 8.
    assert_eq!(out[3..12], [0x5C, 0x54, 0x08, 0x01, 0x00, 1, 0, 0, 0]);
}

#[test]
fn peek_kind_is_rich() {
    let kinds = |b: &[u8]| BeveReader::new(b, ReadOptions::default()).peek_kind();
    assert_eq!(kinds(&[0x00]).unwrap(), ValueKind::Null);
    assert_eq!(kinds(&[0x08]).unwrap(), ValueKind::Bool);
    assert_eq!(
        kinds(&[0x29]).unwrap(),
        ValueKind::Number(Some(NumKind::I16))
    );
    assert_eq!(
        kinds(&[0x01]).unwrap(),
        ValueKind::Number(Some(NumKind::BF16))
    );
    assert_eq!(kinds(&[0x02]).unwrap(), ValueKind::String);
    assert_eq!(kinds(&[0x03]).unwrap(), ValueKind::Object);
    assert_eq!(
        kinds(&[0x6B]).unwrap(),
        ValueKind::IntKeyObject(NumKind::I64)
    );
    assert_eq!(kinds(&[0x74]).unwrap(), ValueKind::TypedArray(NumKind::U64));
    assert_eq!(
        kinds(&[0x5C, 0x44]).unwrap(),
        ValueKind::TypedArray(NumKind::F32)
    );
    assert_eq!(kinds(&[0x1C]).unwrap(), ValueKind::BoolArray);
    assert_eq!(kinds(&[0x3C]).unwrap(), ValueKind::StrArray);
    assert_eq!(kinds(&[0x05]).unwrap(), ValueKind::Array);
    assert_eq!(kinds(&[0x16]).unwrap(), ValueKind::Extension(0x16));
    assert_eq!(kinds(&[0x1E]).unwrap(), ValueKind::Extension(0x1E));
    assert_eq!(kinds(&[0x0E]).unwrap(), ValueKind::Extension(0x0E));
    for bad in [
        &[0x07][..],
        &[0x10],
        &[0x5C, 0x1C],
        &[0x7C],
        &[0x2E],
        &[0x81],
    ] {
        assert!(kinds(bad).is_err(), "{bad:02X?}");
    }
    assert!(kinds(&[0x5C]).unwrap_err().is_eof());
    assert!(kinds(&[]).unwrap_err().is_eof());
    // Inside a typed array, elements report their implied kind.
    let b = to_beve(&vec![1u32]);
    let mut r = BeveReader::new(&b, ReadOptions::default());
    let mut seq = r.begin_array().unwrap();
    assert!(r.next_element(&mut seq).unwrap());
    assert_eq!(
        r.peek_kind().unwrap(),
        ValueKind::Number(Some(NumKind::U32))
    );
    assert_eq!(r.read_wire_number().unwrap(), crate::number::Wire::Uint(1));
    assert!(!r.next_element(&mut seq).unwrap());
    r.finish().unwrap();
}

#[test]
fn extensions_are_kept_verbatim() {
    // A complex<f64> and a 1x1 matrix, written by hand.
    let complex = [
        0x1E, 0x60, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 0, 0, 0x04, 0xC0,
    ];
    let mut r = BeveReader::new(&complex[..], ReadOptions::default());
    assert_eq!(r.read_extension().unwrap(), &complex[..]);
    r.finish().unwrap();
    let mut w = BeveWriter::new(Vec::new());
    w.raw_beve(&complex);
    assert_eq!(w.into_inner(), complex);
    let mut r = BeveReader::new(&[0x11, 0][..], ReadOptions::default());
    assert_eq!(
        r.read_extension().unwrap_err().message(),
        "expected a BEVE extension value, found a number"
    );
    // Unknown struct members holding extensions are skipped.
    let mut doc = vec![
        0x03, 0x08, 0x08, b'i', b'd', 0x51, 1, 0, 0, 0, 0x08, b'z', b'z',
    ];
    doc.extend_from_slice(&complex);
    let skip = Options {
        read: ReadOptions {
            unknown_keys: UnknownKeys::Skip,
            ..ReadOptions::default()
        },
        ..Options::default()
    };
    assert_eq!(from_beve_with::<Rec>(&doc, &skip).unwrap().id, 1);
    let mut w = BeveWriter::new(Vec::new());
    transcode(&doc, &mut w).unwrap();
    assert_eq!(w.into_inner(), doc);
}

#[test]
fn hostile_counts_never_allocate() {
    let huge = [0xFFu8; 8]; // SIZE 2^62 - 1
    for h in [0x64u8, 0x14, 0x1C, 0x3C, 0x05] {
        let mut b = vec![h];
        b.extend_from_slice(&huge);
        b.extend_from_slice(&[0; 16]);
        for e in [
            err::<Vec<f64>>(&b),
            err::<Vec<u8>>(&b),
            err::<Vec<bool>>(&b),
            err::<Vec<String>>(&b),
            err::<Vec<Rec>>(&b),
            err::<Vec<Option<u8>>>(&b),
        ] {
            assert!(
                e.is_eof() || e.message().starts_with("expected"),
                "{h:02X}: {e}"
            );
        }
        let mut c: Cow<[f64]> = Cow::Borrowed(&[]);
        assert!(BeveReader::new(&b, ReadOptions::default())
            .read_typed_cow(&mut c)
            .is_err());
    }
    for h in [0x03u8, 0x73] {
        let mut b = vec![h];
        b.extend_from_slice(&huge);
        assert!(err::<HashMap<String, u8>>(&b).is_eof() || h == 0x73);
        assert!(err::<BTreeMap<u64, u8>>(&b).is_eof() || h == 0x03);
        assert!(err::<Rec>(&b).is_eof());
    }
    // Aligned array: count too large, padding too large.
    let mut b = vec![0x5C, 0x64];
    b.extend_from_slice(&huge);
    b.push(0);
    assert!(err::<Vec<f64>>(&b).is_eof());
    assert_eq!(
        err::<Vec<f64>>(&[0x5C, 0x64, 0x04, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).message(),
        "aligned array padding must be smaller than the element"
    );
}

#[test]
fn depth_limit_applies_to_reads_skips_and_transcodes() {
    let mut deep = [0x05, 0x04].repeat(300);
    deep.extend_from_slice(&[0x05, 0x00]);
    let e = err::<Nest>(&deep);
    assert_eq!(e.message(), "nesting deeper than the limit of 256");
    assert_eq!(e.offset(), 512);
    let mut ok = [0x05, 0x04].repeat(255);
    ok.extend_from_slice(&[0x05, 0x00]);
    from_beve::<Nest>(&ok).unwrap();
    let low = Options {
        read: ReadOptions {
            max_depth: 2,
            ..ReadOptions::default()
        },
        ..Options::default()
    };
    let two = to_beve(&vec![vec![1u8]]);
    from_beve_with::<Vec<Vec<u8>>>(&two, &low).unwrap();
    let three = to_beve(&vec![vec![vec![1u8]]]);
    assert_eq!(
        from_beve_with::<Vec<Vec<Vec<u8>>>>(&three, &low)
            .unwrap_err()
            .message(),
        "nesting deeper than the limit of 2"
    );
    let mut w = BeveWriter::new(Vec::new());
    assert!(transcode_with(&three, &mut w, &low.read).is_err());
    // Skipping an unknown member counts the levels already open.
    let mut doc = vec![0x03, 0x04, 0x04, b'z'];
    doc.extend_from_slice(&two);
    let skip_low = Options {
        read: ReadOptions {
            max_depth: 2,
            unknown_keys: UnknownKeys::Skip,
            ..ReadOptions::default()
        },
        ..Options::default()
    };
    assert!(from_beve_with::<Rec>(&doc, &skip_low).is_err());
}

#[test]
fn delimited_sequences() {
    let mut out = Vec::new();
    write_beve_delimited(&1u8, &mut out);
    write_beve_delimited(&vec![true], &mut out);
    assert_eq!(out, [0x11, 1, 0x06, 0x1C, 0x04, 0x01]);
    let parts: Vec<&[u8]> = Delimited::new(&out).map(|p| p.unwrap()).collect();
    assert_eq!(parts, [&[0x11, 1][..], &[0x1C, 0x04, 0x01][..]]);
    let mut lead = vec![0x06];
    lead.extend_from_slice(&out);
    lead.push(0x06);
    assert_eq!(Delimited::new(&lead).count(), 2);
    let mut it = Delimited::new(&[0x11, 1, 0x11, 2][..]);
    assert!(it.next().unwrap().is_ok());
    assert_eq!(
        it.next().unwrap().unwrap_err().message(),
        "expected a data delimiter (0x06) between values"
    );
    assert!(it.next().is_none());
    let mut it = Delimited::new(&[0x11, 1, 0x06, 0x06, 0x11, 2][..]);
    it.next();
    assert_eq!(
        it.next().unwrap().unwrap_err().message(),
        "expected a value"
    );
    let mut it = Delimited::new(&[0x11, 1, 0x06, 0x02, 0x08, b'h'][..]);
    assert_eq!(it.read::<u8>().unwrap().unwrap(), 1);
    let e = it.read::<String>().unwrap().unwrap_err();
    assert!(e.is_eof());
    assert_eq!(e.offset(), 4);
    assert!(Delimited::new(&[][..]).next().is_none());
    let mut dw = DelimitedWriter::with_options(Options {
        aligned_arrays: true,
        ..Options::default()
    });
    dw.push(&vec![1.0f64]);
    dw.push(&vec![2.0f64]);
    assert_eq!(dw.count(), 2);
    let b = dw.into_bytes();
    let mut it = Delimited::new(&b);
    assert_eq!(it.read::<Vec<f64>>().unwrap().unwrap(), [1.0]);
    assert_eq!(it.read::<Vec<f64>>().unwrap().unwrap(), [2.0]);
}

#[test]
fn every_prefix_is_an_eof_error() {
    let r = Rec {
        id: 1,
        name: "name".into(),
        xs: vec![1.0; 70],
        tag: Some(2),
    };
    let docs = [
        to_beve(&vec![r.clone(), Rec::default()]),
        to_beve_aligned(&vec![r]).to_vec(),
        to_beve(&BTreeMap::from([(1u16, vec!["a".to_string()])])),
        to_beve(&vec![vec![true; 9]]),
    ];
    for d in &docs {
        for cut in 0..d.len() {
            let p = &d[..cut];
            let e = super::skip::skip(p, 0, 0, 256).unwrap_err();
            assert!(e.is_eof(), "skip {cut}: {e}");
            let mut w = BeveWriter::new(Vec::new());
            assert!(transcode(p, &mut w).unwrap_err().is_eof());
        }
    }
    for cut in 0..docs[0].len() {
        let e = err::<Vec<Rec>>(&docs[0][..cut]);
        assert!(e.is_eof(), "{cut}: {e}");
    }
}

#[test]
fn invalid_utf8_is_rejected_with_its_offset() {
    let e = err::<String>(&[0x02, 0x0C, b'a', 0xFF, b'b']);
    assert_eq!((e.message().as_str(), e.offset()), ("invalid UTF-8", 3));
    let e = err::<Vec<String>>(&[0x3C, 0x04, 0x04, 0xC0]);
    assert_eq!(
        (e.message().as_str(), e.path().as_str()),
        ("invalid UTF-8", "$[0]")
    );
    let e = err::<BTreeMap<String, u8>>(&[0x03, 0x04, 0x04, 0xFF, 0x11, 0]);
    assert_eq!(e.message(), "invalid UTF-8");
    let e = err::<Rec>(&[0x03, 0x04, 0x04, 0xFF, 0x11, 0]);
    assert_eq!(e.message(), "invalid UTF-8");
}

/// A struct key that matches no field is checked as text, whether it is then reported or
/// skipped, with the offset of its first bad byte.
#[test]
fn struct_keys_matching_no_field_are_checked() {
    let skip = crate::beve::Options {
        read: crate::ReadOptions {
            unknown_keys: crate::UnknownKeys::Skip,
            ..Default::default()
        },
        ..Default::default()
    };
    let read_skipping = |b: &[u8]| crate::beve::from_beve_with::<Rec>(b, &skip);
    // {"id": 7, <key>: 1}: the unknown key's bytes start at offset 7.
    let doc = |key: &[u8]| {
        let mut b = vec![0x03, 0x08, 0x08, b'i', b'd', 0x51, 7, 0, 0, 0];
        b.push((key.len() as u8) << 2);
        b.extend_from_slice(key);
        b.extend_from_slice(&[0x11, 1]);
        b
    };
    for bad in [&[0xFF][..], b"a\xC3", b"ab\xE2\x82", b"\xED\xA0\x80"] {
        let b = doc(bad);
        let valid_up_to = std::str::from_utf8(bad).unwrap_err().valid_up_to();
        for e in [err::<Rec>(&b), read_skipping(&b).unwrap_err()] {
            assert_eq!(
                (e.message().as_str(), e.offset()),
                ("invalid UTF-8", 11 + valid_up_to),
                "{bad:?}"
            );
        }
    }
    // Valid text that names no field: reported by name, or skipped.
    let b = doc("é😀".as_bytes());
    assert_eq!(err::<Rec>(&b).message(), "unknown key `é😀`");
    assert_eq!(read_skipping(&b).unwrap().id, 7);
}

/// Keys are found whatever SIZE width they were written with (Glaze reads any), in declaration
/// order (where the reader first compares the guessed key's encoded bytes) or not, and a key
/// that is a prefix or an extension of the guessed one is not taken for it.
#[test]
fn struct_keys_are_found_in_any_size_width_and_order() {
    let r = Rec {
        id: 7,
        name: "nm".into(),
        xs: vec![0.5, 1.5],
        tag: Some(-3),
    };
    let values = [
        ("id", to_beve(&r.id)),
        ("name", to_beve(&r.name)),
        ("xs", to_beve(&r.xs)),
        ("tag", to_beve(&r.tag)),
    ];
    let doc = |order: &[usize], width: &dyn Fn(usize) -> u32, rename: &dyn Fn(&str) -> String| {
        let mut b = vec![0x03, (order.len() as u8) << 2];
        for (k, &i) in order.iter().enumerate() {
            let (name, value) = &values[i];
            let name = rename(name);
            let w = width(k);
            let size = (name.len() as u64) << 2 | u64::from(w);
            b.extend_from_slice(&size.to_le_bytes()[..1 << w]);
            b.extend_from_slice(name.as_bytes());
            b.extend_from_slice(value);
        }
        b
    };
    let same = |n: &str| n.to_string();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2]] {
        for pattern in 0..4u32 * 4 * 4 * 4 {
            let width = |k: usize| (pattern >> (2 * k)) & 3;
            let b = doc(&order, &width, &same);
            assert_eq!(from_beve::<Rec>(&b).unwrap(), r, "{order:?} {pattern}");
        }
    }
    let minimal = |_: usize| 0;
    // The first key a prefix of `id`, longer, or in other letters.
    for unknown in ["i", "idd", "ID"] {
        let rename = |n: &str| {
            if n == "id" {
                unknown.to_string()
            } else {
                n.to_string()
            }
        };
        let b = doc(&[0, 1, 2, 3], &minimal, &rename);
        let e = err::<Rec>(&b);
        assert_eq!(e.message(), format!("unknown key `{unknown}`"));
        assert_eq!(e.offset(), 2);
    }
}

#[test]
fn beve_to_json_lines_and_options() {
    let mut seq = Vec::new();
    write_beve_delimited(&1u8, &mut seq);
    write_beve_delimited(&vec!["a".to_string()], &mut seq);
    assert_eq!(beve_to_json(&seq).unwrap(), "1\n[\"a\"]");
    let mut lead = vec![0x06];
    lead.extend_from_slice(&seq);
    lead.push(0x06);
    assert_eq!(beve_to_json(&lead).unwrap(), "\n1\n[\"a\"]\n");
    assert!(beve_to_json(&[0x11, 1, 0x11, 2][..]).is_err());
    assert!(beve_to_json(&[][..]).unwrap_err().is_eof());
    assert!(beve_to_json(&[0x06][..]).unwrap_err().is_eof());
    let pretty = crate::json::Options {
        pretty: true,
        ..crate::json::Options::default()
    };
    let b = to_beve(&BTreeMap::from([("k", vec![1u8])]));
    assert_eq!(
        beve_to_json_with(&b, &pretty).unwrap(),
        "{\n   \"k\": [\n      1\n   ]\n}"
    );
    // Integer keys are quoted; complex numbers are pairs; bf16 converts.
    let b = to_beve(&BTreeMap::from([(-1i64, bf16::from_f32(0.5))]));
    assert_eq!(beve_to_json(&b).unwrap(), r#"{"-1":0.5}"#);
    let c = [0x1E, 0x49, 0x04, 1, 0, 0, 0, 2, 0, 0, 0];
    assert_eq!(beve_to_json(&c[..]).unwrap(), "[[1,2]]");
    // An aligned complex array (the spec's worked example) reads like a plain one.
    let mut a = vec![0x1E, 0x62, 0x5C, 0x64, 0x10, 0x02, 0, 0];
    for x in [1.0f64, 2.0, 3.0, 4.0] {
        a.extend_from_slice(&x.to_le_bytes());
    }
    assert_eq!(beve_to_json(&a).unwrap(), "[[1,2],[3,4]]");
    a[4] = 0x0C; // an odd component count
    a.truncate(a.len() - 8);
    assert_eq!(
        beve_to_json(&a).unwrap_err().message(),
        "aligned complex array with an odd component count"
    );
    // Strings with control characters are escaped; invalid UTF-8 is an error.
    assert_eq!(beve_to_json(&to_beve(&"a\u{1}")).unwrap(), r#""a\u0001""#);
    assert!(beve_to_json(&[0x02, 0x04, 0xFF][..]).is_err());
}

#[test]
fn raw_json_is_a_validated_string() {
    let raw = crate::RawJsonBuf::new(r#"{"a": [1, 2]}"#).unwrap();
    let b = to_beve(&raw);
    assert_eq!(&b[..2], &[0x02, 0x34]);
    let back: crate::RawJsonBuf = from_beve(&b).unwrap();
    assert_eq!(back, raw);
    let borrowed: crate::RawJson = from_beve(&b).unwrap();
    assert_eq!(borrowed.get(), r#"{"a": [1, 2]}"#);
    let e = from_beve::<crate::RawJsonBuf>(&to_beve(&"{nope")).unwrap_err();
    assert_eq!(e.message(), "a raw JSON string that is not valid JSON");
    assert_eq!(e.offset(), 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
    /// Byte strings built mostly from header and SIZE bytes: every reader returns (an error
    /// or a value), none panics, and what transcodes also skips to the same end.
    #[test]
    fn arbitrary_input_never_panics(
        b in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(vec![
                    0x00u8, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x08, 0x0B, 0x0E, 0x11, 0x16,
                    0x18, 0x1C, 0x1E, 0x3C, 0x41, 0x44, 0x5C, 0x61, 0x62, 0x64, 0x73, 0x74, 0xFF,
                ]),
                proptest::prelude::any::<u8>(),
            ],
            0..48,
        )
    ) {
        let mut w = BeveWriter::new(Vec::new());
        let t = transcode(&b, &mut w);
        let s = super::skip::skip(&b, 0, 0, 256);
        match (&t, &s) {
            (Ok(()), Ok(end)) => proptest::prop_assert_eq!(*end, b.len()),
            (Ok(()), Err(e)) => proptest::prop_assert!(false, "skip failed: {}", e),
            (Err(_), _) => {}
        }
        let _ = beve_to_json(&b);
        let _ = from_beve::<Rec>(&b);
        let _ = from_beve::<Vec<f64>>(&b);
        let _ = from_beve::<Vec<String>>(&b);
        let _ = from_beve::<Vec<bool>>(&b);
        let _ = from_beve::<BTreeMap<u64, Vec<Option<i8>>>>(&b);
        let _ = from_beve::<Nest>(&b);
        let _ = from_beve::<crate::Value>(&b);
        let mut c: Cow<[u32]> = Cow::Borrowed(&[]);
        let _ = BeveReader::new(&b, ReadOptions::default()).read_typed_cow(&mut c);
        for part in Delimited::new(&b) {
            let _ = part;
        }
    }
}
