//! Boundary parsing: constraints declared in the derive hold for every reader (the first
//! broken one an error of `Category::Constraint` with offset, line/column and path), and
//! `json::parse`, `beve::parse` and `check` report every problem of a document in one pass.

use std::collections::BTreeMap;

use structio::{Category, IssueKind, ParseOptions, ReadOptions, Reflect, Report};

fn slug_ok(s: &str) -> Result<(), String> {
    if s.starts_with('-') {
        Err("must not start with `-`".into())
    } else {
        Ok(())
    }
}

fn dates_in_order(p: &Period) -> Result<(), String> {
    if p.from <= p.to {
        Ok(())
    } else {
        Err(format!("`from` ({}) is after `to` ({})", p.from, p.to))
    }
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Address {
    #[structio(length(min = 1))]
    city: String,
    #[structio(pattern = "^[0-9]{5}$")]
    zip: String,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(rename_all = "camelCase")]
struct User {
    #[structio(length(min = 1, max = 8))]
    name: String,
    #[structio(range(min = 0, max = 150))]
    age: i32,
    #[structio(pattern = "^[a-z0-9-]+$", check = "slug_ok")]
    slug: String,
    #[structio(one_of("free", "pro"))]
    plan: String,
    #[structio(length(max = 3), items(length(min = 1, max = 4)))]
    tags: Vec<String>,
    #[structio(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    score: f64,
    #[structio(length(bytes, max = 4))]
    code: Option<String>,
    address: Address,
    #[structio(items(range(max = 10)))]
    limits: BTreeMap<String, u32>,
    #[structio(one_of(1, 2, 3))]
    level: u8,
}

fn good() -> User {
    User {
        name: "ada".into(),
        age: 36,
        slug: "ada-l".into(),
        plan: "pro".into(),
        tags: vec!["x".into(), "yz".into()],
        score: 0.5,
        code: Some("ab".into()),
        address: Address {
            city: "Paris".into(),
            zip: "75001".into(),
        },
        limits: BTreeMap::from([("a".into(), 3)]),
        level: 2,
    }
}

/// `good()` with `field` of its JSON replaced by `value`.
fn with(field: &str, value: &str) -> String {
    let mut v: structio::Value = structio::from_json(&structio::to_json(&good())).unwrap();
    let new: structio::Value = structio::from_json(value).unwrap();
    match &mut v {
        structio::Value::Object(m) => {
            m.insert(field, new);
        }
        _ => unreachable!(),
    }
    structio::to_json(&v)
}

#[test]
fn valid_documents_read_alike_everywhere() {
    let text = structio::to_json(&good());
    let bytes = structio::to_beve(&good());
    assert_eq!(structio::from_json::<User>(&text).unwrap(), good());
    assert_eq!(structio::json::parse::<User>(&text).unwrap(), good());
    assert_eq!(structio::from_beve::<User>(&bytes).unwrap(), good());
    assert_eq!(structio::beve::parse::<User>(&bytes).unwrap(), good());
    assert!(structio::check(&good()).is_ok());
    let mut u = good();
    u.name = "bob".into();
    structio::read_json(&mut u, &text).unwrap();
    assert_eq!(u, good());
}

#[test]
fn every_constraint_is_an_error_in_trusted_reads() {
    let cases = [
        ("name", r#""""#, "$.name", "length"),
        ("name", r#""abcdefghi""#, "$.name", "length"),
        ("age", "151", "$.age", "range"),
        ("age", "-1", "$.age", "range"),
        ("slug", r#""Not a slug""#, "$.slug", "pattern"),
        ("slug", r#""-x""#, "$.slug", "check"),
        ("plan", r#""gold""#, "$.plan", "one_of"),
        ("tags", r#"["a","b","c","d"]"#, "$.tags", "length"),
        ("tags", r#"["a","","c"]"#, "$.tags[1]", "length"),
        ("score", "0", "$.score", "range"),
        ("score", "1.0", "$.score", "range"),
        ("code", r#""ééé""#, "$.code", "length"),
        (
            "address",
            r#"{"city":"","zip":"75001"}"#,
            "$.address.city",
            "length",
        ),
        (
            "address",
            r#"{"city":"P","zip":"7500"}"#,
            "$.address.zip",
            "pattern",
        ),
        (
            "limits",
            r#"{"a":3,"b/c":11}"#,
            "$.limits[\"b/c\"]",
            "range",
        ),
        ("level", "4", "$.level", "one_of"),
    ];
    for (field, value, path, rule) in cases {
        let text = with(field, value);
        let e = structio::from_json::<User>(&text).unwrap_err();
        assert_eq!(e.category(), Category::Constraint, "{field}={value}: {e}");
        assert_eq!(e.path(), path, "{field}={value}");
        assert_eq!(e.rule().unwrap().name(), rule, "{field}={value}");
        // The offset is where the member's value starts (the innermost member named).
        let last = path.rsplit('.').next().unwrap().split('[').next().unwrap();
        let key = format!("\"{last}\":");
        let at = text.find(&key).unwrap() + key.len();
        assert_eq!(e.offset(), at, "{field}={value}: {e}");
        assert_eq!(e.line_column(), Some((1, at + 1)));
        // The same in BEVE, reading new and in place.
        let v: structio::Value = structio::from_json(&text).unwrap();
        let bytes = structio::to_beve(&v);
        let b = structio::from_beve::<User>(&bytes).unwrap_err();
        assert_eq!(b.category(), Category::Constraint, "{field}={value}");
        assert_eq!(b.path(), path);
        let mut u = good();
        let e = structio::read_json(&mut u, &text).unwrap_err();
        assert_eq!(e.path(), path);
        let e = structio::read_beve(&mut u, &bytes).unwrap_err();
        assert_eq!(e.path(), path);
    }
    // `None` passes every rule.
    let text = with("code", "null");
    assert_eq!(structio::from_json::<User>(&text).unwrap().code, None);
}

#[test]
fn parse_reports_every_problem_in_one_pass() {
    let text = r#"{
  "name": "",
  "age": "old",
  "slug": "Bad Slug",
  "plan": "gold",
  "tags": ["a", "", "toolong"],
  "score": 0.5,
  "extra": {"x": 1},
  "address": {"city": "", "zip": 75001},
  "limits": {"a": 11},
  "level": 2
}"#;
    let report = structio::json::parse::<User>(text).unwrap_err();
    let got: Vec<(IssueKind, &str)> = report
        .issues()
        .iter()
        .map(|i| (i.kind(), i.pointer()))
        .collect();
    use IssueKind::*;
    assert_eq!(
        got,
        [
            (Constraint, "/name"),
            (Type, "/age"),
            (Constraint, "/slug"),
            (Constraint, "/plan"),
            (Constraint, "/tags/1"),
            (Constraint, "/tags/2"),
            (UnknownKey, "/extra"),
            (Constraint, "/address/city"),
            (Type, "/address/zip"),
            (Constraint, "/limits/a"),
        ],
        "{report}"
    );
    let age = &report.issues()[1];
    assert_eq!(age.path(), "$.age");
    assert_eq!(age.line_column(), Some((3, 10)));
    assert_eq!(age.offset(), text.find("\"old\""));
    let plan = &report.issues()[3];
    assert_eq!(plan.rule().unwrap().name(), "one_of");
    assert_eq!(
        structio::to_json(plan.constraint().unwrap()),
        r#"{"rule":"one_of","one_of":["free","pro"]}"#
    );
    assert!(!report.is_truncated());
    // The first line has the caret snippet.
    let shown = report.to_string();
    let first: Vec<&str> = shown.lines().take(3).collect();
    assert_eq!(
        first[0],
        "$.name: length is 0; at least 1 characters or elements required at 2:11 (byte 12)"
    );
    assert_eq!(first[1], r#"     "name": "","#);
    assert_eq!(first[2], "             ^");
    assert_eq!(shown.lines().count(), report.issues().len() + 2);
}

#[test]
fn missing_duplicate_and_aliased_keys_are_issues() {
    #[derive(Reflect, Debug)]
    struct Pair {
        #[structio(alias = "first")]
        a: u32,
        b: u32,
        c: Option<u32>,
    }
    let opts = ParseOptions {
        read: ReadOptions {
            error_on_duplicate_keys: true,
            ..ReadOptions::default()
        },
        ..ParseOptions::default()
    };
    let r = structio::json::parse_with::<Pair>(r#"{"c":1,"c":2}"#, &opts).unwrap_err();
    let got: Vec<_> = r.issues().iter().map(|i| (i.kind(), i.pointer())).collect();
    use IssueKind::*;
    assert_eq!(
        got,
        [(DuplicateKey, "/c"), (MissingKey, "/a"), (MissingKey, "/b")],
        "{r}"
    );
    let r = structio::json::parse::<Pair>(r#"{"a":1,"first":2,"b":3}"#).unwrap_err();
    assert_eq!(r.issues().len(), 1);
    assert_eq!(r.issues()[0].kind(), AliasConflict);
    // Unknown keys skipped under the skip policy are no issue.
    let opts = ParseOptions {
        read: ReadOptions {
            unknown_keys: structio::UnknownKeys::Skip,
            ..ReadOptions::default()
        },
        ..ParseOptions::default()
    };
    let p = structio::json::parse_with::<Pair>(r#"{"a":1,"b":2,"z":[1,{}]}"#, &opts).unwrap();
    assert_eq!((p.a, p.b, p.c), (1, 2, None));
}

#[test]
fn malformed_input_is_the_last_issue() {
    let text = with("name", r#""""#).replace(r#""plan":"pro""#, r#""plan":pro"#);
    let r = structio::json::parse::<User>(&text).unwrap_err();
    let kinds: Vec<_> = r.issues().iter().map(|i| i.kind()).collect();
    assert_eq!(kinds, [IssueKind::Constraint, IssueKind::Syntax], "{r}");
    assert_eq!(r.issues()[1].path(), "$.plan");
    // Trailing garbage and a wrong top-level type.
    let r = structio::json::parse::<User>("[1]").unwrap_err();
    assert_eq!(r.issues()[0].kind(), IssueKind::Type);
    assert_eq!(r.issues()[0].pointer(), "");
    let r = structio::json::parse::<u8>("1 x").unwrap_err();
    assert_eq!(r.issues()[0].kind(), IssueKind::Syntax);
}

#[test]
fn parse_accepts_what_from_json_accepts() {
    // Documents that break nothing, and others, read the same by both.
    let docs = [
        structio::to_json(&good()),
        with("age", "20"),
        with("tags", "[]"),
        with("code", "null"),
        structio::to_json(&good()).replace(r#""age":36"#, r#""age":1e400"#),
        with("name", r#""\u00e9""#),
        "{}".to_string(),
        "null".to_string(),
    ];
    for d in docs {
        let a = structio::from_json::<User>(&d);
        let b = structio::json::parse::<User>(&d);
        assert_eq!(a.is_ok(), b.is_ok(), "{d}");
        if let (Ok(a), Ok(b)) = (a, b) {
            assert_eq!(a, b);
        }
    }
}

#[test]
fn json_and_beve_reports_agree() {
    let text = with("tags", r#"["", "a", "bbbbbb"]"#).replace(r#""age":36"#, r#""age":200"#);
    let v: structio::Value = structio::from_json(&text).unwrap();
    let bytes = structio::to_beve(&v);
    let j = structio::json::parse::<User>(&text).unwrap_err();
    let b = structio::beve::parse::<User>(&bytes).unwrap_err();
    let strip = |r: &Report| -> Vec<(IssueKind, String, String)> {
        r.issues()
            .iter()
            .map(|i| (i.kind(), i.pointer().to_string(), i.message().to_string()))
            .collect()
    };
    assert_eq!(strip(&j), strip(&b));
    assert_eq!(j.issues().len(), 3);
    assert!(b.issues().iter().all(|i| i.line_column().is_none()));
}

#[test]
fn max_issues_caps_the_work() {
    let text = format!("[{}]", vec![r#"{"city":"","zip":"x"}"#; 1000].join(","));
    let opts = ParseOptions {
        max_issues: 7,
        ..ParseOptions::default()
    };
    let r = structio::json::parse_with::<Vec<Address>>(&text, &opts).unwrap_err();
    assert_eq!(r.issues().len(), 7);
    assert!(r.is_truncated());
    assert_eq!(r.issues()[6].pointer(), "/3/city");
    assert!(r.to_string().ends_with("(stopped after 7 issues)"));
    let r = structio::json::parse::<Vec<Address>>(&text).unwrap_err();
    assert_eq!(r.issues().len(), 100);
}

#[test]
fn check_walks_values_in_memory() {
    let mut u = good();
    u.age = 200;
    u.tags = vec![String::new()];
    u.address.zip = "1".into();
    let r = structio::check(&u).unwrap_err();
    let got: Vec<_> = r.issues().iter().map(|i| i.path()).collect();
    assert_eq!(got, ["$.age", "$.tags[0]", "$.address.zip"]);
    assert!(r.issues().iter().all(|i| i.offset().is_none()));
}

#[test]
fn the_container_check_sees_the_whole_struct() {
    let e = structio::from_json::<Period>(r#"{"from":5,"to":3}"#).unwrap_err();
    assert_eq!(e.category(), Category::Constraint);
    assert_eq!(e.message(), "`from` (5) is after `to` (3)");
    assert_eq!(e.offset(), 0);
    assert!(structio::from_json::<Period>(r#"{"from":1,"to":3}"#).is_ok());
    let mut p = Period { from: 0, to: 0 };
    assert!(structio::read_json(&mut p, r#"{"from":5,"to":3}"#).is_err());
    let r = structio::json::parse::<Vec<Period>>(r#"[{"from":1,"to":2},{"from":5,"to":3}]"#)
        .unwrap_err();
    assert_eq!(r.issues()[0].pointer(), "/1");
    assert_eq!(r.issues()[0].rule().unwrap().name(), "check");
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(check = "dates_in_order")]
struct Period {
    from: u32,
    to: u32,
}

#[test]
fn newtypes_and_untagged_enums() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Slug(#[structio(pattern = "^[a-z]+$")] String);
    #[derive(Reflect, Debug, PartialEq)]
    #[structio(untagged)]
    enum Id {
        Slug(Slug),
        Text(String),
    }
    assert!(structio::from_json::<Slug>(r#""abc""#).is_ok());
    let e = structio::from_json::<Slug>(r#""ABC""#).unwrap_err();
    assert_eq!(e.category(), Category::Constraint);
    // A variant whose constraint fails is not the one that matches.
    assert_eq!(
        structio::from_json::<Id>(r#""ABC""#).unwrap(),
        Id::Text("ABC".into())
    );
    assert_eq!(
        structio::json::parse::<Id>(r#""abc""#).unwrap(),
        Id::Slug(Slug("abc".into()))
    );
    assert_eq!(
        structio::json::parse::<Id>(r#""ABC""#).unwrap(),
        Id::Text("ABC".into())
    );
}

#[test]
fn problem_details_and_the_report_as_data() {
    let text = with("age", "-3").replace(r#""plan":"pro""#, r#""plan":"x""#);
    let r = structio::json::parse::<User>(&text).unwrap_err();
    let pd: structio::Value = structio::from_json(&r.to_problem_details()).unwrap();
    let pd = structio::to_json(&pd);
    assert!(
        pd.starts_with(
            r##"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"2 issues in the request","errors":[{"pointer":"#/age","##
        ),
        "{pd}"
    );
    // A report is data: written as JSON or BEVE and read back.
    let json = structio::to_json(&r);
    let back: Report = structio::from_json(&json).unwrap();
    assert_eq!(back.issues().len(), 2);
    assert_eq!(back.issues()[0].pointer(), "/age");
    assert_eq!(back.issues()[0].line_column(), r.issues()[0].line_column());
    assert_eq!(
        structio::to_json(back.issues()[0].constraint().unwrap()),
        structio::to_json(r.issues()[0].constraint().unwrap())
    );
    assert!(back.issues()[0].rule().is_none());
    let back: Report = structio::from_beve(&structio::to_beve(&r)).unwrap();
    assert_eq!(structio::to_json(&back), json);
    let e: &dyn std::error::Error = &r;
    assert!(e
        .to_string()
        .starts_with("$.age: -3 is less than the minimum 0"));
}

#[test]
fn types_without_constraints_record_type_errors() {
    #[derive(Reflect, Debug)]
    struct Inner {
        x: u8,
        y: String,
    }
    #[derive(Reflect, Debug)]
    struct Outer {
        a: Vec<Inner>,
        b: Option<Inner>,
        c: [u8; 2],
    }
    let r = structio::json::parse::<Outer>(
        r#"{"a":[{"x":1,"y":"a"},{"x":300,"y":2},{"y":"z"}],"b":{"x":"q","y":"b"},"c":[1,2,3]}"#,
    )
    .unwrap_err();
    let got: Vec<_> = r
        .issues()
        .iter()
        .map(|i| (i.kind(), i.pointer(), i.message()))
        .collect();
    use IssueKind::*;
    assert_eq!(
        got,
        [
            (Type, "/a/1/x", "number out of range for u8"),
            (Type, "/a/1/y", "expected a string, found a number"),
            (MissingKey, "/a/2/x", "missing key `x`"),
            (Type, "/b/x", "expected a number, found a string"),
            (Type, "/c", "expected 2 elements, found 3"),
        ],
        "{r}"
    );
}

#[test]
fn paths_stay_right_past_the_inline_steps() {
    // The collecting reader keeps 32 path steps in place and the rest on the heap: a
    // document nested deeper than that (two steps a level: `kids`, then the index) reports
    // issues on both sides of that line, on the way down and on the way back up.
    #[derive(Reflect, Debug, PartialEq)]
    struct Node {
        #[structio(length(min = 1))]
        name: String,
        kids: Vec<Node>,
    }
    const LEVELS: usize = 24;
    fn nest(level: usize) -> String {
        if level == LEVELS {
            return r#"{"name":"","kids":[]}"#.to_string();
        }
        format!(
            r#"{{"name":"n","kids":[{},{{"name":"","kids":[]}}]}}"#,
            nest(level + 1)
        )
    }
    let text = nest(0);
    let mut want = vec![format!("{}/name", "/kids/0".repeat(LEVELS))];
    for level in (0..LEVELS).rev() {
        want.push(format!("{}/kids/1/name", "/kids/0".repeat(level)));
    }
    let pointers = |r: &Report| -> Vec<String> {
        r.issues().iter().map(|i| i.pointer().to_string()).collect()
    };
    let j = structio::json::parse::<Node>(&text).unwrap_err();
    assert_eq!(pointers(&j), want, "{j}");
    assert!(j.issues().iter().all(|i| i.kind() == IssueKind::Constraint));
    assert_eq!(
        j.issues()[0].path(),
        format!("${}.name", ".kids[0]".repeat(LEVELS))
    );
    let v: structio::Value = structio::from_json(&text).unwrap();
    let b = structio::beve::parse::<Node>(&structio::to_beve(&v)).unwrap_err();
    assert_eq!(pointers(&b), want);
    // The trusted reader names the first one the same way.
    let e = structio::from_json::<Node>(&text).unwrap_err();
    assert_eq!(e.path(), j.issues()[0].path());
}
