//! Drives the `structio` binary on good and bad files: outputs compared with the golden files
//! in `formats/`, exit codes, messages, standard input and output.

use std::io::{Read, Write};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use structio::Writer as _;

const BENCH: [&str; 7] = [
    "bools",
    "doubles",
    "exact_decimals",
    "ints",
    "mixed",
    "strings",
    "uints",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn golden(rel: &str) -> PathBuf {
    repo().join("formats").join(rel)
}

fn read(p: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(p.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", p.as_ref().display()))
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("structio-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn structio(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_structio"));
    c.env_remove("NO_COLOR");
    for a in args {
        c.arg(a);
    }
    c.output().unwrap()
}

fn structio_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_structio"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        stdout(o),
        stderr(o)
    );
    assert!(
        !stderr(o).contains("panicked") && !stderr(o).contains("internal error"),
        "{}",
        stderr(o)
    );
}

/// Runs `structio ARGS... OUT` (exit 0) and checks that OUT holds exactly the bytes of `want`.
#[track_caller]
fn makes(args: &[&dyn AsRef<std::ffi::OsStr>], out: &Path, want: &Path) {
    let mut all = args.to_vec();
    all.push(&out);
    assert_exit(&structio(&all), 0);
    assert!(
        read(out) == read(want),
        "`{}` differs from {}",
        args.iter()
            .map(|a| a.as_ref().to_string_lossy())
            .collect::<Vec<_>>()
            .join(" "),
        want.display()
    );
}

/// Converts `src` with `convert FLAGS --aligned` to `STEM.aligned.beve`, that to
/// `STEM.back.json`, and checks the JSON is exactly `want`.
#[track_caller]
fn aligned_reads_back(flags: &[&dyn AsRef<std::ffi::OsStr>], src: &Path, stem: &Path, want: &Path) {
    let aligned = stem.with_extension("aligned.beve");
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"convert"];
    args.extend_from_slice(flags);
    args.extend([&"--aligned" as &dyn AsRef<std::ffi::OsStr>, &src, &aligned]);
    assert_exit(&structio(&args), 0);
    makes(
        &[&"convert", &aligned],
        &stem.with_extension("back.json"),
        want,
    );
}

#[test]
fn beve_bench_files_convert_to_glaze_json() {
    let d = scratch("beve2json");
    for name in BENCH {
        let json = golden(&format!("json/bench/{name}.json"));
        let src = golden(&format!("beve/bench/{name}.beve"));
        makes(&[&"convert", &src], &d.join(format!("{name}.json")), &json);
    }
}

#[test]
fn beve_to_beve_is_byte_identical_and_aligned_reads_back() {
    let d = scratch("beve2beve");
    for name in BENCH {
        let src = golden(&format!("beve/bench/{name}.beve"));
        makes(&[&"convert", &src], &d.join(format!("{name}.beve")), &src);
        let json = golden(&format!("json/bench/{name}.json"));
        aligned_reads_back(&[], &src, &d.join(name), &json);
    }
}

#[test]
fn json_round_trips_through_beve() {
    let d = scratch("json2beve");
    for name in BENCH {
        let src = golden(&format!("json/bench/{name}.json"));
        let beve = d.join(format!("{name}.beve"));
        assert_exit(&structio(&[&"convert", &src, &beve]), 0);
        makes(&[&"convert", &beve], &d.join(format!("{name}.json")), &src);
    }
}

#[test]
fn typed_json_to_beve_writes_what_glaze_writes() {
    let d = scratch("typed");
    // `mixed` holds u64 fields whose small values JSON cannot tell from i64.
    for name in BENCH.iter().filter(|n| **n != "mixed") {
        let src = golden(&format!("json/bench/{name}.json"));
        let want = golden(&format!("beve/bench/{name}.beve"));
        makes(
            &[&"convert", &"--typed", &src],
            &d.join(format!("{name}.beve")),
            &want,
        );
        aligned_reads_back(&[&"--typed"], &src, &d.join(name), &src);
    }
}

#[test]
fn pretty_and_minify_match_glaze_layout() {
    let d = scratch("pretty");
    for name in BENCH {
        let compact = golden(&format!("json/bench/{name}.json"));
        let pretty = golden(&format!("json/bench/{name}.pretty.json"));
        let beve = golden(&format!("beve/bench/{name}.beve"));
        let out = d.join("p.json");
        makes(&[&"pretty", &compact], &out, &pretty);
        makes(&[&"pretty", &beve], &out, &pretty);
        makes(&[&"minify", &pretty], &out, &compact);
    }
    // --indent, and a final newline on standard output only.
    let o = structio(&[
        &"pretty",
        &"--indent",
        &"1",
        &golden("json/bench/uints.json"),
    ]);
    assert_exit(&o, 0);
    assert!(stdout(&o).starts_with("{\n \"a\": [\n  "), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("]\n}\n"));
}

#[test]
fn stdin_and_stdout() {
    let o = structio_stdin(&["pretty"], br#"{"a":[1,{}],"b":"x"}"#);
    assert_exit(&o, 0);
    assert_eq!(
        stdout(&o),
        "{\n   \"a\": [\n      1,\n      {}\n   ],\n   \"b\": \"x\"\n}\n"
    );
    let o = structio_stdin(&["minify", "-", "-"], b" [ 1 , 2 ] ");
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "[1,2]\n");

    // JSON on stdin becomes BEVE on stdout (the other format), and back.
    let o = structio_stdin(&["convert", "-", "-"], br#"{"xs":[1,2]}"#);
    assert_exit(&o, 0);
    assert_eq!(o.stdout[0], 0x03, "a BEVE object");
    let back = structio_stdin(
        &["convert", "--from", "beve", "--to", "json", "-", "-"],
        &o.stdout,
    );
    assert_exit(&back, 0);
    assert_eq!(stdout(&back), "{\"xs\":[1,2]}\n");

    // The format of stdin is guessed from its first byte when not given.
    let beve = read(golden("beve/bench/uints.beve"));
    let o = structio_stdin(&["minify"], &beve);
    assert_exit(&o, 0);
    assert_eq!(
        o.stdout,
        [read(golden("json/bench/uints.json")), b"\n".to_vec()].concat()
    );
}

#[test]
fn validate_good_files() {
    let o = structio(&[
        &"validate",
        &golden("json/bench/mixed.json"),
        &golden("json/bench/mixed.pretty.json"),
        &golden("beve/bench/mixed.beve"),
    ]);
    assert_exit(&o, 0);
    assert_eq!(stdout(&o).matches(": ok (").count(), 3, "{}", stdout(&o));
    let o = structio(&[&"validate", &"-q", &golden("beve/bench/ints.beve")]);
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "");
}

#[test]
fn validate_bad_json_shows_line_column_path_and_caret() {
    let d = scratch("badjson");
    let bad = d.join("bad.json");
    std::fs::write(&bad, "{\"a\": [1, 2,\n  {\"b\": tru}]}").unwrap();
    let o = structio(&[&"validate", &bad]);
    assert_exit(&o, 1);
    let e = stderr(&o);
    assert!(
        e.contains("bad.json: invalid literal at 2:9 (byte 21), path $[\"a\"][2][\"b\"]\n"),
        "{e}"
    );
    assert!(e.contains("\n     {\"b\": tru}]}\n           ^"), "{e}");
    assert_eq!(stdout(&o), "");
}

#[test]
fn validate_bad_beve_shows_offset_and_path() {
    let d = scratch("badbeve");
    let bytes = read(golden("beve/bench/mixed.beve"));
    let cut = d.join("cut.beve");
    std::fs::write(&cut, &bytes[..5000]).unwrap();
    let o = structio(&[&"validate", &cut, &golden("beve/bench/mixed.beve")]);
    assert_exit(&o, 1);
    let e = stderr(&o);
    assert!(
        e.contains("cut.beve: unexpected end of input at byte 4974, path $[\"a\"][3]"),
        "{e}"
    );
    assert!(e.contains("1 of 2 files are not valid"), "{e}");
    assert!(stdout(&o).contains("mixed.beve: ok (BEVE"));

    // A byte that is no BEVE header, and bytes after the value.
    let hdr = d.join("hdr.beve");
    std::fs::write(&hdr, [0x03, 0x04, 0x08, b'a', b'i', 0xFF]).unwrap();
    let o = structio(&[&"validate", &hdr]);
    assert_exit(&o, 1);
    assert!(stderr(&o).contains("at byte 5"), "{}", stderr(&o));
    let trailing = d.join("trailing.beve");
    std::fs::write(&trailing, [0x00, 0x00]).unwrap();
    let o = structio(&[&"validate", &trailing]);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("trailing characters after the value at byte 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_fails_cleanly_and_leaves_no_output() {
    let d = scratch("badconvert");
    let bad = d.join("bad.json");
    std::fs::write(&bad, "[1, 2").unwrap();
    let out = d.join("out.beve");
    let o = structio(&[&"convert", &bad, &out]);
    assert_exit(&o, 1);
    assert!(stderr(&o).starts_with("structio: "), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unexpected end of input"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "no temporary left"
    );

    // BEVE cut short is found while streaming JSON out: still no output file.
    let cut = d.join("cut.beve");
    std::fs::write(&cut, &read(golden("beve/bench/strings.beve"))[..100_000]).unwrap();
    let out = d.join("out.json");
    let o = structio(&[&"convert", &cut, &out]);
    assert_exit(&o, 1);
    assert!(stderr(&o).contains("path $"), "{}", stderr(&o));
    assert!(!out.exists());

    let o = structio(&[&"view", &d.join("missing.beve")]);
    assert_exit(&o, 1);
    assert!(stderr(&o).contains("missing.beve: "), "{}", stderr(&o));
    let o = structio(&[&"stats", &d]);
    assert_exit(&o, 1);
    let o = structio_stdin(&["validate", "-"], b"");
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("<stdin>: unexpected end of input"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    let uints = golden("json/bench/uints.json");
    for args in [
        vec![],
        vec!["frobnicate"],
        vec!["convert"],
        vec!["convert", "a.json"],
        vec!["convert", "--to", "xml", "a.json", "b"],
        vec!["convert", "--aligned", "a.json", "b.json"],
        vec!["convert", "--typed", "a.beve", "b.json"],
        vec!["convert", "--pretty", "a.json", "b.beve"],
        vec!["pretty", "--nope"],
        vec!["pretty", "--indent", "x"],
        vec!["view", "--path", "$[", "a.beve"],
        vec!["view", "--color", "sometimes"],
        vec!["validate"],
        vec!["help", "frobnicate"],
    ] {
        let args: Vec<&dyn AsRef<std::ffi::OsStr>> = args
            .iter()
            .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
            .collect();
        let o = structio(&args);
        assert_exit(&o, 2);
        assert!(stderr(&o).contains("structio"), "{}", stderr(&o));
    }
    // Options are checked before any file is read.
    let o = structio(&[&"convert", &"--to", &"xml", &uints, &"out"]);
    assert!(
        stderr(&o).contains("unknown format `xml`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn help_and_version() {
    for args in [vec!["--help"], vec!["help"], vec!["-h"]] {
        let o = structio(
            &args
                .iter()
                .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
                .collect::<Vec<_>>(),
        );
        assert_exit(&o, 0);
        assert!(stdout(&o).contains("convert IN OUT"));
    }
    for args in [vec!["convert", "--help"], vec!["help", "convert"]] {
        let o = structio(
            &args
                .iter()
                .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
                .collect::<Vec<_>>(),
        );
        assert_exit(&o, 0);
        assert!(stdout(&o).contains("--aligned"));
    }
    let o = structio(&[&"--version"]);
    assert_exit(&o, 0);
    assert!(stdout(&o).starts_with("structio 0."));
}

#[test]
fn view_shows_parts_and_colors_only_when_asked() {
    let uints = golden("beve/bench/uints.beve");
    let o = structio(&[&"view", &"--path", &"$.a[0]", &uints]);
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "17121085807296454436\n");
    let o = structio(&[&"view", &"--path", &"/a/1", &uints]);
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "1113211279062283200\n");

    let o = structio(&[&"view", &"--path", &"$.a[99999]", &uints]);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("no `$.a[99999]` in the document: `$.a` is a typed array of"),
        "{}",
        stderr(&o)
    );

    // Piped output has no colors unless asked for.
    let o = structio(&[&"view", &uints]);
    assert_exit(&o, 0);
    assert!(!stdout(&o).contains('\x1b'));
    assert_eq!(
        o.stdout,
        [read(golden("json/bench/uints.pretty.json")), b"\n".to_vec()].concat()
    );
    let o = structio(&[&"view", &"--color", &"always", &uints]);
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("\x1b[1;34m\"a\"\x1b[0m: ["),
        "{}",
        &stdout(&o)[..40]
    );
    // JSON files keep their number spelling, colored too.
    let d = scratch("view");
    let f = d.join("n.json");
    std::fs::write(&f, r#"{"x": 1.50e3}"#).unwrap();
    let o = structio(&[&"view", &"--color", &"always", &f]);
    assert_exit(&o, 0);
    assert_eq!(
        stdout(&o),
        "{\n   \x1b[1;34m\"x\"\x1b[0m: \x1b[36m1.50e3\x1b[0m\n}\n"
    );
}

#[test]
fn stats_counts_and_lists_parts() {
    let o = structio(&[&"stats", &"--top", &"2", &golden("beve/bench/mixed.beve")]);
    assert_exit(&o, 0);
    let s = stdout(&o);
    for want in [
        "mixed.beve: 169,486 bytes of BEVE",
        "values by type:",
        "typed array",
        "numbers by kind",
        "strings",
        "top-level parts, largest first (bytes in the file):",
        "  $.i ",
        "... 24 more parts",
    ] {
        assert!(s.contains(want), "{want:?} in\n{s}");
    }
    let o = structio(&[&"stats", &"--top", &"30", &golden("json/bench/ints.json")]);
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("33,133 bytes of JSON"),
        "{}",
        stdout(&o)
    );
    // A JSON part's size is the length of its text in the file (compact here, as Glaze wrote it).
    let doc: structio::Value = structio::from_json(&read(golden("json/bench/ints.json"))).unwrap();
    let a = structio::to_json(&doc["a"]).len();
    assert_eq!(a, 1248);
    assert!(
        stdout(&o)
            .contains("  $.a                                    1,248   an array of 61 elements"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_structio"))
        .args(["view"])
        .arg(golden("beve/bench/mixed.beve"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed here, with most of the output still to come.
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, 0);
    assert_eq!(stderr(&o), "");
}

#[test]
fn glaze_exchange_files_pass_through_unchanged() {
    // The repository's copies of Glaze's exchange files.
    let dir = repo().join("formats/beve/exchange");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let d = scratch("exchange");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "beve") {
            continue;
        }
        let out = d.join("x.beve");
        let o = structio(&[&"convert", &p, &out]);
        assert_exit(&o, 0);
        assert!(read(&out) == read(&p), "{}", p.display());
        assert_exit(&structio(&[&"validate", &p]), 0);
        assert_exit(&structio(&[&"view", &p]), 0);
        assert_exit(&structio(&[&"stats", &p]), 0);
        n += 1;
    }
    assert!(n >= 15, "{n} files");
}

#[test]
fn ndjson_in_and_out() {
    let d = scratch("ndjson");
    let src = d.join("in.ndjson");
    std::fs::write(&src, "{\"a\":1,\"b\":[1,2]}\n\n{\"a\":2}\r\n \"x\" \n").unwrap();

    let o = structio(&[&"validate", &src]);
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("ok (NDJSON, 3 records"),
        "{}",
        stdout(&o)
    );

    // NDJSON -> BEVE -> NDJSON (.jsonl) gives Glaze's layout: compact lines, no final break.
    let beve = d.join("mid.beve");
    assert_exit(&structio(&[&"convert", &src, &beve]), 0);
    let back = d.join("back.jsonl");
    assert_exit(&structio(&[&"convert", &beve, &back]), 0);
    assert_eq!(read(&back), b"{\"a\":1,\"b\":[1,2]}\n{\"a\":2}\n\"x\"");
    // As JSON, the records are one array; a JSON array becomes NDJSON again.
    let json = d.join("all.json");
    assert_exit(&structio(&[&"convert", &src, &json]), 0);
    assert_eq!(read(&json), b"[{\"a\":1,\"b\":[1,2]},{\"a\":2},\"x\"]");
    let o = structio_stdin(&["convert", "--to", "ndjson", "-", "-"], b"[1, [2], {}]");
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "1\n[2]\n{}\n");
    // view and stats see the array of records.
    let o = structio(&[&"view", &src, &"--path", &"$[1].a", &"--color", &"never"]);
    assert_exit(&o, 0);
    assert_eq!(stdout(&o), "2\n");
    let o = structio(&[&"stats", &src]);
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("of NDJSON"), "{}", stdout(&o));

    // Two records on one line: the error names the line and column.
    let bad = d.join("bad.jsonl");
    std::fs::write(&bad, "{\"a\":1}\n{\"a\":2} {\"a\":3}\n").unwrap();
    let o = structio(&[&"validate", &bad]);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("expected a line break after the record at 2:9"),
        "{}",
        stderr(&o)
    );
    // NDJSON output needs an array.
    let o = structio_stdin(&["convert", "--to", "ndjson", "-", "-"], b"{\"a\":1}");
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("needs a top-level array"),
        "{}",
        stderr(&o)
    );
    // --pretty is for JSON output.
    let o = structio_stdin(&["convert", "--to", "ndjson", "--pretty", "-", "-"], b"[1]");
    assert_exit(&o, 2);
}

#[test]
fn delimited_beve_in_and_out() {
    let d = scratch("delimited");
    // Three values as Glaze's write_beve_delimited lays them out.
    let values: Vec<structio::Value> =
        structio::from_json(r#"[{"a":1,"b":[1,2]},{"a":2},"x"]"#).unwrap();
    let src = d.join("in.beve");
    std::fs::write(&src, structio::beve::to_delimited(&values)).unwrap();

    // Read as one BEVE value, the delimiter after the first is an error with a hint.
    let o = structio(&[&"validate", &src]);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("--from beve-delimited"),
        "{}",
        stderr(&o)
    );
    let o = structio(&[&"validate", &"--from", &"beve-delimited", &src]);
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("ok (delimited BEVE, 3 records"),
        "{}",
        stdout(&o)
    );

    // As JSON, the values are one array; that array becomes the same delimited bytes again.
    let json = d.join("all.json");
    assert_exit(
        &structio(&[&"convert", &"--from", &"beve-delimited", &src, &json]),
        0,
    );
    assert_eq!(read(&json), br#"[{"a":1,"b":[1,2]},{"a":2},"x"]"#);
    let back = d.join("back.beve");
    assert_exit(
        &structio(&[&"convert", &"--to", &"beve-delimited", &json, &back]),
        0,
    );
    assert_eq!(read(&back), read(&src));

    // A leading delimiter (Glaze writes one before each appended value) is recognised without
    // --from, by extension or by the first byte.
    let mut lead = vec![structio::beve::DELIMITER];
    lead.extend(read(&src));
    for name in ["lead.beve", "lead.bin"] {
        let p = d.join(name);
        std::fs::write(&p, &lead).unwrap();
        let o = structio(&[&"view", &p, &"--path", &"$[1].a", &"--color", &"never"]);
        assert_exit(&o, 0);
        assert_eq!(stdout(&o), "2\n");
        let o = structio(&[&"stats", &p]);
        assert_exit(&o, 0);
        assert!(stdout(&o).contains("of delimited BEVE"), "{}", stdout(&o));
    }

    // NDJSON records straight to delimited BEVE.
    let o = structio_stdin(
        &[
            "convert",
            "--from",
            "ndjson",
            "--to",
            "beve-delimited",
            "-",
            "-",
        ],
        b"1\n[2]\n",
    );
    assert_exit(&o, 0);
    let want: Vec<structio::Value> = structio::from_json("[1,[2]]").unwrap();
    assert_eq!(o.stdout, structio::beve::to_delimited(&want));

    // A bad value is located in the whole input; two delimiters in a row are an error.
    let mut bad = read(&src);
    let cut = bad.len() - 1;
    bad.truncate(cut);
    let p = d.join("cut.beve");
    std::fs::write(&p, &bad).unwrap();
    let o = structio(&[&"validate", &"--from", &"beve-delimited", &p]);
    assert_exit(&o, 1);
    let mut twice = read(&src);
    let first = twice
        .iter()
        .position(|&b| b == structio::beve::DELIMITER)
        .unwrap();
    twice.insert(first, structio::beve::DELIMITER);
    std::fs::write(&p, &twice).unwrap();
    let o = structio(&[&"validate", &"--from", &"beve-delimited", &p]);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains(&format!("at byte {}", first + 1)),
        "{}",
        stderr(&o)
    );
    // Delimited output needs an array.
    let o = structio_stdin(
        &["convert", "--to", "beve-delimited", "-", "-"],
        b"{\"a\":1}",
    );
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("delimited BEVE output needs a top-level array"),
        "{}",
        stderr(&o)
    );
}

/// Runs `structio ARGS...` with `STRUCTIO_MAX_INPUT=limit` and standard input from a generator
/// that writes zeros until the command stops reading (or `cap` bytes, so that a command that
/// reads everything still ends).
fn structio_endless_stdin(args: &[&str], limit: &str, cap: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_structio"))
        .args(args)
        .env("STRUCTIO_MAX_INPUT", limit)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![0u8; 64 << 10];
        let mut sent = 0;
        while sent < cap && stdin.write_all(&chunk).is_ok() {
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    let sent = writer.join().unwrap();
    assert!(
        sent < cap,
        "the command read all {sent} bytes the generator had"
    );
    out
}

/// A clean "too large" failure: exit 1, one short message, no abort or backtrace.
#[track_caller]
fn assert_too_large(o: &Output, name: &str) {
    assert_exit(o, 1);
    let e = stderr(o);
    assert!(e.contains(&format!("{name}: too large to load (")), "{e}");
    assert!(e.contains("STRUCTIO_MAX_INPUT"), "{e}");
    assert!(!e.contains("backtrace") && e.lines().count() == 1, "{e}");
}

#[test]
fn endless_stdin_is_cut_at_the_input_limit() {
    // Without the bound this read the generator's 256 MiB and judged it as BEVE.
    let o = structio_endless_stdin(&["validate", "-"], "1M", 256 << 20);
    assert_too_large(&o, "<stdin>");
    assert!(
        stderr(&o).contains("more than 1048576 bytes"),
        "{}",
        stderr(&o)
    );
    let o = structio_endless_stdin(&["stats"], "64K", 256 << 20);
    assert_too_large(&o, "<stdin>");
}

#[cfg(unix)]
#[test]
fn special_files_are_cut_at_the_input_limit() {
    // `/dev/zero` says it is 0 bytes long and never ends. Under an address-space limit, so
    // that a version without the bound aborts quickly instead of filling memory.
    let o = Command::new("sh")
        .args(["-c", "ulimit -v 1048576; exec \"$0\" validate /dev/zero"])
        .arg(env!("CARGO_BIN_EXE_structio"))
        .env("STRUCTIO_MAX_INPUT", "1M")
        .output()
        .unwrap();
    assert_too_large(&o, "/dev/zero");

    // A FIFO fed by an endless writer.
    let d = scratch("fifo-in");
    let fifo = d.join("in.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped the FIFO: no mkfifo");
        return;
    }
    let path = fifo.clone();
    // Not joined: it ends when the command closes the FIFO (a write error) or at the cap.
    std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) {
            let chunk = vec![b' '; 64 << 10];
            for _ in 0..4096 {
                if f.write_all(&chunk).is_err() {
                    break;
                }
            }
        }
    });
    let o = Command::new(env!("CARGO_BIN_EXE_structio"))
        .args(["validate", "--from", "json"])
        .arg(&fifo)
        .env("STRUCTIO_MAX_INPUT", "256K")
        .output()
        .unwrap();
    assert_too_large(&o, &fifo.display().to_string());
}

#[test]
fn regular_files_share_the_input_limit() {
    let d = scratch("limit");
    // Exactly at the limit is fine; one byte more is not.
    let at = d.join("at.json");
    std::fs::write(&at, format!("[{}]", " ".repeat(1022))).unwrap();
    let over = d.join("over.json");
    std::fs::write(&over, format!("[{}]", " ".repeat(1023))).unwrap();
    let run = |f: &Path, limit: &str| {
        Command::new(env!("CARGO_BIN_EXE_structio"))
            .arg("validate")
            .arg(f)
            .env("STRUCTIO_MAX_INPUT", limit)
            .output()
            .unwrap()
    };
    assert_exit(&run(&at, "1K"), 0);
    assert_exit(&run(&at, "1024"), 0);
    let o = run(&over, "1K");
    assert_too_large(&o, &over.display().to_string());
    assert!(stderr(&o).contains("(1025 bytes;"), "{}", stderr(&o));
    // Standard input: at the limit passes, over it fails.
    let o = Command::new("sh")
        .args(["-c", "exec \"$0\" validate - < \"$1\""])
        .arg(env!("CARGO_BIN_EXE_structio"))
        .arg(&over)
        .env("STRUCTIO_MAX_INPUT", "1025")
        .output()
        .unwrap();
    assert_exit(&o, 0);
    // A limit that is no size is a usage error.
    let o = run(&at, "lots");
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("STRUCTIO_MAX_INPUT"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn stats_memory_is_bounded_by_top() {
    // 8 MiB of BEVE nulls: 8 Mi top-level elements. Keeping each one's path and description
    // took ~135 bytes per input byte (1.1 GB); with --top 1 the walk keeps one. Run under a
    // 192 MiB address-space limit.
    let d = scratch("stats-memory");
    let n: usize = 8 << 20;
    let mut w = structio::beve::BeveWriter::new(Vec::new());
    w.begin_array(n);
    let mut beve = w.into_inner();
    beve.resize(beve.len() + n, 0);
    let f = d.join("nulls.beve");
    std::fs::write(&f, &beve).unwrap();
    drop(beve);
    let o = Command::new("sh")
        .args(["-c", "ulimit -v 196608; exec \"$0\" stats --top 1 \"$1\""])
        .arg(env!("CARGO_BIN_EXE_structio"))
        .arg(&f)
        .output()
        .unwrap();
    assert_exit(&o, 0);
    let s = stdout(&o);
    assert!(
        s.contains("  $[0]                                       1   null\n"),
        "{s}"
    );
    assert!(
        s.contains("... 8,388,607 more parts, 8,388,607 bytes"),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[cfg(unix)]
#[test]
fn planted_symlinks_at_temporary_names_are_not_followed() {
    use std::os::unix::fs::symlink;
    let d = scratch("planted");
    let good = d.join("good.json");
    std::fs::write(&good, "[1, 2, 3]").unwrap();
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // The old name was `.out.json.structio-<pid>.tmp`: plant it for the pids the command may
    // get next, and other guessable names.
    let last = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .unwrap_or(std::process::id());
    let mut planted = Vec::new();
    for pid in last..last + 2000 {
        planted.push(d.join(format!(".out.json.structio-{pid}.tmp")));
    }
    for name in [
        ".out.json.tmp",
        "out.json.tmp",
        ".out.json.structio.tmp",
        ".out.json.",
    ] {
        planted.push(d.join(name));
    }
    for p in &planted {
        symlink(&victim, p).unwrap();
    }
    let out = d.join("out.json");
    assert_exit(&structio(&[&"minify", &good, &out]), 0);
    assert_eq!(read(&victim), b"precious");
    assert_eq!(read(&out), b"[1,2,3]");
    assert!(!std::fs::symlink_metadata(&out).unwrap().is_symlink());
    for p in &planted {
        assert!(std::fs::symlink_metadata(p).unwrap().is_symlink(), "{p:?}");
    }
    // Nothing else left behind: the planted links, the three files.
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        planted.len() + 3,
        "no temporary left"
    );
}

#[cfg(unix)]
#[test]
fn replacing_an_output_keeps_its_mode_and_symlink() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let d = scratch("keep-meta");
    let good = d.join("good.json");
    std::fs::write(&good, "[1, 2, 3]").unwrap();

    // A private output stays private (it became 0644, world-readable).
    for m in [0o600, 0o640, 0o444] {
        let out = d.join(format!("out-{m:o}.json"));
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(m)).unwrap();
        assert_exit(&structio(&[&"minify", &good, &out]), 0);
        assert_eq!(read(&out), b"[1,2,3]");
        assert_eq!(mode(&out), m, "{}", out.display());
    }

    // A new output gets the mode any new file gets here (0666 less the umask), not the
    // temporary file's 0600.
    let probe = d.join("probe");
    std::fs::File::create(&probe).unwrap();
    let fresh = d.join("fresh.json");
    assert_exit(&structio(&[&"minify", &good, &fresh]), 0);
    assert_eq!(mode(&fresh), mode(&probe));

    // A symlinked output stays a link; the file it points to (in another folder) is replaced
    // and keeps its mode.
    std::fs::create_dir(d.join("sub")).unwrap();
    let real = d.join("sub/real.json");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = d.join("link.json");
    symlink("sub/real.json", &link).unwrap();
    assert_exit(&structio(&[&"minify", &good, &link]), 0);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("sub/real.json")
    );
    assert_eq!(read(&real), b"[1,2,3]");
    assert_eq!(mode(&real), 0o600);
    // A link to a link, and a dangling link (it creates the file it names).
    let link2 = d.join("link2.json");
    symlink(&link, &link2).unwrap();
    let beve = d.join("x.beve");
    assert_exit(&structio(&[&"convert", &good, &beve]), 0);
    assert_exit(&structio(&[&"convert", &beve, &link2]), 0);
    assert!(std::fs::symlink_metadata(&link2).unwrap().is_symlink());
    assert_eq!(read(&real), b"[1,2,3]");
    let dangling = d.join("dangling.json");
    symlink("sub/new.json", &dangling).unwrap();
    assert_exit(&structio(&[&"minify", &good, &dangling]), 0);
    assert!(std::fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert_eq!(read(d.join("sub/new.json")), b"[1,2,3]");
    // No temporary left in either folder.
    let names = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&d.join("sub")), ["new.json", "real.json"]);
    assert!(
        names(&d).iter().all(|n| !n.contains("tmp")),
        "{:?}",
        names(&d)
    );

    // Hard links cannot survive an atomic rename: the help says so.
    let o = structio(&[&"--help"]);
    assert!(stdout(&o).contains("hard links is split"), "{}", stdout(&o));
}

#[cfg(unix)]
#[test]
fn a_fifo_output_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let d = scratch("fifo-out");
    let fifo = d.join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped: no mkfifo");
        return;
    }
    let good = d.join("good.json");
    std::fs::write(&good, "[1, 2, 3]").unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Ok(mut f) = std::fs::File::open(&path) {
            let _ = f.read_to_end(&mut s);
        }
        let _ = tx.send(s);
    });
    assert_exit(&structio(&[&"minify", &good, &fifo]), 0);
    let got = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the reader of the FIFO got the output");
    assert_eq!(got, b"[1,2,3]");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn a_megabyte_key_gives_a_short_message() {
    let d = scratch("bigkey");
    let key = "k".repeat(1 << 20);
    // Bad JSON after the key: the error's path holds it.
    let json = d.join("bad.json");
    std::fs::write(&json, format!("{{\"{key}\": tru}}")).unwrap();
    let o = structio(&[&"validate", &json]);
    assert_exit(&o, 1);
    assert!(o.stderr.len() < 2000, "{} bytes of stderr", o.stderr.len());
    assert!(
        stderr(&o).contains("invalid literal at 1:"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("path $[\"kkkk"), "{}", stderr(&o));
    // Cut by the library ("...") or by the CLI ("…").
    let e = stderr(&o);
    assert!(e.contains("k…") || e.contains("k..."), "{e}");
    let o = structio(&[&"convert", &json, &d.join("out.beve")]);
    assert_exit(&o, 1);
    assert!(o.stderr.len() < 2000, "{} bytes of stderr", o.stderr.len());

    // The same in BEVE: an object whose one key is followed by a bad header byte.
    let mut w = structio::beve::BeveWriter::new(Vec::new());
    w.begin_object(1);
    w.key(&key);
    let mut beve = w.into_inner();
    beve.push(0xff);
    let bad = d.join("bad.beve");
    std::fs::write(&bad, &beve).unwrap();
    let o = structio(&[&"validate", &bad]);
    assert_exit(&o, 1);
    assert!(o.stderr.len() < 2000, "{} bytes of stderr", o.stderr.len());
    assert!(stderr(&o).contains("bad.beve: "), "{}", stderr(&o));

    // stats names top-level parts by their keys: cut there too.
    let good = d.join("good.json");
    std::fs::write(&good, format!("{{\"{key}\": 1, \"b\": 2}}")).unwrap();
    let o = structio(&[&"stats", &good]);
    assert_exit(&o, 0);
    assert!(o.stdout.len() < 2000, "{} bytes of stdout", o.stdout.len());
    assert!(stdout(&o).contains("$.kkk"), "{}", stdout(&o));

    // A long --path that is not there, and a long file name that is not there.
    let path = format!("$.{}", "p".repeat(100_000));
    let o = structio(&[&"view", &"--path", &path, &good]);
    assert_exit(&o, 1);
    assert!(o.stderr.len() < 2000, "{} bytes of stderr", o.stderr.len());
    assert!(stderr(&o).contains("no `$.ppp"), "{}", stderr(&o));
    let missing = d.join("d/".repeat(2000)).join("missing.json");
    let o = structio(&[&"validate", &missing]);
    assert_exit(&o, 1);
    assert!(o.stderr.len() < 2000, "{} bytes of stderr", o.stderr.len());
}
