//! chrono's dates, times and durations (feature `chrono`), laid out as the std types and as
//! Glaze writes `std::chrono` values:
//!
//! | type | JSON and BEVE |
//! |---|---|
//! | `DateTime<Utc>` | `"2024-05-06T07:08:09.123456789Z"` |
//! | `DateTime<FixedOffset>`, `DateTime<Local>` | `"2024-05-06T07:08:09.123456789+02:00"` (`Z` for UTC) |
//! | `NaiveDateTime` | `"2024-05-06T07:08:09.123456789"` |
//! | `NaiveDate` | `"2024-05-06"` (Glaze's `year_month_day`) |
//! | `NaiveTime` | `"07:08:09.123456789"` |
//! | `TimeDelta` | its nanoseconds, an `i64` (Glaze's `std::chrono::nanoseconds`) |
//!
//! Reading a `DateTime` takes any offset (a `DateTime<Utc>` converts to UTC, a
//! `DateTime<Local>` to local time) or none (UTC); a naive date-time refuses an offset. A
//! `DateTime` must be in the years 0000-9999 both as written and at UTC. Leap seconds are
//! written and read as second 60, and kept only where a text can say them: on the last second
//! of a minute, for a `DateTime` both at its offset and at UTC (an offset with seconds, such
//! as `+05:30:15`, would put a leap second on another second at UTC, which `:60` cannot say;
//! such a time is an error to read, and a value holding one is written as `null`). A date
//! outside the years 0000-9999 is written as `null` (see the `SystemTime` impl); a `TimeDelta`
//! beyond `i64` nanoseconds as an `i128`.

use chrono::{
    DateTime, Datelike, FixedOffset, Local, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeDelta,
    TimeZone, Timelike, Utc,
};

use crate::error::{Code, Error, Result};
use crate::impls::iso8601::{self, AsText, Parts, Text};
use crate::impls::text::read_parsed;
use crate::impls::time::{read_nanos, write_nanos, write_nanos_array};
use crate::reflect::{Reader, Reflect};

/// Whether `t` is a leap second (chrono's nanosecond past 10^9).
fn is_leap(t: &NaiveTime) -> bool {
    t.nanosecond() >= 1_000_000_000
}

/// Whether `t` can be written as itself: not a leap second, or one on the last second of its
/// minute, which is written as second 60. (chrono keeps a leap second on any second a
/// conversion to an offset with seconds moves it to; `HH:MM:60` would read back as another
/// time.)
fn keepable(t: &NaiveTime) -> bool {
    !is_leap(t) || t.second() == 59
}

/// Second and nanosecond of `t` as written: a leap second is second 60; `None` for a leap
/// second that is not on second 59 (see [`keepable`]).
fn second_nano(t: &NaiveTime) -> Option<(u32, u32)> {
    match t.nanosecond() {
        n if n >= 1_000_000_000 => keepable(t).then(|| (60, n - 1_000_000_000)),
        n => Some((t.second(), n)),
    }
}

/// The parts of a wall time, at `offset` if it has one (`None` when it cannot be written).
fn naive_parts(dt: &NaiveDateTime, offset: Option<i32>) -> Option<Parts> {
    let (second, nano) = second_nano(&dt.time())?;
    Some(Parts {
        year: i64::from(dt.year()),
        month: dt.month(),
        day: dt.day(),
        hour: dt.hour(),
        minute: dt.minute(),
        second,
        nano,
        offset,
    })
}

/// chrono's time of day for the time as written (second 60 becomes a leap second).
fn naive_time(h: u32, m: u32, s: u32, nano: u32) -> Option<NaiveTime> {
    if s == 60 {
        NaiveTime::from_hms_nano_opt(h, m, 59, nano + 1_000_000_000)
    } else {
        NaiveTime::from_hms_nano_opt(h, m, s, nano)
    }
}

/// chrono's wall time for `p` (the offset not applied).
fn naive_date_time(p: &Parts) -> Option<NaiveDateTime> {
    let date = NaiveDate::from_ymd_opt(i32::try_from(p.year).ok()?, p.month, p.day)?;
    Some(NaiveDateTime::new(
        date,
        naive_time(p.hour, p.minute, p.second, p.nano)?,
    ))
}

/// A `DateTime` at the offset the text gives (UTC without one), whose UTC instant is in the
/// years 0000-9999.
fn parse_fixed(s: &str) -> Option<DateTime<FixedOffset>> {
    let p = iso8601::parse_date_time(s.as_bytes())?;
    if !p.utc_in_years() {
        return None;
    }
    let offset = FixedOffset::east_opt(p.offset.unwrap_or(0))?;
    offset.from_local_datetime(&naive_date_time(&p)?).single()
}

/// `Reflect` for a `DateTime` in time zone `$tz`, read at the text's offset and converted.
macro_rules! date_time {
    ($($tz:ty => $convert:expr),* $(,)?) => {$(
        impl AsText for DateTime<$tz> {
            #[inline]
            fn text(&self) -> Option<Text> {
                let offset = self.offset().fix().local_minus_utc();
                // A leap second is kept only on second 59 both here and at UTC (reading
                // refuses any other).
                if !keepable(&self.naive_utc().time()) {
                    return None;
                }
                iso8601::date_time_text(&naive_parts(&self.naive_local(), Some(offset))?)
            }
        }

        impl<'de> Reflect<'de> for DateTime<$tz> {
            iso8601::text_writes!();
            crate::impls::text::read_via_new!('de);
            /// No default: a member left out is missing, never a made-up value.
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                let convert: fn(DateTime<FixedOffset>) -> DateTime<$tz> = $convert;
                // Only times that can be written back: in the years 0000-9999 in this zone
                // (and at UTC, see `parse_fixed`), a leap second on second 59 here and at
                // UTC.
                read_parsed(r, "RFC 3339 date-time", |s| {
                    let t = convert(parse_fixed(s)?);
                    let local = t.naive_local();
                    (iso8601::YEARS.contains(&i64::from(local.year()))
                        && keepable(&local.time())
                        && keepable(&t.naive_utc().time()))
                    .then_some(t)
                })
            }
        }
    )*};
}

date_time! {
    Utc => |t| t.with_timezone(&Utc),
    FixedOffset => |t| t,
    Local => |t| t.with_timezone(&Local),
}

impl AsText for NaiveDateTime {
    #[inline]
    fn text(&self) -> Option<Text> {
        iso8601::date_time_text(&naive_parts(self, None)?)
    }
}

impl<'de> Reflect<'de> for NaiveDateTime {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "date-time without offset", |s| {
            let p = iso8601::parse_date_time(s.as_bytes())?;
            match p.offset {
                None => naive_date_time(&p),
                Some(_) => None,
            }
        })
    }
}

impl AsText for NaiveDate {
    #[inline]
    fn text(&self) -> Option<Text> {
        iso8601::date_text(i64::from(self.year()), self.month(), self.day())
    }
}

impl<'de> Reflect<'de> for NaiveDate {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "date", |s| {
            let (y, m, d) = iso8601::parse_date(s.as_bytes())?;
            NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d)
        })
    }
}

impl AsText for NaiveTime {
    #[inline]
    fn text(&self) -> Option<Text> {
        let (s, nano) = second_nano(self)?;
        Some(iso8601::time_text(self.hour(), self.minute(), s, nano))
    }
}

impl<'de> Reflect<'de> for NaiveTime {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "time", |s| {
            let (h, m, sec, nano) = iso8601::parse_time(s.as_bytes())?;
            naive_time(h, m, sec, nano)
        })
    }
}

/// The nanoseconds of `d` (every `TimeDelta` fits an `i128`).
#[inline]
fn nanos(d: &TimeDelta) -> i128 {
    i128::from(d.num_seconds()) * 1_000_000_000 + i128::from(d.subsec_nanos())
}

impl<'de> Reflect<'de> for TimeDelta {
    #[inline]
    fn write<W: crate::reflect::Writer>(&self, w: &mut W) {
        write_nanos(nanos(self), w)
    }
    crate::impls::text::read_via_new!('de);
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let (n, at) = read_nanos(r, "TimeDelta")?;
        let secs = i64::try_from(n.div_euclid(1_000_000_000)).ok();
        let sub = n.rem_euclid(1_000_000_000) as u32;
        secs.and_then(|s| TimeDelta::new(s, sub))
            .ok_or_else(|| Error::new(Code::NumberOutOfRange("TimeDelta"), at))
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some(TimeDelta::zero())
    }
    const HAS_DEFAULT_VALUE: bool = true;
    #[inline]
    fn write_slice<W: crate::reflect::Writer>(items: &[Self], w: &mut W) {
        let counts: Vec<i128> = items.iter().map(nanos).collect();
        write_nanos_array(&counts, w)
    }
    #[inline]
    fn write_iter<'a, W: crate::reflect::Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        let counts: Vec<i128> = items.map(nanos).collect();
        write_nanos_array(&counts, w)
    }
}
