//! JSON-RPC 2.0: the envelope in JSON and BEVE, and the error answered for every kind of bad
//! input.

use structio::{RawJson, Value};
use structio_rpc::{code, dispatch, write_result, ErrorObject, Id, Limits, Request, Response};

/// Dispatches `line` with a handler that answers `echo` with its params and `fail` with an
/// internal error, and returns the output.
fn answer(line: &[u8]) -> String {
    answer_with(line, &Limits::default())
}

fn answer_with(line: &[u8], limits: &Limits) -> String {
    let mut out = Vec::new();
    dispatch(line, &mut out, limits, |req, out| {
        match req.method.as_ref() {
            "echo" => {
                let id = req.id.clone().unwrap_or_default();
                write_result(out, &id, &req.params.unwrap_or_default());
                Ok(())
            }
            "fail" => Err(ErrorObject::new(code::INTERNAL_ERROR, "Internal error")),
            _ => Err(ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found")),
        }
    });
    String::from_utf8(out).expect("responses are UTF-8")
}

/// The error of a single response.
fn error_of(response: &str) -> (Id<'static>, ErrorObject<'static, Value>) {
    let r: Response<Value, Value> =
        structio::from_json(response).unwrap_or_else(|e| panic!("{e}: {response}"));
    let id = r.id.into_owned();
    let e = r.outcome.expect_err(response);
    (
        id,
        ErrorObject {
            code: e.code,
            message: e.message.into_owned().into(),
            data: e.data,
        },
    )
}

/// The code of the error answered to `line`, whose id cannot be determined (answered null).
fn code_of(line: &[u8]) -> i32 {
    let (id, code) = id_and_code(line);
    assert_eq!(id, Id::Null, "{}", String::from_utf8_lossy(line));
    code
}

/// The id and the code of the error answered to `line`.
fn id_and_code(line: &[u8]) -> (Id<'static>, i32) {
    let out = answer(line);
    let (id, e) = error_of(&out);
    (id, e.code)
}

#[test]
fn a_request_is_answered() {
    assert_eq!(
        answer(br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1, 2]}"#),
        r#"{"jsonrpc":"2.0","id":1,"result":[1, 2]}"#
    );
    // Spaced, reordered, escaped: the same request.
    assert_eq!(
        answer(b" { \"params\" : [1, 2] , \"method\":\"e\\u0063ho\", \"id\" : \"x\\\"y\", \"jsonrpc\" : \"2.0\" } "),
        r#"{"jsonrpc":"2.0","id":"x\"y","result":[1, 2]}"#
    );
    // A null id is a request (answered), not a notification.
    assert_eq!(
        answer(br#"{"jsonrpc":"2.0","id":null,"method":"echo"}"#),
        r#"{"jsonrpc":"2.0","id":null,"result":null}"#
    );
    // Members beyond the specification's are skipped.
    assert_eq!(
        answer(br#"{"jsonrpc":"2.0","id":2,"method":"echo","extra":{"a":[]}}"#),
        r#"{"jsonrpc":"2.0","id":2,"result":null}"#
    );
}

#[test]
fn notifications_get_no_answer() {
    assert_eq!(answer(br#"{"jsonrpc":"2.0","method":"echo"}"#), "");
    assert_eq!(answer(br#"{"jsonrpc":"2.0","method":"nonesuch"}"#), "");
    assert_eq!(answer(br#"{"jsonrpc":"2.0","method":"fail"}"#), "");
    assert_eq!(
        answer(br#"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"fail"}]"#),
        ""
    );
}

#[test]
fn method_not_found_and_internal_error() {
    let (id, e) = error_of(&answer(
        br#"{"jsonrpc":"2.0","id":"q","method":"nonesuch"}"#,
    ));
    assert_eq!((id, e.code), (Id::from("q"), code::METHOD_NOT_FOUND));
    let (id, e) = error_of(&answer(br#"{"jsonrpc":"2.0","id":9,"method":"fail"}"#));
    assert_eq!((id, e.code), (Id::Int(9), code::INTERNAL_ERROR));
}

#[test]
fn not_json_is_a_parse_error_with_the_offset() {
    for (line, offset) in [
        (&b"{\"jsonrpc\":\"2.0\",\"id\":1,"[..], 24),
        (b"not json", 0),
        (b"{\"jsonrpc\":\"2.0\" \"id\":1}", 17),
        (b"", 0),
        (b"[1,", 3),
        (b"{\"jsonrpc\":\"1.0\",\"method\":}", 26),
    ] {
        let out = answer(line);
        let (id, e) = error_of(&out);
        assert_eq!((id, e.code), (Id::Null, code::PARSE_ERROR), "{out}");
        assert_eq!(
            e.data.as_ref().and_then(|d| d["offset"].as_u64()),
            Some(offset),
            "{out}"
        );
    }
}

/// A bad id is reported where it starts (past the comma and any spaces before it), with the
/// message for its kind.
#[test]
fn bad_ids_are_reported_where_they_start() {
    for (line, at, message) in [
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
            22,
            "fraction or exponent",
        ),
        (
            r#"{"jsonrpc":"2.0","id": 1e2,"method":"m"}"#,
            23,
            "fraction or exponent",
        ),
        (
            r#"{"jsonrpc":"2.0", "id":  -0.0,"method":"m"}"#,
            25,
            "fraction or exponent",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#,
            22,
            "out of range",
        ),
        (
            r#"{"id":-9223372036854775809,"jsonrpc":"2.0","method":"m"}"#,
            6,
            "out of range",
        ),
        (
            r#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#,
            22,
            "integer, a string or null",
        ),
    ] {
        let e = structio::from_json::<Request>(line).unwrap_err();
        assert_eq!(e.offset(), at, "{line}: {e}");
        assert!(e.message().contains(message), "{line}: {e}");
        assert_eq!(e.path(), "$.id", "{line}: {e}");
    }
    let r: Request = structio::from_json(r#"{"jsonrpc":"2.0","id":-12,"method":"m"}"#).unwrap();
    assert_eq!(r.id, Some(Id::Int(-12)));
}

#[test]
fn invalid_utf8_is_a_parse_error() {
    assert_eq!(
        code_of(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\xff\"}"),
        code::PARSE_ERROR
    );
    assert_eq!(code_of(b"\xc3\x28"), code::PARSE_ERROR);
}

#[test]
fn valid_json_that_is_no_request_is_an_invalid_request() {
    // The id is read: the error is answered for it.
    for line in [
        &br#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#[..],
        br#"{"jsonrpc":2.0,"id":1,"method":"echo"}"#,
        br#"{"id":1,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":1}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":7}"#,
    ] {
        assert_eq!(
            id_and_code(line),
            (Id::Int(1), code::INVALID_REQUEST),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    // The id itself is not one: null.
    for line in [
        &br#"{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}"#[..],
        br#"{"jsonrpc":"2.0","id":true,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":99999999999999999999999999999999,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":1e400,"method":"echo"}"#,
        b"7",
        b"\"text\"",
        b"null",
    ] {
        assert_eq!(
            code_of(line),
            code::INVALID_REQUEST,
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    // The largest ids that fit are accepted.
    assert!(
        answer(br#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"echo"}"#)
            .contains("\"result\"")
    );
    assert!(
        answer(br#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"echo"}"#)
            .contains("\"result\"")
    );
}

#[test]
fn params_that_are_no_structure_are_invalid_params() {
    for line in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":3}"#[..],
        br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":"a"}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":false}"#,
    ] {
        assert_eq!(id_and_code(line), (Id::Int(1), code::INVALID_PARAMS));
    }
    // A typed `P` that the params do not fit.
    #[derive(structio::Reflect, Debug)]
    #[allow(dead_code)]
    struct Add {
        left: i32,
        right: i32,
    }
    let e = structio::from_json::<Request<Add>>(
        br#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"left":"x"}}"#,
    )
    .unwrap_err();
    let input = br#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"left":"x"}}"#;
    let f = structio_rpc::classify(e, input);
    assert_eq!(f.code, code::INVALID_PARAMS);
    assert!(f.message.contains("Invalid params"), "{}", f.message);
    // The id to answer it with.
    assert_eq!(structio_rpc::recover_id(input), Id::Int(1));
}

/// JSON-RPC 2.0 answers with id null only when the id cannot be determined: an error found
/// after (or before) a readable id, in any member, is answered with that id, in single
/// messages and in batches, wherever the id stands in the object.
#[test]
fn errors_after_the_id_is_read_are_answered_with_the_id() {
    let deep = |open: &str, close: &str| format!("{}{}", open.repeat(300), close.repeat(300));
    let deep_array = deep("[", "]");
    let deep_object = format!("{}1{}", r#"{"a":"#.repeat(300), "}".repeat(300));
    let cases: Vec<(String, i32)> = vec![
        // params of the wrong type, id before and after them.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#.into(),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"ping","params":3,"id":1}"#.into(),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"params":"x","jsonrpc":"2.0","method":"ping","id":1}"#.into(),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":true}"#.into(),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":-0.5}"#.into(),
            code::INVALID_PARAMS,
        ),
        (
            r#" { "jsonrpc" : "2.0" , "id" : 1 , "method" : "ping" , "params" : 3 } "#.into(),
            code::INVALID_PARAMS,
        ),
        // params nested past the depth limit, id before and after them.
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"echo","params":{deep_array}}}"#),
            code::INVALID_PARAMS,
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","method":"echo","params":{deep_array},"id":1}}"#),
            code::INVALID_PARAMS,
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","method":"echo","params":{deep_object},"id":1}}"#),
            code::INVALID_PARAMS,
        ),
        // method missing or not a string.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#.into(),
            code::INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","method":null,"id":1}"#.into(),
            code::INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","method":["echo"],"params":[],"id":1}"#.into(),
            code::INVALID_REQUEST,
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#.into(), code::INVALID_REQUEST),
        (
            r#"{"jsonrpc":"2.0","id":1,"params":[]}"#.into(),
            code::INVALID_REQUEST,
        ),
        // jsonrpc wrong or missing.
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#.into(),
            code::INVALID_REQUEST,
        ),
        (
            r#"{"id":1,"method":"echo","jsonrpc":2}"#.into(),
            code::INVALID_REQUEST,
        ),
        (r#"{"method":"echo","id":1}"#.into(), code::INVALID_REQUEST),
        // A member nested too deep that is not params.
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"echo","extra":{deep_array}}}"#),
            code::INVALID_REQUEST,
        ),
        (
            format!(r#"{{"extra":{deep_object},"jsonrpc":"2.0","id":1,"method":"echo"}}"#),
            code::INVALID_REQUEST,
        ),
    ];
    for (line, code) in &cases {
        let short = &line[..line.len().min(120)];
        assert_eq!(id_and_code(line.as_bytes()), (Id::Int(1), *code), "{short}");
        // The same with a string id, an escaped key, and a repeated id (the last one counts,
        // as in a request that reads).
        let with = |id: &str| {
            line.replacen(r#""id":1"#, id, 1)
                .replacen(r#""id" : 1"#, id, 1)
        };
        assert_eq!(
            id_and_code(with(r#""id":"a\"b""#).as_bytes()),
            (Id::from("a\"b"), *code),
            "{short}"
        );
        assert_eq!(
            id_and_code(with(r#""\u0069d":-7"#).as_bytes()),
            (Id::Int(-7), *code),
            "{short}"
        );
        assert_eq!(
            id_and_code(with(r#""id":3,"id":"z""#).as_bytes()),
            (Id::from("z"), *code),
            "{short}"
        );
        // An explicit null id is answered null, and so is a message without one.
        assert_eq!(
            id_and_code(with(r#""id":null"#).as_bytes()),
            (Id::Null, *code),
            "{short}"
        );
        assert_eq!(
            id_and_code(with(r#""idle":1"#).as_bytes()),
            (Id::Null, *code),
            "{short}"
        );
        // In a batch, each element is answered for its own id (the deep ones are too deep
        // for a batch, whose read refuses them as a whole).
        if line.len() < 200 {
            let batch = format!(
                r#"[{},{{"jsonrpc":"2.0","id":2,"method":"echo"}},{}]"#,
                with(r#""id":"first""#),
                line
            );
            let out = answer(batch.as_bytes());
            let all: Vec<Response<Value, Value>> = structio::from_json(&out).unwrap();
            let ids: Vec<_> = all.iter().map(|r| r.id.clone()).collect();
            assert_eq!(ids, [Id::from("first"), Id::Int(2), Id::Int(1)], "{out}");
            assert_eq!(all[0].outcome.as_ref().unwrap_err().code, *code, "{out}");
            assert_eq!(all[2].outcome.as_ref().unwrap_err().code, *code, "{out}");
        }
    }
}

/// Members beyond the specification's are not refused: a request with one is answered as
/// without it.
#[test]
fn extra_members_are_skipped() {
    for line in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"echo","extra":{"a":[1]}}"#[..],
        br#"{"extra":3,"jsonrpc":"2.0","id":1,"method":"echo","params":[]}"#,
        br#"{"jsonrpc":"2.0","method":"echo","ID":5,"id":1}"#,
    ] {
        let out = answer(line);
        let r: Response<Value, Value> = structio::from_json(&out).unwrap();
        assert_eq!(r.id, Id::Int(1), "{out}");
        assert!(r.outcome.is_ok(), "{out}");
    }
}

/// When the id cannot be determined the answer's id is null: the id itself is not a valid id,
/// the message is not JSON (cut short, trailing bytes after a complete object, invalid
/// UTF-8), not an object, or has no id.
#[test]
fn unreadable_ids_are_answered_with_null() {
    for (line, code) in [
        // Ids that are not ids, with the rest of the request right or wrong.
        (
            &br#"{"jsonrpc":"2.0","id":[1],"method":"echo"}"#[..],
            code::INVALID_REQUEST,
        ),
        (
            br#"{"jsonrpc":"2.0","id":true,"method":"echo","params":3}"#,
            code::INVALID_REQUEST,
        ),
        (
            br#"{"jsonrpc":"2.0","method":7,"id":{"a":1}}"#,
            code::INVALID_REQUEST,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#,
            code::INVALID_REQUEST,
        ),
        (
            br#"{"jsonrpc":"2.0","method":"echo","params":3,"id":1.0}"#,
            code::INVALID_PARAMS,
        ),
        (
            br#"{"jsonrpc":"2.0","method":"echo","params":3,"id":1e400}"#,
            code::INVALID_PARAMS,
        ),
        (
            br#"{"jsonrpc":"2.0","method":"echo","params":3,"id":9223372036854775808}"#,
            code::INVALID_PARAMS,
        ),
        // A repeated id one of which is not an id.
        (
            br#"{"jsonrpc":"2.0","id":1.5,"id":1,"method":"echo"}"#,
            code::INVALID_REQUEST,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":7,"id":[]}"#,
            code::INVALID_REQUEST,
        ),
        // Not JSON: parse errors.
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":3"#,
            code::PARSE_ERROR,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"echo"} x"#,
            code::PARSE_ERROR,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"echo"}{}"#,
            code::PARSE_ERROR,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1,]}"#,
            code::PARSE_ERROR,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
            code::PARSE_ERROR,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"echo" "params":3}"#,
            code::PARSE_ERROR,
        ),
        // Not an object, or no id.
        (br#"[]"#, code::INVALID_REQUEST),
        (br#""id""#, code::INVALID_REQUEST),
        (
            br#"{"jsonrpc":"2.0","method":"echo","params":3}"#,
            code::INVALID_PARAMS,
        ),
        (br#"{"jsonrpc":"2.0","method":7}"#, code::INVALID_REQUEST),
        (br#"{"params":{"id":1},"method":7}"#, code::INVALID_REQUEST),
    ] {
        assert_eq!(code_of(line), code, "{}", String::from_utf8_lossy(line));
        if code != code::PARSE_ERROR {
            assert_eq!(structio_rpc::recover_id(line), Id::Null);
        }
    }
    // A batch element whose id is not one.
    let out = answer(
        br#"[{"jsonrpc":"2.0","id":[2],"method":"echo"},{"jsonrpc":"2.0","id":3,"method":7}]"#,
    );
    let all: Vec<Response<Value, Value>> = structio::from_json(&out).unwrap();
    assert_eq!(
        all.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        [Id::Null, Id::Int(3)]
    );
    // recover_id on its own refuses what is not JSON.
    assert_eq!(
        structio_rpc::recover_id(br#"{"id":1,"method":7} x"#),
        Id::Null
    );
    assert_eq!(structio_rpc::recover_id(br#"{"id":1,"method":7"#), Id::Null);
    assert_eq!(
        structio_rpc::recover_id(br#"{"id":1,"method":7}"#),
        Id::Int(1)
    );
}

/// Integer-valued ids: `-0` is the integer 0; a number written with a fraction or an exponent
/// is refused as such even when its value is an integer (its response could not carry the same
/// text); an integer outside `i64` is refused as out of range, whatever its size.
#[test]
fn integer_valued_ids_are_read_or_refused_accurately() {
    for text in ["-0", " -0 "] {
        assert_eq!(structio::from_json::<Id>(text).unwrap(), Id::Int(0));
    }
    // In a request, canonical and spaced, and answered as 0.
    for line in [
        &br#"{"jsonrpc":"2.0","id":-0,"method":"echo","params":[1]}"#[..],
        br#"{ "jsonrpc": "2.0", "id": -0, "method": "echo", "params": [1] }"#,
        br#"{"jsonrpc":"2.0","method":"echo","id":-0}"#,
    ] {
        let req: Request = structio::from_json(line).unwrap();
        assert_eq!(req.id, Some(Id::Int(0)));
        let out = answer(line);
        assert!(
            out.starts_with(r#"{"jsonrpc":"2.0","id":0,"result":"#),
            "{out}"
        );
    }
    #[derive(structio::Reflect, Debug, PartialEq)]
    struct Ints {
        a: Vec<i32>,
    }
    let typed: Request<Ints> =
        structio::from_json(r#"{"jsonrpc":"2.0","id":-0,"method":"m","params":{"a":[1]}}"#)
            .unwrap();
    assert_eq!(typed.id, Some(Id::Int(0)));
    for (text, message) in [
        ("1e2", "fraction or exponent"),
        ("1E+2", "fraction or exponent"),
        ("1.0", "fraction or exponent"),
        ("-0.0", "fraction or exponent"),
        ("0e0", "fraction or exponent"),
        ("-0e-0", "fraction or exponent"),
        ("1e400", "fraction or exponent"),
        ("-1e400", "fraction or exponent"),
        ("9223372036854775808", "out of range"),
        ("18446744073709551615", "out of range"),
        ("18446744073709551616", "out of range"),
        ("340282366920938463463374607431768211456", "out of range"),
        (
            "99999999999999999999999999999999999999999999",
            "out of range",
        ),
        ("-9223372036854775809", "out of range"),
        ("-340282366920938463463374607431768211457", "out of range"),
    ] {
        let e = structio::from_json::<Id>(text).unwrap_err();
        assert!(e.message().contains(message), "{text}: {e}");
        assert_eq!(e.offset(), 0, "{text}: {e}");
        for line in [
            format!(r#"{{"jsonrpc":"2.0","id":{text},"method":"echo"}}"#),
            format!(r#"{{ "jsonrpc" : "2.0" , "id" : {text} , "method" : "echo" }}"#),
        ] {
            let out = answer(line.as_bytes());
            let (id, e) = error_of(&out);
            assert_eq!((id, e.code), (Id::Null, code::INVALID_REQUEST), "{out}");
            assert!(e.message.contains(message), "{out}");
        }
    }
    // The message names the range.
    let e = structio::from_json::<Id>("9223372036854775808").unwrap_err();
    assert!(
        e.message()
            .contains("-9223372036854775808 and 9223372036854775807"),
        "{e}"
    );
    // In BEVE a floating-point id is refused as one.
    #[derive(structio::Reflect)]
    struct FloatId<'a> {
        jsonrpc: &'a str,
        id: f64,
        method: &'a str,
    }
    let bytes = structio::to_beve(&FloatId {
        jsonrpc: "2.0",
        id: -0.0,
        method: "m",
    });
    let e = structio::from_beve::<Request>(&bytes).unwrap_err();
    assert!(e.message().contains("floating-point"), "{e}");
}

#[test]
fn batches() {
    let out = answer(
        br#"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"},{"foo":"boo"},{"jsonrpc":"2.0","id":"5","method":"nonesuch"}]"#,
    );
    let all: Vec<Response<Value, Value>> = structio::from_json(&out).unwrap();
    assert_eq!(all.len(), 3, "{out}");
    assert_eq!(all[0].id, Id::Int(1));
    assert_eq!(
        all[1].outcome.as_ref().unwrap_err().code,
        code::INVALID_REQUEST
    );
    assert_eq!(
        all[2].outcome.as_ref().unwrap_err().code,
        code::METHOD_NOT_FOUND
    );
    // `[1,2,3]`: three invalid requests.
    let out = answer(b"[1,2,3]");
    let all: Vec<Response<Value, Value>> = structio::from_json(&out).unwrap();
    assert_eq!(all.len(), 3);
    assert!(all
        .iter()
        .all(|r| r.outcome.as_ref().unwrap_err().code == code::INVALID_REQUEST));
    // An empty batch: one invalid request.
    assert_eq!(code_of(b"[]"), code::INVALID_REQUEST);
    assert_eq!(code_of(b" [ ] "), code::INVALID_REQUEST);
    // A batch that is not JSON.
    assert_eq!(
        code_of(br#"[{"jsonrpc":"2.0","method":"echo"},{"#),
        code::PARSE_ERROR
    );
}

#[test]
fn a_batch_past_the_limit_is_one_invalid_request() {
    let mut line = b"[".to_vec();
    for i in 0..1_000_000 {
        if i > 0 {
            line.push(b',');
        }
        line.push(b'1');
    }
    line.push(b']');
    let out = answer(&line);
    let (id, e) = error_of(&out);
    assert_eq!((id, e.code), (Id::Null, code::INVALID_REQUEST));
    assert!(e.message.contains("more than 1024"), "{}", e.message);
    // A small limit.
    let limits = Limits { max_batch: 2 };
    let two =
        br#"[{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"}]"#;
    assert!(answer_with(two, &limits).starts_with("[{"));
    let three = br#"[{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"},{"jsonrpc":"2.0","id":3,"method":"echo"}]"#;
    let (_, e) = error_of(&answer_with(three, &limits));
    assert_eq!(e.code, code::INVALID_REQUEST);
}

#[test]
fn deep_nesting_is_answered() {
    let mut line = vec![b'['; 100_000];
    line.extend(vec![b']'; 100_000]);
    let c = code_of(&line);
    assert!(c == code::INVALID_REQUEST || c == code::PARSE_ERROR);
    let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"echo","params":"#.to_vec();
    line.extend(vec![b'['; 100_000]);
    line.extend(vec![b']'; 100_000]);
    line.push(b'}');
    let out = answer(&line);
    assert!(out.contains("\"error\""), "{}", &out[..out.len().min(200)]);
}

#[test]
fn envelope_in_beve() {
    #[derive(structio::Reflect, Debug, PartialEq, Clone)]
    struct Add {
        left: i32,
        right: i32,
    }
    let req = Request::new(Id::from("k"), "add", Some(Add { left: 1, right: -2 }));
    let bytes = structio::to_beve(&req);
    let back: Request<Add> = structio::from_beve(&bytes).unwrap();
    assert_eq!(back, req);
    // Deferred params travel as their JSON text.
    let raw = Request::notification(
        "add",
        Some(RawJson::new(r#"{"left":1,"right":2}"#).unwrap()),
    );
    let bytes = structio::to_beve(&raw);
    let back: Request = structio::from_beve(&bytes).unwrap();
    assert_eq!(back, raw);
    assert_eq!(
        back.parse_params::<Add>().unwrap(),
        Add { left: 1, right: 2 }
    );
    // Responses.
    let mut out = Vec::new();
    structio_rpc::beve::write_result(&mut out, &Id::Int(4), &Add { left: 0, right: 0 });
    let r: Response<Add> = structio::from_beve(&out).unwrap();
    assert_eq!(
        (r.id, r.outcome),
        (Id::Int(4), Ok(Add { left: 0, right: 0 }))
    );
    out.clear();
    let e: ErrorObject<'_, ()> = ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found");
    structio_rpc::beve::write_error(&mut out, &Id::Null, &e);
    let r: Response<Add, ()> = structio::from_beve(&out).unwrap();
    assert_eq!(r.outcome.unwrap_err().code, code::METHOD_NOT_FOUND);
    // A wrong version is refused in BEVE too.
    #[derive(structio::Reflect)]
    struct Fake<'a> {
        jsonrpc: &'a str,
        method: &'a str,
    }
    let bytes = structio::to_beve(&Fake {
        jsonrpc: "1.0",
        method: "x",
    });
    assert!(structio::from_beve::<Request>(&bytes).is_err());
}

#[test]
fn json_roundtrip_of_the_envelope() {
    let req: Request = Request::new(Id::Int(-3), "tools/list", None);
    let text = structio::to_json(&req);
    assert_eq!(text, r#"{"jsonrpc":"2.0","id":-3,"method":"tools/list"}"#);
    assert_eq!(structio::from_json::<Request>(&text).unwrap(), req);
    let note: Request = Request::notification("notifications/initialized", None);
    assert_eq!(
        structio::to_json(&note),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    );
    // Borrowed where there is nothing to unescape.
    let line = r#"{"jsonrpc":"2.0","id":"abc","method":"m"}"#;
    let req: Request = structio::from_json(line).unwrap();
    assert!(matches!(req.method, std::borrow::Cow::Borrowed(_)));
    assert!(matches!(
        req.id,
        Some(Id::Str(std::borrow::Cow::Borrowed(_)))
    ));
}

mod arbitrary_input {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Any bytes: an answer that is one JSON value, or nothing; no panic.
        #[test]
        fn any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let out = answer(&bytes);
            if !out.is_empty() {
                prop_assert!(structio::json::validate(out.as_bytes()).is_ok(), "{}", out);
            }
        }

        /// Requests built from pieces, some of them wrong.
        #[test]
        fn pieces(
            version in prop_oneof![Just("\"2.0\""), Just("\"1.0\""), Just("2"), Just("null")],
            id in prop_oneof![Just("1"), Just("\"a\""), Just("null"), Just("1.5"), Just("{}"), Just("123456789012345678901234567890")],
            method in prop_oneof![Just("\"echo\""), Just("\"nope\""), Just("1")],
            params in prop_oneof![Just(""), Just(",\"params\":[1]"), Just(",\"params\":1"), Just(",\"params\":{")],
        ) {
            let line = format!("{{\"jsonrpc\":{version},\"id\":{id},\"method\":{method}{params}}}");
            let out = answer(line.as_bytes());
            prop_assert!(structio::json::validate(out.as_bytes()).is_ok(), "{} -> {}", line, out);
            let r: Response<Value, Value> = structio::from_json(&out).unwrap();
            let ok = version == "\"2.0\"" && !matches!(id, "1.5" | "{}" | "123456789012345678901234567890")
                && method == "\"echo\"" && matches!(params, "" | ",\"params\":[1]");
            prop_assert_eq!(r.outcome.is_ok(), ok, "{} -> {}", line, out);
            // The answer carries the id whenever it is one and the line is JSON.
            let id_readable = matches!(id, "1" | "\"a\"") && params != ",\"params\":{";
            let expected = match id {
                "1" if id_readable => Id::Int(1),
                "\"a\"" if id_readable => Id::from("a"),
                _ => Id::Null,
            };
            prop_assert_eq!(r.id, expected, "{} -> {}", line, out);
        }
    }
}

/// `Request` recognises its canonical layout (`{"jsonrpc":"2.0","id":..,"method":..,"params":..}`,
/// compact) with constant comparisons and reads anything else the ordinary way: every layout
/// gives the same value, or the same error, as the same request written another way.
mod canonical_layout {
    use super::*;
    use std::borrow::Cow;

    #[derive(structio::Reflect, Debug, PartialEq)]
    #[structio(canonical)]
    struct Call<'a> {
        name: Cow<'a, str>,
        arguments: Args,
    }

    #[derive(structio::Reflect, Debug, PartialEq)]
    #[structio(canonical)]
    struct Args {
        left: i32,
        right: i32,
    }

    /// `text` and the same members spaced out (which the canonical comparison never matches):
    /// read as `Request<P>`, the same outcome (value, or error message and path; parameters
    /// compared as values, since a `RawJson` keeps the spaces).
    fn same<'a, P>(text: &'a str, spaced: &'a str) -> Option<Request<'a, P>>
    where
        P: structio::Reflect<'a> + PartialEq + std::fmt::Debug,
    {
        let a = structio::from_json::<Request<'a, P>>(text);
        let b = structio::from_json::<Request<'a, P>>(spaced);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!((&a.id, &a.method), (&b.id, &b.method), "{text}");
                let value = |p: &Option<P>| {
                    p.as_ref()
                        .map(|p| structio::from_json::<Value>(&structio::to_json(p)).unwrap())
                };
                assert_eq!(value(&a.params), value(&b.params), "{text}");
                Some(a)
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.message(), a.path()), (b.message(), b.path()), "{text}");
                None
            }
            (a, b) => panic!("{text}: {a:?} but spaced {b:?}"),
        }
    }

    /// A space after every `{`, `,` and `:` outside strings (none of the inputs here has one
    /// inside a string).
    fn spaced(text: &str) -> String {
        text.replace('{', "{ ")
            .replace(',', " , ")
            .replace(':', " : ")
    }

    #[test]
    fn canonical_and_spaced_read_the_same() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}"#,
            r#"{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"add","arguments":{"left":-2,"right":0}}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":null}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            // An escape in the method and in a parameter: read, unescaped.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"a\u0064d","arguments":{"left":1,"right":2}}}"#,
            // A member after params, a repeated method, another order: the ordinary way.
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"a","arguments":{"left":1,"right":2}},"extra":[1]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":9}"#,
            r#"{"id":9,"jsonrpc":"2.0","method":"m"}"#,
            // The envelope canonical, the parameters not: the whole request the ordinary way.
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"left":1,"right":2},"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"right":2,"left":1}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[]}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"add"}"#,
            // Errors: the same message and path either way.
            r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":-0,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1e2,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":07,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":-12,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":123,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":2147483648,"right":2}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":1e2,"right":-0}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":01,"right":2}}}"#,
            r#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":[],"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":true}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":nul}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":"x","right":2}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":1}}}"#,
            r#"{"jsonrpc":"2.00","id":1,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":1,"right":2}}"#,
        ];
        for line in lines {
            let sp = spaced(line);
            same::<Call>(line, &sp);
            same::<RawJson>(line, &sp);
        }
        // What the canonical path read.
        let sp: Vec<String> = lines.iter().map(|l| spaced(l)).collect();
        let r = same::<Call>(lines[0], &sp[0]).unwrap();
        assert_eq!(r.id, Some(Id::Int(3)));
        assert_eq!(r.method, "tools/call");
        assert_eq!(r.params.unwrap().arguments, Args { left: 2, right: 40 });
        let reordered = lines
            .iter()
            .position(|l| l.contains(r#""right":2,"left":1"#))
            .unwrap();
        let r = same::<Call>(lines[reordered], &sp[reordered]).unwrap();
        assert_eq!(r.params.unwrap().arguments, Args { left: 1, right: 2 });
        let r = same::<Call>(lines[6], &sp[6]).unwrap();
        assert_eq!(
            (r.method.as_ref(), r.params.unwrap().name.as_ref()),
            ("tools/call", "add")
        );
        let r = same::<RawJson>(lines[8], &sp[8]).unwrap();
        assert_eq!(r.method, "b", "the last of a repeated member wins");
        assert_eq!(r.params, None);
        let r = same::<RawJson>(lines[2], &sp[2]).unwrap();
        assert_eq!((r.id, r.params), (Some(Id::Null), None));
        // Trailing text after a canonical request is still an error.
        assert!(
            structio::from_json::<Request>(r#"{"jsonrpc":"2.0","id":1,"method":"m"}x"#).is_err()
        );
    }

    #[test]
    fn the_boundary_parser_reports_as_the_ordinary_way() {
        // A collecting read suspends its collector during the attempt: each problem is
        // reported once, by the ordinary read that follows.
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{"left":"x","right":"y"}}}"#;
        let report = structio::json::parse::<Request<Call>>(line).unwrap_err();
        let spaced_report = structio::json::parse::<Request<Call>>(&spaced(line)).unwrap_err();
        let paths = |r: &structio::Report| {
            r.issues()
                .iter()
                .map(|i| i.path().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(paths(&report), paths(&spaced_report));
        assert_eq!(paths(&report).len(), 2, "{report}");
    }
}
