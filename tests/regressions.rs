//! Every input the fuzzers ever found a bug with, replayed through the same oracles the fuzz
//! targets use (`tests/shapes/oracles.rs`, `tests/shapes/differential.rs`):
//! `tests/regressions/NAME.json` through the JSON ones, `NAME.beve` through the BEVE ones,
//! `NAME.value.beve` (a `Value` the round-trip target built, stored as BEVE) through
//! `value_roundtrip`, `NAME.options` (a `typed_options` input: a byte selecting the read options,
//! format and shape, then the document) through `typed_options`, `NAME.strings` (the recipe of
//! a string array, `oracles::string_array_of`) through `beve_strings`, `NAME.boundary.json`
//! through the `boundary` oracle (`tests/shapes/boundary.rs`: `json::parse` against
//! `from_json` and against `beve::parse`), `NAME.patch` (the bytes a document and a JSON Patch
//! are built from) through `value_patch` (`tests/shapes/patch.rs`). JSON inputs also go through
//! `json_values` (`tests/shapes/values.rs`: consecutive values against reading each alone) and
//! `json_get` (`tests/shapes/pointer.rs`: one value at a pointer against `Value::pointer`). JSON
//! and BEVE inputs also go through `typed_options` under a few option sets ([`OPTION_SETS`]).
//! The file name says what the input guards.

mod shapes;

use shapes::everything::{Everything, SAMPLE_JSON};
use shapes::tree::{Tree, TREE_JSON};
use shapes::{differential, oracles};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/regressions")
}

/// Option bytes (`oracles::selected_options`: bit 0 skip unknown keys, bit 1 missing keys, bit 2
/// duplicate keys, bits 3-5 the depth, 7 meaning 256) each JSON and BEVE input is read with by
/// `typed_options`, into `Everything` and into `Tree`.
const OPTION_SETS: [u8; 7] = [0x00, 0x07, 0x38, 0x39, 0x3E, 0x11, 0x23];

/// `data` prefixed with the `typed_options` selector byte `sel`.
fn with_selector(sel: u8, data: &[u8]) -> Vec<u8> {
    let mut input = Vec::with_capacity(data.len() + 1);
    input.push(sel);
    input.extend_from_slice(data);
    input
}

/// Runs one input through the oracles its name selects; the panic names the file.
fn replay(name: &str, data: &[u8]) {
    let run = |what: &str, f: &dyn Fn(&[u8])| {
        if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(data))) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{name}: {what}: {msg}");
        }
    };
    // `typed_options` under every option set, with the selector bits of the two shapes
    // (`Everything`, `Tree`) in the input's format.
    let under_options = |shapes: [u8; 2]| {
        for sel in OPTION_SETS {
            for shape in shapes {
                let input = with_selector(sel | shape, data);
                run(&format!("typed_options {:#04x}", sel | shape), &|_| {
                    oracles::typed_options(&input)
                });
            }
        }
    };
    if name.ends_with(".boundary.json") {
        run("boundary", &shapes::boundary::check);
    } else if name.ends_with(".value.beve") {
        let v: structio::Value = structio::from_beve(data).expect(name);
        run("value_roundtrip", &|_| oracles::value_roundtrip(&v));
    } else if name.ends_with(".json") {
        run("json_value", &oracles::json_value);
        run("json_typed", &oracles::json_typed);
        run("pretty_minify", &oracles::pretty_minify);
        run("json_differential", &differential::json_differential);
        run("limits", &shapes::limits::limits);
        run("more_types", &shapes::more::more_types);
        run("json_values", &shapes::values::values_oracle);
        run("json_get", &shapes::pointer::json_get);
        run("value_convert", &oracles::value_convert);
        under_options([0, 0x80]);
    } else if name.ends_with(".beve") {
        run("beve_value", &oracles::beve_value);
        run("beve_typed", &oracles::beve_typed);
        run("beve_transcode", &oracles::beve_transcode);
        run("beve_to_json", &oracles::beve_to_json);
        run("limits", &shapes::limits::limits);
        run("more_types", &shapes::more::more_types);
        under_options([0x40, 0xC0]);
    } else if name.ends_with(".options") {
        run("typed_options", &oracles::typed_options);
    } else if name.ends_with(".strings") {
        run("beve_strings", &oracles::beve_strings);
    } else if name.ends_with(".patch") {
        run("value_patch", &shapes::patch::value_patch);
    } else {
        panic!(
            "{name}: regression inputs end in .json, .beve, .options, .strings, .patch or \
             .boundary.json"
        );
    }
}

#[test]
fn every_regression_input_passes_the_oracles() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(!names.is_empty(), "tests/regressions is empty");
    for name in &names {
        let data = std::fs::read(dir().join(name)).unwrap();
        replay(name, &data);
    }
}

/// Checks that `bytes` (a sample as we write it in BEVE) equal the golden file
/// `tests/shapes/NAME` (`UPDATE_GOLDEN=1` rewrites it), and returns the file's bytes.
fn beve_golden(name: &str, bytes: &[u8]) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shapes")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, bytes).unwrap();
    }
    let golden = std::fs::read(&path).unwrap();
    assert_eq!(
        bytes,
        &golden[..],
        "{name} is stale: rerun with UPDATE_GOLDEN=1"
    );
    golden
}

#[test]
fn the_sample_reads_in_both_formats_and_passes_the_oracles() {
    let v: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    assert_eq!(v.u128, u128::MAX);
    assert_eq!(v.inner.text, "aliased");
    assert_eq!(v.boxed.next.as_ref().unwrap().text, "deep");
    assert_eq!(v.raw.get(), r#"{"any":[1,{"b":null}]}"#);
    replay("everything.json", SAMPLE_JSON.as_bytes());

    let golden = beve_golden("everything.beve", &structio::to_beve(&v));
    let back: Everything = structio::from_beve(&golden).unwrap();
    assert_eq!(back, v);
    replay("everything.beve", &golden);
}

/// The samples of the `more_types` target (`tests/shapes/more.rs`) read in both formats, their
/// files in `tests/shapes/` (the fuzz corpus seeds) are current, and they pass the oracles.
#[test]
fn the_more_types_samples_read_in_both_formats_and_pass_the_oracles() {
    use shapes::more::{More, SAMPLE_JSON};
    let v: More = structio::from_json(SAMPLE_JSON).unwrap();
    assert_eq!(v.nz.len(), 2);
    beve_golden("more.json", SAMPLE_JSON.as_bytes());
    let golden = beve_golden("more.beve", &structio::to_beve(&v));
    assert_eq!(structio::from_beve::<More>(&golden).unwrap(), v);
    replay("more.json", SAMPLE_JSON.as_bytes());
    replay("more.beve", &golden);
    {
        use shapes::more::{Layouts, Level, LAYOUTS_JSON};
        let v: Layouts = structio::from_json(LAYOUTS_JSON).unwrap();
        assert_eq!(v.level, Some(Level::High));
        assert_eq!(structio::to_json(&v), LAYOUTS_JSON);
        beve_golden("more_layouts.json", LAYOUTS_JSON.as_bytes());
        let golden = beve_golden("more_layouts.beve", &structio::to_beve(&v));
        assert_eq!(structio::from_beve::<Layouts>(&golden).unwrap(), v);
        replay("more_layouts.json", LAYOUTS_JSON.as_bytes());
        replay("more_layouts.beve", &golden);
    }
    #[cfg(all(
        feature = "chrono",
        feature = "time",
        feature = "uuid",
        feature = "indexmap",
        feature = "smallvec",
        feature = "bytes"
    ))]
    {
        use shapes::more::ext::{MoreExt, SAMPLE_JSON};
        let v: MoreExt = structio::from_json(SAMPLE_JSON).unwrap();
        assert_eq!(structio::to_json(&v), SAMPLE_JSON);
        beve_golden("more_ext.json", SAMPLE_JSON.as_bytes());
        let golden = beve_golden("more_ext.beve", &structio::to_beve(&v));
        assert_eq!(structio::from_beve::<MoreExt>(&golden).unwrap(), v);
        replay("more_ext.json", SAMPLE_JSON.as_bytes());
        replay("more_ext.beve", &golden);
    }
}

/// The golden files and JSONTestSuite through every oracle of their format.
#[test]
fn golden_files_pass_the_oracles() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        "formats/json/bench",
        "formats/beve/bench",
        "formats/beve/exchange",
        "tests/data/JSONTestSuite/test_parsing",
    ]
    .map(|d| root.join(d));
    let mut n = 0;
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".json") || name.ends_with(".beve") {
                replay(&name, &std::fs::read(&path).unwrap());
                n += 1;
            }
        }
    }
    // 14 + 7 bench documents, 35 exchange files, 318 JSONTestSuite files.
    assert_eq!(n, 374, "golden files");
}

#[test]
fn the_tree_sample_reads_in_both_formats_and_passes_the_oracles() {
    let v: Tree = structio::from_json(TREE_JSON).unwrap();
    assert_eq!(v.kids[0].name, "kid");
    assert_eq!(v.kids[0].leaf.b, Some(false));
    assert_eq!(v.map["k"].pair.1.a, 2);
    replay("tree.json", TREE_JSON.as_bytes());

    let golden = beve_golden("tree.beve", &structio::to_beve(&v));
    let back: Tree = structio::from_beve(&golden).unwrap();
    assert_eq!(back, v);
    replay("tree.beve", &golden);
}

/// The `beve_strings` oracle over recipes (`oracles::string_array_of`) from a fixed
/// generator, in every mode (SIZE widths, whole characters or raw bytes, ASCII text first or
/// not), with lengths around the 64-byte blocks and up to 8 KiB, and at most one corrupted
/// byte in most arrays: a reader that misses a bad byte inside its blocks is caught here
/// rather than by the array's end.
#[test]
fn generated_string_arrays_pass_the_strings_oracle() {
    let mut seed = 0x243F_6A88_85A3_08D3u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let pieces = oracles::STRING_PIECES;
    let (mut valid, mut one_bad) = (0, 0);
    for round in 0..3000u64 {
        let mode = (round % 16) as u8;
        let mut data = vec![mode];
        // Which string (if any) gets the one corrupted byte.
        let count = next() % 24 + 1;
        let bad = next() % (count + 8);
        for k in 0..count {
            let l = next() as u8;
            // Mostly short (up to 127 bytes); some multiples of 64 up to 8 KiB.
            let l = if next() % 8 == 0 { l | 0x80 } else { l & 0x7F };
            let len = (l & 0x7F) as usize * if l & 0x80 != 0 { 64 } else { 1 };
            data.push(l);
            let corrupt = if k == bad { (next() % 255) as u8 } else { 0xFF };
            data.push(corrupt);
            let mut made = 0;
            while made < len {
                // Raw bytes mostly ASCII (so that most strings are valid), now and then any.
                let b = next() as u8;
                let b = if mode & 4 == 0 && next() % 256 != 0 {
                    b & 0x7F
                } else {
                    b
                };
                data.push(b);
                made += if mode & 4 != 0 {
                    pieces[(b & 15) as usize].len()
                } else {
                    1
                };
            }
            if corrupt != 0xFF && len > 0 {
                data.push(next() as u8);
            }
        }
        let (_, strings) = oracles::string_array_of(&data);
        let bad_strings = strings
            .iter()
            .filter(|s| std::str::from_utf8(s).is_err())
            .count();
        valid += (bad_strings == 0) as usize;
        one_bad += (bad_strings == 1) as usize;
        oracles::beve_strings(&data);
    }
    // Both outcomes are exercised, most failures by one byte.
    assert!(
        valid > 600 && one_bad > 600,
        "{valid} valid, {one_bad} with one bad string"
    );
}
