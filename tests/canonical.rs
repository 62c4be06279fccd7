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
    ] {
        same::<Call, CallSlow>(text, call_slow);
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
        name in "[a-z\"\\\\é]{0,8}",
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
