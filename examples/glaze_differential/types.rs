//! The record types of the `typed` mode, mirroring `namespace typed` in
//! `baseline-cpp/differential.cpp` member for member, and their random values.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::num::{NonZeroI8, NonZeroU16, NonZeroU32, NonZeroU64};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use structio::Reflect;

use crate::Rng;

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Point {
    x: f64,
    y: f64,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Empty {}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Inner {
    name: String,
    ids: Vec<i32>,
    at: Point,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Scalars {
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
    b: bool,
    s: String,
    opt_i: Option<i32>,
    opt_s: Option<String>,
    opt_p: Option<Point>,
    opt_v: Option<Vec<f64>>,
    nested: Inner,
    nothing: Empty,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Arrays {
    vi8: Vec<i8>,
    vi16: Vec<i16>,
    vi32: Vec<i32>,
    vi64: Vec<i64>,
    vu8: Vec<u8>,
    vu16: Vec<u16>,
    vu32: Vec<u32>,
    vu64: Vec<u64>,
    vf32: Vec<f32>,
    vf64: Vec<f64>,
    vb: Vec<bool>,
    vs: Vec<String>,
    vp: Vec<Point>,
    vinner: Vec<Inner>,
    vvi: Vec<Vec<i32>>,
    vo: Vec<Option<i32>>,
    ai: [i32; 3],
    ad: [f64; 2],
    astr: [String; 2],
    ab: [bool; 3],
    ap: [Point; 2],
    au16: [u16; 4],
    vad: Vec<[f64; 2]>,
    vaf3: Vec<[f32; 3]>,
    vvd: Vec<Vec<f64>>,
    vos: Vec<Option<String>>,
    set_i: BTreeSet<i32>,
    deq: VecDeque<f64>,
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Maps {
    s_i32: BTreeMap<String, i32>,
    s_pt: BTreeMap<String, Point>,
    s_vd: BTreeMap<String, Vec<f64>>,
    i32_s: BTreeMap<i32, String>,
    u64_d: BTreeMap<u64, f64>,
    i64_vs: BTreeMap<i64, Vec<String>>,
    i8_b: BTreeMap<i8, bool>,
    u16_pt: BTreeMap<u16, Point>,
    v_maps: Vec<BTreeMap<String, i32>>,
    s_opt: BTreeMap<String, Option<i32>>,
}

/// `enum class color : uint8_t` with `glz::enumerate`.
#[derive(Reflect, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(rename_all = "lowercase")]
#[repr(u8)]
pub enum Color {
    #[default]
    Red = 0,
    Green = 1,
    Blue = 2,
}

/// `enum class level : int16_t { low = -1, ... }` with `glz::enumerate`: Glaze tags it unsigned,
/// so `low` is the u16 65535 on the wire.
#[derive(Reflect, Debug, Default, PartialEq, Clone, Copy)]
#[structio(rename_all = "lowercase")]
#[repr(u16)]
pub enum Level {
    Low = 65535,
    #[default]
    Mid = 0,
    High = 1,
}

/// `std::variant<circle, rect>` with `glz::meta` tag `"type"` and ids `circle`, `rect`.
#[derive(Reflect, Debug, PartialEq, Clone)]
#[structio(tag = "type", rename_all = "lowercase")]
pub enum Shape {
    Circle { radius: f64 },
    Rect { width: f64, height: f64 },
}

impl Default for Shape {
    fn default() -> Self {
        Shape::Circle { radius: 0.0 }
    }
}

/// `std::variant<int64_t, std::string, std::vector<std::string>, inner>`.
#[derive(Reflect, Debug, PartialEq, Clone)]
#[structio(untagged)]
pub enum Var2 {
    Int(i64),
    Text(String),
    Strs(Vec<String>),
    In(Inner),
}

impl Default for Var2 {
    fn default() -> Self {
        Var2::Int(0)
    }
}

/// `std::variant<std::monostate, double, std::string, bool, std::vector<int32_t>, point>`:
/// BEVE v2 writes the bare alternative.
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
#[structio(untagged)]
pub enum Var {
    #[default]
    Nothing,
    Num(f64),
    Text(String),
    Flag(bool),
    Ints(Vec<i32>),
    Pt(Point),
}

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Mixed {
    tup: (i32, String, f64, bool),
    tup2: (String, Vec<i32>, Point),
    var: Var,
    vars: Vec<Var>,
    var2: Var2,
    sh: Shape,
    shapes: Vec<Shape>,
    c: Color,
    l: Level,
    cs: Vec<Color>,
    by_name: BTreeMap<String, Color>,
    by_color: BTreeMap<Color, i32>,
}

/// Containers inside containers, variants and optionals in maps and vectors, a boxed struct.
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Nested {
    s_var: BTreeMap<String, Var>,
    v_opt_p: Vec<Option<Point>>,
    opt_vs: Option<Vec<String>>,
    vvs: Vec<Vec<String>>,
    v_tup: Vec<(i32, String)>,
    s_vinner: BTreeMap<String, Vec<Inner>>,
    v_i_vf: Vec<BTreeMap<i32, Vec<f32>>>,
    boxed: Option<Box<Inner>>,
    u8_shape: BTreeMap<u8, Shape>,
    v_var2: Vec<Var2>,
    a_vi16: [Vec<i16>; 2],
    v_astr: Vec<[String; 2]>,
    vvv: Vec<Vec<Vec<u8>>>,
    vvb: Vec<Vec<bool>>,
    s_s_d: BTreeMap<String, BTreeMap<String, f64>>,
    v_empty: Vec<Empty>,
    opt_inner: Option<Inner>,
    i_opt_s: BTreeMap<i32, Option<String>>,
}

#[cfg(feature = "num-complex")]
#[derive(Reflect, Debug, Default, PartialEq, Clone)]
pub struct Complexes {
    cd: num_complex::Complex<f64>,
    cf: num_complex::Complex<f32>,
    vcd: Vec<num_complex::Complex<f64>>,
    vcf: Vec<num_complex::Complex<f32>>,
}

/// Characters strings are made of: ASCII, escapes, control bytes, DEL, 2/3/4-byte UTF-8.
const CHARS: [char; 24] = [
    'a',
    'Z',
    ' ',
    '~',
    '0',
    '"',
    '\\',
    '/',
    '\0',
    '\u{1}',
    '\n',
    '\t',
    '\u{1f}',
    '\u{7f}',
    'é',
    '\u{7ff}',
    '\u{800}',
    '€',
    '\u{2028}',
    '\u{fffd}',
    '\u{ffff}',
    '😀',
    '\u{10ffff}',
    '<',
];

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    fn int<T: TryFrom<i128>>(&mut self) -> T {
        // Mostly small values, sometimes the type's full range.
        let r = self.next();
        let wide = match r % 4 {
            0 => (r >> 8) as i8 as i128,
            1 => (r >> 8) as i64 as i128,
            2 => (r >> 8) as i128,
            _ => (r >> 8) as i16 as i128,
        };
        let bits = (std::mem::size_of::<T>() * 8) as u32;
        let unsigned = T::try_from(-1).is_err();
        let v = if unsigned {
            wide.rem_euclid(1 << bits)
        } else {
            (wide.rem_euclid(1 << bits) ^ (1 << (bits - 1))) - (1 << (bits - 1))
        };
        T::try_from(v).ok().expect("in range")
    }

    /// A finite double: random bits, a short decimal or a small integer.
    fn f64(&mut self) -> f64 {
        let r = self.next();
        let v = match r % 5 {
            0 => f64::from_bits(self.next()),
            4 => [
                0.0,
                -0.0,
                5e-324,
                f64::MIN_POSITIVE,
                f64::MAX,
                f64::MIN,
                1e21,
                1e-7,
                0.1,
            ][(r >> 8) as usize % 9],
            1 => (r >> 8) as i32 as f64 / [1.0, 10.0, 100.0, 1e3][(r >> 4) as usize % 4],
            2 => ((r >> 8) % 1000) as f64 - 500.0,
            _ => ((r >> 8) % 100_000) as f64 * 10f64.powi(((r >> 40) % 40) as i32 - 20),
        };
        if v.is_finite() {
            v
        } else {
            0.5
        }
    }

    /// A finite float, made the same ways.
    fn f32(&mut self) -> f32 {
        let r = self.next();
        let v = match r % 4 {
            0 => f32::from_bits(self.next() as u32),
            3 => [
                0.0,
                -0.0,
                1e-45,
                f32::MIN_POSITIVE,
                f32::MAX,
                f32::MIN,
                1e7,
                16_777_216.0,
            ][(r >> 8) as usize % 8],
            1 => (r >> 8) as i16 as f32 / [1.0, 10.0, 100.0, 1e3][(r >> 4) as usize % 4],
            _ => ((r >> 8) % 1000) as f32 - 500.0,
        };
        if v.is_finite() {
            v
        } else {
            0.25
        }
    }

    /// A UTF-8 string: mostly under 80 bytes, sometimes of a byte length near 63/64 or
    /// 16383/16384 (where BEVE's size prefix grows).
    fn string(&mut self) -> String {
        let target = match self.below(40) {
            0 => 58 + self.below(12) as usize,
            1 if self.chance(8) => 16378 + self.below(12) as usize,
            _ => self.below(24) as usize,
        };
        let mut s = String::with_capacity(target);
        loop {
            let c = CHARS[self.below(CHARS.len() as u64) as usize];
            if s.len() + c.len_utf8() > target {
                break;
            }
            s.push(c);
        }
        while s.len() < target {
            s.push('x');
        }
        s
    }

    /// A short key-like string (map keys).
    fn key(&mut self) -> String {
        let n = self.below(6) as usize;
        (0..n)
            .map(|_| CHARS[self.below(CHARS.len() as u64) as usize])
            .collect()
    }

    fn len(&mut self, max: u64) -> usize {
        if self.chance(5) {
            0
        } else {
            self.below(max + 1) as usize
        }
    }

    fn vec<T>(&mut self, max: u64, mut f: impl FnMut(&mut Rng) -> T) -> Vec<T> {
        let n = self.len(max);
        (0..n).map(|_| f(self)).collect()
    }

    fn map<K: Ord, V>(
        &mut self,
        max: u64,
        mut k: impl FnMut(&mut Rng) -> K,
        mut v: impl FnMut(&mut Rng) -> V,
    ) -> BTreeMap<K, V> {
        let n = self.len(max);
        (0..n).map(|_| (k(self), v(self))).collect()
    }

    fn point(&mut self) -> Point {
        Point {
            x: self.f64(),
            y: self.f64(),
        }
    }

    fn inner(&mut self) -> Inner {
        Inner {
            name: self.string(),
            ids: self.vec(5, Rng::int),
            at: self.point(),
        }
    }

    fn opt<T>(&mut self, f: impl FnOnce(&mut Rng) -> T) -> Option<T> {
        if self.chance(2) {
            Some(f(self))
        } else {
            None
        }
    }

    fn color(&mut self) -> Color {
        [Color::Red, Color::Green, Color::Blue][self.below(3) as usize]
    }

    fn var(&mut self) -> Var {
        match self.below(6) {
            0 => Var::Nothing,
            1 => Var::Num(self.f64()),
            2 => Var::Text(self.string()),
            3 => Var::Flag(self.chance(2)),
            4 => Var::Ints(self.vec(4, Rng::int)),
            _ => Var::Pt(self.point()),
        }
    }

    fn var2(&mut self) -> Var2 {
        match self.below(4) {
            0 => Var2::Int(self.int()),
            1 => Var2::Text(self.string()),
            2 => Var2::Strs(self.vec(3, Rng::string)),
            _ => Var2::In(self.inner()),
        }
    }

    fn shape(&mut self) -> Shape {
        if self.chance(2) {
            Shape::Circle { radius: self.f64() }
        } else {
            Shape::Rect {
                width: self.f64(),
                height: self.f64(),
            }
        }
    }
}

pub fn scalars(rng: &mut Rng) -> Scalars {
    Scalars {
        i8: rng.int(),
        i16: rng.int(),
        i32: rng.int(),
        i64: rng.int(),
        u8: rng.int(),
        u16: rng.int(),
        u32: rng.int(),
        u64: rng.int(),
        f32: rng.f32(),
        f64: rng.f64(),
        b: rng.chance(2),
        s: rng.string(),
        opt_i: rng.opt(Rng::int),
        opt_s: rng.opt(Rng::string),
        opt_p: rng.opt(Rng::point),
        opt_v: rng.opt(|r| r.vec(4, Rng::f64)),
        nested: rng.inner(),
        nothing: Empty {},
    }
}

pub fn arrays(rng: &mut Rng) -> Arrays {
    Arrays {
        vi8: rng.vec(70, Rng::int),
        vi16: rng.vec(8, Rng::int),
        vi32: rng.vec(8, Rng::int),
        vi64: rng.vec(8, Rng::int),
        vu8: rng.vec(70, Rng::int),
        vu16: rng.vec(8, Rng::int),
        vu32: rng.vec(8, Rng::int),
        vu64: rng.vec(8, Rng::int),
        vf32: rng.vec(8, Rng::f32),
        vf64: rng.vec(8, Rng::f64),
        vb: rng.vec(70, |r| r.chance(2)),
        vs: rng.vec(5, Rng::string),
        vp: rng.vec(3, Rng::point),
        vinner: rng.vec(2, Rng::inner),
        vvi: rng.vec(3, |r| r.vec(4, Rng::int)),
        vo: rng.vec(5, |r| r.opt(Rng::int)),
        ai: [rng.int(), rng.int(), rng.int()],
        ad: [rng.f64(), rng.f64()],
        astr: [rng.string(), rng.string()],
        ab: [rng.chance(2), rng.chance(2), rng.chance(2)],
        ap: [rng.point(), rng.point()],
        au16: [rng.int(), rng.int(), rng.int(), rng.int()],
        vad: rng.vec(4, |r| [r.f64(), r.f64()]),
        vaf3: rng.vec(4, |r| [r.f32(), r.f32(), r.f32()]),
        vvd: rng.vec(3, |r| r.vec(3, Rng::f64)),
        vos: rng.vec(4, |r| r.opt(Rng::string)),
        set_i: rng.vec(5, Rng::int).into_iter().collect(),
        deq: rng.vec(5, Rng::f64).into(),
    }
}

pub fn maps(rng: &mut Rng) -> Maps {
    Maps {
        s_i32: rng.map(5, Rng::key, Rng::int),
        s_pt: rng.map(3, Rng::key, Rng::point),
        s_vd: rng.map(3, Rng::key, |r| r.vec(4, Rng::f64)),
        i32_s: rng.map(5, Rng::int, Rng::string),
        u64_d: rng.map(5, Rng::int, Rng::f64),
        i64_vs: rng.map(3, Rng::int, |r| r.vec(3, Rng::string)),
        i8_b: rng.map(70, Rng::int, |r| r.chance(2)),
        u16_pt: rng.map(3, Rng::int, Rng::point),
        v_maps: rng.vec(3, |r| r.map(3, Rng::key, Rng::int)),
        s_opt: rng.map(4, Rng::key, |r| r.opt(Rng::int)),
    }
}

pub fn mixed(rng: &mut Rng) -> Mixed {
    Mixed {
        tup: (rng.int(), rng.string(), rng.f64(), rng.chance(2)),
        tup2: (rng.string(), rng.vec(4, Rng::int), rng.point()),
        var: rng.var(),
        vars: rng.vec(4, Rng::var),
        var2: rng.var2(),
        sh: rng.shape(),
        shapes: rng.vec(3, Rng::shape),
        c: rng.color(),
        l: [Level::Low, Level::Mid, Level::High][rng.below(3) as usize],
        cs: rng.vec(5, Rng::color),
        by_name: rng.map(3, Rng::key, Rng::color),
        by_color: rng.map(3, Rng::color, Rng::int),
    }
}

pub fn nested(rng: &mut Rng) -> Nested {
    Nested {
        s_var: rng.map(4, Rng::key, Rng::var),
        v_opt_p: rng.vec(4, |r| r.opt(Rng::point)),
        opt_vs: rng.opt(|r| r.vec(3, Rng::string)),
        vvs: rng.vec(3, |r| r.vec(3, Rng::string)),
        v_tup: rng.vec(3, |r| (r.int(), r.string())),
        s_vinner: rng.map(2, Rng::key, |r| r.vec(2, Rng::inner)),
        v_i_vf: rng.vec(2, |r| r.map(3, Rng::int, |r| r.vec(3, Rng::f32))),
        boxed: rng.opt(|r| Box::new(r.inner())),
        u8_shape: rng.map(3, Rng::int, Rng::shape),
        v_var2: rng.vec(3, Rng::var2),
        a_vi16: [rng.vec(4, Rng::int), rng.vec(4, Rng::int)],
        v_astr: rng.vec(3, |r| [r.string(), r.string()]),
        vvv: rng.vec(3, |r| r.vec(3, |r| r.vec(20, Rng::int))),
        vvb: rng.vec(3, |r| r.vec(20, |r| r.chance(2))),
        s_s_d: rng.map(3, Rng::key, |r| r.map(3, Rng::key, Rng::f64)),
        v_empty: rng.vec(3, |_| Empty {}),
        opt_inner: rng.opt(Rng::inner),
        i_opt_s: rng.map(4, Rng::int, |r| r.opt(Rng::string)),
    }
}

/// `typed::times`: `std::chrono::nanoseconds` as `Duration`, and the std types that are an
/// integer or a string on the wire.
#[derive(Reflect, Debug, PartialEq, Clone)]
pub struct Times {
    d: Duration,
    vd: Vec<Duration>,
    od: Option<Duration>,
    by_name: BTreeMap<String, Duration>,
    nz32: NonZeroU32,
    vnz64: Vec<NonZeroU64>,
    vnz8: Vec<NonZeroI8>,
    nz_keys: BTreeMap<NonZeroU16, i32>,
    a40: [u8; 40],
    boxed: Box<[String]>,
    shared: Arc<str>,
    ips: Vec<IpAddr>,
    sock: SocketAddr,
    path: PathBuf,
}

impl Default for Times {
    fn default() -> Self {
        Times {
            d: Duration::ZERO,
            vd: Vec::new(),
            od: None,
            by_name: BTreeMap::new(),
            nz32: NonZeroU32::MIN,
            vnz64: Vec::new(),
            vnz8: Vec::new(),
            nz_keys: BTreeMap::new(),
            a40: [0; 40],
            boxed: Box::default(),
            shared: Arc::from(""),
            ips: Vec::new(),
            // Glaze's `std::string{}` is empty, which no address reads from: the record before
            // the first has every member, so this value is never compared.
            sock: SocketAddr::from(([0, 0, 0, 0], 0)),
            path: PathBuf::new(),
        }
    }
}

impl Rng {
    /// A duration that `std::chrono::nanoseconds` holds (at most `i64::MAX` nanoseconds).
    fn duration(&mut self) -> Duration {
        let n: i64 = self.int();
        Duration::from_nanos(n.unsigned_abs().min(i64::MAX as u64))
    }

    fn nonzero<T: TryFrom<i128> + Copy, N>(&mut self, new: fn(T) -> Option<N>) -> N {
        loop {
            if let Some(v) = new(self.int()) {
                return v;
            }
        }
    }

    fn ip(&mut self) -> IpAddr {
        if self.chance(2) {
            IpAddr::from(self.int::<u32>().to_be_bytes())
        } else {
            let mut b = [0u8; 16];
            for x in &mut b {
                // Mostly zero groups, so that `::` shortening is exercised.
                *x = if self.chance(2) { 0 } else { self.int() };
            }
            IpAddr::from(b)
        }
    }
}

pub fn times(rng: &mut Rng) -> Times {
    Times {
        d: rng.duration(),
        vd: rng.vec(6, Rng::duration),
        od: rng.opt(Rng::duration),
        by_name: rng.map(3, Rng::key, Rng::duration),
        nz32: rng.nonzero(NonZeroU32::new),
        vnz64: rng.vec(5, |r| r.nonzero(NonZeroU64::new)),
        vnz8: rng.vec(70, |r| r.nonzero(NonZeroI8::new)),
        nz_keys: rng.map(3, |r| r.nonzero(NonZeroU16::new), Rng::int),
        a40: std::array::from_fn(|_| rng.int()),
        boxed: rng.vec(3, Rng::string).into_boxed_slice(),
        shared: Arc::from(rng.string()),
        ips: rng.vec(3, Rng::ip),
        sock: SocketAddr::new(rng.ip(), rng.int()),
        path: PathBuf::from(rng.string()),
    }
}

#[cfg(feature = "num-complex")]
pub fn complexes(rng: &mut Rng) -> Complexes {
    use num_complex::Complex;
    Complexes {
        cd: Complex::new(rng.f64(), rng.f64()),
        cf: Complex::new(rng.f32(), rng.f32()),
        vcd: rng.vec(4, |r| Complex::new(r.f64(), r.f64())),
        vcf: rng.vec(4, |r| Complex::new(r.f32(), r.f32())),
    }
}
