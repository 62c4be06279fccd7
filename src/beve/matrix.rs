//! Matrices in BEVE: extension 2, as Glaze writes Eigen matrices. [`super::BeveWriter`] and
//! [`super::BeveReader`] implement the format-neutral [`crate::Writer::matrix`] /
//! [`crate::Reader::read_matrix`] hooks with these.
//!
//! A matrix is `0x16 | layout byte | extents | data`: the layout byte's bit 0 is 0 for
//! row-major (`layout_right`) and 1 for column-major (`layout_left`); the extents are an
//! integer typed array (Glaze writes `i64`); the data is a numeric typed array in the stated
//! layout.

use super::header;
use crate::error::{Error, Result};
use crate::impls::matrix::Layout;
use crate::number::Number;
use crate::reflect::{ReadOptions, Reader, Reflect, Writer};

/// A numeric slice written as one typed array (write-only helper for [`bytes()`]).
struct Typed<'a, N>(&'a [N]);

impl<'de, N: Number> Reflect<'de> for Typed<'_, N> {
    fn write<W: Writer>(&self, w: &mut W) {
        w.typed_array(self.0)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        Err(r.invalid_type("nothing: a write-only view"))
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        Err(r.invalid_type("nothing: a write-only view"))
    }
}

/// The complete BEVE bytes of a matrix (header included), typed arrays unaligned.
pub(crate) fn bytes<N: Number>(layout: Layout, extents: &[u64], data: &[N]) -> Vec<u8> {
    let mut out = vec![header::MATRIX, u8::from(layout == Layout::ColMajor)];
    // Glaze writes the extents as an i64 typed array; extents beyond i64 cannot describe
    // data that fits in memory, so the conversion saturates harmlessly.
    let extents: Vec<i64> = extents
        .iter()
        .map(|&e| i64::try_from(e).unwrap_or(i64::MAX))
        .collect();
    super::write_beve(&Typed(&extents), &mut out);
    super::write_beve(&Typed(data), &mut out);
    out
}

/// Decodes the complete matrix extension bytes `ext` (read at offset `at`) into `extents` and
/// `data`, returning the layout.
pub(crate) fn decode<N: Number>(
    ext: &[u8],
    at: usize,
    opts: ReadOptions,
    extents: &mut Vec<u64>,
    data: &mut Vec<N>,
) -> Result<Layout> {
    let body = ext.get(2..).unwrap_or(&[]);
    let layout = ext.get(1).copied().unwrap_or(0);
    if layout & !1 != 0 {
        return Err(Error::custom(
            "reserved bits set in a matrix layout byte",
            at + 1,
        ));
    }
    let mut inner = super::BeveReader::new(body, opts);
    inner
        .read_typed_vec(extents)
        .and_then(|()| inner.read_typed_vec(data))
        .and_then(|()| inner.finish())
        .map_err(|e| Error::custom(format!("invalid matrix: {}", e.message()), at))?;
    Ok(if layout & 1 == 1 {
        Layout::ColMajor
    } else {
        Layout::RowMajor
    })
}
