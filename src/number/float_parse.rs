//! The Eisel-Lemire algorithm: the nearest binary float to `w * 10^q` for an exact 64-bit `w`,
//! from one (rarely two) 64x64-bit multiplications with a truncated 128-bit power of five.
//!
//! It decides correctly or reports that it cannot (`None`, in a vanishingly small set of
//! inputs), in which case the caller uses the standard library's slower exact parser. Described
//! in Daniel Lemire, "Number Parsing at a Gigabyte per Second" (2021) and Noble Mushtak and
//! Daniel Lemire, "Fast number parsing without fallback" (2023).

use super::pow5::{POW5, POW5_MIN};

/// The parameters of a binary float format.
pub(crate) struct Format {
    /// Explicitly stored significand bits.
    mantissa_bits: i32,
    /// The exponent bias, negated.
    min_exponent: i32,
    /// The biased exponent of infinity.
    infinite_power: i32,
    /// Below `10^smallest` every exact significand rounds to zero.
    smallest_pow10: i64,
    /// Above `10^largest` every nonzero significand rounds to infinity.
    largest_pow10: i64,
    /// The powers of ten for which an exact halfway case can occur.
    round_even: (i64, i64),
}

/// `f64`.
pub(crate) const F64: Format = Format {
    mantissa_bits: 52,
    min_exponent: -1023,
    infinite_power: 0x7FF,
    smallest_pow10: -342,
    largest_pow10: 308,
    round_even: (-4, 23),
};

/// `f32`.
pub(crate) const F32: Format = Format {
    mantissa_bits: 23,
    min_exponent: -127,
    infinite_power: 0xFF,
    smallest_pow10: -65,
    largest_pow10: 38,
    round_even: (-17, 10),
};

impl Format {
    /// The bit pattern of infinity.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn infinity_bits(&self) -> u64 {
        (self.infinite_power as u64) << self.mantissa_bits
    }
}

/// floor(log2(10^q)) + 63, for |q| <= 350.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn power_of_two(q: i32) -> i32 {
    ((q.wrapping_mul(152_170 + 65_536)) >> 16) + 63
}

/// The high 128 bits of `w * 5^q` (`w` normalised), exact enough in the `precision` bits that
/// decide the rounding.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn product(q: i64, w: u64, precision: i32) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let (hi5, lo5) = POW5[(q - POW5_MIN) as usize];
    let first = w as u128 * hi5 as u128;
    let (mut lo, mut hi) = (first as u64, (first >> 64) as u64);
    if hi & mask == mask {
        // The truncated power may be too small to decide: add the next 64 bits.
        let second = ((w as u128 * lo5 as u128) >> 64) as u64;
        lo = lo.wrapping_add(second);
        if second > lo {
            hi += 1;
        }
    }
    (lo, hi)
}

/// The bits (without sign) of the float of format `f` nearest to `w * 10^q`; infinity when it
/// overflows; `None` when the algorithm cannot decide.
#[inline]
pub(crate) fn eisel_lemire(w: u64, q: i64, f: &Format) -> Option<u64> {
    if w == 0 || q < f.smallest_pow10 {
        return Some(0);
    }
    if q > f.largest_pow10 {
        return Some(f.infinity_bits());
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product(q, w, f.mantissa_bits + 3);
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upper = (hi >> 63) as i32;
    let shift = upper + 64 - f.mantissa_bits - 3;
    let mut m = hi >> shift;
    let mut e = power_of_two(q as i32) + upper - lz as i32 - f.min_exponent;
    if e <= 0 {
        // Subnormal (or zero); rounding may carry into the smallest normal.
        if -e + 1 >= 64 {
            return Some(0);
        }
        m >>= -e + 1;
        m += m & 1;
        m >>= 1;
        let e = u64::from(m >= 1 << f.mantissa_bits);
        return Some(m | e << f.mantissa_bits);
    }
    // An exact halfway case rounds to even.
    if lo <= 1 && (f.round_even.0..=f.round_even.1).contains(&q) && m & 3 == 1 && (m << shift) == hi
    {
        m &= !1;
    }
    m += m & 1;
    m >>= 1;
    if m >= 2 << f.mantissa_bits {
        m = 1 << f.mantissa_bits;
        e += 1;
    }
    m &= !(1 << f.mantissa_bits);
    if e >= f.infinite_power {
        return Some(f.infinity_bits());
    }
    Some(m | (e as u64) << f.mantissa_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_spot_values() {
        let at = |q: i64| POW5[(q - POW5_MIN) as usize];
        assert_eq!(at(0), (1 << 63, 0));
        assert_eq!(at(1), (0xA000_0000_0000_0000, 0));
        assert_eq!(at(-1), (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD));
        assert_eq!(at(-342), (0xEEF4_53D6_923B_D65A, 0x113F_AA29_06A1_3B3F));
        assert_eq!(at(308), (0x8E67_9C2F_5E44_FF8F, 0x570F_09EA_A7EA_7648));
        // 5^27 < 2^64: exact, shifted to the top.
        let p = 5u128.pow(27);
        let shifted = p << (128 - (128 - p.leading_zeros()));
        assert_eq!(at(27), ((shifted >> 64) as u64, shifted as u64));
    }

    #[test]
    fn agrees_with_std() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut decided = 0;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x >> (x % 40);
            let q = (x >> 40) as i64 % 360 - 340;
            let text = format!("{w}e{q}");
            if let Some(bits) = eisel_lemire(w, q, &F64) {
                decided += 1;
                assert_eq!(bits, text.parse::<f64>().unwrap().to_bits(), "{text}");
            }
            let q = q % 50;
            let text = format!("{w}e{q}");
            if let Some(bits) = eisel_lemire(w, q, &F32) {
                assert_eq!(
                    bits as u32,
                    text.parse::<f32>().unwrap().to_bits(),
                    "{text}"
                );
            }
        }
        assert!(decided > 199_000);
    }
}
