//! Complex numbers in BEVE: extension 3, as Glaze writes `std::complex<T>` (a single complex
//! number) and `std::vector<std::complex<T>>` (a complex array, components interleaved, real
//! first). [`super::BeveWriter`] and [`super::BeveReader`] implement the format-neutral
//! [`crate::Writer::complex`] / [`crate::Reader::read_complex`] hooks with these; a complex
//! number is a `[re, im]` pair of components.
//!
//! Reading accepts single numbers, complex arrays and aligned complex arrays (BEVE v2); other
//! component types convert with the usual range checks.

use super::header::{self, Elem};
use super::length_prefix;
use super::transcode::{fits, num_array, take};
use crate::error::{Code, Error, PathSegment, Result};
use crate::number::Number;

/// Appends the little-endian bytes of `items`' components.
fn put_components<N: Number>(out: &mut Vec<u8>, items: &[[N; 2]]) {
    if cfg!(target_endian = "little") {
        out.extend_from_slice(bytemuck::cast_slice(items));
    } else {
        for &[re, im] in items {
            re.extend_le(out);
            im.extend_le(out);
        }
    }
}

/// The complete BEVE bytes of one complex number.
pub(crate) fn single_bytes<N: Number>(c: [N; 2]) -> Vec<u8> {
    let mut b = Vec::with_capacity(2 + 2 * std::mem::size_of::<N>());
    b.push(header::COMPLEX);
    b.push(header::kind_bits(N::KIND));
    put_components(&mut b, std::slice::from_ref(&c));
    b
}

/// The complete BEVE bytes of a complex array (never aligned: Glaze has no sub-type 2).
pub(crate) fn array_bytes<N: Number>(items: &[[N; 2]]) -> Vec<u8> {
    let mut b = Vec::with_capacity(10 + std::mem::size_of_val(items));
    b.push(header::COMPLEX);
    b.push(header::kind_bits(N::KIND) | 1);
    length_prefix::write(&mut b, items.len());
    put_components(&mut b, items);
    b
}

/// The error for extension bytes that are not the complex value expected.
#[cold]
fn not_complex(expected: &'static str, at: usize) -> Error {
    Error::new(
        Code::InvalidType {
            expected,
            found: "another extension value",
        },
        at,
    )
}

/// Converts interleaved components of wire type `K` into `out` (cleared first).
fn convert_into<K: Number, N: Number>(data: &[u8], at: usize, out: &mut Vec<[N; 2]>) -> Result<()> {
    let w = std::mem::size_of::<K>();
    out.clear();
    out.reserve(data.len() / (2 * w));
    for (i, pair) in data.chunks_exact(2 * w).enumerate() {
        let part = |j: usize| {
            let wire = K::from_le_slice(&pair[j * w..(j + 1) * w]).to_wire();
            N::from_wire(wire).ok_or_else(|| {
                super::read::conversion_error::<N>(wire, at + i * 2 * w + j * w)
                    .push_path(PathSegment::Index(j))
                    .push_path(PathSegment::Index(i))
            })
        };
        out.push([part(0)?, part(1)?]);
    }
    Ok(())
}

/// Decodes complex extension bytes (`ext`, read at offset `at`) into `out`: a single number
/// when `single`, else an array.
pub(crate) fn decode<N: Number>(
    ext: &[u8],
    at: usize,
    single: bool,
    out: &mut Vec<[N; 2]>,
) -> Result<()> {
    if ext.first() != Some(&header::COMPLEX) {
        return Err(not_complex("complex numbers", at));
    }
    let ch = ext[1];
    let Some(Elem::Kind(kind)) = header::elem_of(ch) else {
        return Err(Error::new(Code::Unsupported("f128 numbers are"), at + 1));
    };
    let width = kind.size();
    let (count, data, data_at) = match (ch & 7, single) {
        (0, true) => (1, take(ext, 2, 2 * width, at)?, at + 2),
        (1, false) => {
            let mut pos = 2;
            let n = length_prefix::read(ext, &mut pos)?;
            if !fits(n, 2 * width, ext.len() - pos) {
                return Err(header::eof(at));
            }
            (n, &ext[pos..pos + n * 2 * width], at + pos)
        }
        (2, false) => {
            let a = num_array(ext, 3, header::ALIGNED_ARRAY, 2)?;
            (a.count / 2, a.data, at + a.end - a.data.len())
        }
        (_, true) => return Err(not_complex("a complex number", at)),
        (_, false) => return Err(not_complex("an array of complex numbers", at)),
    };
    if kind == N::KIND {
        out.clear();
        out.resize(count, [N::default(); 2]);
        if cfg!(target_endian = "little") {
            bytemuck::cast_slice_mut::<[N; 2], u8>(out).copy_from_slice(data);
        } else {
            for (c, b) in out.iter_mut().zip(data.chunks_exact(2 * width)) {
                *c = [N::from_le_slice(&b[..width]), N::from_le_slice(&b[width..])];
            }
        }
        Ok(())
    } else {
        with_kind!(kind, K => convert_into::<K, N>(data, data_at, out))
    }
}

#[cfg(all(test, feature = "num-complex"))]
mod tests {
    use crate::beve::{from_beve, to_beve, to_beve_aligned};
    use num_complex::Complex;

    #[test]
    fn glaze_layout_and_round_trips() {
        let c = Complex::new(1.5f64, -2.5);
        let b = to_beve(&c);
        assert_eq!(&b[..2], &[0x1E, 0x60]);
        assert_eq!(&b[2..10], &1.5f64.to_le_bytes());
        assert_eq!(from_beve::<Complex<f64>>(&b).unwrap(), c);
        let v = vec![Complex::new(1.0f32, 2.0), Complex::new(3.0, 4.0)];
        let b = to_beve(&v);
        assert_eq!(&b[..3], &[0x1E, 0x41, 0x08]);
        assert_eq!(from_beve::<Vec<Complex<f32>>>(&b).unwrap(), v);
        assert_eq!(to_beve(&Vec::<Complex<f64>>::new()), [0x1E, 0x61, 0x00]);
        // Written aligned or not, complex arrays stay sub-type 1 (Glaze has no sub-type 2).
        assert_eq!(&to_beve_aligned(&v)[..], &b[..]);
        assert_eq!(crate::to_json(&v), "[[1,2],[3,4]]");
        assert_eq!(
            crate::from_json::<Vec<Complex<f32>>>("[[1,2],[3,4]]").unwrap(),
            v
        );
        assert_eq!(crate::beve_to_json(&b).unwrap(), "[[1,2],[3,4]]");
        // Other component types convert.
        assert_eq!(
            from_beve::<Vec<Complex<f64>>>(&b).unwrap(),
            [Complex::new(1.0, 2.0), Complex::new(3.0, 4.0)]
        );
        let e = from_beve::<Vec<Complex<u8>>>(&b).unwrap_err();
        assert_eq!(e.message(), "expected an integer for u8");
        assert_eq!(e.path(), "$[0][0]");
        // An aligned complex array (the spec's worked example).
        let mut a = vec![0x1E, 0x62, 0x5C, 0x64, 0x10, 0x02, 0, 0];
        for x in [1.0f64, 2.0, 3.0, 4.0] {
            a.extend_from_slice(&x.to_le_bytes());
        }
        assert_eq!(
            from_beve::<Vec<Complex<f64>>>(&a).unwrap(),
            [Complex::new(1.0, 2.0), Complex::new(3.0, 4.0)]
        );
        // A single number is not an array, nor the other way round.
        assert!(from_beve::<Complex<f64>>(&a).is_err());
        assert!(from_beve::<Vec<Complex<f64>>>(&to_beve(&c)).is_err());
        // Truncations are end-of-input errors.
        for cut in 0..b.len() {
            assert!(from_beve::<Vec<Complex<f32>>>(&b[..cut])
                .unwrap_err()
                .is_eof());
        }
    }
}
