//! `std::time::Duration` and `SystemTime`, as Glaze writes `std::chrono::nanoseconds` and
//! `std::chrono::sys_time<std::chrono::nanoseconds>`.
//!
//! - A `Duration` is its count of nanoseconds, an `i64` number in both formats (a vector of
//!   them an `i64` typed array in BEVE, as Glaze writes a `std::vector<nanoseconds>`). One
//!   longer than `i64::MAX` nanoseconds (about 292 years), which `nanoseconds` cannot hold, is
//!   written as a `u128` count: structio reads it back, Glaze reports it out of range. Reading
//!   takes any integer; a negative count or a fraction is an error.
//! - A `SystemTime` is a UTC timestamp string, `2024-05-06T07:08:09.123456789Z`, in both
//!   formats (Glaze's BEVE has no time point; it writes this text in JSON). Reading takes any
//!   offset (converted to UTC) or none (UTC), as Glaze does. A time outside the years
//!   0000-9999, which the text cannot hold, is written as `null`, as NaN is, so that it never
//!   reads back as another time.
//!
//! The signed durations of the `chrono` and `time` features share [`write_nanos`] and
//! [`read_nanos`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::iso8601;
use crate::error::{Code, Error, Result};
use crate::reflect::{Reader, Reflect, Writer};

/// Writes a count of nanoseconds: an `i64` when it fits (Glaze's `std::chrono::nanoseconds`),
/// else a 128-bit integer (`u128` when it is not negative).
#[inline]
pub(crate) fn write_nanos<W: Writer>(n: i128, w: &mut W) {
    match i64::try_from(n) {
        Ok(v) => w.number(v),
        Err(_) if n > 0 => w.number(n as u128),
        Err(_) => w.number(n),
    }
}

/// Writes counts of nanoseconds as one array: an `i64` typed array when all fit (Glaze's
/// `std::vector<std::chrono::nanoseconds>`), else a generic array of [`write_nanos`].
#[inline]
pub(crate) fn write_nanos_array<W: Writer>(counts: &[i128], w: &mut W) {
    if counts.iter().all(|&n| i64::try_from(n).is_ok()) {
        w.typed_array_iter(counts.iter().map(|&n| n as i64));
        return;
    }
    w.begin_array(counts.len());
    for (i, &n) in counts.iter().enumerate() {
        if i > 0 {
            w.sep();
        }
        write_nanos(n, w);
    }
    w.end_array();
}

/// Reads a count of nanoseconds (any integer, by the rules of integer values: a fraction is an
/// error naming `ty`, as is a count past `i128`), with the position it started at for range
/// errors.
#[inline]
pub(crate) fn read_nanos<'de, R: Reader<'de>>(
    r: &mut R,
    ty: &'static str,
) -> Result<(i128, usize)> {
    let at = r.offset();
    let n = r
        .read_number::<i128>()
        .map_err(|e| super::nonzero::rename(e, ty))?;
    Ok((n, at))
}

/// The nanoseconds of `d` as a signed count (every `Duration` fits: at most about 2^94).
#[inline]
fn nanos(d: &Duration) -> i128 {
    d.as_nanos() as i128
}

impl<'de> Reflect<'de> for Duration {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_nanos(nanos(self), w)
    }
    super::text::read_via_new!('de);
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let (n, at) = read_nanos(r, "Duration")?;
        let secs = u64::try_from(n.div_euclid(1_000_000_000));
        match secs {
            Ok(secs) if n >= 0 => Ok(Duration::new(secs, n.rem_euclid(1_000_000_000) as u32)),
            _ => Err(Error::new(Code::NumberOutOfRange("Duration"), at)),
        }
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some(Duration::ZERO)
    }
    const HAS_DEFAULT_VALUE: bool = true;
    #[inline]
    fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
        let counts: Vec<i128> = items.iter().map(nanos).collect();
        write_nanos_array(&counts, w)
    }
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        let counts: Vec<i128> = items.map(nanos).collect();
        write_nanos_array(&counts, w)
    }
}

/// Seconds and nanoseconds of `t` since the Unix epoch (seconds negative before it, the
/// nanoseconds always counted forward), or `None` past what an `i64` of seconds holds.
fn since_epoch(t: &SystemTime) -> Option<(i64, u32)> {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => Some((i64::try_from(d.as_secs()).ok()?, d.subsec_nanos())),
        Err(e) => {
            let d = e.duration();
            let secs = i64::try_from(d.as_secs()).ok()?;
            match d.subsec_nanos() {
                0 => Some((-secs, 0)),
                n => Some((-secs - 1, 1_000_000_000 - n)),
            }
        }
    }
}

/// The timestamp text of a UTC time (`secs` and `nano` since the Unix epoch), `None` outside
/// the years 0000-9999.
#[inline]
pub(crate) fn utc_text(secs: i64, nano: u32) -> Option<iso8601::Text> {
    iso8601::date_time_text(&iso8601::parts_at(secs, nano, 0))
}

impl iso8601::AsText for SystemTime {
    #[inline]
    fn text(&self) -> Option<iso8601::Text> {
        since_epoch(self).and_then(|(secs, nano)| utc_text(secs, nano))
    }
}

impl<'de> Reflect<'de> for SystemTime {
    iso8601::text_writes!();
    super::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up time.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        super::text::read_parsed(r, "date-time", |s| {
            let p = iso8601::parse_date_time(s.as_bytes())?;
            if p.second == 60 {
                return None;
            }
            let secs = p.unix_seconds();
            // Only times that can be written back (in the years 0000-9999 at UTC).
            if !iso8601::UTC_SECONDS.contains(&secs) {
                return None;
            }
            let d = Duration::new(secs.unsigned_abs(), 0);
            let t = if secs >= 0 {
                UNIX_EPOCH.checked_add(d)?
            } else {
                UNIX_EPOCH.checked_sub(d)?
            };
            t.checked_add(Duration::from_nanos(u64::from(p.nano)))
        })
    }
}
