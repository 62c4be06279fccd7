//! `More`: the std types read from text of their own or checked after reading (`NonZero*`,
//! `Duration`, `SystemTime`, addresses, paths, pointer text, long arrays), and `MoreExt`, the
//! types of the optional features (`chrono`, `time`, `uuid`, `indexmap`, `smallvec`, `bytes`;
//! present when all of them are on). The `more_types` fuzz target reads any bytes as both, in
//! both formats: a value must write and read back to itself in both formats, and a rejected
//! input must fail cleanly.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr, SocketAddrV6};
use std::num::{NonZeroI64, NonZeroU16, NonZeroU8};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use structio::Reflect;

use super::oracles::clean_error;

/// Every std type of the `more_types` target (members optional or defaulted where a document
/// may leave them out).
#[derive(Reflect, Debug, PartialEq, Clone)]
pub struct More {
    pub nz: Vec<NonZeroU16>,
    pub nzi: Option<NonZeroI64>,
    pub d: Vec<Duration>,
    pub t: Vec<SystemTime>,
    pub ip: Vec<IpAddr>,
    pub sock: Option<SocketAddr>,
    pub v6: Option<SocketAddrV6>,
    pub path: Vec<PathBuf>,
    pub keys: BTreeMap<NonZeroU8, u8>,
    pub by_ip: BTreeMap<IpAddr, u8>,
    pub arr: Option<[u8; 40]>,
    pub text: Vec<Arc<str>>,
    pub boxed: Option<Box<[Box<str>]>>,
}

/// The sample `More` as JSON (the seed of the fuzz corpus).
pub const SAMPLE_JSON: &str = r#"{"nz":[1,65535],"nzi":-9,"d":[0,1500000000],"t":["2023-11-14T22:13:20.123456789Z","1969-12-31T23:59:59.999999999Z"],"ip":["10.0.0.1","::1"],"sock":"[::1]:8080","v6":"[fe80::1%3]:22","path":["/tmp/a","b"],"keys":{"1":2},"by_ip":{"127.0.0.1":1},"arr":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39],"text":["x","é"],"boxed":["y"]}"#;

/// The features' types, when every one of them is on.
#[cfg(all(
    feature = "chrono",
    feature = "time",
    feature = "uuid",
    feature = "indexmap",
    feature = "smallvec",
    feature = "bytes"
))]
pub mod ext {
    use super::*;

    /// Every feature type of the `more_types` target.
    #[derive(Reflect, Debug, PartialEq, Clone)]
    pub struct MoreExt {
        pub utc: Vec<chrono::DateTime<chrono::Utc>>,
        pub fixed: Option<chrono::DateTime<chrono::FixedOffset>>,
        pub naive: Option<chrono::NaiveDateTime>,
        pub date: Option<chrono::NaiveDate>,
        pub time: Option<chrono::NaiveTime>,
        pub delta: Vec<chrono::TimeDelta>,
        pub odt: Option<time::OffsetDateTime>,
        pub pdt: Option<time::PrimitiveDateTime>,
        pub tdate: Option<time::Date>,
        pub ttime: Option<time::Time>,
        pub tdur: Vec<time::Duration>,
        pub id: Vec<uuid::Uuid>,
        pub by_id: BTreeMap<uuid::Uuid, u8>,
        pub ordered: indexmap::IndexMap<String, u8>,
        pub set: indexmap::IndexSet<u16>,
        pub small: smallvec::SmallVec<[u32; 2]>,
        pub bytes: Option<bytes::Bytes>,
    }

    /// The sample `MoreExt` as JSON.
    pub const SAMPLE_JSON: &str = r#"{"utc":["2016-12-31T23:59:60.500000000Z"],"fixed":"2023-11-14T22:13:20.000000000+05:30","naive":"2024-02-29T07:08:09.000000010","date":"2024-02-29","time":"23:59:59.999999999","delta":[-1,2],"odt":"2023-11-14T22:13:20.000000000-03:30","pdt":"2024-02-29T07:08:09.500000000","tdate":"1970-01-01","ttime":"00:00:00.000000000","tdur":[3,-4],"id":["67e55044-10b1-426f-9247-bb680e5fe0c8"],"by_id":{"00000000-0000-0000-0000-000000000000":1},"ordered":{"z":1,"a":2},"set":[3,1],"small":[1,2,3],"bytes":[0,255]}"#;
}

/// The derive's layout attributes: `as_integer` enums (with an `other` variant, and as map
/// keys), `quoted` integers and bools (no floats: a NaN is `null` in JSON, as for a plain
/// float), and `as_array` structs (nested, with an `Option` member).
#[derive(Reflect, Debug, PartialEq, Clone)]
pub struct Layouts {
    pub level: Option<Level>,
    pub by_level: BTreeMap<Level, u8>,
    #[structio(quoted)]
    pub id: Option<u64>,
    #[structio(quoted)]
    pub flags: Vec<bool>,
    #[structio(quoted)]
    pub wide: Vec<Option<i128>>,
    pub rows: Vec<Row>,
}

/// A unit-only enum written as its discriminant.
#[derive(Reflect, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
#[repr(i16)]
pub enum Level {
    Low = -1,
    High = 300,
    #[structio(other)]
    Other = 0,
}

/// A struct written as the array of its members.
#[derive(Reflect, Debug, PartialEq, Clone, Default)]
#[structio(as_array)]
pub struct Row {
    pub id: u32,
    pub name: Option<String>,
    pub cells: Vec<Cell>,
}

/// A nested `as_array` struct.
#[derive(Reflect, Debug, PartialEq, Clone, Default)]
#[structio(as_array)]
pub struct Cell {
    pub x: i8,
    #[structio(quoted)]
    pub big: u64,
}

/// The sample `Layouts` as JSON.
pub const LAYOUTS_JSON: &str = r#"{"level":300,"by_level":{"-1":1,"0":2},"id":"18446744073709551615","flags":["true","false"],"wide":["-170141183460469231731687303715884105728",null],"rows":[[1,"a",[[-2,"3"]]],[2,null,[]]]}"#;

/// Reads `data` as `T` in JSON and in BEVE: a value writes and reads back to itself in both
/// formats; an error is clean.
fn check<T>(data: &[u8])
where
    T: for<'de> Reflect<'de> + PartialEq + std::fmt::Debug,
{
    let from_json = structio::from_json::<T>(data);
    let from_beve = structio::from_beve::<T>(data);
    for read in [from_json, from_beve] {
        let a = match read {
            Ok(a) => a,
            Err(e) => {
                clean_error(&e, data);
                continue;
            }
        };
        let text = structio::to_json(&a);
        let b: T = structio::from_json(&text)
            .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text}"));
        assert_eq!(a, b, "JSON round trip changed the value:\n{text}");
        let bytes = structio::to_beve(&a);
        let c: T = structio::from_beve(&bytes)
            .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{text}"));
        assert_eq!(a, c, "BEVE round trip changed the value:\n{text}");
        // Every struct as an array (`structs_as_arrays`): well-formed BEVE of the size counted.
        let opts = structio::beve::Options {
            structs_as_arrays: true,
            ..Default::default()
        };
        let rows = structio::beve::to_beve_with(&a, &opts);
        assert_eq!(structio::beve::beve_size_with(&a, &opts), rows.len());
        structio::from_beve::<structio::Value>(&rows)
            .unwrap_or_else(|e| panic!("structs_as_arrays wrote invalid BEVE: {e}\n{text}"));
    }
}

/// The fuzz target `more_types`: `data` as [`More`] (and `MoreExt` with the features), JSON and
/// BEVE.
pub fn more_types(data: &[u8]) {
    check::<More>(data);
    check::<Layouts>(data);
    #[cfg(all(
        feature = "chrono",
        feature = "time",
        feature = "uuid",
        feature = "indexmap",
        feature = "smallvec",
        feature = "bytes"
    ))]
    check::<ext::MoreExt>(data);
}
