//! Value-level differential test against Glaze: many `f64`, `f32` and string values written by
//! structio and by Glaze (`baseline-cpp/differential.cpp`, built by `baseline-cpp/build.sh`),
//! compared byte for byte, and Glaze's text and BEVE read back by structio; then random values
//! of typed records (`types.rs`, `typed.rs`) written by structio, read and re-written by Glaze,
//! converted by both `beve_to_json`s, and read over the record before them by both.
//!
//! `cargo run --release --example glaze_differential -- PATH/TO/differential [N] [SEED]`
//! `cargo run --release --example glaze_differential -- PATH/TO/differential typed [N] [SEED]`
//! (the second runs only the typed records, N of each type; add `--features num-complex` to
//! include `std::complex`)
//!
//! The floats are random bit patterns, short decimals, values at every decimal and binary
//! scale, subnormals and the edge values; the strings mix control bytes, escapes, DEL,
//! 2/3/4-byte UTF-8 and U+2028/9. Exits with status 1 on any difference.

mod typed;
mod types;

use std::path::{Path, PathBuf};
use std::process::Command;

/// xorshift64: a fixed, seedable stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn doubles(rng: &mut Rng, n: usize) -> Vec<f64> {
    const DIV: [f64; 8] = [1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7];
    let mut v: Vec<f64> = (0..n)
        .map(|i| {
            let r = rng.next();
            match i % 6 {
                0 => f64::from_bits(r),
                1 => (r % 2_000_000) as f64 / DIV[(r >> 40) as usize % 8],
                2 => {
                    f64::from_bits(r >> 12 | 0x3FF0_0000_0000_0000)
                        * 10f64.powi((r >> 56) as i32 % 40 - 20)
                }
                3 => ((r >> 11) as f64) * 2f64.powi((r % 130) as i32 - 65),
                4 => (r % 100_000) as f64 * 10f64.powi(((r >> 32) % 50) as i32 - 25),
                // Subnormals and the largest binades.
                _ => {
                    let exp = if r >> 63 == 1 { 0 } else { 2043 } + (r >> 52) % 3;
                    f64::from_bits((r & 0x000F_FFFF_FFFF_FFFF) | exp << 52)
                }
            }
        })
        .filter(|v| v.is_finite())
        .collect();
    v.extend([
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        5e-324,
        1e21,
        1e22,
        1e-7,
        1e15,
        1e16,
        1e17,
        0.1,
        0.3,
        9_007_199_254_740_992.0,
        9_007_199_254_740_994.0,
    ]);
    v
}

fn floats(rng: &mut Rng, n: usize) -> Vec<f32> {
    const DIV: [f32; 4] = [1.0, 10.0, 100.0, 1e3];
    let mut v: Vec<f32> = (0..n)
        .map(|i| {
            let r = rng.next();
            match i % 4 {
                0 => f32::from_bits(r as u32),
                1 => f64::from_bits(r >> 2) as f32,
                2 => (r % 1_000_000) as f32 / DIV[(r >> 40) as usize % 4],
                _ => f32::from_bits((r as u32 & 0x007F_FFFF) | ((r >> 32) as u32 % 4) << 23),
            }
        })
        .filter(|v| v.is_finite())
        .collect();
    v.extend([
        0.0f32,
        -0.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        1e-45,
        1e7,
        1e8,
        1e-5,
        16_777_216.0,
        0.1,
    ]);
    v
}

fn strings(rng: &mut Rng, n: usize) -> Vec<String> {
    const POOL: [char; 32] = [
        '\0',
        '\u{1}',
        '\u{8}',
        '\t',
        '\n',
        '\u{b}',
        '\u{c}',
        '\r',
        '\u{1f}',
        ' ',
        '"',
        '\\',
        '/',
        'a',
        'Z',
        '~',
        '\u{7f}',
        '\u{80}',
        'é',
        '\u{7ff}',
        '\u{800}',
        '€',
        '\u{2028}',
        '\u{2029}',
        '\u{fffd}',
        '\u{ffff}',
        '😀',
        '\u{10ffff}',
        '<',
        '>',
        '&',
        '\'',
    ];
    (0..n)
        .map(|_| {
            let len = (rng.next() % 80) as usize;
            (0..len)
                .map(|_| POOL[(rng.next() % POOL.len() as u64) as usize])
                .collect()
        })
        .collect()
}

/// A random JSON document of nesting depth at most `depth`, with random whitespace between
/// its tokens: empty and nested arrays and objects, strings with escapes and raw UTF-8,
/// numbers in every notation, literals.
fn document(rng: &mut Rng, depth: u32, out: &mut String) {
    const WS: [&str; 6] = ["", "", " ", "\n", "\t  ", "\r\n   "];
    const STRINGS: [&str; 8] = [
        "",
        "a",
        "key",
        "\\\"q\\\\",
        "\\n\\t\\/",
        "\\u00e9\\ud83d\\ude00",
        "é😀\u{2028}",
        "x y",
    ];
    const NUMBERS: [&str; 10] = [
        "0",
        "-0",
        "12",
        "-3.25",
        "1e5",
        "1E-7",
        "0.5e+10",
        "123456789012345678901",
        "-1.5E300",
        "7",
    ];
    let ws = |rng: &mut Rng, out: &mut String| out.push_str(WS[(rng.next() % 6) as usize]);
    ws(rng, out);
    let pick = if depth == 0 {
        rng.next() % 4
    } else {
        rng.next() % 7
    };
    match pick {
        0 => out.push_str(NUMBERS[(rng.next() % 10) as usize]),
        1 => {
            out.push('"');
            out.push_str(STRINGS[(rng.next() % 8) as usize]);
            out.push('"');
        }
        2 => out.push_str(["true", "false", "null"][(rng.next() % 3) as usize]),
        3 => out.push_str(["[]", "{}", "[ ]", "{\n}"][(rng.next() % 4) as usize]),
        4 | 5 => {
            out.push('[');
            let n = rng.next() % 5;
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                document(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            let n = rng.next() % 5;
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                ws(rng, out);
                out.push('"');
                out.push_str(STRINGS[(rng.next() % 8) as usize]);
                out.push_str(&k.to_string());
                out.push('"');
                ws(rng, out);
                out.push(':');
                document(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push('}');
        }
    }
    ws(rng, out);
}

/// Splits `bytes` at each 0xFF byte (each piece followed by one).
fn pieces(bytes: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = bytes.split(|&b| b == 0xFF).collect();
    v.pop();
    v
}

/// Compares two JSON arrays of numbers element by element; returns the number of differences
/// (the first few are printed).
fn compare_numbers<T: std::fmt::Debug>(what: &str, v: &[T], glaze: &str, ours: &str) -> usize {
    let items = |s: &str| -> Vec<String> {
        s.trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(str::to_string)
            .collect()
    };
    let (g, o) = (items(glaze), items(ours));
    if g.len() != o.len() {
        println!(
            "{what}: Glaze wrote {} numbers, structio {}",
            g.len(),
            o.len()
        );
        return 1;
    }
    let mut bad = 0;
    for (i, (a, b)) in g.iter().zip(&o).enumerate() {
        if a != b {
            bad += 1;
            if bad <= 10 {
                println!("{what} {:?}: Glaze {a}, structio {b}", v[i]);
            }
        }
    }
    println!("{what}: {} values, {bad} written differently", g.len());
    bad
}

fn run(exe: &Path, args: &[&Path]) {
    let status = Command::new(exe)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(status.success(), "{} failed: {status}", exe.display());
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let Some(exe) = args.next().map(PathBuf::from) else {
        eprintln!("usage: glaze_differential PATH/TO/differential [typed] [N] [SEED]");
        std::process::exit(2);
    };
    let typed_only = args.next_if(|a| a == "typed").is_some();
    let n: usize = args.next().map_or(300_000, |s| s.parse().expect("N"));
    let seed: u64 = args
        .next()
        .map_or(0x1234_5678_9ABC_DEF1, |s| s.parse().expect("SEED"));
    let mut rng = Rng(seed | 1);
    let dir = std::env::temp_dir().join(format!("structio-differential-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name);
    let mut bad = 0;
    if typed_only {
        bad += typed_records(&exe, &dir, &mut rng, n);
        finish(&dir, bad);
    }

    let (d, f) = (doubles(&mut rng, n), floats(&mut rng, n));
    let bytes_d: Vec<u8> = d.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes_f: Vec<u8> = f.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(file("f64.bin"), bytes_d).unwrap();
    std::fs::write(file("f32.bin"), bytes_f).unwrap();
    let (fd, ff, gd, gf) = (
        file("f64.bin"),
        file("f32.bin"),
        file("f64.json"),
        file("f32.json"),
    );
    run(&exe, &["floats".as_ref(), &fd, &ff, &gd, &gf]);
    let glaze_d = std::fs::read_to_string(&gd).unwrap();
    let glaze_f = std::fs::read_to_string(&gf).unwrap();
    bad += compare_numbers("f64", &d, &glaze_d, &structio::to_json(&d));
    bad += compare_numbers("f32", &f, &glaze_f, &structio::to_json(&f));
    let back_d: Vec<f64> = structio::from_json(&glaze_d).expect("Glaze's f64 text reads");
    let back_f: Vec<f32> = structio::from_json(&glaze_f).expect("Glaze's f32 text reads");
    let misread = d
        .iter()
        .zip(&back_d)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count()
        + f.iter()
            .zip(&back_f)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count();
    println!("Glaze's float text read back: {misread} values differ");
    bad += misread;

    let s = strings(&mut rng, n / 6);
    let mut bytes = Vec::new();
    for t in &s {
        bytes.extend_from_slice(t.as_bytes());
        bytes.push(0xFF);
    }
    std::fs::write(file("strings.bin"), bytes).unwrap();
    let (sb, sj, sv) = (
        file("strings.bin"),
        file("strings.json"),
        file("strings.beve"),
    );
    run(&exe, &["strings".as_ref(), &sb, &sj, &sv]);
    let glaze_json = std::fs::read(&sj).unwrap();
    let glaze_beve = std::fs::read(&sv).unwrap();
    let same_json = structio::to_json(&s).into_bytes() == glaze_json;
    let same_beve = structio::to_beve(&s) == glaze_beve;
    let back_json: Vec<String> = structio::from_json(&glaze_json).expect("Glaze's JSON reads");
    let back_beve: Vec<String> = structio::from_beve(&glaze_beve).expect("Glaze's BEVE reads");
    println!(
        "{} strings: JSON identical {same_json}, BEVE identical {same_beve}, read back equal {} / {}",
        s.len(),
        back_json == s,
        back_beve == s
    );
    bad += usize::from(!same_json) + usize::from(!same_beve);
    bad += usize::from(back_json != s) + usize::from(back_beve != s);

    let docs: Vec<String> = (0..n / 30)
        .map(|_| {
            let mut d = String::new();
            document(&mut rng, 5, &mut d);
            d
        })
        .collect();
    let mut bytes = Vec::new();
    for d in &docs {
        bytes.extend_from_slice(d.as_bytes());
        bytes.push(0xFF);
    }
    std::fs::write(file("docs.bin"), bytes).unwrap();
    let (db, dp, dm) = (file("docs.bin"), file("pretty.bin"), file("minified.bin"));
    run(&exe, &["reformat".as_ref(), &db, &dp, &dm]);
    let (pretty, minified) = (std::fs::read(&dp).unwrap(), std::fs::read(&dm).unwrap());
    let (pretty, minified) = (pieces(&pretty), pieces(&minified));
    assert_eq!((pretty.len(), minified.len()), (docs.len(), docs.len()));
    let mut differ = 0;
    for ((d, p), m) in docs.iter().zip(&pretty).zip(&minified) {
        let ours_p = structio::json::prettify(d).expect("a generated document");
        let ours_m = structio::json::minify(d).expect("a generated document");
        if ours_p.as_bytes() != *p || ours_m.as_bytes() != *m {
            differ += 1;
            if differ <= 5 {
                println!("reformat differs for {d:?}:\n  Glaze  {:?} / {:?}\n  ours   {ours_p:?} / {ours_m:?}", String::from_utf8_lossy(p), String::from_utf8_lossy(m));
            }
        }
    }
    println!(
        "{} documents prettified and minified: {differ} differ",
        docs.len()
    );
    bad += differ;

    bad += typed_records(&exe, &dir, &mut rng, n / 100);
    finish(&dir, bad);
}

/// `n` random records of each type in `types.rs` through Glaze and back.
fn typed_records(exe: &Path, dir: &Path, rng: &mut Rng, n: usize) -> usize {
    let mut bad = 0;
    macro_rules! each {
        ($($name:ident),*) => {$(
            let values: Vec<_> = (0..n).map(|_| types::$name(rng)).collect();
            bad += typed::check(exe, dir, stringify!($name), &values);
        )*};
    }
    each!(scalars, arrays, maps, mixed, nested, times);
    #[cfg(feature = "num-complex")]
    each!(complexes);
    bad + typed::time_points(exe, dir, rng, n)
}

fn finish(dir: &Path, bad: usize) -> ! {
    std::fs::remove_dir_all(dir).ok();
    if bad > 0 {
        println!("{bad} differences");
        std::process::exit(1);
    }
    std::process::exit(0)
}
