//! `Matrix<T>` against Glaze's Eigen matrices (formats/beve/exchange/matrix.*).

use structio::{Layout, Matrix};

#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct ExMatrix {
    fixed_colmajor: Matrix<f64>,
    fixed_rowmajor: Matrix<f32>,
    dynamic: Matrix<f64>,
}

#[path = "common/files.rs"]
mod files;

fn golden(name: &str) -> Vec<u8> {
    files::read(&format!("formats/beve/exchange/{name}"))
}

#[test]
fn glaze_matrices_round_trip_byte_identical() {
    let bytes = golden("matrix.beve");
    let m: ExMatrix = structio::from_beve(&bytes).unwrap();
    assert_eq!(m.fixed_colmajor.layout(), Layout::ColMajor);
    assert_eq!(m.fixed_colmajor.extents(), &[2, 3]);
    assert_eq!(m.fixed_colmajor.data(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_eq!(m.fixed_rowmajor.layout(), Layout::RowMajor);
    assert_eq!(m.fixed_rowmajor.data(), &[1.0f32, 2.0, 3.0, 4.0]);
    assert_eq!(m.dynamic.extents(), &[2, 2]);
    assert_eq!(structio::to_beve(&m), bytes);
}

#[test]
fn json_form_is_glaze_dynamic_eigen() {
    let bytes = golden("matrix.beve");
    let m: ExMatrix = structio::from_beve(&bytes).unwrap();
    // Glaze writes dynamic Eigen matrices as [[rows, cols], [data]].
    assert_eq!(structio::to_json(&m.dynamic), "[[2,2],[1.5,3.5,2.5,4.5]]");
    let back: Matrix<f64> = structio::from_json("[[2,2],[1.5,3.5,2.5,4.5]]").unwrap();
    assert_eq!(back.data(), m.dynamic.data());
}

#[test]
fn shape_mismatches_are_errors() {
    assert!(Matrix::new(Layout::RowMajor, vec![2, 3], vec![1.0f64; 5]).is_none());
    let e = structio::from_json::<Matrix<f64>>("[[2,3],[1,2,3]]").unwrap_err();
    assert!(e.message().contains("do not match"), "{e}");
    let e = structio::from_json::<Matrix<f64>>("[[2,2]]").unwrap_err();
    assert!(e.message().contains("expected 2 elements"), "{e}");
    let mut bytes = golden("matrix.beve");
    // The first matrix's layout byte with a reserved bit set.
    let at = bytes.windows(2).position(|w| w == [0x16, 0x01]).unwrap() + 1;
    bytes[at] = 0x03;
    assert!(structio::from_beve::<ExMatrix>(&bytes).is_err());
    // Every prefix is an error.
    let bytes = golden("matrix.beve");
    for n in 0..bytes.len() {
        assert!(
            structio::from_beve::<ExMatrix>(&bytes[..n]).is_err(),
            "prefix {n}"
        );
    }
}
