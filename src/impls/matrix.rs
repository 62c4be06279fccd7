//! `Matrix<T>`: a dense N-dimensional array of numbers, as Glaze writes Eigen matrices. It goes
//! through the format-neutral [`Writer::matrix`] and [`Reader::read_matrix`] hooks: BEVE's
//! matrix extension (extension 2, `beve/matrix.rs`), and in JSON `[[extents...], [data...]]`,
//! the form Glaze uses for dynamic Eigen matrices.

use crate::error::{Error, Result};
use crate::number::Number;
use crate::reflect::{Reader, Reflect, Writer};

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

/// The product of the extents, if it does not overflow.
fn element_count(extents: &[u64]) -> Option<usize> {
    extents
        .iter()
        .try_fold(1usize, |acc, &e| acc.checked_mul(usize::try_from(e).ok()?))
}

impl<'de, T: Number> Reflect<'de> for Matrix<T> {
    fn write<W: Writer>(&self, w: &mut W) {
        w.matrix(self.layout, &self.extents, &self.data);
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let at = r.offset();
        // A format that records no layout (JSON) gives the default, as a fresh read does.
        self.layout = r
            .read_matrix(&mut self.extents, &mut self.data)?
            .unwrap_or_default();
        self.check(at)
    }
    crate::impls::new_from_default!('de);
}
