//! `Matrix<T>`: BEVE's matrix extension (extension 2), as Glaze writes Eigen matrices.
//!
//! In BEVE a matrix is `16 | layout byte | extents | data`: the layout byte's bit 0 is 0 for
//! row-major (`layout_right`) and 1 for column-major (`layout_left`); the extents are an integer
//! typed array (Glaze writes `i64`); the data is a numeric typed array in the stated layout.
//! In JSON it is `[[extents...], [data...]]`, the form Glaze uses for dynamic Eigen matrices.

use crate::error::{Error, Result};
use crate::number::Number;
use crate::reflect::{Reader, Reflect, ValueKind, Writer};
use crate::walk::{expect_element, expect_end};

/// Element order of a [`Matrix`]'s data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// Row-major: the last index varies fastest (BEVE `layout_right`, C order).
    RowMajor,
    /// Column-major: the first index varies fastest (BEVE `layout_left`, Fortran order, Eigen's
    /// default). The default, since most BEVE matrices come from Eigen.
    #[default]
    ColMajor,
}

/// A dense N-dimensional array of numbers: BEVE's matrix extension, Eigen's matrices in Glaze.
///
/// ```
/// use structio::{Layout, Matrix};
/// let m = Matrix::new(Layout::ColMajor, vec![2, 2], vec![1.5f64, 3.5, 2.5, 4.5]).unwrap();
/// assert_eq!(structio::to_json(&m), "[[2,2],[1.5,3.5,2.5,4.5]]");
/// let back: Matrix<f64> = structio::from_beve(&structio::to_beve(&m)).unwrap();
/// assert_eq!(back, m);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Matrix<T> {
    layout: Layout,
    extents: Vec<u64>,
    data: Vec<T>,
}

impl<T: Number> Matrix<T> {
    /// A matrix with the given layout, extents and data; `None` unless the data has exactly
    /// the product of the extents elements.
    pub fn new(layout: Layout, extents: Vec<u64>, data: Vec<T>) -> Option<Matrix<T>> {
        (element_count(&extents) == Some(data.len())).then_some(Matrix {
            layout,
            extents,
            data,
        })
    }

    /// The element order of [`Matrix::data`].
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The size of each dimension (rows, columns, ...).
    pub fn extents(&self) -> &[u64] {
        &self.extents
    }

    /// The elements, in [`Matrix::layout`] order.
    pub fn data(&self) -> &[T] {
        &self.data
    }

    /// The elements, mutable (the shape stays).
    pub fn data_mut(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// Takes the matrix apart: layout, extents, data.
    pub fn into_parts(self) -> (Layout, Vec<u64>, Vec<T>) {
        (self.layout, self.extents, self.data)
    }

    /// The complete BEVE bytes of the matrix (header included).
    fn beve_bytes(&self) -> Vec<u8> {
        let mut out = vec![0x16, u8::from(self.layout == Layout::ColMajor)];
        // Glaze writes the extents as an i64 typed array; extents beyond i64 cannot describe
        // data that fits in memory, so the conversion saturates harmlessly.
        let extents: Vec<i64> = self
            .extents
            .iter()
            .map(|&e| i64::try_from(e).unwrap_or(i64::MAX))
            .collect();
        crate::beve::write_beve(&Typed(&extents), &mut out);
        crate::beve::write_beve(&Typed(&self.data), &mut out);
        out
    }

    /// Checks the shape after a read.
    fn check(&self, at: usize) -> Result<()> {
        if element_count(&self.extents) == Some(self.data.len()) {
            Ok(())
        } else {
            // At most eight extents in the message: the list comes from the input.
            let shown = match self.extents.get(..8) {
                Some(head) if self.extents.len() > 8 => {
                    let head = format!("{head:?}");
                    format!(
                        "{}, ...] ({} extents)",
                        &head[..head.len() - 1],
                        self.extents.len()
                    )
                }
                _ => format!("{:?}", self.extents),
            };
            Err(Error::custom(
                format!(
                    "matrix extents {shown} do not match its {} elements",
                    self.data.len()
                ),
                at,
            ))
        }
    }
}

/// A numeric slice written as one typed array (write-only helper for [`Matrix::beve_bytes`]).
struct Typed<'a, N>(&'a [N]);

impl<'de, N: Number> Reflect<'de> for Typed<'_, N> {
    fn write<W: Writer>(&self, w: &mut W) {
        w.typed_array(self.0)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        Err(r.invalid_type("nothing: a write-only view"))
    }
}

/// The product of the extents, if it does not overflow.
fn element_count(extents: &[u64]) -> Option<usize> {
    extents
        .iter()
        .try_fold(1usize, |acc, &e| acc.checked_mul(usize::try_from(e).ok()?))
}

impl<'de, T: Number> Reflect<'de> for Matrix<T> {
    fn write<W: Writer>(&self, w: &mut W) {
        if w.keeps_beve_extensions() {
            w.raw_beve(&self.beve_bytes());
        } else {
            w.begin_array(2);
            w.typed_array(&self.extents);
            w.sep();
            w.typed_array(&self.data);
            w.end_array();
        }
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let at = r.offset();
        match r.peek_kind()? {
            ValueKind::Extension(0x16) => {
                let bytes = r.read_extension()?;
                let body = bytes.get(2..).unwrap_or(&[]);
                let layout = bytes.get(1).copied().unwrap_or(0);
                if layout & !1 != 0 {
                    return Err(Error::custom(
                        "reserved bits set in a matrix layout byte",
                        at + 1,
                    ));
                }
                self.layout = if layout & 1 == 1 {
                    Layout::ColMajor
                } else {
                    Layout::RowMajor
                };
                let mut inner = crate::beve::BeveReader::new(body, *r.options());
                inner
                    .read_typed_vec(&mut self.extents)
                    .and_then(|()| inner.read_typed_vec(&mut self.data))
                    .and_then(|()| inner.finish())
                    .map_err(|e| Error::custom(format!("invalid matrix: {}", e.message()), at))?;
            }
            ValueKind::Array => {
                let mut seq = r.begin_array()?;
                expect_element(r, &mut seq, 0, 2)?;
                r.read_typed_vec(&mut self.extents)?;
                expect_element(r, &mut seq, 1, 2)?;
                r.read_typed_vec(&mut self.data)?;
                expect_end(r, &mut seq, 2)?;
            }
            _ => return Err(r.invalid_type("a matrix")),
        }
        self.check(at)
    }
}
