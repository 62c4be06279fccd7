//! JSON with comments (JSONC, `ReadOptions::comments`): `//` and `/* */` wherever whitespace
//! may stand, through every in-memory reader (typed, `Value`, `parse`, `values`, `validate`,
//! `minify`, `prettify`, the serde bridge); errors where comments are off, unterminated or
//! malformed; `json::get` at a pointer; the positions errors report; strings that look like comments. The fuzz oracle
//! is `shapes::oracles::jsonc_same` (target `json_value`).

mod shapes;

use structio::json::{
    from_json_with, minify_with, parse_with, prettify_with, read_json_with, validate_with,
    values_with, MinifyOptions, Options, PrettyOptions,
};
use structio::{Category, ParseOptions, ReadOptions, Reflect, Value};

fn jsonc() -> Options {
    Options {
        read: ReadOptions {
            comments: true,
            ..ReadOptions::default()
        },
        ..Options::default()
    }
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Config<'a> {
    name: &'a str,
    owned: String,
    port: u16,
    tags: Vec<String>,
    ratio: Option<f64>,
    on: bool,
    inner: Inner,
}

#[derive(Reflect, Debug, PartialEq, Default, Clone)]
struct Inner {
    xs: Vec<i32>,
    maybe: Option<u8>,
}

const CONFIG: &str = r#"// leading line comment
/* leading block */ {
  "name" /* between key and colon */ : /* between colon and value */ "svc",
  "owned": "a // not a comment /* nor this */", // after a comma's value
  /* before a key */ "port": 8080 /* after a number */,
  "tags": [ /* first */ "a" /* after */ , // line
     "b" /**/ ] ,
  "ratio": /* before null */ null,
  "on": /* before a literal */ true,
  "inner": { "xs": [/**/1,/* */2 ,3 // three
  ], "maybe": /* null follows */ null }
} // trailing line comment
/* trailing block */ // end without a newline"#;

fn config_value() -> Config<'static> {
    Config {
        name: "svc",
        owned: "a // not a comment /* nor this */".into(),
        port: 8080,
        tags: vec!["a".into(), "b".into()],
        ratio: None,
        on: true,
        inner: Inner {
            xs: vec![1, 2, 3],
            maybe: None,
        },
    }
}

#[test]
fn typed_read_accepts_comments_everywhere_whitespace_may_stand() {
    let c: Config = from_json_with(CONFIG, &jsonc()).unwrap();
    assert_eq!(c, config_value());
    // Strings without escapes are still borrowed from the input.
    let start = CONFIG.as_ptr() as usize;
    let at = c.name.as_ptr() as usize;
    assert!(at >= start && at < start + CONFIG.len());
    // Read into an existing value.
    let mut again = Config::default();
    read_json_with(&mut again, CONFIG, &jsonc()).unwrap();
    assert_eq!(again, config_value());
}

#[test]
fn comments_off_is_the_plain_error() {
    let e = structio::from_json::<Config>(CONFIG).unwrap_err();
    assert_eq!(e.message(), "expected a value");
    assert_eq!((e.offset(), e.line_column()), (0, Some((1, 1))));
    for (text, msg, at) in [
        ("[1, /* c */ 2]", "expected a value", 4),
        ("[1 // c\n]", "expected `,` or `]`", 3),
        ("{\"a\" /**/: 1}", "expected `:`", 5),
        ("1 // c", "trailing characters after the value", 2),
    ] {
        let e = structio::from_json::<Value>(text).unwrap_err();
        assert_eq!((e.message().as_str(), e.offset()), (msg, at), "{text}");
        let plain = structio::json::validate(text.as_bytes()).unwrap_err();
        assert_eq!((plain.message(), plain.offset()), (e.message(), e.offset()));
        // The same error from the `_with` functions when comments stay off.
        let off = from_json_with::<Value>(text, &Options::default()).unwrap_err();
        assert_eq!(off.offset(), at);
        assert!(minify_with(text, &MinifyOptions::default()).is_err());
        assert!(prettify_with(text, &PrettyOptions::default()).is_err());
    }
}

#[test]
fn value_reads_and_every_position() {
    let o = jsonc();
    let v = |t: &str| from_json_with::<Value>(t, &o).unwrap_or_else(|e| panic!("{t}: {e}"));
    let plain: Value = structio::from_json(r#"{"a":[1,{"b":null}],"c":"x"}"#).unwrap();
    for t in [
        r#"/*0*/{/*1*/"a"/*2*/:/*3*/[/*4*/1/*5*/,/*6*/{/*7*/"b"/*8*/:/*9*/null/*10*/}/*11*/]/*12*/,/*13*/"c"/*14*/:/*15*/"x"/*16*/}/*17*/"#,
        "//0\n{//1\n\"a\"//2\n://3\n[//4\n1//5\n,//6\n{//7\n\"b\"//8\n://9\nnull//10\n}//11\n]//12\n,//13\n\"c\"//14\n://15\n\"x\"//16\n}//17",
        "{\"a\":[1,{\"b\":null}],\"c\":\"x\"}//",
        "{\"a\":[1,{\"b\":null}],\"c\":\"x\"}/**/",
        "/**//**/{\"a\":[1,{\"b\":null}],\"c\":\"x\"}\r\n// crlf\r\n",
    ] {
        assert_eq!(v(t), plain, "{t}");
    }
    // Empty containers with a comment inside.
    assert_eq!(
        v("[/* nothing */]"),
        structio::from_json::<Value>("[]").unwrap()
    );
    assert_eq!(
        v("{ // nothing\n}"),
        structio::from_json::<Value>("{}").unwrap()
    );
    // "Nested-looking" block comments end at the first `*/`.
    assert_eq!(
        v("[1, /* /* */ 2]"),
        structio::from_json::<Value>("[1,2]").unwrap()
    );
    assert!(from_json_with::<Value>("[1, /* /* */ */ 2]", &o).is_err());
    // Comment-looking text in strings is text.
    assert_eq!(
        v(r#"["//", "/* x */", "a\"//b", "/*"]"#),
        structio::from_json::<Value>(r#"["//", "/* x */", "a\"//b", "/*"]"#).unwrap()
    );
    // A comment separates tokens as whitespace does: it does not join them.
    assert!(from_json_with::<Value>("[1/**/2]", &o).is_err());
    assert!(from_json_with::<Value>("[tr/**/ue]", &o).is_err());
    assert!(from_json_with::<Value>("1/**/2", &o).is_err());
}

#[test]
fn errors_where_comments_go_wrong() {
    let o = jsonc();
    // An unterminated block comment is reported at its `/*`.
    let e = from_json_with::<Value>("[1,\n  2 /* never closed\n]", &o).unwrap_err();
    assert_eq!(e.message(), "unterminated comment");
    assert_eq!((e.offset(), e.line_column()), (8, Some((2, 5))));
    assert_eq!(e.category(), Category::Syntax);
    let e = from_json_with::<Value>("/*/", &o).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("unterminated comment", 0)
    );
    // `/` followed by anything else is the plain error at the `/`.
    for (t, msg, at) in [
        ("[1, / 2]", "expected a value", 4),
        ("[1 /x]", "expected `,` or `]`", 3),
        ("/", "expected a value", 0),
        ("1 /", "trailing characters after the value", 2),
        ("{\"a\" / : 1}", "expected `:`", 5),
    ] {
        let e = from_json_with::<Value>(t, &o).unwrap_err();
        assert_eq!((e.message().as_str(), e.offset()), (msg, at), "{t}");
    }
    // Errors after comments keep the input's offsets, lines and source line.
    let e = from_json_with::<Vec<u8>>("[1, /* a\n b */ 300]", &o).unwrap_err();
    assert_eq!((e.offset(), e.line_column()), (15, Some((2, 7))));
    assert_eq!(e.path(), "$[1]");
    assert!(e.to_string().contains(" b */ 300]"), "{e}");
    // Invalid UTF-8 inside a comment.
    let e = from_json_with::<Value>(&b"[1 /* \xff */]"[..], &o).unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("invalid UTF-8", 6));
    // Only whitespace and comments: no value.
    let e = from_json_with::<Value>("// nothing", &o).unwrap_err();
    assert!(e.is_eof());
}

#[test]
fn boundary_parse_honours_comments() {
    #[derive(Reflect, Debug)]
    struct Signup {
        #[structio(range(min = 0, max = 150))]
        age: u32,
        name: String,
    }
    let opts = ParseOptions {
        read: jsonc().read,
        ..ParseOptions::default()
    };
    let ok: Signup = parse_with(
        "{ // who\n \"age\": 36, /* and */ \"name\": \"Ada\" }",
        &opts,
    )
    .unwrap();
    assert_eq!((ok.age, ok.name.as_str()), (36, "Ada"));
    let r = parse_with::<Signup>("{\"age\": /* too old */ 200, \"name\": 5}", &opts).unwrap_err();
    assert_eq!(r.issues().len(), 2);
    assert_eq!(r.issues()[0].path(), "$.age");
    assert_eq!(r.issues()[0].line_column(), Some((1, 23)));
    let r = parse_with::<Signup>("{\"age\": 1 /* open", &opts).unwrap_err();
    assert_eq!(r.issues().len(), 1);
    assert!(r.to_string().contains("unterminated comment"), "{r}");
    assert_eq!(r.issues()[0].line_column(), Some((1, 11)));
    // Off by default.
    assert!(structio::json::parse::<Signup>("{\"age\": 1, /**/ \"name\": \"x\"}").is_err());
}

#[test]
fn validate_minify_prettify_drop_comments() {
    let read = jsonc().read;
    validate_with(CONFIG.as_bytes(), &read).unwrap();
    assert!(structio::json::validate(CONFIG.as_bytes()).is_err());
    let deep = ReadOptions {
        max_depth: 1,
        ..read
    };
    assert!(validate_with(b"[/**/[1]]", &deep).is_err());
    let e = validate_with(b"[1] /* x", &read).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("unterminated comment", 4)
    );

    let mini = MinifyOptions {
        comments: true,
        ..MinifyOptions::default()
    };
    let plain = r#"{"name":"svc","owned":"a // not a comment /* nor this */","port":8080,"tags":["a","b"],"ratio":null,"on":true,"inner":{"xs":[1,2,3],"maybe":null}}"#;
    assert_eq!(minify_with(CONFIG, &mini).unwrap(), plain);
    let mut out = b"keep ".to_vec();
    structio::json::minify_into_with("[1, /* x */ 2]", &mut out, &mini).unwrap();
    assert_eq!(out, b"keep [1,2]");
    assert!(structio::json::minify_into_with("[1, /* x", &mut out, &mini).is_err());
    assert_eq!(out, b"keep [1,2]");

    let pretty = PrettyOptions {
        comments: true,
        ..PrettyOptions::default()
    };
    assert_eq!(
        prettify_with(CONFIG, &pretty).unwrap(),
        structio::prettify(plain).unwrap()
    );
    assert_eq!(
        prettify_with("[1, // one\n 2 /* two */]", &pretty).unwrap(),
        "[\n   1,\n   2\n]"
    );
    let e = prettify_with("[1, /* open", &pretty).unwrap_err();
    assert_eq!(e.offset(), 4);
    let e = prettify_with("[1, /* a */ x]", &pretty).unwrap_err();
    assert_eq!((e.message().as_str(), e.offset()), ("expected a value", 12));
}

#[test]
fn values_honour_comments() {
    let o = jsonc();
    let got: Vec<Value> = values_with("// first\n1 /* two */ [2] // three\n\"3\" /**/", &o)
        .collect::<structio::Result<_>>()
        .unwrap();
    let want: Vec<Value> = structio::json::values("1 [2] \"3\"")
        .collect::<structio::Result<_>>()
        .unwrap();
    assert_eq!(got, want);
    // Borrowed strings come from the input.
    #[derive(Reflect, Debug, PartialEq)]
    struct E<'a> {
        k: &'a str,
    }
    let ks: Vec<E> = values_with("{\"k\":/**/\"a\"} // x\n{\"k\":\"b\"}", &o)
        .map(Result::unwrap)
        .collect();
    assert_eq!(ks, [E { k: "a" }, E { k: "b" }]);
    // Values before an unterminated comment are handed out; the one reaching it fails there.
    let mut it = values_with::<Value>("1 2 /* open", &o);
    assert!(it.next().unwrap().is_ok());
    assert!(it.next().unwrap().is_ok());
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("unterminated comment", 4)
    );
    assert_eq!(e.path(), "$[2]");
    assert!(it.next().is_none());
    let mut it = values_with::<Vec<u8>>("[1] [2, /* open ]", &o);
    assert!(it.next().unwrap().is_ok());
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("unterminated comment", 8)
    );
    // Other errors are unchanged.
    let mut it = values_with::<Vec<u8>>("[1] /* c */ [300]", &o);
    assert!(it.next().unwrap().is_ok());
    let e = it.next().unwrap().unwrap_err();
    assert_eq!((e.offset(), e.path()), (13, "$[1][0]".to_string()));
    // Comments off: an error.
    let mut it = values_with::<Value>("1 /* c */ 2", &Options::default());
    assert!(it.next().unwrap().is_ok());
    assert!(it.next().unwrap().is_err());
}

#[test]
fn raw_json_keeps_its_text_comments_included() {
    #[derive(Reflect, Debug)]
    struct Holder<'a> {
        raw: structio::RawJson<'a>,
        n: u8,
    }
    let h: Holder =
        from_json_with("{\"raw\": [1, /* c */ 2] /* after */, \"n\": 1}", &jsonc()).unwrap();
    assert_eq!(h.raw.get(), "[1, /* c */ 2]");
    assert_eq!(h.n, 1);
}

#[cfg(feature = "serde")]
#[test]
fn serde_bridge_honours_comments() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct P {
        x: i32,
        s: String,
    }
    let p: P =
        structio::serde::from_json_with("{/**/\"x\": 1, // c\n \"s\": \"//\"}", &jsonc()).unwrap();
    assert_eq!(
        p,
        P {
            x: 1,
            s: "//".into()
        }
    );
    assert!(structio::serde::from_json::<P>("{/**/\"x\": 1, \"s\": \"\"}").is_err());
}

#[test]
fn the_oracle_holds_on_samples() {
    for text in [
        r#"{"a":[1,{"b":null}],"c":"x"}"#,
        "[]",
        "{}",
        r#"[[],{},[{}],"\"//\\",-1.5e3,true,false]"#,
        "7",
        r#""/* s */""#,
        shapes::everything::SAMPLE_JSON,
    ] {
        let v: Value = structio::from_json(text).unwrap();
        let compact = structio::to_json(&v);
        for seed in 0..6 {
            let with = shapes::oracles::with_comments(&compact, seed);
            let back: Value = from_json_with(&with, &jsonc()).unwrap();
            assert_eq!(back, v, "{with}");
        }
        shapes::oracles::jsonc_same(text.as_bytes(), &v, &compact);
    }
}

#[test]
fn get_at_a_pointer_honours_comments() {
    use structio::json::{get, get_with};
    let doc =
        "/* head */ {\"a\" /* k */ : [1, // one\n 2, /* two */ 3], \"s\": \"x//y\" /* end */}";
    assert_eq!(get_with::<u8>(doc, "/a/2", &jsonc()).unwrap(), 3);
    // Strings are borrowed from the input, comment-looking text in them kept.
    assert_eq!(get_with::<&str>(doc, "/s", &jsonc()).unwrap(), "x//y");
    assert_eq!(
        get_with::<Value>(doc, "", &jsonc()).unwrap(),
        structio::from_json::<Value>(r#"{"a": [1, 2, 3], "s": "x//y"}"#).unwrap()
    );
    // Off by default: the comment is the plain syntax error.
    assert_eq!(
        get::<u8>(doc, "/a/2").unwrap_err().category(),
        Category::Syntax
    );
    // An unterminated block comment is an error at its start, even after the target.
    let e = get_with::<u8>("[1, 2] /* open", "/0", &jsonc()).unwrap_err();
    assert_eq!(e.offset(), 7, "{e}");
    // Nothing at the pointer is still that error.
    let e = get_with::<u8>(doc, "/b", &jsonc()).unwrap_err();
    assert!(e.message().starts_with("no value at JSON pointer"), "{e}");
}

#[test]
fn the_top_level_switch_is_the_read_switch() {
    // `json::Options { comments: true, .. }` and `read.comments` turn on the same thing.
    let top = Options {
        comments: true,
        ..Options::default()
    };
    let text = "// c\n{\"xs\": [1, /* two */ 2], \"maybe\": null}";
    let want = Inner {
        xs: vec![1, 2],
        maybe: None,
    };
    assert_eq!(from_json_with::<Inner>(text, &top).unwrap(), want);
    assert_eq!(from_json_with::<Inner>(text, &jsonc()).unwrap(), want);
    let mut into = Inner::default();
    read_json_with(&mut into, text, &top).unwrap();
    assert_eq!(into, want);
    assert_eq!(
        structio::json::get_with::<i32>(text, "/xs/1", &top).unwrap(),
        2
    );
    let all: Vec<Inner> = values_with(text, &top).collect::<Result<_, _>>().unwrap();
    assert_eq!(all, vec![want]);
    assert!(from_json_with::<Inner>(text, &Options::default()).is_err());
}
