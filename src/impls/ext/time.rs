//! The `time` crate's dates, times and durations (feature `time`), laid out as the chrono types
//! (see `ext/chrono.rs`) and as Glaze writes `std::chrono` values:
//!
//! | type | JSON and BEVE |
//! |---|---|
//! | `OffsetDateTime` | `"2024-05-06T07:08:09.123456789+02:00"` (`Z` for UTC) |
//! | `PrimitiveDateTime` | `"2024-05-06T07:08:09.123456789"` |
//! | `Date` | `"2024-05-06"` |
//! | `Time` | `"07:08:09.123456789"` |
//! | `Duration` | its nanoseconds, an `i64` (Glaze's `std::chrono::nanoseconds`) |
//!
//! An `OffsetDateTime` read from text without an offset is at UTC; one whose UTC instant falls
//! outside the years 0000-9999 (`9999-12-31T23:59:59-23:59`) is an error, so that every value
//! read converts to UTC (`to_offset` panics past the crate's range). A `PrimitiveDateTime`
//! refuses an offset. The `time` crate has no leap seconds: second 60 is an error. A date
//! outside the years 0000-9999 is written as `null`; a `Duration` beyond `i64` nanoseconds as
//! an `i128`.

use time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use crate::error::{Code, Error, Result};
use crate::impls::iso8601::{self, AsText, Parts, Text};
use crate::impls::text::read_parsed;
use crate::impls::time::{read_nanos, write_nanos, write_nanos_array};
use crate::reflect::{Reader, Reflect, Writer};

/// The parts of a wall time, at `offset` if it has one.
fn parts(dt: &PrimitiveDateTime, offset: Option<i32>) -> Parts {
    Parts {
        year: i64::from(dt.year()),
        month: u32::from(u8::from(dt.month())),
        day: u32::from(dt.day()),
        hour: u32::from(dt.hour()),
        minute: u32::from(dt.minute()),
        second: u32::from(dt.second()),
        nano: dt.nanosecond(),
        offset,
    }
}

/// The date `y-m-d`.
fn date(y: i64, m: u32, d: u32) -> Option<Date> {
    let month = Month::try_from(u8::try_from(m).ok()?).ok()?;
    Date::from_calendar_date(i32::try_from(y).ok()?, month, u8::try_from(d).ok()?).ok()
}

/// The time of day (second 60 is refused: the `time` crate has no leap seconds).
fn time_of_day(h: u32, m: u32, s: u32, nano: u32) -> Option<Time> {
    Time::from_hms_nano(
        u8::try_from(h).ok()?,
        u8::try_from(m).ok()?,
        u8::try_from(s).ok()?,
        nano,
    )
    .ok()
}

/// The wall time of `p` (the offset not applied).
fn primitive(p: &Parts) -> Option<PrimitiveDateTime> {
    Some(PrimitiveDateTime::new(
        date(p.year, p.month, p.day)?,
        time_of_day(p.hour, p.minute, p.second, p.nano)?,
    ))
}

impl AsText for OffsetDateTime {
    #[inline]
    fn text(&self) -> Option<Text> {
        let wall = PrimitiveDateTime::new(self.date(), self.time());
        iso8601::date_time_text(&parts(&wall, Some(self.offset().whole_seconds())))
    }
}

impl<'de> Reflect<'de> for OffsetDateTime {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "RFC 3339 date-time", |s| {
            let p = iso8601::parse_date_time(s.as_bytes())?;
            if !p.utc_in_years() {
                return None;
            }
            let offset = UtcOffset::from_whole_seconds(p.offset.unwrap_or(0)).ok()?;
            Some(primitive(&p)?.assume_offset(offset))
        })
    }
}

impl AsText for PrimitiveDateTime {
    #[inline]
    fn text(&self) -> Option<Text> {
        iso8601::date_time_text(&parts(self, None))
    }
}

impl<'de> Reflect<'de> for PrimitiveDateTime {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "date-time without offset", |s| {
            let p = iso8601::parse_date_time(s.as_bytes())?;
            match p.offset {
                None => primitive(&p),
                Some(_) => None,
            }
        })
    }
}

impl AsText for Date {
    #[inline]
    fn text(&self) -> Option<Text> {
        iso8601::date_text(
            i64::from(self.year()),
            u32::from(u8::from(self.month())),
            u32::from(self.day()),
        )
    }
}

impl<'de> Reflect<'de> for Date {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "date", |s| {
            let (y, m, d) = iso8601::parse_date(s.as_bytes())?;
            date(y, m, d)
        })
    }
}

impl AsText for Time {
    #[inline]
    fn text(&self) -> Option<Text> {
        Some(iso8601::time_text(
            u32::from(self.hour()),
            u32::from(self.minute()),
            u32::from(self.second()),
            self.nanosecond(),
        ))
    }
}

impl<'de> Reflect<'de> for Time {
    iso8601::text_writes!();
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up value.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_parsed(r, "time", |s| {
            let (h, m, sec, nano) = iso8601::parse_time(s.as_bytes())?;
            time_of_day(h, m, sec, nano)
        })
    }
}

impl<'de> Reflect<'de> for Duration {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_nanos(self.whole_nanoseconds(), w)
    }
    crate::impls::text::read_via_new!('de);
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let (n, at) = read_nanos(r, "time::Duration")?;
        // Seconds and nanoseconds of the same sign: `Duration::new` has nothing to carry.
        match i64::try_from(n / 1_000_000_000) {
            Ok(secs) => Ok(Duration::new(secs, (n % 1_000_000_000) as i32)),
            Err(_) => Err(Error::new(Code::NumberOutOfRange("time::Duration"), at)),
        }
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some(Duration::ZERO)
    }
    const HAS_DEFAULT_VALUE: bool = true;
    #[inline]
    fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
        let counts: Vec<i128> = items.iter().map(|d| d.whole_nanoseconds()).collect();
        write_nanos_array(&counts, w)
    }
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        let counts: Vec<i128> = items.map(|d| d.whole_nanoseconds()).collect();
        write_nanos_array(&counts, w)
    }
}
