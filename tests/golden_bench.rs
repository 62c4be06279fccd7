//! The seven Glaze benchmark documents, read into their Rust types and written back: JSON and
//! BEVE must come out byte-identical to what Glaze wrote, and reading into an existing value
//! must settle into zero allocations.

mod common;

use common::{Az, Flat, Mixed};
use structio::Reflect;

fn json(name: &str) -> Vec<u8> {
    common::read(&format!("formats/json/bench/{name}.json"))
}

fn beve(name: &str) -> Vec<u8> {
    common::read(&format!("formats/beve/bench/{name}.beve"))
}

/// Reads both files of one document into `T`, checks the two agree, and writes both back.
fn round_trip<T>(name: &str)
where
    T: for<'de> Reflect<'de> + Default + PartialEq + std::fmt::Debug,
{
    let j = json(name);
    let b = beve(name);
    let from_json: T = structio::from_json(&j[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let from_beve: T = structio::from_beve(&b[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        from_json == from_beve,
        "{name}: JSON and BEVE hold different values"
    );
    assert!(
        structio::to_json(&from_json).as_bytes() == &j[..],
        "{name}: JSON not byte-identical"
    );
    assert!(
        structio::to_beve(&from_beve) == b,
        "{name}: BEVE not byte-identical"
    );
    // Reading again into the filled value changes nothing.
    let mut again = from_json;
    structio::read_json(&mut again, &j[..]).unwrap();
    structio::read_beve(&mut again, &b[..]).unwrap();
    assert!(again == from_beve);
}

#[test]
fn mixed() {
    round_trip::<Mixed>("mixed");
}

#[test]
fn strings() {
    round_trip::<Flat<String>>("strings");
}

#[test]
fn uints() {
    round_trip::<Flat<u64>>("uints");
}

#[test]
fn ints() {
    round_trip::<Flat<i64>>("ints");
}

#[test]
fn doubles() {
    round_trip::<Flat<f64>>("doubles");
}

#[test]
fn exact_decimals() {
    round_trip::<Flat<f64>>("exact_decimals");
}

#[test]
fn bools() {
    round_trip::<Flat<bool>>("bools");
}

#[test]
fn mixed_shape_is_generic() {
    // The derive handles a generic struct: Az<u8> is a different shape of the same type.
    let v = Az::<u8> {
        a: 1,
        z: 26,
        ..Default::default()
    };
    let text = structio::to_json(&v);
    assert!(text.starts_with(r#"{"a":1,"b":0"#) && text.ends_with(r#""z":26}"#));
}
