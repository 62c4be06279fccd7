//! Hostile input for the types read from text of their own or checked after reading (`NonZero*`,
//! `Duration`, `SystemTime`, addresses, paths, and the `chrono`, `time`, `uuid`, `indexmap`,
//! `smallvec` and `bytes` features): megabyte texts and fractions, numbers far past every range,
//! a zero at the end of a million elements, counts far beyond the payload, and repeated keys.
//! Each is a clean error (or a documented acceptance) in time linear in the input and memory
//! bounded by a small multiple of it; messages quote at most a clipped part of the text.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::num::{NonZeroU32, NonZeroU8};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::{bounded, err, err_with, timed};

/// A JSON string holding `n` copies of `unit`.
fn long_string(unit: &str, n: usize) -> String {
    format!("\"{}\"", unit.repeat(n))
}

/// The compressed BEVE SIZE of `n` (8 bytes wide).
fn size8(n: u64) -> [u8; 8] {
    (n << 2 | 3).to_le_bytes()
}

#[test]
fn megabyte_texts_are_clipped_in_messages() {
    let text = long_string("1", 1 << 20);
    let check = |what: &str, e: structio::Error| {
        let m = e.message();
        assert!(m.len() < 200, "{what}: message of {} bytes", m.len());
        assert!(m.contains("(1048576 bytes)"), "{what}: {m}");
    };
    timed("megabyte texts", 2000, || {
        check(
            "IpAddr",
            err("IpAddr", structio::from_json::<IpAddr>(&text)),
        );
        check(
            "SocketAddr",
            err("SocketAddr", structio::from_json::<SocketAddr>(&text)),
        );
        check(
            "SystemTime",
            err("SystemTime", structio::from_json::<SystemTime>(&text)),
        );
        let key = format!("{{{text}:1}}");
        check(
            "IpAddr key",
            err(
                "IpAddr key",
                structio::from_json::<BTreeMap<IpAddr, u8>>(&key),
            ),
        );
        // A path takes any text: a megabyte path reads.
        let p: PathBuf = structio::from_json(&text).unwrap();
        assert_eq!(p.as_os_str().len(), 1 << 20);
    });
}

#[test]
fn a_megabyte_fraction_of_a_second_reads_in_linear_time() {
    // Glaze drops the digits past the ninth; so does structio, without keeping them.
    let text = format!("\"2024-01-01T00:00:00.{}Z\"", "9".repeat(1 << 20));
    let t: SystemTime = timed("megabyte fraction", 500, || structio::from_json(&text)).unwrap();
    assert_eq!(structio::to_json(&t), "\"2024-01-01T00:00:00.999999999Z\"");
}

#[test]
fn numbers_far_past_every_range() {
    let digits = "9".repeat(100_000);
    timed("long numbers", 2000, || {
        err_with(
            "Duration",
            structio::from_json::<Duration>(&digits),
            "out of range",
        );
        err_with(
            "NonZeroU32",
            structio::from_json::<NonZeroU32>(&digits),
            "out of range",
        );
        err(
            "-Duration",
            structio::from_json::<Duration>(&format!("-{digits}")),
        );
        err("Duration exp", structio::from_json::<Duration>("1e400"));
        err("Duration float", structio::from_json::<Duration>("0.5"));
    });
}

#[test]
fn a_zero_after_a_million_nonzero_elements() {
    bounded(
        "types::a_zero_after_a_million_nonzero_elements",
        256,
        || {
            let n = 1 << 20;
            let mut json = "1,".repeat(n);
            json.insert(0, '[');
            json.push_str("0]");
            let e = timed("JSON zero at the end", 2000, || {
                err("zero", structio::from_json::<Vec<NonZeroU8>>(&json))
            });
            assert_eq!(e.path(), format!("$[{n}]"));
            assert_eq!(e.offset(), 2 * n + 1);
            let mut v = vec![1u8; n];
            v.push(0);
            let beve = structio::to_beve(&v);
            let e = timed("BEVE zero at the end", 2000, || {
                err("zero", structio::from_beve::<Vec<NonZeroU8>>(&beve))
            });
            assert_eq!(e.path(), format!("$[{n}]"));
        },
    );
}

#[test]
fn counts_far_beyond_the_payload() {
    bounded("types::counts_far_beyond_the_payload", 64, || {
        for n in [1u64 << 30, 1 << 40, (1 << 61) - 1] {
            // Typed arrays of u8 (bytes, UUIDs), u32 (NonZeroU32), i64 (Duration), strings
            // (addresses, times) and generic arrays.
            for h in [0x14u8, 0x54, 0x6C, 0x3C, 0x05] {
                let doc = [&[h][..], &size8(n), &[0u8; 16]].concat();
                let what = format!("header {h:#04x} count {n}");
                err(&what, structio::from_beve::<Vec<NonZeroU32>>(&doc));
                err(&what, structio::from_beve::<Vec<Duration>>(&doc));
                err(&what, structio::from_beve::<Vec<SystemTime>>(&doc));
                err(&what, structio::from_beve::<Vec<IpAddr>>(&doc));
                err(&what, structio::from_beve::<Vec<PathBuf>>(&doc));
                #[cfg(feature = "uuid")]
                err(&what, structio::from_beve::<uuid::Uuid>(&doc));
                #[cfg(feature = "bytes")]
                err(&what, structio::from_beve::<bytes::Bytes>(&doc));
                #[cfg(feature = "smallvec")]
                err(
                    &what,
                    structio::from_beve::<smallvec::SmallVec<[u32; 4]>>(&doc),
                );
                #[cfg(feature = "indexmap")]
                err(&what, structio::from_beve::<indexmap::IndexSet<u32>>(&doc));
                #[cfg(feature = "time")]
                err(&what, structio::from_beve::<Vec<time::Duration>>(&doc));
            }
            // Objects claiming that many entries.
            for h in [0x03u8, 0x53] {
                let doc = [&[h][..], &size8(n), &[0u8; 16]].concat();
                err("map", structio::from_beve::<BTreeMap<IpAddr, u8>>(&doc));
                #[cfg(feature = "indexmap")]
                err(
                    "index map",
                    structio::from_beve::<indexmap::IndexMap<u32, u8>>(&doc),
                );
            }
        }
    });
}

#[cfg(feature = "indexmap")]
#[test]
fn repeated_keys_of_an_index_map() {
    use indexmap::IndexMap;
    let n = 200_000;
    let mut doc = String::from("{");
    for i in 0..n {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str("\"k\":1");
    }
    doc.push('}');
    let m: IndexMap<String, u8> =
        timed("repeated keys", 2000, || structio::from_json(&doc)).unwrap();
    assert_eq!(m.len(), 1);
    let mut opts = structio::json::Options::default();
    opts.read.error_on_duplicate_keys = true;
    for merge in [false, true] {
        opts.read.merge = merge;
        let e = err(
            "duplicate",
            structio::json::from_json_with::<IndexMap<String, u8>>(&doc, &opts),
        );
        assert_eq!(e.offset(), 7);
    }
    // Distinct keys: linear.
    let mut doc = String::from("{");
    for i in 0..n {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!("\"{i}\":1"));
    }
    doc.push('}');
    let m: IndexMap<u32, u8> = timed("distinct keys", 2000, || structio::from_json(&doc)).unwrap();
    assert_eq!(m.len(), n);
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_bad_input() {
    use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeDelta, Utc};
    for bad in [
        "\"\"",
        "\"2024\"",
        "\"2024-01-01T00:00:00+99:00\"",
        "\"2024-01-01T00:00:00+23:59:60\"",
        "\"2024-01-01T00:00:00\u{0}\"",
        "\"2024-01-01T00:00:00.\"",
        "\"+262143-01-01T00:00:00Z\"",
        "[]",
        "{}",
        "null",
        "1",
    ] {
        err(bad, structio::from_json::<DateTime<Utc>>(bad));
        err(bad, structio::from_json::<DateTime<FixedOffset>>(bad));
        err(bad, structio::from_json::<NaiveDate>(bad));
        err(bad, structio::from_json::<NaiveTime>(bad));
    }
    // An escaped digit is the same text: it reads.
    let t: DateTime<Utc> = structio::from_json("\"\\u0032024-01-01T00:00:00Z\"").unwrap();
    assert_eq!(structio::to_json(&t), "\"2024-01-01T00:00:00.000000000Z\"");
    err_with(
        "TimeDelta",
        structio::from_json::<TimeDelta>(&"9".repeat(50)),
        "out of range",
    );
}

#[cfg(feature = "time")]
#[test]
fn time_crate_bad_input() {
    use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};
    for bad in [
        "\"\"",
        "\"2024-01-01T00:00:60Z\"",
        "\"2024-00-01T00:00:00Z\"",
        "\"2024-01-01T00:00:00-24:00\"",
        "\"24:00:00\"",
        "[0]",
        "true",
    ] {
        err(bad, structio::from_json::<OffsetDateTime>(bad));
        err(bad, structio::from_json::<PrimitiveDateTime>(bad));
        err(bad, structio::from_json::<Date>(bad));
        err(bad, structio::from_json::<Time>(bad));
    }
    err_with(
        "Duration",
        structio::from_json::<time::Duration>(&format!("-{}", "9".repeat(40))),
        "out of range",
    );
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_bad_input() {
    use uuid::Uuid;
    for bad in [
        "\"\"",
        "\"67e55044-10b1-426f-9247-bb680e5fe0c\"",
        "\"67e55044-10b1-426f-9247-bb680e5fe0c8a\"",
        "\"g7e55044-10b1-426f-9247-bb680e5fe0c8\"",
        "[1,2,3]",
        "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
        "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,256]",
        "{}",
        "null",
        "12",
    ] {
        err(bad, structio::from_json::<Uuid>(bad));
    }
    // BEVE: a typed array of the wrong length or type, a string that is no UUID.
    for bad in [
        &[0x14u8, 15 << 2][..],
        &[0x14, 17 << 2],
        &[0x02, 4 << 2, b'a', b'b', b'c', b'd'],
        &[0x00],
    ] {
        let mut doc = bad.to_vec();
        doc.extend([0u8; 20]);
        err("uuid BEVE", structio::from_beve::<Uuid>(&doc));
    }
}

/// Date-times the texts can say but the types cannot keep (issue 42), through every reader:
/// `from_json`, `from_beve`, `read_json`/`read_beve` into a value, `json::parse`,
/// `beve::parse`, and as elements of a `Vec` (BEVE's string array) and values of a map.
/// - a UTC instant outside the years 0000-9999 at an extreme offset (the `time` crate's
///   `OffsetDateTime` read `9999-12-31T23:59:59-23:59`, then `to_offset(UTC)` panicked);
/// - a leap second at an offset with seconds (chrono read `1969-01-30T23:00:60+05:30:15`
///   and wrote another instant).
///
/// `tests/dates.rs` has the grid of every edge for every type and the property test.
#[test]
fn date_times_past_the_range_or_unkeepable_are_errors_in_every_reader() {
    const TEXTS: &[&str] = &[
        "9999-12-31T23:59:59-23:59",
        "9999-12-31T23:59:59.999999999-00:00:01",
        "9999-12-31T23:59:60-23:59:59",
        "9999-12-31T00:01:00-2359",
        "9999-12-31T12:00:00-23",
        "0000-01-01T00:00:00+23:59",
        "0000-01-01T00:00:00+23:59:59",
        "0000-01-01T00:00:00+00:00:01",
        "0000-01-01T00:00:00.5+0001",
        "1969-01-30T23:00:60+05:30:15",
        "2016-12-31T23:59:60-00:00:30",
        "2016-12-31T23:59:60.999999999+00:00:01",
    ];
    fn refused<T: structio::ReflectOwned + std::fmt::Debug + Clone>(ty: &str, sample: T) {
        use std::collections::BTreeMap;
        for text in TEXTS {
            let what = format!("{ty} from {text}");
            let json = structio::to_json(text);
            let beve = structio::to_beve(text);
            err(&what, structio::from_json::<T>(&json));
            err(&what, structio::from_beve::<T>(&beve));
            let mut into = sample.clone();
            err(&what, structio::read_json(&mut into, &json));
            err(&what, structio::read_beve(&mut into, &beve));
            assert!(structio::json::parse::<T>(&json).is_err(), "{what}");
            assert!(structio::beve::parse::<T>(&beve).is_err(), "{what}");
            // Among good elements: a string array in BEVE, the last element in JSON.
            let many = vec!["2024-01-01T00:00:00Z", text];
            err(
                &what,
                structio::from_json::<Vec<T>>(&structio::to_json(&many)),
            );
            err(
                &what,
                structio::from_beve::<Vec<T>>(&structio::to_beve(&many)),
            );
            let map = BTreeMap::from([("at", *text)]);
            err(
                &what,
                structio::from_json::<BTreeMap<String, T>>(&structio::to_json(&map)),
            );
            err(
                &what,
                structio::from_beve::<BTreeMap<String, T>>(&structio::to_beve(&map)),
            );
            let r = structio::json::parse::<Vec<T>>(&structio::to_json(&many)).unwrap_err();
            assert_eq!(r.issues().len(), 1, "{what}: {r}");
            assert_eq!(r.issues()[0].pointer(), "/1", "{what}");
        }
    }
    let epoch = "\"1970-01-01T00:00:00Z\"";
    refused::<SystemTime>("SystemTime", structio::from_json(epoch).unwrap());
    #[cfg(feature = "chrono")]
    {
        use chrono::{DateTime, FixedOffset, Local, Utc};
        refused::<DateTime<Utc>>("DateTime<Utc>", structio::from_json(epoch).unwrap());
        refused::<DateTime<FixedOffset>>(
            "DateTime<FixedOffset>",
            structio::from_json(epoch).unwrap(),
        );
        refused::<DateTime<Local>>("DateTime<Local>", structio::from_json(epoch).unwrap());
    }
    #[cfg(feature = "time")]
    refused::<time::OffsetDateTime>("OffsetDateTime", time::OffsetDateTime::UNIX_EPOCH);
}
