//! The `typed` mode: random values of the record types in `types.rs` written by structio (BEVE
//! and JSON), read by Glaze and written again by Glaze (BEVE, JSON and pretty JSON of what it
//! read from structio's BEVE; JSON and pretty JSON of what it read from structio's JSON, which
//! is written with null members so that Glaze sees the `None`s it leaves out of maps). Glaze's
//! bytes must equal structio's for the same value, and structio must read Glaze's bytes back to
//! the value structio reads from its own BEVE (compared with `==` and by structio's BEVE of it,
//! bit for bit).
//!
//! Then the schemaless converters: Glaze's `beve_to_json` of each record's BEVE must equal
//! structio's. Glaze's converter cannot convert packed bool arrays (structio converts them,
//! `docs/beve.md` section 6), so both convert the record with its bool arrays left out.

use std::fmt::Debug;
use std::path::Path;

use structio::json::Options;
use structio::value::TypedArray;
use structio::{Reflect, Value};

/// What is compared for each record, in the order of `differential typed`'s results.
const CHECKS: [&str; 5] = [
    "BEVE (Glaze read structio's BEVE, wrote BEVE)",
    "JSON (Glaze read structio's BEVE, wrote JSON)",
    "pretty JSON (Glaze read structio's BEVE, wrote pretty JSON)",
    "JSON (Glaze read structio's JSON, wrote JSON)",
    "pretty JSON (Glaze read structio's JSON, wrote pretty JSON)",
];
const N: usize = CHECKS.len();

/// How many differences of one kind are printed in full.
const SHOWN: usize = 3;

fn framed(records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend_from_slice(&(r.len() as u32).to_le_bytes());
        out.extend_from_slice(r);
    }
    out
}

/// Runs `differential MODE ARGS... IN... OUT`, each `IN` a file of the framed records of one
/// of `inputs` (named after `tag` and the mode), and returns what it wrote to `OUT`.
fn glaze(exe: &Path, dir: &Path, tag: &str, mode_args: &[&str], inputs: &[&[Vec<u8>]]) -> Vec<u8> {
    let mode = mode_args[0];
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for (k, records) in inputs.iter().enumerate() {
        let file = dir.join(format!("{tag}.{mode}.{k}.in"));
        std::fs::write(&file, framed(records)).unwrap();
        files.push(file);
    }
    let out = dir.join(format!("{tag}.{mode}.out"));
    let mut args: Vec<&Path> = mode_args.iter().map(Path::new).collect();
    args.extend(files.iter().map(|f| f.as_path()));
    args.push(&out);
    crate::run(exe, &args);
    std::fs::read(&out).unwrap()
}

/// Splits `differential typed`'s output into (status, bytes) results.
fn results(mut bytes: &[u8]) -> Vec<(u8, &[u8])> {
    let mut v = Vec::new();
    while bytes.len() >= 5 {
        let n = u32::from_le_bytes(bytes[1..5].try_into().unwrap()) as usize;
        v.push((bytes[0], &bytes[5..5 + n]));
        bytes = &bytes[5 + n..];
    }
    v
}

/// A short view of where `glaze` and `ours` first differ: text for JSON, hex for BEVE.
fn diff(glaze: &[u8], ours: &[u8], text: bool) -> String {
    let at = glaze
        .iter()
        .zip(ours)
        .position(|(a, b)| a != b)
        .unwrap_or(glaze.len().min(ours.len()));
    let from = at.saturating_sub(24);
    let show = |b: &[u8]| {
        let b = &b[from.min(b.len())..(at + 24).min(b.len())];
        if text {
            format!("{:?}", String::from_utf8_lossy(b))
        } else {
            b.iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    format!(
        "first difference at byte {at} (lengths {} / {}), from byte {from}:\n      Glaze    {}\n      structio {}",
        glaze.len(),
        ours.len(),
        show(glaze),
        show(ours)
    )
}

/// Runs `differential typed NAME` on `values` and returns the number of differences found.
pub fn check<T>(exe: &Path, dir: &Path, name: &str, values: &[T]) -> usize
where
    T: for<'de> Reflect<'de> + Default + PartialEq + Debug,
{
    let pretty_opts = Options {
        pretty: true,
        ..Options::default()
    };
    let beve: Vec<Vec<u8>> = values.iter().map(structio::to_beve).collect();
    let json: Vec<Vec<u8>> = values
        .iter()
        .map(|v| structio::to_json(v).into_bytes())
        .collect();
    let nulls = Options {
        write_null_members: true,
        ..Options::default()
    };
    let json_nulls: Vec<Vec<u8>> = values
        .iter()
        .map(|v| structio::json::to_json_with(v, &nulls).into_bytes())
        .collect();
    let pretty: Vec<Vec<u8>> = values
        .iter()
        .map(|v| structio::json::to_json_with(v, &pretty_opts).into_bytes())
        .collect();
    let bytes = glaze(exe, dir, name, &["typed", name], &[&beve, &json_nulls]);
    let res = results(&bytes);
    assert_eq!(res.len(), N * values.len(), "{name}: Glaze's result count");

    // Per check: records written differently, records whose Glaze bytes read back wrong.
    let mut differ = [0usize; N];
    let mut misread = [0usize; N];
    let mut read_errors = [0usize; 2];
    for i in 0..values.len() {
        // What structio reads from its own BEVE: the value less what is left out (`None`s in
        // maps).
        let v: T = structio::from_beve(&beve[i]).expect("structio reads its own BEVE");
        // Glaze's first three results are of what it read from structio's BEVE, where those
        // entries are already gone: compare them with structio's output of the same.
        let (vj, vp) = (
            structio::to_json(&v).into_bytes(),
            structio::json::to_json_with(&v, &pretty_opts).into_bytes(),
        );
        let ours = [&beve[i], &vj, &vp, &json[i], &pretty[i]];
        for (k, &(status, glaze)) in res[N * i..N * i + N].iter().enumerate() {
            if status != 0 {
                let from = usize::from(k >= 3);
                read_errors[from] += 1;
                if read_errors[from] <= SHOWN && (k == 0 || k == 3) {
                    println!(
                        "{name} #{i}: Glaze cannot read structio's {}: {}\n      {}",
                        ["BEVE", "JSON"][from],
                        String::from_utf8_lossy(glaze),
                        diff(ours[k], ours[k], k != 0).lines().last().unwrap_or("")
                    );
                }
                continue;
            }
            if glaze != ours[k].as_slice() {
                differ[k] += 1;
                if differ[k] <= SHOWN {
                    println!(
                        "{name} #{i}: {} differs; {}",
                        CHECKS[k],
                        diff(glaze, ours[k], k != 0)
                    );
                }
            }
            let back: structio::Result<T> = if k == 0 {
                structio::from_beve(glaze)
            } else {
                structio::from_json(glaze)
            };
            let ok = match &back {
                Ok(b) => *b == v && structio::to_beve(b) == beve[i],
                Err(_) => false,
            };
            if !ok {
                misread[k] += 1;
                if misread[k] <= SHOWN {
                    match back {
                        Ok(b) => println!(
                            "{name} #{i}: structio reads Glaze's {} as a different value (Debug text); {}",
                            CHECKS[k],
                            diff(format!("{b:?}").as_bytes(), format!("{v:?}").as_bytes(), true)
                        ),
                        Err(e) => println!(
                            "{name} #{i}: structio cannot read Glaze's {}: {e}",
                            CHECKS[k]
                        ),
                    }
                }
            }
        }
    }
    println!(
        "{name}: {} records; Glaze read errors: BEVE {}, JSON {}",
        values.len(),
        read_errors[0],
        read_errors[1]
    );
    for k in 0..N {
        println!(
            "  {:<62} written differently {:>5}, read back wrong {:>5}",
            CHECKS[k], differ[k], misread[k]
        );
    }
    read_errors.iter().sum::<usize>()
        + differ.iter().sum::<usize>()
        + misread.iter().sum::<usize>()
        + convert(exe, dir, name, &beve)
        + reuse(exe, dir, name, values)
        + sequence(exe, dir, name, values, false)
        + sequence(exe, dir, name, values, true)
}

/// Runs `differential ndjson` (`delimited`: the BEVE counterpart) on all of `values` as one
/// sequence document: Glaze reads it into a vector and writes it back, which must give
/// structio's bytes; structio must read Glaze's document back as it reads each record alone.
/// Returns the number of differences (0 or 1).
pub fn sequence<T>(exe: &Path, dir: &Path, name: &str, values: &[T], beve: bool) -> usize
where
    T: for<'de> Reflect<'de> + Default + PartialEq + Debug,
{
    let (mode, what) = if beve {
        ("delimited", "delimited BEVE")
    } else {
        ("ndjson", "NDJSON")
    };
    let ours = if beve {
        structio::beve::to_delimited(values)
    } else {
        structio::json::to_ndjson(values).into_bytes()
    };
    let bytes = glaze(
        exe,
        dir,
        name,
        &[mode, name],
        &[std::slice::from_ref(&ours)],
    );
    let res = results(&bytes);
    assert_eq!(res.len(), 1, "{name}: Glaze's {mode} result count");
    let (status, glaze) = res[0];
    let problem = if status != 0 {
        Some(format!(
            "Glaze could not read it: {}",
            String::from_utf8_lossy(glaze)
        ))
    } else if glaze != ours.as_slice() {
        Some(diff(glaze, &ours, !beve))
    } else {
        // What each record reads back as on its own (a map entry holding `None`, say, is not
        // written, so this is not always `values`).
        let alone = |v: &T| -> T {
            if beve {
                structio::from_beve(&structio::to_beve(v)).expect("structio reads its BEVE")
            } else {
                structio::from_json(&structio::to_json(v)).expect("structio reads its JSON")
            }
        };
        let each: Vec<T> = values.iter().map(alone).collect();
        let back = if beve {
            structio::beve::from_delimited::<T>(glaze)
        } else {
            structio::json::from_ndjson::<T>(glaze)
        };
        match back {
            Ok(back) if back == each => None,
            Ok(_) => Some(format!("structio read Glaze's {what} back differently")),
            Err(e) => Some(format!("structio could not read Glaze's {what}: {e}")),
        }
    };
    println!(
        "  {:<62} {}",
        format!("all records as one {what} document, via Glaze and back"),
        if problem.is_none() {
            "same"
        } else {
            "DIFFERENT"
        }
    );
    if let Some(p) = &problem {
        println!("{name}: {what}: {p}");
    }
    usize::from(problem.is_some())
}

/// `v` without its packed bool arrays: object members holding one are removed, array elements
/// become `null`.
fn without_bool_arrays(v: &mut Value) {
    match v {
        Value::Typed(TypedArray::Bool(_)) => *v = Value::Null,
        Value::Array(a) => a.iter_mut().for_each(without_bool_arrays),
        Value::Object(m) => {
            m.retain(|_, x| !matches!(x, Value::Typed(TypedArray::Bool(_))));
            m.iter_mut().for_each(|(_, x)| without_bool_arrays(x));
        }
        Value::IntObject(m) => {
            m.retain(|_, x| !matches!(x, Value::Typed(TypedArray::Bool(_))));
            m.iter_mut().for_each(|(_, x)| without_bool_arrays(x));
        }
        _ => {}
    }
}

/// Runs `differential convert` on `beve` (less its bool arrays) and compares Glaze's
/// `beve_to_json` with structio's; returns the number of differences and failures.
pub fn convert(exe: &Path, dir: &Path, name: &str, beve: &[Vec<u8>]) -> usize {
    let docs: Vec<Vec<u8>> = beve
        .iter()
        .map(|b| {
            let mut v: Value = structio::from_beve(b).expect("structio reads its own BEVE");
            without_bool_arrays(&mut v);
            structio::to_beve(&v)
        })
        .collect();
    let bytes = glaze(exe, dir, name, &["convert"], &[&docs]);
    let res = results(&bytes);
    assert_eq!(res.len(), docs.len(), "{name}: Glaze's conversion count");
    let (mut failed, mut differ) = (0, 0);
    for (i, (doc, &(status, glaze))) in docs.iter().zip(&res).enumerate() {
        let ours = structio::beve_to_json(doc);
        let shown = failed + differ < SHOWN;
        match (status, &ours) {
            (0, Ok(json)) if json.as_bytes() == glaze => continue,
            (0, Ok(json)) => {
                differ += 1;
                if shown {
                    println!(
                        "{name} #{i}: beve_to_json differs; {}",
                        diff(glaze, json.as_bytes(), true)
                    );
                }
            }
            _ => {
                failed += 1;
                if shown {
                    println!(
                        "{name} #{i}: beve_to_json: Glaze {}, structio {:?}",
                        if status == 0 {
                            "converts".into()
                        } else {
                            String::from_utf8_lossy(glaze)
                        },
                        ours.as_ref().map(|_| "converts")
                    );
                }
            }
        }
    }
    println!(
        "  {:<62} converted differently {differ:>3}, failed on one side {failed:>5}",
        "beve_to_json of structio's BEVE (bool arrays left out)"
    );
    differ + failed
}

/// Runs `differential reuse` on `values`: each record read into a value holding the record
/// before it, by Glaze and by structio, from BEVE and from JSON (without null members), and
/// written again; returns the number of differences.
pub fn reuse<T>(exe: &Path, dir: &Path, name: &str, values: &[T]) -> usize
where
    T: for<'de> Reflect<'de> + Default + PartialEq + Debug,
{
    let beve: Vec<Vec<u8>> = values.iter().map(structio::to_beve).collect();
    let json: Vec<Vec<u8>> = values
        .iter()
        .map(|v| structio::to_json(v).into_bytes())
        .collect();
    let bytes = glaze(exe, dir, name, &["reuse", name], &[&beve, &json]);
    let res = results(&bytes);
    assert_eq!(res.len(), 2 * values.len(), "{name}: Glaze's result count");
    let what = ["BEVE", "JSON"];
    let mut differ = [0usize; 2];
    // Glaze merges a document into the value it reads into: structio's `merge` option.
    let mut bo = structio::beve::Options::default();
    bo.read.merge = true;
    let mut jo = structio::json::Options::default();
    jo.read.merge = true;
    let read_beve = |v: &mut T, b: &[u8]| structio::beve::read_beve_with(v, b, &bo);
    let read_json = |v: &mut T, b: &[u8]| structio::json::read_json_with(v, b, &jo);
    // Records whose value read over the one before differs from a fresh read (maps keep
    // entries, absent optional members keep their values): the cases this check is about.
    let mut merged = 0;
    for i in 0..values.len() {
        let mut v = T::default();
        let mut w = T::default();
        let read = if i > 0 {
            read_beve(&mut v, &beve[i - 1]).and_then(|()| read_json(&mut w, &json[i - 1]))
        } else {
            Ok(())
        };
        let ours = read
            .and_then(|()| read_beve(&mut v, &beve[i]))
            .and_then(|()| read_json(&mut w, &json[i]))
            .map(|()| [structio::to_beve(&v), structio::to_json(&w).into_bytes()]);
        if matches!(&ours, Ok(o) if o[0] != beve[i] || o[1] != json[i]) {
            merged += 1;
        }
        for k in 0..2 {
            let (status, glaze) = res[2 * i + k];
            let same = match &ours {
                Ok(o) => status == 0 && glaze == o[k].as_slice(),
                Err(_) => false,
            };
            if !same {
                differ[k] += 1;
                if differ[k] <= SHOWN {
                    match &ours {
                        Ok(o) if status == 0 => println!(
                            "{name} #{i}: {} read over the record before it differs; {}",
                            what[k],
                            diff(glaze, &o[k], k == 1)
                        ),
                        _ => println!(
                            "{name} #{i}: {} read over the record before it: Glaze {}, structio {:?}",
                            what[k],
                            if status == 0 { "reads".into() } else { String::from_utf8_lossy(glaze) },
                            ours.as_ref().map(|_| "reads")
                        ),
                    }
                }
            }
        }
    }
    println!(
        "  {:<62} BEVE differs {:>5}, JSON differs {:>5} ({merged} unlike a fresh read)",
        "each record read over the one before it", differ[0], differ[1]
    );
    differ.iter().sum()
}

/// Runs `differential timepoints` on `n` random `SystemTime`s that a
/// `std::chrono::sys_time<std::chrono::nanoseconds>` holds (an `i64` of nanoseconds since the
/// epoch, 1677 to 2262): Glaze's JSON of them must equal structio's, Glaze must read
/// structio's JSON and write it back unchanged, and structio must read Glaze's text back to
/// the same times. Returns the number of differences.
pub fn time_points(exe: &Path, dir: &Path, rng: &mut crate::Rng, n: usize) -> usize {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    let counts: Vec<i64> = (0..n.max(1))
        .map(|i| match i % 4 {
            // Anywhere in the range, whole seconds, whole milliseconds, and the edges.
            0 => rng.next() as i64,
            1 => (rng.next() as i64 / 1_000_000_000) * 1_000_000_000,
            2 => (rng.next() as i64 / 1_000_000) * 1_000_000,
            _ => [i64::MIN, i64::MAX, 0, -1, 1][(rng.next() % 5) as usize],
        })
        .collect();
    let time = |c: i64| {
        let d = Duration::from_nanos(c.unsigned_abs());
        if c < 0 {
            UNIX_EPOCH - d
        } else {
            UNIX_EPOCH + d
        }
    };
    let times: Vec<SystemTime> = counts.iter().map(|&c| time(c)).collect();
    let records: Vec<Vec<SystemTime>> = times.chunks(7).map(<[_]>::to_vec).collect();
    let json: Vec<Vec<u8>> = records
        .iter()
        .map(|r| structio::to_json(r).into_bytes())
        .collect();
    let raw: Vec<u8> = counts.iter().flat_map(|c| c.to_le_bytes()).collect();
    let counts_file = dir.join("timepoints.counts.bin");
    std::fs::write(&counts_file, raw).unwrap();
    let json_file = dir.join("timepoints.json.in");
    std::fs::write(&json_file, framed(&json)).unwrap();
    let out = dir.join("timepoints.out");
    crate::run(
        exe,
        &[Path::new("timepoints"), &counts_file, &json_file, &out],
    );
    let bytes = std::fs::read(&out).unwrap();
    let res = results(&bytes);
    assert_eq!(
        res.len(),
        1 + records.len(),
        "timepoints: Glaze's result count"
    );
    let mut bad = 0;
    let ours = structio::to_json(&times).into_bytes();
    let (status, glaze) = res[0];
    if status != 0 || glaze != ours.as_slice() {
        bad += 1;
        println!(
            "timepoints: Glaze's JSON of the counts differs; {}",
            diff(glaze, &ours, true)
        );
    }
    match structio::from_json::<Vec<SystemTime>>(glaze) {
        Ok(back) if back == times => {}
        Ok(_) => {
            bad += 1;
            println!("timepoints: structio reads Glaze's text as other times");
        }
        Err(e) => {
            bad += 1;
            println!("timepoints: structio cannot read Glaze's text: {e}");
        }
    }
    let mut differ = 0;
    for (i, (&(status, glaze), ours)) in res[1..].iter().zip(&json).enumerate() {
        if status != 0 || glaze != ours.as_slice() {
            differ += 1;
            if differ <= SHOWN {
                println!(
                    "timepoints #{i}: Glaze read structio's JSON and wrote {}; {}",
                    if status == 0 {
                        "other text"
                    } else {
                        "an error"
                    },
                    diff(glaze, ours, true)
                );
            }
        }
    }
    println!(
        "timepoints: {} time points; Glaze's JSON of them {}, structio's JSON read and written back by Glaze: {differ} differ",
        times.len(),
        if bad == 0 { "identical" } else { "DIFFERENT" }
    );
    bad + differ
}
