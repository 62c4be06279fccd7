//! Container rules (`#[structio(check = "..")]` on a struct) wherever the struct is read: on
//! its own, flattened (once and twice), as the payload of an externally, internally and
//! adjacently tagged enum and of an untagged one, in a canonical struct, in an `Option` and a
//! `Vec`, behind `try_from` and a `with` module (and, with the `serde` feature, next to a
//! serde field); each read by every reader (the trusted readers of both formats into a new
//! value, into an existing one and merging into it, the collecting `json::parse` and
//! `beve::parse`, the stream, NDJSON, delimited and file readers) and checked in memory by
//! `structio::check`. Each case refuses the value that breaks the rule, with the issue at the
//! path where the struct's members are, and accepts one that keeps it; the field constraints
//! of the same struct are checked alongside, for comparison.
//!
//! Before, a struct's own rule ran only where the struct was read by its own `read` or
//! `read_new`: flattened, or as the newtype payload of an internally tagged enum, its members
//! were read one by one by the container and the rule never ran, in any reader.

use std::fmt::Debug;

use structio::{Category, IssueKind, ReadOptions, Reflect, ReflectOwned};

fn pair_ok(p: &Pair) -> Result<(), String> {
    if p.a < p.b {
        Ok(())
    } else {
        Err(format!("a ({}) must be less than b ({})", p.a, p.b))
    }
}

/// The struct with the rule across its members, and a field constraint for comparison.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(check = "pair_ok")]
pub struct Pair {
    #[structio(range(max = 100))]
    a: i32,
    b: i32,
}

/// Keeps both rules.
const GOOD: Pair = Pair { a: 3, b: 4 };
/// Breaks the struct's rule only.
const BAD_CHECK: Pair = Pair { a: 4, b: 3 };
/// Breaks the field constraint only.
const BAD_FIELD: Pair = Pair { a: 200, b: 300 };
const CHECK_MESSAGE: &str = "a (4) must be less than b (3)";

/// A type holding one [`Pair`]: how to build it, and where the pair's issues are reported.
trait Shape: ReflectOwned + Debug + PartialEq + Clone {
    fn wrap(p: Pair) -> Self;
    /// The path of the struct's rule's issue; `None` when the value is refused otherwise (an
    /// untagged enum: a variant whose payload breaks a rule is no match).
    const CHECK_AT: Option<&'static str>;
    /// The path of field `a`'s issue (likewise).
    const FIELD_AT: Option<&'static str>;
}

impl Shape for Pair {
    fn wrap(p: Pair) -> Self {
        p
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// `Pair` flattened.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct Flat {
    id: u32,
    #[structio(flatten)]
    pair: Pair,
}

impl Shape for Flat {
    fn wrap(pair: Pair) -> Self {
        Flat { id: 7, pair }
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// `Pair` flattened twice (through [`Flat`]).
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct Flat2 {
    #[structio(flatten)]
    flat: Flat,
    note: String,
}

impl Shape for Flat2 {
    fn wrap(p: Pair) -> Self {
        Flat2 {
            flat: Flat::wrap(p),
            note: "n".into(),
        }
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// `Pair` as the payload of a newtype variant, externally tagged.
#[derive(Reflect, Debug, Clone, PartialEq)]
pub enum External {
    P(Pair),
    N(u8),
}

impl Shape for External {
    fn wrap(p: Pair) -> Self {
        External::P(p)
    }
    const CHECK_AT: Option<&'static str> = Some("$.P");
    const FIELD_AT: Option<&'static str> = Some("$.P.a");
}

/// `Pair` as the payload of a newtype variant, internally tagged:
/// `{"type":"P","a":3,"b":4}`.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(tag = "type")]
pub enum Internal {
    P(Pair),
    Q { x: u8 },
}

impl Shape for Internal {
    fn wrap(p: Pair) -> Self {
        Internal::P(p)
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// An internally tagged payload that flattens `Pair` in turn.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(tag = "type")]
pub enum InternalFlat {
    F(Flat),
    Q { x: u8 },
}

impl Shape for InternalFlat {
    fn wrap(p: Pair) -> Self {
        InternalFlat::F(Flat::wrap(p))
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// `Pair` as the payload of a newtype variant, adjacently tagged.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(tag = "t", content = "c")]
pub enum Adjacent {
    P(Pair),
    N(u8),
}

impl Shape for Adjacent {
    fn wrap(p: Pair) -> Self {
        Adjacent::P(p)
    }
    const CHECK_AT: Option<&'static str> = Some("$.c");
    const FIELD_AT: Option<&'static str> = Some("$.c.a");
}

/// `Pair` as the payload of an untagged variant: a payload that breaks a rule is no match.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(untagged)]
pub enum Untagged {
    N(u8),
    P(Pair),
}

impl Shape for Untagged {
    fn wrap(p: Pair) -> Self {
        Untagged::P(p)
    }
    const CHECK_AT: Option<&'static str> = None;
    const FIELD_AT: Option<&'static str> = None;
}

fn canonical_ok(p: &CanonicalPair) -> Result<(), String> {
    pair_ok(&Pair { a: p.a, b: p.b })
}

/// A canonical struct with the same rules, read by its canonical fast path when the text is
/// compact.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(canonical, check = "canonical_ok")]
pub struct CanonicalPair {
    #[structio(range(max = 100))]
    a: i32,
    b: i32,
}

impl Shape for CanonicalPair {
    fn wrap(p: Pair) -> Self {
        CanonicalPair { a: p.a, b: p.b }
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// A canonical struct holding a canonical pair and a plain one (which breaks the same way).
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(canonical)]
pub struct CanonicalOuter {
    id: u32,
    inner: CanonicalPair,
}

impl Shape for CanonicalOuter {
    fn wrap(p: Pair) -> Self {
        CanonicalOuter {
            id: 1,
            inner: CanonicalPair::wrap(p),
        }
    }
    const CHECK_AT: Option<&'static str> = Some("$.inner");
    const FIELD_AT: Option<&'static str> = Some("$.inner.a");
}

/// A canonical struct holding a non-canonical `Pair`.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(canonical)]
pub struct CanonicalHoldsPair {
    id: u32,
    pair: Pair,
}

impl Shape for CanonicalHoldsPair {
    fn wrap(pair: Pair) -> Self {
        CanonicalHoldsPair { id: 1, pair }
    }
    const CHECK_AT: Option<&'static str> = Some("$.pair");
    const FIELD_AT: Option<&'static str> = Some("$.pair.a");
}

/// A flattened `Pair` in an `Option` member.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct OptionOfFlat {
    maybe: Option<Flat>,
}

impl Shape for OptionOfFlat {
    fn wrap(p: Pair) -> Self {
        OptionOfFlat {
            maybe: Some(Flat::wrap(p)),
        }
    }
    const CHECK_AT: Option<&'static str> = Some("$.maybe");
    const FIELD_AT: Option<&'static str> = Some("$.maybe.a");
}

/// Internally tagged payloads in a `Vec` (the second one holds the pair).
#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct VecOfInternal {
    items: Vec<Internal>,
}

impl Shape for VecOfInternal {
    fn wrap(p: Pair) -> Self {
        VecOfInternal {
            items: vec![Internal::Q { x: 1 }, Internal::P(p)],
        }
    }
    const CHECK_AT: Option<&'static str> = Some("$.items[1]");
    const FIELD_AT: Option<&'static str> = Some("$.items[1].a");
}

/// Read as a `Pair`, then converted: the pair's rules run on what is read.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(try_from = "Pair", into = "Pair")]
pub struct Converted {
    a: i32,
    b: i32,
}

impl TryFrom<Pair> for Converted {
    type Error = String;
    fn try_from(p: Pair) -> Result<Self, String> {
        Ok(Converted { a: p.a, b: p.b })
    }
}

impl From<Converted> for Pair {
    fn from(c: Converted) -> Pair {
        Pair { a: c.a, b: c.b }
    }
}

impl Shape for Converted {
    fn wrap(p: Pair) -> Self {
        Converted { a: p.a, b: p.b }
    }
    const CHECK_AT: Option<&'static str> = Some("$");
    const FIELD_AT: Option<&'static str> = Some("$.a");
}

/// A `with` module that reads through the type's own `Reflect` impl.
mod via_reflect {
    use structio::{Reader, Reflect, Result, Writer};

    pub fn write<T: for<'de> Reflect<'de>, W: Writer>(v: &T, w: &mut W) {
        v.write(w)
    }
    pub fn read<'de, T: Reflect<'de>, R: Reader<'de>>(v: &mut T, r: &mut R) -> Result<()> {
        v.read(r)
    }
    pub fn read_new<'de, T: Reflect<'de>, R: Reader<'de>>(r: &mut R) -> Result<T> {
        T::read_new(r)
    }
}

/// `Pair` read by a `with` module, and an internally tagged payload.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct WithModule {
    #[structio(with = "via_reflect")]
    pair: Pair,
}

impl Shape for WithModule {
    fn wrap(pair: Pair) -> Self {
        WithModule { pair }
    }
    const CHECK_AT: Option<&'static str> = Some("$.pair");
    const FIELD_AT: Option<&'static str> = Some("$.pair.a");
}

/// How a reader's refusal looks: a constraint issue or not, its path and message.
#[derive(Debug)]
struct Refused {
    constraint: bool,
    path: String,
    message: String,
}

impl From<structio::Error> for Refused {
    fn from(e: structio::Error) -> Refused {
        Refused {
            constraint: e.category() == Category::Constraint,
            path: e.path(),
            message: e.message(),
        }
    }
}

impl From<structio::Report> for Refused {
    fn from(r: structio::Report) -> Refused {
        // One document, one broken rule: exactly one issue.
        assert_eq!(r.issues().len(), 1, "{r}");
        let i = &r.issues()[0];
        Refused {
            constraint: i.kind() == IssueKind::Constraint,
            path: i.path().to_string(),
            message: i.message().to_string(),
        }
    }
}

/// A refusal of the second record of a stream, with the path below the record (the readers
/// that name the record put `[1]` first).
fn second(e: structio::Error) -> Refused {
    let mut e = Refused::from(e);
    if let Some(rest) = e.path.strip_prefix("$[1]") {
        e.path = format!("${rest}");
    }
    e
}

fn merging() -> ReadOptions {
    ReadOptions {
        merge: true,
        ..ReadOptions::default()
    }
}

/// A value read from the JSON text `json` and the BEVE `beve` of the same value.
type ReadFn<S> = fn(&str, &[u8]) -> Result<S, Refused>;

/// Every reader, named.
fn readers<S: Shape>() -> Vec<(&'static str, ReadFn<S>)> {
    fn into<S: Shape>(
        read: impl FnOnce(&mut S) -> Result<(), structio::Error>,
    ) -> Result<S, Refused> {
        // An existing value that keeps every rule (`GOOD` with the other members as built).
        let mut v = S::wrap(GOOD);
        read(&mut v)?;
        Ok(v)
    }
    fn file<S: Shape>(ext: &str, bytes: &[u8]) -> Result<S, Refused> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("doc.{ext}"));
        std::fs::write(&path, bytes).unwrap();
        Ok(match ext {
            "json" => structio::read_file_json(&path)?,
            _ => structio::read_file_beve(&path)?,
        })
    }
    vec![
        ("from_json", |j, _| Ok(structio::from_json(j)?)),
        ("from_json pretty", |j, _| {
            Ok(structio::from_json(&structio::prettify(j).unwrap())?)
        }),
        ("from_beve", |_, b| Ok(structio::from_beve(b)?)),
        ("read_json", |j, _| into(|v| structio::read_json(v, j))),
        ("read_json merge", |j, _| {
            let opts = structio::json::Options {
                read: merging(),
                ..structio::json::Options::default()
            };
            into(|v| structio::json::read_json_with(v, j, &opts))
        }),
        ("read_beve", |_, b| into(|v| structio::read_beve(v, b))),
        ("read_beve merge", |_, b| {
            let opts = structio::beve::Options {
                read: merging(),
                ..structio::beve::Options::default()
            };
            into(|v| structio::beve::read_beve_with(v, b, &opts))
        }),
        ("json::parse", |j, _| Ok(structio::json::parse(j)?)),
        ("beve::parse", |_, b| Ok(structio::beve::parse(b)?)),
        ("json::from_reader", |j, _| {
            Ok(structio::json::from_reader(j.as_bytes())?)
        }),
        ("beve::from_reader", |_, b| {
            Ok(structio::beve::from_reader(b)?)
        }),
        // The value as the second record of a stream (a good one first).
        ("from_ndjson", |j, _| {
            let text = format!("{}\n{j}\n", structio::to_json(&S::wrap(GOOD)));
            let all: Vec<S> = structio::json::from_ndjson(&text).map_err(second)?;
            Ok(all.into_iter().last().unwrap())
        }),
        ("JsonLines::from_reader", |j, _| {
            let text = format!("{}\n{j}\n", structio::to_json(&S::wrap(GOOD)));
            let mut stream = structio::json::JsonLines::from_reader(text.as_bytes());
            let mut last = None;
            while let Some(v) = stream.read::<S>() {
                last = Some(v.map_err(second)?);
            }
            Ok(last.unwrap())
        }),
        ("json::array_iter", |j, _| {
            let text = format!("[{},{j}]", structio::to_json(&S::wrap(GOOD)));
            let mut last = None;
            for v in structio::json::array_iter(text.as_bytes()) {
                last = Some(v.map_err(second)?);
            }
            Ok(last.unwrap())
        }),
        ("from_delimited", |_, b| {
            let mut seq = structio::beve::to_delimited(&[S::wrap(GOOD)]);
            seq.push(structio::beve::DELIMITER);
            seq.extend_from_slice(b);
            let all: Vec<S> = structio::beve::from_delimited(&seq).map_err(second)?;
            Ok(all.into_iter().last().unwrap())
        }),
        ("DelimitedReader", |_, b| {
            let mut seq = structio::beve::to_delimited(&[S::wrap(GOOD)]);
            seq.push(structio::beve::DELIMITER);
            seq.extend_from_slice(b);
            let mut stream = structio::beve::Delimited::from_reader(&seq[..]);
            let mut last = None;
            while let Some(v) = stream.read::<S>() {
                last = Some(v.map_err(second)?);
            }
            Ok(last.unwrap())
        }),
        ("read_file_json", |j, _| file("json", j.as_bytes())),
        ("read_file_beve", |_, b| file("beve", b)),
    ]
}

/// The matrix for one shape: every reader refuses the pair that breaks its rule and the one
/// that breaks its field constraint, each with its issue where `S` says, and reads the good
/// one; `structio::check` refuses and accepts the same values in memory. Every failing case
/// is listed before the test fails.
fn matrix<S: Shape>() {
    let good = S::wrap(GOOD);
    let cases = [
        (BAD_CHECK, S::CHECK_AT, "check"),
        (BAD_FIELD, S::FIELD_AT, "range"),
    ];
    let mut failed = Vec::new();
    // A refusal of `json` (breaking `rule`) not as expected (at `at`).
    let refused = |name: &str, json: &str, rule: &str, at: Option<&str>, e: Refused| {
        let at = at?;
        (!e.constraint || e.path != at || (rule == "check" && e.message != CHECK_MESSAGE))
            .then(|| format!("{name}: {json} refused otherwise: {e:?}"))
    };
    for (name, read) in readers::<S>() {
        let (json, beve) = (structio::to_json(&good), structio::to_beve(&good));
        match read(&json, &beve) {
            Ok(v) if v == good => {}
            Ok(v) => failed.push(format!("{name}: {json} read as {v:?}")),
            Err(e) => failed.push(format!("{name}: refused {json}: {e:?}")),
        }
        for (pair, at, rule) in &cases {
            let bad = S::wrap(pair.clone());
            let (json, beve) = (structio::to_json(&bad), structio::to_beve(&bad));
            match read(&json, &beve) {
                Ok(_) => failed.push(format!("{name}: accepted {json}, which breaks `{rule}`")),
                Err(e) => failed.extend(refused(name, &json, rule, *at, e)),
            }
        }
    }
    // In memory.
    if let Err(r) = structio::check(&good) {
        failed.push(format!("check: refused {good:?}: {r}"));
    }
    for (pair, at, rule) in &cases {
        let bad = S::wrap(pair.clone());
        match structio::check(&bad) {
            Ok(()) => failed.push(format!("check: accepted {bad:?}, which breaks `{rule}`")),
            Err(r) => failed.extend(refused("check", &format!("{bad:?}"), rule, *at, r.into())),
        }
    }
    assert!(
        failed.is_empty(),
        "{}: {} failing cases:\n{}",
        std::any::type_name::<S>(),
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn plain_struct_check_runs() {
    matrix::<Pair>();
}

#[test]
fn flattened_struct_check_runs() {
    matrix::<Flat>();
}

#[test]
fn twice_flattened_struct_check_runs() {
    matrix::<Flat2>();
}

#[test]
fn externally_tagged_payload_check_runs() {
    matrix::<External>();
}

#[test]
fn internally_tagged_payload_check_runs() {
    matrix::<Internal>();
}

#[test]
fn internally_tagged_flattening_payload_check_runs() {
    matrix::<InternalFlat>();
}

#[test]
fn adjacently_tagged_payload_check_runs() {
    matrix::<Adjacent>();
}

#[test]
fn untagged_payload_check_runs() {
    matrix::<Untagged>();
}

#[test]
fn canonical_struct_check_runs() {
    matrix::<CanonicalPair>();
    matrix::<CanonicalOuter>();
    matrix::<CanonicalHoldsPair>();
}

#[test]
fn option_of_flattened_struct_check_runs() {
    matrix::<OptionOfFlat>();
}

#[test]
fn vec_of_internally_tagged_payload_check_runs() {
    matrix::<VecOfInternal>();
}

#[test]
fn try_from_source_check_runs() {
    matrix::<Converted>();
}

#[test]
fn with_module_payload_check_runs() {
    matrix::<WithModule>();
}

fn id_not_zero(o: &Outer) -> Result<(), String> {
    if o.id != 0 {
        Ok(())
    } else {
        Err("id is zero".into())
    }
}

/// A struct with a rule of its own that flattens one with another.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(check = "id_not_zero")]
pub struct Outer {
    id: u32,
    #[structio(flatten)]
    pair: Pair,
}

/// Both rules run: the flattened struct's first (a trusted reader reports it), then the
/// container's; the collecting readers report both, at the object.
#[test]
fn flattened_and_own_checks_both_run() {
    let text = r#"{"id":0,"a":4,"b":3}"#;
    let e = structio::from_json::<Outer>(text).unwrap_err();
    assert_eq!(
        (e.path().as_str(), e.message()),
        ("$", CHECK_MESSAGE.into())
    );
    assert_eq!(e.offset(), 0);
    let bytes = structio::to_beve(&structio::from_json::<structio::Value>(text).unwrap());
    let json = structio::json::parse::<Outer>(text).unwrap_err();
    let beve = structio::beve::parse::<Outer>(&bytes).unwrap_err();
    for r in [&json, &beve] {
        let found: Vec<(&str, &str, &str)> = r
            .issues()
            .iter()
            .map(|i| (i.path(), i.message(), i.rule().unwrap().name()))
            .collect();
        assert_eq!(
            found,
            [("$", CHECK_MESSAGE, "check"), ("$", "id is zero", "check")],
            "{r}"
        );
    }
    let bad = Outer {
        id: 0,
        pair: BAD_CHECK,
    };
    assert_eq!(structio::check(&bad).unwrap_err().issues().len(), 2);
    // Each alone.
    assert!(structio::from_json::<Outer>(r#"{"id":0,"a":3,"b":4}"#).is_err());
    assert!(structio::from_json::<Outer>(r#"{"id":1,"a":4,"b":3}"#).is_err());
    let ok: Outer = structio::from_json(r#"{"id":1,"a":3,"b":4}"#).unwrap();
    assert_eq!(ok.pair, GOOD);
}

/// The tag elsewhere than first (read in a second pass over the object): the payload's rule
/// still runs, and reports where the object starts, as the struct alone does.
#[test]
fn internally_tagged_payload_check_runs_with_the_tag_last() {
    let text = "[{\"type\":\"Q\",\"x\":1},\n  {\"a\":4,\"b\":3,\"type\":\"P\"}]";
    let e = structio::from_json::<Vec<Internal>>(text).unwrap_err();
    assert_eq!(e.category(), Category::Constraint);
    assert_eq!(
        (e.path().as_str(), e.message()),
        ("$[1]", CHECK_MESSAGE.into())
    );
    assert_eq!(e.line_column(), Some((2, 3)));
    let r = structio::json::parse::<Vec<Internal>>(text).unwrap_err();
    assert_eq!(r.issues().len(), 1, "{r}");
    assert_eq!(r.issues()[0].pointer(), "/1");
    assert_eq!(r.issues()[0].line_column(), Some((2, 3)));
    // The tag first reports at the same place.
    let first = "[{\"type\":\"Q\",\"x\":1},\n  {\"type\":\"P\",\"a\":4,\"b\":3}]";
    let e = structio::from_json::<Vec<Internal>>(first).unwrap_err();
    assert_eq!(e.line_column(), Some((2, 3)));
    // Under `error_on_duplicate_keys` (a pass that checks the tag first).
    let opts = structio::json::Options {
        read: ReadOptions {
            error_on_duplicate_keys: true,
            ..ReadOptions::default()
        },
        ..structio::json::Options::default()
    };
    let e = structio::json::from_json_with::<Vec<Internal>>(text, &opts).unwrap_err();
    assert_eq!(
        (e.path().as_str(), e.message()),
        ("$[1]", CHECK_MESSAGE.into())
    );
    let ok: Vec<Internal> = structio::from_json("[{\"b\":4,\"a\":3,\"type\":\"P\"}]").unwrap();
    assert_eq!(ok, [Internal::P(GOOD)]);
}

/// A member that could not be read is the only issue: the rule does not run on a struct
/// whose members were not all read (as for the struct alone).
#[test]
fn a_flattened_member_that_fails_is_reported_without_the_rule() {
    for text in [
        r#"{"id":7,"a":"x","b":3}"#,
        r#"{"a":"x","b":3}"#,
        r#"{"type":"P","a":"x","b":3}"#,
    ] {
        let paths = |r: structio::Report| -> Vec<(IssueKind, String)> {
            r.issues()
                .iter()
                .map(|i| (i.kind(), i.path().to_string()))
                .collect()
        };
        let expected = vec![(IssueKind::Type, "$.a".to_string())];
        let found = if text.starts_with(r#"{"id""#) {
            paths(structio::json::parse::<Flat>(text).unwrap_err())
        } else if text.starts_with(r#"{"type""#) {
            paths(structio::json::parse::<Internal>(text).unwrap_err())
        } else {
            paths(structio::json::parse::<Pair>(text).unwrap_err())
        };
        assert_eq!(found, expected, "{text}");
    }
}

/// Missing members taken from the default value under `error_on_missing_keys: false`: the
/// value built is checked as the struct alone is (`Pair::default()` breaks `a < b`).
#[test]
fn a_flattened_struct_left_out_is_checked_as_built() {
    let opts = structio::json::Options {
        read: ReadOptions {
            error_on_missing_keys: false,
            ..ReadOptions::default()
        },
        ..structio::json::Options::default()
    };
    let alone = structio::json::from_json_with::<Pair>("{}", &opts).unwrap_err();
    for text in [r#"{}"#, r#"{"id":1}"#] {
        let flat = structio::json::from_json_with::<Flat>(text, &opts).unwrap_err();
        assert_eq!(alone.message(), flat.message(), "{text}");
    }
    let tagged = structio::json::from_json_with::<Internal>(r#"{"type":"P"}"#, &opts);
    assert!(tagged.is_err());
}

#[cfg(feature = "serde")]
mod serde_bridge {
    //! A struct with a rule that holds a serde field (`#[structio(serde)]`, read by the serde
    //! bridge), flattened and as an internally tagged payload.
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Default)]
    pub struct Note {
        text: String,
    }

    fn noted_ok(p: &Noted) -> Result<(), String> {
        pair_ok(&Pair { a: p.a, b: p.b })
    }

    #[derive(Reflect, Debug, Clone, PartialEq, Default)]
    #[structio(check = "noted_ok")]
    pub struct Noted {
        #[structio(range(max = 100))]
        a: i32,
        b: i32,
        // A serde member has no default value of its own: flattened and tagged structs are
        // read new from their default value.
        #[structio(serde, default)]
        note: Note,
    }

    #[derive(Reflect, Debug, Clone, PartialEq, Default)]
    pub struct FlatNoted {
        id: u32,
        #[structio(flatten)]
        noted: Noted,
    }

    impl Shape for FlatNoted {
        fn wrap(p: Pair) -> Self {
            FlatNoted {
                id: 1,
                noted: Noted {
                    a: p.a,
                    b: p.b,
                    note: Note { text: "n".into() },
                },
            }
        }
        const CHECK_AT: Option<&'static str> = Some("$");
        const FIELD_AT: Option<&'static str> = Some("$.a");
    }

    #[derive(Reflect, Debug, Clone, PartialEq)]
    #[structio(tag = "type")]
    pub enum TaggedNoted {
        N(Noted),
    }

    impl Shape for TaggedNoted {
        fn wrap(p: Pair) -> Self {
            TaggedNoted::N(FlatNoted::wrap(p).noted)
        }
        const CHECK_AT: Option<&'static str> = Some("$");
        const FIELD_AT: Option<&'static str> = Some("$.a");
    }

    #[test]
    fn serde_field_in_a_flattened_or_tagged_struct_check_runs() {
        matrix::<FlatNoted>();
        matrix::<TaggedNoted>();
    }
}
