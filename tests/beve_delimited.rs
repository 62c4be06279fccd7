//! Sequences of BEVE values separated by the data delimiter, read into and written from a
//! `Vec` as Glaze's `read_beve_delimited` and `write_beve_delimited` do.

use structio::beve::{from_delimited, read_delimited, to_delimited, DelimitedWriter};
use structio::Reflect;

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Tick {
    symbol: String,
    prices: Vec<f64>,
    note: Option<String>,
}

fn tick(i: u32) -> Tick {
    Tick {
        symbol: format!("S{i}"),
        prices: vec![f64::from(i); i as usize % 4],
        note: i.is_multiple_of(2).then(|| "even".into()),
    }
}

#[test]
fn values_joined_by_single_delimiters_and_read_back() {
    let ticks: Vec<Tick> = (0..20).map(tick).collect();
    let bytes = to_delimited(&ticks);
    // Each value as `to_beve` writes it, one 0x06 between two, none around.
    let mut want = Vec::new();
    for (i, t) in ticks.iter().enumerate() {
        if i > 0 {
            want.push(0x06);
        }
        want.extend_from_slice(&structio::to_beve(t));
    }
    assert_eq!(bytes, want);
    let mut w = DelimitedWriter::new();
    ticks.iter().for_each(|t| w.push(t));
    assert_eq!(w.into_bytes(), bytes);
    assert_eq!(from_delimited::<Tick>(&bytes).unwrap(), ticks);
    assert!(to_delimited::<Tick>(&[]).is_empty());
    assert!(from_delimited::<Tick>(&[]).unwrap().is_empty());
}

#[test]
fn reading_into_a_vector_reuses_its_elements() {
    let mut out: Vec<Tick> = (0..5).map(|i| tick(i + 100)).collect();
    out[1].note = Some("old".into());
    let ptr = out[1].symbol.as_ptr();
    let three: Vec<Tick> = (0..3).map(tick).collect();
    read_delimited(&mut out, &to_delimited(&three)).unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(out[1].symbol, "S1");
    assert_eq!(out[1].symbol.as_ptr(), ptr);
    // `tick(1)` has no note, so none is written: the element's old note goes, as in a fresh
    // read (`ReadOptions::merge` would keep it).
    assert_eq!(out[1].note, None);
    assert_eq!(out[..], three[..]);
    let more: Vec<Tick> = (0..7).map(tick).collect();
    read_delimited(&mut out, &to_delimited(&more)).unwrap();
    assert_eq!(out.len(), 7);
    assert_eq!(out[6], tick(6));
}

#[test]
fn errors_name_the_value() {
    let ticks: Vec<Tick> = (0..3).map(tick).collect();
    let mut bytes = to_delimited(&ticks);
    // Two values with no delimiter between them.
    let mut glued = structio::to_beve(&ticks[0]);
    glued.extend_from_slice(&structio::to_beve(&ticks[1]));
    let e = from_delimited::<Tick>(&glued).unwrap_err();
    assert!(e.to_string().contains("expected a data delimiter"), "{e}");
    // A value of the wrong type: its index leads the path.
    let mut bad = bytes.clone();
    bad.push(0x06);
    bad.extend_from_slice(&structio::to_beve(&7u8));
    let e = from_delimited::<Tick>(&bad).unwrap_err();
    assert!(e.to_string().contains("path $[3]"), "{e}");
    // A truncated last value is an end-of-input error.
    bytes.truncate(bytes.len() - 1);
    assert!(from_delimited::<Tick>(&bytes).unwrap_err().is_eof());
}
