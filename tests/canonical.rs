//! `#[structio(canonical)]`: the canonical layout read by the fast path gives what the ordinary
//! walk gives, and any other layout (spaced, reordered, escaped keys, members left out or
//! added) or a bad document gives the ordinary walk's value or error.

use proptest::prelude::*;
use structio::Reflect;

/// The canonical struct and its ordinary twin, with the same members.
macro_rules! twins {
    ($(#[$m:meta])* struct $fast:ident / $slow:ident $(<$lt:lifetime>)? { $($f:ident : $t:ty),* $(,)? }) => {
        #[derive(Reflect, Debug, Clone, PartialEq, Default)]
        #[structio(canonical)]
        $(#[$m])*
        struct $fast $(<$lt>)? { $($f: $t),* }

        #[derive(Reflect, Debug, Clone, PartialEq, Default)]
        $(#[$m])*
        struct $slow $(<$lt>)? { $($f: $t),* }
    };
}

twins! {
    struct Args / ArgsSlow { left: i32, right: i32 }
}

twins! {
    struct Call / CallSlow<'a> { name: std::borrow::Cow<'a, str>, arguments: Args, tags: Vec<String>, note: Option<String> }
}

twins! {
    struct Holder / HolderSlow { first: Option<Args>, then: Args, last: u8 }
}

#[derive(Reflect, Debug, Default)]
#[structio(canonical, rename_all = "camelCase")]
struct Renamed {
    first_value: u8,
    second_value: bool,
}

/// A fast read and its twin's read give the same outcome (value, or error text).
fn same<'a, F, S>(text: &'a str, to_slow: impl Fn(&F) -> S)
where
    F: Reflect<'a> + std::fmt::Debug,
    S: Reflect<'a> + std::fmt::Debug + PartialEq,
{
    let fast = structio::from_json::<F>(text);
    let slow = structio::from_json::<S>(text);
    match (fast, slow) {
        (Ok(f), Ok(s)) => assert_eq!(to_slow(&f), s, "{text}"),
        (Err(f), Err(s)) => assert_eq!(f.to_string(), s.to_string(), "{text}"),
        (f, s) => panic!("{text}: canonical {f:?}, ordinary {s:?}"),
    }
    // Reading into a used value gives the same too.
    let mut used = structio::from_json::<F>(r#"{"left":9,"right":9}"#).ok();
    if let Some(u) = used.as_mut() {
        let _ = structio::read_json(u, text);
    }
}

fn args_slow(a: &Args) -> ArgsSlow {
    ArgsSlow {
        left: a.left,
        right: a.right,
    }
}

fn call_slow<'a>(c: &Call<'a>) -> CallSlow<'a> {
    CallSlow {
        name: c.name.clone(),
        arguments: c.arguments.clone(),
        tags: c.tags.clone(),
        note: c.note.clone(),
    }
}

#[test]
fn canonical_and_other_layouts() {
    for text in [
        r#"{"left":1,"right":-2}"#,
        r#"{ "left" : 1 , "right" : -2 }"#,
        r#"{"right":-2,"left":1}"#,
        r#"{"l\u0065ft":1,"right":-2}"#,
        r#"{"left":1}"#,
        r#"{"left":1,"right":2,"middle":3}"#,
        r#"{"left":1,"right":2,}"#,
        r#"{"left":"1","right":2}"#,
        r#"{"left":1,"right":2"#,
        r#"{"left":1,"left":2,"right":3}"#,
        r#"{}"#,
        r#"[]"#,
        r#"{"left":1,"right":99999999999}"#,
    ] {
        same::<Args, ArgsSlow>(text, args_slow);
    }
    for text in [
        r#"{"name":"add","arguments":{"left":2,"right":40},"tags":["a","b"],"note":"n"}"#,
        r#"{"name":"add","arguments":{"left":2,"right":40},"tags":[]}"#,
        r#"{"name":"a\"dd","arguments":{"right":40,"left":2},"tags":[],"note":null}"#,
        r#"{"arguments":{"left":2,"right":40},"name":"add","tags":[],"note":"x"}"#,
        r#"{"name":"add","arguments":{"left":2,"right":"x"},"tags":[],"note":"n"}"#,
        // Compact, the inner struct's members in another order: the layout ends there.
        r#"{"name":"add","arguments":{"right":40,"left":2},"tags":["a"],"note":"n"}"#,
        r#"{"name":"add","arguments":{"left":2},"tags":[],"note":"n"}"#,
        // Strings of sixteen bytes and more, not ASCII, and one near the end of the input.
        r#"{"name":"sixteen bytes ok","arguments":{"left":2,"right":40},"tags":["fifteen bytes o"],"note":"a longer note than one block"}"#,
        r#"{"name":"ädd","arguments":{"left":2,"right":40},"tags":["😀"],"note":"é"}"#,
        r#"{"name":"add","arguments":{"left":2,"right":40},"tags":[],"note":"n"}"#,
        r#"{"name":"add","arguments":{"left":2,"right":40},"tags":[],"note":"n"#,
        r#"{"name":"a	b","arguments":{"left":2,"right":40},"tags":[],"note":"n"}"#,
    ] {
        same::<Call, CallSlow>(text, call_slow);
    }
    let holder_slow = |h: &Holder| HolderSlow {
        first: h.first.clone(),
        then: h.then.clone(),
        last: h.last,
    };
    for text in [
        r#"{"first":{"left":1,"right":2},"then":{"left":3,"right":4},"last":5}"#,
        r#"{"first":null,"then":{"left":3,"right":4},"last":5}"#,
        r#"{"first":{"right":2,"left":1},"then":{"left":3,"right":4},"last":5}"#,
        r#"{"first":{"left":1,"right":2},"then":{"right":4,"left":3},"last":5}"#,
        r#"{"first":{"left":1,"right":2},"then":{"left":3,"right":4},"last":500}"#,
        r#"{"then":{"left":3,"right":4},"last":5}"#,
        r#"{"first":{"left":1,"right":2},"then":{"left":3,"right":4}}"#,
        r#"{"first":{"left":1,"right":2},"then":null,"last":5}"#,
    ] {
        same::<Holder, HolderSlow>(text, holder_slow);
    }
    let r: Renamed = structio::from_json(r#"{"firstValue":3,"secondValue":true}"#).unwrap();
    assert_eq!((r.first_value, r.second_value), (3, true));
    // Errors keep their path and offset.
    let e = structio::from_json::<Call>(
        r#"{"name":"add","arguments":{"left":2,"right":"x"},"tags":[]}"#,
    )
    .unwrap_err();
    assert_eq!(e.path(), "$.arguments.right");
}

#[test]
fn beve_reads_the_ordinary_way() {
    let c = Call {
        name: "n".into(),
        arguments: Args { left: 1, right: 2 },
        tags: vec!["t".into()],
        note: None,
    };
    let bytes = structio::to_beve(&c);
    assert_eq!(structio::from_beve::<Call>(&bytes).unwrap(), c);
}

proptest! {
    /// Any values, written compactly (the canonical layout), then with spaces, with the members
    /// reversed and with escaped keys: the same values.
    #[test]
    fn layouts_give_the_same_values(
        left in any::<i32>(),
        right in any::<i32>(),
        name in "[a-z\"\\\\é]{0,24}",
        tags in proptest::collection::vec("[a-z]{0,4}", 0..4),
        note in proptest::option::of("[ -~]{0,6}"),
    ) {
        let c = Call { name: name.clone().into(), arguments: Args { left, right }, tags, note };
        let compact = structio::to_json(&c);
        let back: Call = structio::from_json(&compact).unwrap();
        prop_assert_eq!(&back, &c);
        let v: structio::Value = structio::from_json(&compact).unwrap();
        let pretty = structio::prettify(&compact).unwrap();
        let back: Call = structio::from_json(&pretty).unwrap();
        prop_assert_eq!(&back, &c);
        // Reversed members.
        if let structio::Value::Object(m) = &v {
            let mut parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}:{}", structio::to_json(&k.to_string()), structio::to_json(v)))
                .collect();
            parts.reverse();
            let reversed = format!("{{{}}}", parts.join(","));
            let back: Call = structio::from_json(&reversed).unwrap();
            prop_assert_eq!(&back, &c);
        }
        // Escaped keys.
        let escaped = compact.replace("\"name\":", "\"n\\u0061me\":").replace("\"left\":", "\"\\u006ceft\":");
        let back: Call = structio::from_json(&escaped).unwrap();
        prop_assert_eq!(&back, &c);
        // The twin reads the same.
        let slow: CallSlow = structio::from_json(&compact).unwrap();
        prop_assert_eq!(slow, call_slow(&c));
    }
}

twins! {
    struct Wide / WideSlow { a: i64, b: u8, c: i8, d: u64 }
}

/// A canonical struct with a member constraint.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(canonical)]
struct Ranged {
    #[structio(range(min = 0, max = 100))]
    level: i32,
    label: String,
}

/// [`Ranged`] read the ordinary way.
#[derive(Reflect, Debug, Clone, PartialEq)]
struct RangedSlow {
    #[structio(range(min = 0, max = 100))]
    level: i32,
    label: String,
}

fn wide_slow(w: &Wide) -> WideSlow {
    WideSlow {
        a: w.a,
        b: w.b,
        c: w.c,
        d: w.d,
    }
}

/// Integers in the canonical layout: every spelling the grammar allows or forbids gives what
/// the ordinary walk gives (the value, or the same error at the same place), including
/// overflow by one, `-0`, exponents, fractions and leading zeros, with one, two and more
/// digits.
#[test]
fn canonical_integers_read_as_the_ordinary_walk_does() {
    let spellings = [
        "0",
        "5",
        "42",
        "-7",
        "-42",
        "99",
        "100",
        "-100",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "-0",
        "1e2",
        "1E2",
        "1e-2",
        "1.0",
        "10.5",
        "01",
        "00",
        "-01",
        "007",
        "-",
        "--1",
        "1x",
        "9e",
        "99999999999999999999",
        "4294967296",
        "12345678901234567890",
    ];
    for n in spellings {
        for text in [
            format!(r#"{{"left":{n},"right":1}}"#),
            format!(r#"{{"left":1,"right":{n}}}"#),
            format!(r#"{{"left":1,"right":{n} }}"#),
        ] {
            same::<Args, ArgsSlow>(&text, args_slow);
        }
        for text in [
            format!(r#"{{"a":{n},"b":{n},"c":{n},"d":{n}}}"#),
            format!(r#"{{"a":{n},"b":1,"c":-1,"d":2}}"#),
            format!(r#"{{"a":1,"b":{n},"c":{n},"d":{n}}}"#),
        ] {
            same::<Wide, WideSlow>(&text, wide_slow);
        }
    }
    let a: Args = structio::from_json(r#"{"left":-2147483648,"right":2147483647}"#).unwrap();
    assert_eq!((a.left, a.right), (i32::MIN, i32::MAX));
    let a: Args = structio::from_json(r#"{"left":7,"right":42}"#).unwrap();
    assert_eq!((a.left, a.right), (7, 42));
    let a: Args = structio::from_json(r#"{"left":-9,"right":-99}"#).unwrap();
    assert_eq!((a.left, a.right), (-9, -99));
    let a: Args = structio::from_json(r#"{"left":-0,"right":1e2}"#).unwrap();
    assert_eq!((a.left, a.right), (0, 100));
    for bad in ["2147483648", "-2147483649", "1.5", "01"] {
        let text = format!(r#"{{"left":{bad},"right":1}}"#);
        let e = structio::from_json::<Args>(&text).unwrap_err();
        assert_eq!(e.path(), "$.left", "{text}: {e}");
    }
}

/// A canonical struct with a member constraint: the fast path checks it as the ordinary walk
/// does, with the same error.
#[test]
fn canonical_members_keep_their_constraints() {
    let slow = |r: &Ranged| RangedSlow {
        level: r.level,
        label: r.label.clone(),
    };
    for text in [
        r#"{"level":5,"label":"x"}"#,
        r#"{"level":100,"label":"x"}"#,
        r#"{"level":101,"label":"x"}"#,
        r#"{"level":-1,"label":"x"}"#,
        r#"{"level":50,"label":"a\nb"}"#,
        r#"{"level":50,"label":"a\u00e9"}"#,
    ] {
        same::<Ranged, RangedSlow>(text, slow);
    }
    let e = structio::from_json::<Ranged>(r#"{"level":101,"label":"x"}"#).unwrap_err();
    assert_eq!(e.path(), "$.level");
}

/// Borrowed text in the canonical layout: a plain string is borrowed, an escaped one owned,
/// with the same text either way.
#[test]
fn canonical_cow_borrows_plain_text() {
    let text = r#"{"name":"add","arguments":{"left":1,"right":2},"tags":[],"note":null}"#;
    let c: Call = structio::from_json(text).unwrap();
    assert!(matches!(c.name, std::borrow::Cow::Borrowed("add")));
    let text = r#"{"name":"a\u0064d","arguments":{"left":1,"right":2},"tags":[],"note":null}"#;
    let c: Call = structio::from_json(text).unwrap();
    assert!(matches!(&c.name, std::borrow::Cow::Owned(s) if s == "add"));
}

/// A canonical struct with a rule across its members.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(canonical, check = "ordered")]
struct Span {
    from: u32,
    to: u32,
}

/// [`Span`] read the ordinary way.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(check = "ordered_slow")]
struct SpanSlow {
    from: u32,
    to: u32,
}

fn ordered(s: &Span) -> Result<(), String> {
    (s.from <= s.to)
        .then_some(())
        .ok_or_else(|| "from after to".to_owned())
}

fn ordered_slow(s: &SpanSlow) -> Result<(), String> {
    (s.from <= s.to)
        .then_some(())
        .ok_or_else(|| "from after to".to_owned())
}

/// The struct's own rule runs on the value the canonical path builds, with the ordinary
/// walk's error when it fails.
#[test]
fn canonical_structs_keep_their_rule() {
    let slow = |s: &Span| SpanSlow {
        from: s.from,
        to: s.to,
    };
    for text in [
        r#"{"from":1,"to":2}"#,
        r#"{"from":3,"to":2}"#,
        r#"{ "from":3,"to":2}"#,
        r#"{"to":2,"from":1}"#,
        r#"{"to":2,"from":3}"#,
        r#"{ "to":2,"from":3}"#,
    ] {
        same::<Span, SpanSlow>(text, slow);
    }
    for text in [r#"{"from":3,"to":2}"#, r#"{"to":2,"from":3}"#] {
        let e = structio::from_json::<Span>(text).unwrap_err();
        assert!(e.to_string().contains("from after to"), "{text}: {e}");
    }
    let s: Span = structio::from_json(r#"{"from":1,"to":2}"#).unwrap();
    assert_eq!((s.from, s.to), (1, 2));
}

/// A tag whose names a canonical read compares whole, one of them with a character JSON
/// escapes (so the enum is read by name and lookup instead).
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
enum Quoted {
    #[default]
    Plain,
    #[structio(rename = "say \"hi\"")]
    Said,
}

/// A tag compared whole.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
enum Method {
    #[default]
    #[structio(rename = "ping")]
    Ping,
    #[structio(rename = "tools/call", alias = "call")]
    Call,
}

/// A tag renamed by `rename_all`, one name not ASCII.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[structio(rename_all = "snake_case")]
enum Phase {
    #[default]
    FirstStep,
    #[structio(rename = "été")]
    Summer,
}

twins! {
    struct Tagged / TaggedSlow { method: Method, quoted: Quoted, id: u32, maybe: Option<Method>, phase: Phase }
}

/// Unit enums in a canonical struct: the value of each name, an alias, an escaped name, an
/// unknown name and another type give what the ordinary walk gives (value or error, with its
/// path), in JSON and in BEVE.
#[test]
fn canonical_unit_enums_read_as_the_ordinary_walk_does() {
    let slow = |t: &Tagged| TaggedSlow {
        method: t.method,
        quoted: t.quoted,
        id: t.id,
        maybe: t.maybe,
        phase: t.phase,
    };
    for text in [
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":"tools/call","phase":"first_step"}"#,
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":null,"phase":"été"}"#,
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":"call","phase":"\u00e9t\u00e9"}"#,
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":"ping","phase":"FirstStep"}"#,
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":"ping","phase":"first_step"}"#,
        r#"{"method":"ping","quoted":"Plain","id":1,"maybe":"ping"}"#,
        r#"{"method":"tools/call","quoted":"say \"hi\"","id":2}"#,
        r#"{"method":"call","quoted":"Plain","id":3}"#,
        r#"{"method":"tools\/call","quoted":"Plain","id":4}"#,
        r#"{"method":"tools/cal","quoted":"Plain","id":5}"#,
        r#"{"method":"tools/calls","quoted":"Plain","id":5}"#,
        r#"{"method":"pin","quoted":"Plain","id":5}"#,
        r#"{"method":"ping","quoted":"say hi","id":6}"#,
        r#"{"method":7,"quoted":"Plain","id":7}"#,
        r#"{"method":null,"quoted":"Plain","id":7}"#,
        r#"{"method":"ping""#,
        r#"{"method":"ping","quoted":"Plain","id":8,"x":1}"#,
        r#"{ "method":"ping","quoted":"Plain","id":9}"#,
    ] {
        same::<Tagged, TaggedSlow>(text, slow);
    }
    let t: Tagged = structio::from_json(
        r#"{"method":"tools/call","quoted":"say \"hi\"","id":2,"maybe":"ping","phase":"été"}"#,
    )
    .unwrap();
    assert_eq!(
        (t.method, t.quoted, t.id, t.maybe, t.phase),
        (
            Method::Call,
            Quoted::Said,
            2,
            Some(Method::Ping),
            Phase::Summer
        )
    );
    let e =
        structio::from_json::<Tagged>(r#"{"method":"pin","quoted":"Plain","id":5}"#).unwrap_err();
    assert_eq!(e.path(), "$.method");
    // BEVE writes the tags as integers and reads them back the ordinary way.
    let back: Tagged = structio::from_beve(&structio::to_beve(&t)).unwrap();
    assert_eq!(back, t);
}

/// The value a canonical struct is read from and converted.
#[derive(Reflect, Debug, Clone, PartialEq)]
struct Doubled {
    n: i32,
}

/// A canonical struct read through `from`: its own layout is the other type's, and the
/// conversion runs on the canonical path too.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(canonical, from = "Doubled")]
struct Twice {
    n: i32,
}

impl From<Doubled> for Twice {
    fn from(d: Doubled) -> Self {
        Twice { n: d.n * 2 }
    }
}

/// Holds a [`Twice`] in a canonical struct.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(canonical)]
struct HoldsTwice {
    inner: Twice,
    tail: u8,
}

/// `from` on a canonical struct nested in another: the member is read as the other type and
/// converted, never as the struct's own members.
#[test]
fn canonical_members_read_through_from_convert() {
    let h: HoldsTwice = structio::from_json(r#"{"inner":{"n":4},"tail":1}"#).unwrap();
    assert_eq!(h.inner, Twice { n: 8 });
    let t: Twice = structio::from_json(r#"{"n":4}"#).unwrap();
    assert_eq!(t, Twice { n: 8 });
}
