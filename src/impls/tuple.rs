//! Tuples are fixed-length arrays of mixed types (BEVE generic arrays).

use crate::error::{PathSegment, Result};
use crate::read::{expect_element, expect_end};
use crate::reflect::{Reader, Reflect, Writer};

macro_rules! tuple_reflect {
    ($len:expr => $($idx:tt $t:ident),+) => {
        impl<'de, $($t: Reflect<'de>),+> Reflect<'de> for ($($t,)+) {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                w.begin_array($len);
                $(
                    if $idx > 0 {
                        w.sep();
                    }
                    self.$idx.write(w);
                )+
                w.end_array();
            }
            #[inline]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                let mut seq = r.begin_array()?;
                $(
                    expect_element(r, &mut seq, $idx, $len)?;
                    self.$idx
                        .read(r)
                        .map_err(|e| e.push_path(PathSegment::Index($idx)))?;
                )+
                expect_end(r, &mut seq, $len)
            }
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                let mut seq = r.begin_array()?;
                let v = ($(
                    {
                        expect_element(r, &mut seq, $idx, $len)?;
                        $t::read_new(r).map_err(|e| e.push_path(PathSegment::Index($idx)))?
                    },
                )+);
                expect_end(r, &mut seq, $len)?;
                Ok(v)
            }
            #[inline]
            fn default_value() -> Option<Self> {
                Some(($($t::default_value()?,)+))
            }
            const HAS_DEFAULT_VALUE: bool = $($t::HAS_DEFAULT_VALUE &&)+ true;
        }
    };
}

tuple_reflect!(1 => 0 A);
tuple_reflect!(2 => 0 A, 1 B);
tuple_reflect!(3 => 0 A, 1 B, 2 C);
tuple_reflect!(4 => 0 A, 1 B, 2 C, 3 D);
tuple_reflect!(5 => 0 A, 1 B, 2 C, 3 D, 4 E);
tuple_reflect!(6 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
tuple_reflect!(7 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
tuple_reflect!(8 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
tuple_reflect!(9 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I);
tuple_reflect!(10 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J);
tuple_reflect!(11 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K);
tuple_reflect!(12 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L);
