//! The std and ecosystem types that need no attribute: `NonZero*`, `Duration`, `SystemTime`,
//! IP and socket addresses, paths, text and slices behind pointers, `Cow<[T]>` of any element,
//! arrays of any length, and the types of the optional features (`chrono`, `time`, `uuid`,
//! `indexmap`, `smallvec`, `bytes`). Each is checked in both formats: exact JSON text and BEVE
//! bytes for representative values, round trips, the wire of the std type it is laid out like,
//! and errors (message, offset, path). The Glaze-written files in `tests/data/glaze/` (see the
//! README there) are read and written back byte for byte.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use structio::{from_beve, from_json, read_beve, read_json, to_beve, to_json, Category, Reflect};

#[path = "common/files.rs"]
mod files;

/// `v` is written as exactly `json` and `beve`, and both read back to it.
#[track_caller]
fn exact<T>(v: &T, json: &str, beve: &[u8])
where
    T: for<'de> Reflect<'de> + PartialEq + Debug,
{
    assert_eq!(to_json(v), json, "JSON of {v:?}");
    assert_eq!(to_beve(v), beve, "BEVE of {v:?}");
    assert_eq!(&from_json::<T>(json).unwrap(), v, "{json}");
    assert_eq!(&from_beve::<T>(beve).unwrap(), v, "{json}");
}

/// `v` is written in both formats exactly as `plain` is, and both read back to it.
#[track_caller]
fn like<'p, T, P>(v: &T, plain: &P)
where
    T: for<'de> Reflect<'de> + PartialEq + Debug,
    P: Reflect<'p>,
{
    let (json, beve) = (to_json(v), to_beve(v));
    assert_eq!(json, to_json(plain), "JSON of {v:?}");
    assert_eq!(beve, to_beve(plain), "BEVE of {v:?}");
    assert_eq!(&from_json::<T>(&json).unwrap(), v, "{json}");
    assert_eq!(&from_beve::<T>(&beve).unwrap(), v, "{json}");
}

/// Reading `json` as `T` fails with `message` at byte `offset` with path `path`, a Data error.
#[track_caller]
fn json_error<T: for<'de> Reflect<'de> + Debug>(
    json: &str,
    message: &str,
    offset: usize,
    path: &str,
) {
    let e = from_json::<T>(json).expect_err(json);
    assert_eq!(e.message(), message, "{json}");
    assert_eq!(e.offset(), offset, "{json}: {e}");
    assert_eq!(e.path(), path, "{json}: {e}");
    assert_eq!(e.category(), Category::Data, "{json}: {e}");
}

/// Reading `beve` as `T` fails with `message` at byte `offset` with path `path`.
#[track_caller]
fn beve_error<T: for<'de> Reflect<'de> + Debug>(
    beve: &[u8],
    message: &str,
    offset: usize,
    path: &str,
) {
    let e = from_beve::<T>(beve).expect_err("an error");
    assert_eq!(e.message(), message, "{beve:x?}");
    assert_eq!(e.offset(), offset, "{beve:x?}: {e}");
    assert_eq!(e.path(), path, "{beve:x?}: {e}");
}

/// A BEVE string: header 0x02, the compressed length (< 64 bytes here), the text.
fn beve_str(s: &str) -> Vec<u8> {
    assert!(s.len() < 64);
    [&[0x02, (s.len() as u8) << 2][..], s.as_bytes()].concat()
}

// ---------------------------------------------------------------------------------------------
// NonZero integers

#[test]
fn nonzero_integers_are_their_integer() {
    exact(&NonZeroU8::new(200).unwrap(), "200", &[0x11, 200]);
    exact(&NonZeroI8::new(-1).unwrap(), "-1", &[0x09, 0xFF]);
    exact(&NonZeroU32::new(7).unwrap(), "7", &[0x51, 7, 0, 0, 0]);
    like(&NonZeroU16::MAX, &u16::MAX);
    like(&NonZeroU64::MAX, &u64::MAX);
    like(&NonZeroU128::MAX, &u128::MAX);
    like(&NonZeroI16::MIN, &i16::MIN);
    like(&NonZeroI32::MIN, &i32::MIN);
    like(&NonZeroI64::MIN, &i64::MIN);
    like(&NonZeroI128::MIN, &i128::MIN);
    // usize and isize are u64 and i64 on the wire, as Glaze's size_t and ptrdiff_t.
    like(&NonZeroUsize::new(5).unwrap(), &5u64);
    like(&NonZeroIsize::new(-5).unwrap(), &-5i64);
    like(&Some(NonZeroU32::new(3).unwrap()), &Some(3u32));
    like(&None::<NonZeroU32>, &None::<u32>);
}

#[test]
fn vectors_of_nonzero_integers_are_typed_arrays() {
    let v: Vec<NonZeroU32> = [1, 2, 4_000_000_000]
        .map(|x| NonZeroU32::new(x).unwrap())
        .to_vec();
    like(&v, &vec![1u32, 2, 4_000_000_000]);
    assert_eq!(to_beve(&v)[0], 0x54, "a u32 typed array");
    let v: Vec<NonZeroI8> = [-128, 1, 127].map(|x| NonZeroI8::new(x).unwrap()).to_vec();
    like(&v, &vec![-128i8, 1, 127]);
    let v: Vec<NonZeroUsize> = [1, 9].map(|x| NonZeroUsize::new(x).unwrap()).to_vec();
    assert_eq!(to_beve(&v), to_beve(&vec![1u64, 9]), "a u64 typed array");
    assert_eq!(from_beve::<Vec<NonZeroUsize>>(&to_beve(&v)).unwrap(), v);
    // Other containers and arrays of any length.
    let a: [NonZeroU16; 40] = std::array::from_fn(|i| NonZeroU16::new(i as u16 + 1).unwrap());
    like(&a, &std::array::from_fn::<u16, 40, _>(|i| i as u16 + 1));
    let d: std::collections::VecDeque<NonZeroU8> = v8([3, 4]).into();
    like(&d, &vec![3u8, 4]);
    // Reading into a used vector reuses it and gives what a fresh read gives.
    let mut used = v8([9, 9, 9, 9]);
    read_json(&mut used, "[1,2]").unwrap();
    assert_eq!(used, v8([1, 2]));
    read_beve(&mut used, &to_beve(&vec![5u8, 6, 7])).unwrap();
    assert_eq!(used, v8([5, 6, 7]));
}

fn v8<const N: usize>(a: [u8; N]) -> Vec<NonZeroU8> {
    a.map(|x| NonZeroU8::new(x).unwrap()).to_vec()
}

#[test]
fn zero_is_an_error_naming_the_type() {
    json_error::<NonZeroU32>("0", "zero is not a valid NonZeroU32", 0, "$");
    json_error::<NonZeroI64>(" 0", "zero is not a valid NonZeroI64", 1, "$");
    beve_error::<NonZeroU8>(&[0x11, 0], "zero is not a valid NonZeroU8", 0, "$");
    // In an array, at the element, with its index (typed or generic, JSON or BEVE).
    json_error::<Vec<NonZeroU16>>("[1, 2,0]", "zero is not a valid NonZeroU16", 6, "$[2]");
    beve_error::<Vec<NonZeroU16>>(
        &to_beve(&vec![1u16, 0, 3]),
        "zero is not a valid NonZeroU16",
        4,
        "$[1]",
    );
    beve_error::<Vec<NonZeroU16>>(
        &to_beve(&(1u16, 0u16)),
        "zero is not a valid NonZeroU16",
        5,
        "$[1]",
    );
    json_error::<[NonZeroU8; 2]>("[1,0]", "zero is not a valid NonZeroU8", 3, "$[1]");
    // Out of range names the type too.
    json_error::<NonZeroU8>("256", "number out of range for NonZeroU8", 0, "$");
    json_error::<Vec<NonZeroU8>>("[1,256]", "number out of range for NonZeroU8", 3, "$[1]");
    json_error::<NonZeroU32>("-1", "number out of range for NonZeroU32", 0, "$");
    // Inside a struct the path names the field.
    #[derive(Reflect, Debug, PartialEq)]
    struct Job {
        id: NonZeroU64,
        retries: Option<NonZeroU8>,
    }
    json_error::<Job>(r#"{"id":0}"#, "zero is not a valid NonZeroU64", 6, "$.id");
    let job = Job {
        id: NonZeroU64::new(42).unwrap(),
        retries: None,
    };
    exact(
        &job,
        r#"{"id":42}"#,
        &to_beve(&BTreeMap::from([("id", 42u64)])),
    );
}

#[test]
fn nonzero_map_keys_are_integer_keys() {
    let m: BTreeMap<NonZeroU16, &str> = [(1, "a"), (65535, "b")]
        .map(|(k, v)| (NonZeroU16::new(k).unwrap(), v))
        .into();
    let plain: BTreeMap<u16, &str> = [(1, "a"), (65535, "b")].into();
    assert_eq!(to_json(&m), r#"{"1":"a","65535":"b"}"#);
    assert_eq!(to_beve(&m), to_beve(&plain));
    assert_eq!(
        from_json::<BTreeMap<NonZeroU16, String>>(&to_json(&m))
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        from_beve::<BTreeMap<NonZeroU16, String>>(&to_beve(&m))
            .unwrap()
            .len(),
        2
    );
    json_error::<BTreeMap<NonZeroU16, u8>>(r#"{"0":1}"#, "zero is not a valid NonZeroU16", 1, "$");
    let e = from_beve::<BTreeMap<NonZeroU16, u8>>(&to_beve(&BTreeMap::from([(0u16, 1u8)])))
        .unwrap_err();
    assert_eq!(e.message(), "zero is not a valid NonZeroU16");
}

// ---------------------------------------------------------------------------------------------
// Duration and SystemTime

#[test]
fn a_duration_is_its_nanoseconds_as_an_i64() {
    // Glaze's std::chrono::nanoseconds: header 0x69 (i64), little-endian count.
    let d = Duration::from_millis(1500);
    let mut beve = vec![0x69];
    beve.extend_from_slice(&1_500_000_000i64.to_le_bytes());
    exact(&d, "1500000000", &beve);
    like(&Duration::ZERO, &0i64);
    like(&Duration::new(1, 1), &1_000_000_001i64);
    let max_i64 = Duration::from_nanos(i64::MAX as u64);
    like(&max_i64, &i64::MAX);
    // A vector is an i64 typed array (Glaze's std::vector<nanoseconds>).
    let v = vec![Duration::from_nanos(1), Duration::from_secs(86_400)];
    like(&v, &vec![1i64, 86_400_000_000_000]);
    assert_eq!(to_beve(&v)[0], 0x6C);
    like(&[Duration::from_nanos(5); 3], &[5i64; 3]);
    // Any integer reads: another width, unsigned, a typed array of another type.
    assert_eq!(
        from_beve::<Duration>(&to_beve(&7u8)).unwrap(),
        Duration::from_nanos(7)
    );
    assert_eq!(
        from_beve::<Vec<Duration>>(&to_beve(&vec![1u32, 2])).unwrap(),
        [1, 2].map(Duration::from_nanos)
    );
}

#[test]
fn durations_past_i64_nanoseconds_are_u128_counts() {
    // Longer than std::chrono::nanoseconds holds (about 292 years): structio keeps it exact.
    let d = Duration::MAX;
    let n = d.as_nanos();
    let mut beve = vec![0x91];
    beve.extend_from_slice(&n.to_le_bytes());
    exact(&d, &n.to_string(), &beve);
    assert_eq!(to_json(&d), "18446744073709551615999999999");
    let just_past = Duration::from_nanos(i64::MAX as u64 + 1);
    like(&just_past, &(i64::MAX as u128 + 1));
    // A vector holding one is a generic array, each count in its own width.
    let v = vec![Duration::from_nanos(1), just_past];
    like(&v, &(1i64, i64::MAX as u128 + 1));
    // Beyond Duration::MAX is out of range.
    json_error::<Duration>(
        "18446744073709551616000000000",
        "number out of range for Duration",
        0,
        "$",
    );
}

#[test]
fn negative_or_fractional_durations_are_errors() {
    json_error::<Duration>("-1", "number out of range for Duration", 0, "$");
    json_error::<Duration>("1.5", "expected an integer for Duration", 1, "$");
    // An exponent is read as for every integer: 1e9 is 1000000000.
    assert_eq!(
        from_json::<Duration>("1e9").unwrap(),
        Duration::from_secs(1)
    );
    // A fraction that is zero is an integer, as for every integer (`1.0` is 1 nanosecond).
    assert_eq!(
        from_json::<Duration>("1.0").unwrap(),
        Duration::from_nanos(1)
    );
    json_error::<Duration>("-0.5", "expected an integer for Duration", 2, "$");
    json_error::<Vec<Duration>>("[1,-2]", "number out of range for Duration", 3, "$[1]");
    beve_error::<Duration>(&to_beve(&-1i64), "number out of range for Duration", 0, "$");
    beve_error::<Vec<Duration>>(
        &to_beve(&vec![1i64, -1]),
        "number out of range for Duration",
        10,
        "$[1]",
    );
    let e = from_json::<Duration>(r#""1s""#).unwrap_err();
    assert_eq!(e.message(), "expected a number, found a string");
}

fn at_nanos(n: i128) -> SystemTime {
    let a = n.unsigned_abs();
    let d = Duration::new((a / 1_000_000_000) as u64, (a % 1_000_000_000) as u32);
    if n < 0 {
        UNIX_EPOCH - d
    } else {
        UNIX_EPOCH + d
    }
}

#[test]
fn a_system_time_is_a_utc_timestamp_with_nine_fraction_digits() {
    let t = at_nanos(1_700_000_000_123_456_789);
    let text = "2023-11-14T22:13:20.123456789Z";
    exact(&t, &format!("\"{text}\""), &beve_str(text));
    like(&UNIX_EPOCH, &"1970-01-01T00:00:00.000000000Z");
    like(&at_nanos(-1), &"1969-12-31T23:59:59.999999999Z");
    like(&at_nanos(-1_000_000_000), &"1969-12-31T23:59:59.000000000Z");
    // The calendar's edges: a leap day, the first and the last instant a text can hold.
    like(
        &at_nanos(1_709_251_199_000_000_000),
        &"2024-02-29T23:59:59.000000000Z",
    );
    like(
        &at_nanos(-62_167_219_200_000_000_000),
        &"0000-01-01T00:00:00.000000000Z",
    );
    like(
        &at_nanos(253_402_300_799_999_999_999),
        &"9999-12-31T23:59:59.999999999Z",
    );
    // A vector is BEVE's string array, as Glaze's std::vector<std::string>.
    let v = vec![UNIX_EPOCH, t];
    like(&v, &vec!["1970-01-01T00:00:00.000000000Z", text]);
    assert_eq!(to_beve(&v)[0], 0x3C);
}

#[test]
fn system_times_read_what_glaze_reads() {
    let t = |s: &str| from_json::<SystemTime>(&format!("\"{s}\"")).unwrap();
    let base = at_nanos(1_700_000_000_000_000_000);
    assert_eq!(t("2023-11-14T22:13:20Z"), base);
    assert_eq!(t("2023-11-14T22:13:20"), base, "no offset is UTC");
    assert_eq!(t("2023-11-14T23:13:20+01:00"), base);
    assert_eq!(t("2023-11-14T21:13:20-0100"), base);
    assert_eq!(t("2023-11-15T00:13:20+02"), base);
    assert_eq!(t("2023-11-14t22:13:20z"), base);
    assert_eq!(
        t("2023-11-14T22:13:20.5Z"),
        base + Duration::from_millis(500)
    );
    // Past nanoseconds the digits are dropped, as Glaze drops them.
    assert_eq!(
        t("2023-11-14T22:13:20.1234567899999Z"),
        base + Duration::from_nanos(123_456_789)
    );
    assert_eq!(
        from_beve::<SystemTime>(&beve_str("2023-11-14T22:13:20Z")).unwrap(),
        base
    );
}

#[test]
fn bad_timestamps_are_errors_quoting_the_text() {
    for bad in [
        "2023-02-29T00:00:00Z",
        "2023-13-01T00:00:00Z",
        "2023-01-01T24:00:00Z",
        "2023-12-31T23:59:60Z",
        "2023-01-01 00:00:00Z",
        "2023-01-01T00:00:00.Z",
        "2023-01-01T00:00:00+24:00",
        "2023-01-01",
        "",
        "9999-12-31T23:59:59-01:00",
        "0000-01-01T00:00:00+00:01",
    ] {
        let json = format!("[\"{bad}\"]");
        json_error::<Vec<SystemTime>>(&json, &format!("invalid date-time `{bad}`"), 1, "$[0]");
        let e = from_beve::<SystemTime>(&beve_str(bad)).unwrap_err();
        assert_eq!(e.message(), format!("invalid date-time `{bad}`"));
    }
    let e = from_json::<SystemTime>("1700000000").unwrap_err();
    assert_eq!(e.message(), "expected a string, found a number");
}

#[test]
fn system_times_outside_the_years_a_text_holds_are_written_as_null() {
    let late = at_nanos(253_402_300_800_000_000_000);
    assert_eq!(to_json(&late), "null");
    assert_eq!(to_beve(&late), [0x00]);
    let e = from_json::<SystemTime>("null").unwrap_err();
    assert_eq!(e.message(), "expected a string, found null");
    let early = at_nanos(-62_167_219_200_000_000_001);
    assert_eq!(
        to_json(&vec![early, UNIX_EPOCH]),
        r#"[null,"1970-01-01T00:00:00.000000000Z"]"#
    );
    assert_eq!(to_beve(&vec![early])[0], 0x05, "a generic array");
}

// ---------------------------------------------------------------------------------------------
// Addresses

#[test]
fn addresses_are_their_display_text() {
    let v4 = Ipv4Addr::new(192, 168, 0, 1);
    exact(&v4, r#""192.168.0.1""#, &beve_str("192.168.0.1"));
    like(&Ipv6Addr::LOCALHOST, &"::1");
    like(&IpAddr::V4(v4), &"192.168.0.1");
    like(
        &IpAddr::V6("2001:db8::8a2e:370:7334".parse().unwrap()),
        &"2001:db8::8a2e:370:7334",
    );
    like(
        &"::ffff:1.2.3.4".parse::<Ipv6Addr>().unwrap(),
        &"::ffff:1.2.3.4",
    );
    like(&SocketAddrV4::new(v4, 8080), &"192.168.0.1:8080");
    like(
        &SocketAddrV6::new(Ipv6Addr::LOCALHOST, 443, 0, 0),
        &"[::1]:443",
    );
    like(
        &SocketAddrV6::new(Ipv6Addr::LOCALHOST, 443, 0, 7),
        &"[::1%7]:443",
    );
    let longest = SocketAddrV6::new(
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff".parse().unwrap(),
        65535,
        0,
        u32::MAX,
    );
    like(
        &longest,
        &"[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff%4294967295]:65535",
    );
    like(&SocketAddr::from(([10, 0, 0, 1], 53)), &"10.0.0.1:53");
    let ips: Vec<IpAddr> = vec![v4.into(), Ipv6Addr::UNSPECIFIED.into()];
    like(&ips, &vec!["192.168.0.1", "::"]);
    assert_eq!(to_beve(&ips)[0], 0x3C, "BEVE's string array");
}

#[test]
fn addresses_are_map_keys() {
    let m: BTreeMap<IpAddr, u32> = [("10.0.0.1", 1), ("::1", 2)]
        .map(|(k, v)| (k.parse().unwrap(), v))
        .into();
    let plain: BTreeMap<&str, u32> = [("10.0.0.1", 1), ("::1", 2)].into();
    like(&m, &plain);
    let by_socket: std::collections::HashMap<SocketAddr, bool> =
        [("127.0.0.1:80".parse().unwrap(), true)].into();
    like(&by_socket, &BTreeMap::from([("127.0.0.1:80", true)]));
    json_error::<BTreeMap<Ipv4Addr, u8>>(
        r#"{"1.2.3.4":1,"1.2.3":2}"#,
        "invalid IPv4 address `1.2.3`",
        13,
        "$",
    );
}

#[test]
fn bad_addresses_are_errors_quoting_the_text() {
    json_error::<Ipv4Addr>(r#""1.2.3.256""#, "invalid IPv4 address `1.2.3.256`", 0, "$");
    json_error::<Ipv6Addr>(r#""1.2.3.4""#, "invalid IPv6 address `1.2.3.4`", 0, "$");
    json_error::<IpAddr>(r#""localhost""#, "invalid IP address `localhost`", 0, "$");
    json_error::<SocketAddr>(r#""[::1]""#, "invalid socket address `[::1]`", 0, "$");
    json_error::<SocketAddrV4>(
        r#""1.2.3.4:65536""#,
        "invalid IPv4 socket address `1.2.3.4:65536`",
        0,
        "$",
    );
    json_error::<SocketAddrV6>(
        r#""::1:80""#,
        "invalid IPv6 socket address `::1:80`",
        0,
        "$",
    );
    json_error::<Vec<IpAddr>>(r#"["::1", "::g"]"#, "invalid IP address `::g`", 8, "$[1]");
    beve_error::<IpAddr>(&beve_str("1.2"), "invalid IP address `1.2`", 0, "$");
    let e = from_json::<IpAddr>("[127,0,0,1]").unwrap_err();
    assert_eq!(e.message(), "expected a string, found an array");
}

// ---------------------------------------------------------------------------------------------
// Paths

#[test]
fn paths_are_strings() {
    let p = PathBuf::from("/tmp/dir/file.json");
    exact(
        &p,
        r#""/tmp/dir/file.json""#,
        &beve_str("/tmp/dir/file.json"),
    );
    like(&PathBuf::from("relative/é"), &"relative/é");
    like(&PathBuf::new(), &"");
    let v = vec![PathBuf::from("a"), PathBuf::from("b/c")];
    like(&v, &vec!["a", "b/c"]);
    assert_eq!(to_beve(&v)[0], 0x3C, "BEVE's string array");
    // Reading into a path reuses its buffer.
    let mut q = PathBuf::with_capacity(64);
    let cap = q.capacity();
    read_json(&mut q, r#""x\/y""#).unwrap();
    assert_eq!(q, Path::new("x/y"));
    assert_eq!(q.capacity(), cap);
}

#[test]
fn borrowed_paths_borrow_from_the_input() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Files<'a> {
        main: &'a Path,
    }
    let text = r#"{"main":"src/main.rs"}"#;
    let f: Files = from_json(text).unwrap();
    assert_eq!(f.main, Path::new("src/main.rs"));
    assert_eq!(to_json(&f), text);
    let beve = to_beve(&f);
    let g: Files = from_beve(&beve).unwrap();
    assert_eq!(g, f);
    let p: &Path = from_json(r#""a/b""#).unwrap();
    assert_eq!(p, Path::new("a/b"));
    let e = from_json::<&Path>(r#""a\nb""#).unwrap_err();
    assert_eq!(
        e.message(),
        "string with escapes cannot be borrowed as `&str` (use String or Cow)"
    );
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_written_as_null_and_never_read_as_another_path() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = PathBuf::from(OsStr::from_bytes(b"caf\xE9"));
    assert_eq!(to_json(&bad), "null");
    assert_eq!(to_beve(&bad), [0x00]);
    let e = from_json::<PathBuf>(&to_json(&bad)).unwrap_err();
    assert_eq!(e.message(), "expected a string, found null");
    let v = vec![PathBuf::from("ok"), bad];
    assert_eq!(to_json(&v), r#"["ok",null]"#);
    assert_eq!(to_beve(&v)[0], 0x05, "a generic array");
    let e = from_beve::<Vec<PathBuf>>(&to_beve(&v)).unwrap_err();
    assert_eq!(e.path(), "$[1]");
}

// ---------------------------------------------------------------------------------------------
// Text and slices behind pointers, Cow slices, arrays of any length

#[test]
fn text_and_slices_behind_pointers() {
    like(&Box::<str>::from("boxed"), &"boxed");
    like(&Arc::<str>::from("shared é"), &"shared é");
    like(&Rc::<str>::from(""), &"");
    let b: Box<[u32]> = vec![1, 2].into_boxed_slice();
    like(&b, &vec![1u32, 2]);
    let b: Box<[String]> = vec!["x".to_string()].into_boxed_slice();
    like(&b, &vec!["x"]);
    let m: BTreeMap<Arc<str>, Box<str>> = [("k".into(), "v".into())].into();
    like(&m, &BTreeMap::from([("k", "v")]));
}

#[derive(Reflect, Debug, PartialEq, Clone, Default)]
struct Point {
    x: i32,
    y: i32,
}

/// `like` for a type that borrows from the input (read back from text that outlives it).
macro_rules! like_borrowing {
    ($v:expr, $plain:expr, $t:ty) => {{
        let (json, beve) = (to_json(&$v), to_beve(&$v));
        assert_eq!(json, to_json(&$plain));
        assert_eq!(beve, to_beve(&$plain));
        let a: $t = from_json(&json).unwrap();
        assert_eq!(a, $v);
        let b: $t = from_beve(&beve).unwrap();
        assert_eq!(b, $v);
    }};
}

#[test]
fn cow_slices_of_every_element_type() {
    let pts: Cow<[Point]> = Cow::Owned(vec![Point { x: 1, y: 2 }]);
    like_borrowing!(pts, vec![Point { x: 1, y: 2 }], Cow<[Point]>);
    let strs: Cow<[String]> = Cow::Owned(vec!["a".into(), "b".into()]);
    like_borrowing!(strs, vec!["a", "b"], Cow<[String]>);
    let bools: Cow<[bool]> = Cow::Borrowed(&[true, false]);
    like_borrowing!(bools, vec![true, false], Cow<[bool]>);
    let nested: Cow<[Vec<u8>]> = Cow::Owned(vec![vec![1], vec![]]);
    like_borrowing!(nested, vec![vec![1u8], vec![]], Cow<[Vec<u8>]>);
    let texts: Cow<[&str]> = Cow::Owned(vec!["x", "y"]);
    like_borrowing!(texts, vec!["x", "y"], Cow<[&str]>);
    // Numbers still borrow from BEVE's aligned typed arrays.
    let beve = structio::beve::to_beve_aligned(&vec![1.5f64, 2.5]);
    let c: Cow<[f64]> = from_beve(&beve).unwrap();
    assert!(matches!(c, Cow::Borrowed(_)), "borrowed from the input");
    assert_eq!(&*c, [1.5, 2.5]);
    // Reading into an owned Cow reuses its vector.
    let mut own: Cow<[Point]> = Cow::Owned(Vec::with_capacity(8));
    read_json(&mut own, r#"[{"x":5,"y":6}]"#).unwrap();
    assert!(matches!(&own, Cow::Owned(v) if v.capacity() >= 8));
    assert_eq!(own[0], Point { x: 5, y: 6 });
    let text = r#"[{"x":1,"y":"2"}]"#;
    let e = from_json::<Cow<[Point]>>(text).unwrap_err();
    assert_eq!(e.message(), "expected a number, found a string");
    assert_eq!((e.offset(), e.path()), (12, "$[0].y".to_string()));
}

#[test]
fn arrays_of_any_length() {
    let a: [u8; 100] = std::array::from_fn(|i| i as u8);
    like(&a, &a.to_vec());
    let s: [String; 33] = std::array::from_fn(|i| i.to_string());
    like(&s, &s.to_vec());
    let p: [Point; 40] = std::array::from_fn(|i| Point {
        x: i as i32,
        y: -(i as i32),
    });
    like(&p, &p.to_vec());
    let e: [Point; 0] = [];
    exact(&e, "[]", &[0x05, 0x00]);
    json_error::<[u8; 40]>("[1,2]", "expected 40 elements, found 2", 5, "$");
    json_error::<[String; 33]>(r#"["a"]"#, "expected 33 elements, found 1", 0, "$");
}

// ---------------------------------------------------------------------------------------------
// One struct of them all

#[derive(Reflect, Debug, PartialEq)]
struct Server {
    id: NonZeroU32,
    listen: SocketAddr,
    peers: Vec<IpAddr>,
    started: SystemTime,
    timeout: Duration,
    root: PathBuf,
    name: Arc<str>,
}

#[test]
fn a_struct_of_them_reads_without_default_and_names_the_bad_field() {
    let s = Server {
        id: NonZeroU32::new(3).unwrap(),
        listen: "0.0.0.0:8080".parse().unwrap(),
        peers: vec!["10.0.0.2".parse().unwrap()],
        started: at_nanos(1_700_000_000_000_000_000),
        timeout: Duration::from_secs(30),
        root: "/srv".into(),
        name: "edge".into(),
    };
    let json = r#"{"id":3,"listen":"0.0.0.0:8080","peers":["10.0.0.2"],"started":"2023-11-14T22:13:20.000000000Z","timeout":30000000000,"root":"/srv","name":"edge"}"#;
    assert_eq!(to_json(&s), json);
    assert_eq!(from_json::<Server>(json).unwrap(), s);
    assert_eq!(from_beve::<Server>(&to_beve(&s)).unwrap(), s);
    let bad = json.replace("10.0.0.2", "10.0.0.256");
    json_error::<Server>(&bad, "invalid IP address `10.0.0.256`", 41, "$.peers[0]");
    let bad = json.replace("\"id\":3", "\"id\":0");
    let e = from_json::<Server>(&bad).unwrap_err();
    assert_eq!(
        e.to_string().lines().next().unwrap(),
        "zero is not a valid NonZeroU32 at 1:7 (byte 6), path $.id"
    );
}

// ---------------------------------------------------------------------------------------------
// Exchange with Glaze (tests/data/glaze/, written by baseline-cpp/differential.cpp `golden`)

/// `typed::times` of `baseline-cpp/differential.cpp`.
#[derive(Reflect, Debug, PartialEq)]
struct Times {
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

#[test]
fn glaze_durations_and_std_types_read_and_write_back_byte_for_byte() {
    let beve = files::read("tests/data/glaze/times.beve");
    let json = String::from_utf8(files::read("tests/data/glaze/times.json")).unwrap();
    let v: Times = from_beve(&beve).unwrap();
    assert_eq!(to_beve(&v), beve);
    assert_eq!(to_json(&v), json);
    assert_eq!(from_json::<Times>(&json).unwrap(), v);
    assert_eq!(v.d, Duration::from_millis(1500));
    assert_eq!(v.vd[2], Duration::from_nanos(i64::MAX as u64));
    assert_eq!(v.od, Some(Duration::from_nanos(7)));
    assert_eq!(v.by_name["day"], Duration::from_secs(86_400));
    assert_eq!(v.nz32.get(), 4_000_000_000);
    assert_eq!(v.vnz64[1], NonZeroU64::MAX);
    assert_eq!(v.nz_keys[&NonZeroU16::MAX], 2);
    assert_eq!(v.a40[39], 17);
    assert_eq!(
        v.ips[2],
        "2001:db8::8a2e:370:7334".parse::<IpAddr>().unwrap()
    );
    assert_eq!(v.sock, "[::1]:8080".parse::<SocketAddr>().unwrap());
    assert_eq!(v.path, Path::new("/tmp/data.json"));
}

#[test]
fn glaze_time_points_read_and_write_back_byte_for_byte() {
    let json = String::from_utf8(files::read("tests/data/glaze/time_points.json")).unwrap();
    let v: Vec<SystemTime> = from_json(&json).unwrap();
    assert_eq!(to_json(&v), json);
    assert_eq!(
        v,
        [
            UNIX_EPOCH,
            at_nanos(1_700_000_000_123_456_789),
            at_nanos(-1),
            at_nanos(1_709_251_199_000_000_000),
            at_nanos(i64::MIN.into()),
            at_nanos(i64::MAX.into()),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Feature `chrono`

#[cfg(feature = "chrono")]
mod chrono_types {
    use super::*;
    use chrono::{
        DateTime, FixedOffset, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, TimeZone, Utc,
    };

    #[test]
    fn date_times_are_rfc3339_text() {
        let t = Utc.timestamp_opt(1_700_000_000, 123_456_789).unwrap();
        let text = "2023-11-14T22:13:20.123456789Z";
        exact(&t, &format!("\"{text}\""), &beve_str(text));
        // The same text as the SystemTime of the same instant.
        assert_eq!(to_json(&t), to_json(&at_nanos(1_700_000_000_123_456_789)));
        let f = t.with_timezone(&FixedOffset::east_opt(5 * 3600 + 1800).unwrap());
        like(&f, &"2023-11-15T03:43:20.123456789+05:30");
        let w = t.with_timezone(&FixedOffset::west_opt(8 * 3600).unwrap());
        like(&w, &"2023-11-14T14:13:20.123456789-08:00");
        like(&t.with_timezone(&FixedOffset::east_opt(0).unwrap()), &text);
        let odd = t.with_timezone(&FixedOffset::east_opt(17 * 60 + 30).unwrap());
        like(&odd, &"2023-11-14T22:30:50.123456789+00:17:30");
        // Local time keeps the instant, written at the local offset.
        let l = t.with_timezone(&Local);
        assert_eq!(from_json::<DateTime<Local>>(&to_json(&l)).unwrap(), l);
        assert_eq!(from_beve::<DateTime<Local>>(&to_beve(&l)).unwrap(), l);
        // Reading converts any offset; none is UTC.
        assert_eq!(
            from_json::<DateTime<Utc>>(r#""2023-11-15T03:43:20.123456789+05:30""#).unwrap(),
            t
        );
        assert_eq!(
            from_json::<DateTime<FixedOffset>>(r#""2023-11-14T22:13:20.123456789""#).unwrap(),
            t.fixed_offset()
        );
        let v = vec![t, t + TimeDelta::seconds(1)];
        assert_eq!(to_beve(&v)[0], 0x3C, "BEVE's string array");
        assert_eq!(from_beve::<Vec<DateTime<Utc>>>(&to_beve(&v)).unwrap(), v);
    }

    #[test]
    fn naive_dates_and_times() {
        let d = NaiveDate::from_ymd_opt(2024, 2, 29).unwrap();
        exact(&d, r#""2024-02-29""#, &beve_str("2024-02-29"));
        let t = NaiveTime::from_hms_nano_opt(7, 8, 9, 10).unwrap();
        like(&t, &"07:08:09.000000010");
        let dt = NaiveDateTime::new(d, t);
        like(&dt, &"2024-02-29T07:08:09.000000010");
        // Leap seconds are second 60.
        let leap = NaiveTime::from_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap();
        like(&leap, &"23:59:60.500000000");
        let utc_leap = NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_time(leap)
            .and_utc();
        like(&utc_leap, &"2016-12-31T23:59:60.500000000Z");
        // Outside the years a text holds: null.
        let far = NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap();
        assert_eq!(to_json(&far), "null");
        assert_eq!(to_json(&NaiveDate::from_ymd_opt(-1, 1, 1).unwrap()), "null");
        json_error::<NaiveDate>(r#""2023-02-29""#, "invalid date `2023-02-29`", 0, "$");
        json_error::<NaiveTime>(r#""7:08:09""#, "invalid time `7:08:09`", 0, "$");
        json_error::<NaiveDateTime>(
            r#""2024-02-29T07:08:09Z""#,
            "invalid date-time without offset `2024-02-29T07:08:09Z`",
            0,
            "$",
        );
        json_error::<DateTime<Utc>>(
            r#""2024-02-30T00:00:00Z""#,
            "invalid RFC 3339 date-time `2024-02-30T00:00:00Z`",
            0,
            "$",
        );
        json_error::<DateTime<Utc>>(
            r#""9999-12-31T23:00:00-05:00""#,
            "invalid RFC 3339 date-time `9999-12-31T23:00:00-05:00`",
            0,
            "$",
        );
    }

    #[test]
    fn time_deltas_are_signed_nanoseconds() {
        like(&TimeDelta::milliseconds(-1500), &-1_500_000_000i64);
        like(&TimeDelta::zero(), &0i64);
        // Past i64 nanoseconds: a u128 count (an i128 below zero).
        let max = TimeDelta::MAX.num_seconds() as i128 * 1_000_000_000
            + TimeDelta::MAX.subsec_nanos() as i128;
        like(&TimeDelta::MAX, &(max as u128));
        like(&TimeDelta::MIN, &-max);
        let v = vec![TimeDelta::nanoseconds(1), TimeDelta::nanoseconds(-2)];
        like(&v, &vec![1i64, -2]);
        assert_eq!(to_beve(&v)[0], 0x6C);
        // The same wire as std's Duration for the same span.
        assert_eq!(
            to_json(&TimeDelta::seconds(3)),
            to_json(&Duration::from_secs(3))
        );
        assert_eq!(
            to_beve(&TimeDelta::seconds(3)),
            to_beve(&Duration::from_secs(3))
        );
        json_error::<TimeDelta>("1.5", "expected an integer for TimeDelta", 1, "$");
        json_error::<TimeDelta>(
            "170141183460469231731687303715884105727",
            "number out of range for TimeDelta",
            0,
            "$",
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Feature `time`

#[cfg(feature = "time")]
mod time_types {
    use super::*;
    use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

    fn date(y: i32, m: Month, d: u8) -> Date {
        Date::from_calendar_date(y, m, d).unwrap()
    }

    #[test]
    fn time_crate_dates_and_times() {
        let t = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).unwrap();
        let text = "2023-11-14T22:13:20.123456789Z";
        exact(&t, &format!("\"{text}\""), &beve_str(text));
        let f = t.to_offset(UtcOffset::from_hms(-3, -30, 0).unwrap());
        like(&f, &"2023-11-14T18:43:20.123456789-03:30");
        assert_eq!(
            from_json::<OffsetDateTime>(&to_json(&f)).unwrap().offset(),
            f.offset()
        );
        let p = PrimitiveDateTime::new(
            date(2024, Month::February, 29),
            Time::from_hms_milli(7, 8, 9, 500).unwrap(),
        );
        like(&p, &"2024-02-29T07:08:09.500000000");
        let d = date(2024, Month::February, 29);
        exact(&d, r#""2024-02-29""#, &beve_str("2024-02-29"));
        let tm = Time::from_hms_nano(23, 59, 59, 999_999_999).unwrap();
        like(&tm, &"23:59:59.999999999");
        like(
            &vec![d, date(1970, Month::January, 1)],
            &vec!["2024-02-29", "1970-01-01"],
        );
        json_error::<Time>(r#""23:59:60""#, "invalid time `23:59:60`", 0, "$");
        json_error::<Date>(r#""2023-02-29""#, "invalid date `2023-02-29`", 0, "$");
        json_error::<PrimitiveDateTime>(
            r#""2024-02-29T07:08:09+01:00""#,
            "invalid date-time without offset `2024-02-29T07:08:09+01:00`",
            0,
            "$",
        );
        json_error::<OffsetDateTime>(
            r#""2024-02-29T07:08""#,
            "invalid RFC 3339 date-time `2024-02-29T07:08`",
            0,
            "$",
        );
        assert_eq!(to_json(&date(-1, Month::January, 1)), "null");
    }

    #[test]
    fn time_crate_durations_are_signed_nanoseconds() {
        like(&time::Duration::milliseconds(-1500), &-1_500_000_000i64);
        let v = vec![time::Duration::nanoseconds(3), time::Duration::seconds(-1)];
        like(&v, &vec![3i64, -1_000_000_000]);
        let max = time::Duration::MAX;
        like(&max, &(max.whole_nanoseconds() as u128));
        assert_eq!(to_beve(&max)[0], 0x91, "a u128 count past i64");
        like(
            &time::Duration::MIN,
            &time::Duration::MIN.whole_nanoseconds(),
        );
        assert_eq!(to_beve(&time::Duration::MIN)[0], 0x89, "an i128 count");
        json_error::<time::Duration>("1.5", "expected an integer for time::Duration", 1, "$");
    }
}

// ---------------------------------------------------------------------------------------------
// Feature `uuid`

#[cfg(feature = "uuid")]
mod uuid_type {
    use super::*;
    use uuid::Uuid;

    const TEXT: &str = "67e55044-10b1-426f-9247-bb680e5fe0c8";

    #[test]
    fn a_uuid_is_text_in_json_and_sixteen_bytes_in_beve() {
        let u = Uuid::parse_str(TEXT).unwrap();
        let mut beve = vec![0x14, 16 << 2];
        beve.extend_from_slice(u.as_bytes());
        exact(&u, &format!("\"{TEXT}\""), &beve);
        // Each reads the other's form, and every text form.
        assert_eq!(from_json::<Uuid>(&to_json(u.as_bytes())).unwrap(), u);
        assert_eq!(from_beve::<Uuid>(&beve_str(TEXT)).unwrap(), u);
        assert_eq!(
            from_json::<Uuid>(&format!("\"{}\"", u.simple())).unwrap(),
            u
        );
        assert_eq!(from_json::<Uuid>(&format!("\"{}\"", u.urn())).unwrap(), u);
        assert_eq!(
            from_json::<Uuid>(&format!("\"{}\"", TEXT.to_uppercase())).unwrap(),
            u
        );
        // A vector: an array of strings in JSON (BEVE's string array), of byte arrays in BEVE.
        let v = vec![u, Uuid::nil()];
        assert_eq!(
            to_json(&v),
            format!(r#"["{TEXT}","00000000-0000-0000-0000-000000000000"]"#)
        );
        assert_eq!(to_beve(&v), to_beve(&vec![*u.as_bytes(), [0; 16]]));
        assert_eq!(from_beve::<Vec<Uuid>>(&to_beve(&v)).unwrap(), v);
        assert_eq!(from_json::<Vec<Uuid>>(&to_json(&v)).unwrap(), v);
    }

    #[test]
    fn uuids_are_map_keys_and_bad_ones_are_errors() {
        let u = Uuid::parse_str(TEXT).unwrap();
        let m = BTreeMap::from([(u, 1u8)]);
        like(&m, &BTreeMap::from([(TEXT, 1u8)]));
        json_error::<Uuid>(r#""67e55044-10b1""#, "invalid UUID `67e55044-10b1`", 0, "$");
        json_error::<Vec<Uuid>>(r#"[[1,2]]"#, "expected 16 elements, found 2", 6, "$[0]");
        json_error::<BTreeMap<Uuid, u8>>(r#"{"x":1}"#, "invalid UUID `x`", 1, "$");
    }
}

// ---------------------------------------------------------------------------------------------
// Feature `indexmap`

#[cfg(feature = "indexmap")]
mod indexmap_types {
    use super::*;
    use indexmap::{IndexMap, IndexSet};

    #[derive(Reflect, Debug, PartialEq)]
    struct Za {
        z: u8,
        a: u8,
    }

    #[test]
    fn index_maps_keep_their_order_on_the_wire_of_a_map() {
        let m: IndexMap<String, u8> = [("z".into(), 1), ("a".into(), 2)].into_iter().collect();
        exact(&m, r#"{"z":1,"a":2}"#, &to_beve(&Za { z: 1, a: 2 }));
        let back: IndexMap<String, u8> = from_json(r#"{"b":1,"c":2,"a":3}"#).unwrap();
        assert_eq!(back.keys().collect::<Vec<_>>(), ["b", "c", "a"]);
        // Integer keys, values holding None left out as in every map.
        let ints: IndexMap<u32, Option<u8>> = [(9, Some(1)), (1, None), (5, Some(2))]
            .into_iter()
            .collect();
        assert_eq!(to_json(&ints), r#"{"9":1,"5":2}"#);
        let plain: BTreeMap<u32, u8> = [(9, 1)].into();
        let one: IndexMap<u32, u8> = [(9, 1)].into_iter().collect();
        like(&one, &plain);
    }

    #[test]
    fn reading_into_an_index_map_gives_the_documents_order() {
        let mut m: IndexMap<String, Vec<u8>> = [("a".into(), vec![1]), ("b".into(), vec![2])]
            .into_iter()
            .collect();
        read_json(&mut m, r#"{"b":[3],"c":[4]}"#).unwrap();
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [(&"b".to_string(), &vec![3u8]), (&"c".to_string(), &vec![4])]
        );
        // Under merge the entries stay in place, new keys are appended.
        let mut opts = structio::json::Options::default();
        opts.read.merge = true;
        structio::json::read_json_with(&mut m, r#"{"a":[5],"b":[6]}"#, &opts).unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "c", "a"]);
        assert_eq!(m["b"], [6]);
        // A repeated key is an error under error_on_duplicate_keys, merged or not.
        for merge in [false, true] {
            let mut opts = structio::json::Options::default();
            opts.read.error_on_duplicate_keys = true;
            opts.read.merge = merge;
            let e =
                structio::json::read_json_with(&mut m, r#"{"x":[1],"x":[2]}"#, &opts).unwrap_err();
            assert_eq!(e.message(), "duplicate key `x`");
            assert_eq!(e.offset(), 9);
        }
        // Without it the last value wins and the key keeps its place.
        let m: IndexMap<String, u8> = from_json(r#"{"x":1,"y":2,"x":3}"#).unwrap();
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [(&"x".to_string(), &3), (&"y".to_string(), &2)]
        );
        json_error::<IndexMap<String, u8>>(
            r#"{"x":1,"y":true}"#,
            "expected a number, found a boolean",
            11,
            "$[\"y\"]",
        );
        let e =
            from_beve::<IndexMap<u16, u8>>(&to_beve(&BTreeMap::from([(7u16, "x")]))).unwrap_err();
        assert_eq!(e.path(), "$[\"7\"]");
    }

    #[test]
    fn index_sets_keep_their_order() {
        let s: IndexSet<u32> = [3, 1, 2].into_iter().collect();
        like(&s, &vec![3u32, 1, 2]);
        let t: IndexSet<String> = from_json(r#"["b","a","b"]"#).unwrap();
        assert_eq!(t.iter().collect::<Vec<_>>(), ["b", "a"]);
    }
}

// ---------------------------------------------------------------------------------------------
// Feature `smallvec`

#[cfg(feature = "smallvec")]
#[test]
fn small_vectors_are_vectors() {
    use smallvec::{smallvec, SmallVec};
    let s: SmallVec<[u32; 4]> = smallvec![1, 2, 3];
    like(&s, &vec![1u32, 2, 3]);
    let spilled: SmallVec<[String; 1]> = smallvec!["a".into(), "b".into()];
    like(&spilled, &vec!["a", "b"]);
    let mut r: SmallVec<[Point; 2]> = SmallVec::new();
    read_json(&mut r, r#"[{"x":1,"y":2}]"#).unwrap();
    assert!(!r.spilled());
    json_error::<SmallVec<[u8; 2]>>("[1,300]", "number out of range for u8", 3, "$[1]");
}

// ---------------------------------------------------------------------------------------------
// Feature `bytes`

#[cfg(feature = "bytes")]
#[test]
fn bytes_are_u8_typed_arrays() {
    use bytes::{Bytes, BytesMut};
    let b = Bytes::from_static(&[0, 1, 255]);
    exact(&b, "[0,1,255]", &[0x14, 3 << 2, 0, 1, 255]);
    let m = BytesMut::from(&b"hi"[..]);
    like(&m, &vec![b'h', b'i']);
    let mut r = BytesMut::with_capacity(16);
    read_beve(&mut r, &to_beve(&vec![7u8, 8])).unwrap();
    assert_eq!(&r[..], [7, 8]);
    json_error::<Bytes>("[1,256]", "number out of range for u8", 3, "$[1]");
}
