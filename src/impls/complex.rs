//! `num_complex::Complex<N>` (feature `num-complex`), through the format-neutral
//! [`Writer::complex`] / [`Reader::read_complex`] hooks: BEVE's complex extension (extension
//! 3, as Glaze writes `std::complex<T>` and `std::vector<std::complex<T>>`), `[re, im]` and
//! `[[re, im], ...]` in JSON. Other component types convert with the usual range checks.

use num_complex::Complex;

use crate::error::Result;
use crate::number::Number;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de, N: Number> Reflect<'de> for Complex<N>
where
    Complex<N>: bytemuck::Pod,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.complex(self.re, self.im);
    }

    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let [re, im] = r.read_complex()?;
        *self = Complex::new(re, im);
        Ok(())
    }

    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let [re, im] = r.read_complex()?;
        Ok(Complex::new(re, im))
    }

    #[inline]
    fn default_value() -> Option<Self> {
        Some(Complex::new(N::default(), N::default()))
    }
    const HAS_DEFAULT_VALUE: bool = true;

    #[inline]
    fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
        w.complex_array(bytemuck::cast_slice::<Complex<N>, [N; 2]>(items));
    }

    fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
        // `Complex<N>` and `[N; 2]` have one layout (both `Pod`, same size and alignment), so
        // the vector is viewed as pairs in place; a failed cast (never expected) reads into a
        // fresh vector instead.
        match bytemuck::allocation::try_cast_vec::<Complex<N>, [N; 2]>(std::mem::take(out)) {
            Ok(mut pairs) => {
                let read = r.read_complex_vec(&mut pairs);
                *out = bytemuck::allocation::cast_vec(pairs);
                read
            }
            Err((_, kept)) => {
                *out = kept;
                let mut pairs = Vec::new();
                let read = r.read_complex_vec(&mut pairs);
                out.clear();
                out.extend(pairs.into_iter().map(|[re, im]| Complex::new(re, im)));
                read
            }
        }
    }
}
