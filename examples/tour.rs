//! A tour of structio: one derived type, written and read as JSON and as BEVE.
//!
//! Run with `cargo run --release --example tour`.

use std::collections::BTreeMap;

#[derive(structio::Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "camelCase")]
struct Reading {
    sensor_id: u32,
    #[structio(rename = "where", alias = "location")]
    place: String,
    samples: Vec<f64>,
    calibrated: Option<bool>,
    unit: Unit,
    tags: BTreeMap<String, i64>,
}

#[derive(structio::Reflect, Default, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
enum Unit {
    #[default]
    Celsius,
    Kelvin,
}

fn main() -> Result<(), structio::Error> {
    let reading = Reading {
        sensor_id: 7,
        place: "roof \"north\"".into(),
        samples: vec![21.5, 21.75, 1e-5, 1e16],
        calibrated: None,
        unit: Unit::Kelvin,
        tags: BTreeMap::from([("floor".to_string(), 3), ("zone".to_string(), -1)]),
    };

    let json = structio::to_json(&reading);
    println!("JSON ({} bytes):\n{json}\n", json.len());
    println!("pretty:\n{}\n", structio::prettify(&json)?);

    let back: Reading = structio::from_json(&json)?;
    assert_eq!(back, reading);

    let beve = structio::to_beve(&reading);
    println!("BEVE ({} bytes): {}", beve.len(), hex(&beve));
    let from_beve: Reading = structio::from_beve(&beve)?;
    assert_eq!(from_beve, reading);
    println!("BEVE as JSON: {}\n", structio::beve_to_json(&beve)?);

    // An alias is accepted on input; an unknown key is an error that says where it is.
    let renamed: Reading = structio::from_json(r#"{"sensorId":9,"location":"cellar"}"#)?;
    println!("read through the alias: {renamed:?}\n");
    let bad = structio::from_json::<Reading>("{\"sensorId\": 9,\n \"samples\": [1, 2, x]}");
    println!("a bad document:\n{}", bad.unwrap_err());
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}
