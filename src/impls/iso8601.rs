//! Dates and times as text, shared by `SystemTime` and the `chrono` and `time` types: the
//! layout Glaze writes for a `std::chrono::sys_time<std::chrono::nanoseconds>`
//! (`2024-05-06T07:08:09.123456789Z`: four-digit year, nine fraction digits, UTC as `Z`), an
//! offset as `+05:30` for the types that keep one, and the proleptic Gregorian calendar
//! arithmetic between dates and days since 1970-01-01.
//!
//! Reading takes what Glaze's reader takes (a fraction of any length, at most nine digits of it
//! kept; `Z`, `+HH:MM`, `+HHMM` or `+HH`, or no offset at all, meaning UTC), plus lower-case
//! `t` and `z` (RFC 3339 allows them) and the `+HH:MM:SS` offsets written for offsets with
//! seconds.

use super::text::Buf;

/// The years a date can be written with: four digits, as RFC 3339 and Glaze require.
pub(crate) const YEARS: std::ops::RangeInclusive<i64> = 0..=9999;

/// The seconds since the Unix epoch of the times a timestamp text can hold at UTC: from
/// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
pub(crate) const UTC_SECONDS: std::ops::Range<i64> = -62_167_219_200..253_402_300_800;

/// A date and time of day as written: calendar fields, the second (60 for a leap second),
/// nanoseconds, and the offset from UTC in seconds when the text has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Parts {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub nano: u32,
    pub offset: Option<i32>,
}

impl Parts {
    /// Seconds since 1970-01-01T00:00:00 of the wall time (the offset not applied), the
    /// second as written (a leap second counts as the next one).
    pub(crate) fn local_seconds(&self) -> i64 {
        days_from_civil(self.year, self.month, self.day) * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
    }

    /// Seconds since the Unix epoch (the offset applied; none means UTC).
    pub(crate) fn unix_seconds(&self) -> i64 {
        self.local_seconds() - i64::from(self.offset.unwrap_or(0))
    }

    /// Whether the UTC instant falls in the years 0000-9999 (a leap second counts as the
    /// second it follows). The text's own year is in them by its grammar; at an offset of
    /// nearly a day the instant may not be (`9999-12-31T23:59:59-23:59` is in the year
    /// 10000 at UTC), and such a time is refused: it could not be converted to UTC and written
    /// (the `time` crate's `to_offset` panics past its range).
    #[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
    pub(crate) fn utc_in_years(&self) -> bool {
        UTC_SECONDS.contains(&(self.unix_seconds() - i64::from(self.second == 60)))
    }
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's
/// `days_from_civil`).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `z` days after 1970-01-01 (H. Hinnant's `civil_from_days`).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Whether `y` is a leap year.
fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// The number of days of month `m` of year `y`.
fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `n` decimal digits at `b[at..]`.
fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
    let s = b.get(at..at + n)?;
    let mut v = 0u32;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}

/// A date, exactly `YYYY-MM-DD` (a day that exists).
pub(crate) fn parse_date(b: &[u8]) -> Option<(i64, u32, u32)> {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = i64::from(digits(b, 0, 4)?);
    let m = digits(b, 5, 2)?;
    let d = digits(b, 8, 2)?;
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some((y, m, d))
}

/// A time of day at the start of `b`, `HH:MM:SS` and an optional fraction: the hour, minute,
/// second (up to 60, a leap second), nanoseconds (digits past the ninth are dropped) and the
/// bytes it took.
fn parse_time_prefix(b: &[u8]) -> Option<(u32, u32, u32, u32, usize)> {
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let (h, m, s) = (digits(b, 0, 2)?, digits(b, 3, 2)?, digits(b, 6, 2)?);
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut at = 8;
    let mut nano = 0;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while at < b.len() && b[at].is_ascii_digit() {
            if at - start < 9 {
                nano = nano * 10 + u32::from(b[at] - b'0');
            }
            at += 1;
        }
        let n = at - start;
        if n == 0 {
            return None;
        }
        for _ in n..9 {
            nano *= 10;
        }
    }
    Some((h, m, s, nano, at))
}

/// A time of day, `HH:MM:SS` and an optional fraction, nothing after it.
#[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
pub(crate) fn parse_time(b: &[u8]) -> Option<(u32, u32, u32, u32)> {
    match parse_time_prefix(b)? {
        (h, m, s, nano, n) if n == b.len() => Some((h, m, s, nano)),
        _ => None,
    }
}

/// An offset from UTC, in seconds east: `Z`, `z`, `+HH:MM`, `+HHMM`, `+HH` or `+HH:MM:SS`
/// (hours up to 23, minutes and seconds up to 59).
pub(crate) fn parse_offset(b: &[u8]) -> Option<i32> {
    let sign = match b.first()? {
        b'Z' | b'z' if b.len() == 1 => return Some(0),
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let h = digits(b, 1, 2)?;
    let (m, s) = match b.len() {
        3 => (0, 0),
        5 => (digits(b, 3, 2)?, 0),
        6 if b[3] == b':' => (digits(b, 4, 2)?, 0),
        9 if b[3] == b':' && b[6] == b':' => (digits(b, 4, 2)?, digits(b, 7, 2)?),
        _ => return None,
    };
    if h > 23 || m > 59 || s > 59 {
        return None;
    }
    Some(sign * (h * 3600 + m * 60 + s) as i32)
}

/// A date and time, `YYYY-MM-DDTHH:MM:SS`, an optional fraction and an optional offset.
pub(crate) fn parse_date_time(b: &[u8]) -> Option<Parts> {
    if b.len() < 19 || !matches!(b[10], b'T' | b't') {
        return None;
    }
    let (year, month, day) = parse_date(&b[..10])?;
    let (hour, minute, second, nano, n) = parse_time_prefix(&b[11..])?;
    let rest = &b[11 + n..];
    let offset = if rest.is_empty() {
        None
    } else {
        Some(parse_offset(rest)?)
    };
    Some(Parts {
        year,
        month,
        day,
        hour,
        minute,
        second,
        nano,
        offset,
    })
}

/// The parts of the UTC time `secs` seconds and `nano` nanoseconds after the Unix epoch, shown
/// at `offset` seconds east of UTC.
pub(crate) fn parts_at(secs: i64, nano: u32, offset: i32) -> Parts {
    let local = secs.saturating_add(i64::from(offset));
    let (year, month, day) = civil_from_days(local.div_euclid(86_400));
    let tod = local.rem_euclid(86_400) as u32;
    Parts {
        year,
        month,
        day,
        hour: tod / 3600,
        minute: tod / 60 % 60,
        second: tod % 60,
        nano,
        offset: Some(offset),
    }
}

/// A text buffer long enough for every form written here.
pub(crate) type Text = Buf<48>;

/// Appends `YYYY-MM-DD` (the year within [`YEARS`]).
pub(crate) fn push_date(t: &mut Text, y: i64, m: u32, d: u32) {
    t.digits(y as u64, 4);
    t.push(b'-');
    t.digits(u64::from(m), 2);
    t.push(b'-');
    t.digits(u64::from(d), 2);
}

/// Appends `HH:MM:SS.nnnnnnnnn` (always nine fraction digits, as Glaze writes nanoseconds).
pub(crate) fn push_time(t: &mut Text, h: u32, m: u32, s: u32, nano: u32) {
    t.digits(u64::from(h), 2);
    t.push(b':');
    t.digits(u64::from(m), 2);
    t.push(b':');
    t.digits(u64::from(s), 2);
    t.push(b'.');
    t.digits(u64::from(nano), 9);
}

/// Appends an offset: `Z` for UTC, else `+HH:MM` (`+HH:MM:SS` when it has seconds).
pub(crate) fn push_offset(t: &mut Text, offset: i32) {
    if offset == 0 {
        t.push(b'Z');
        return;
    }
    t.push(if offset < 0 { b'-' } else { b'+' });
    let a = offset.unsigned_abs();
    t.digits(u64::from(a / 3600), 2);
    t.push(b':');
    t.digits(u64::from(a / 60 % 60), 2);
    if !a.is_multiple_of(60) {
        t.push(b':');
        t.digits(u64::from(a % 60), 2);
    }
}

/// The text of `p`: date, `T`, time, and the offset if it has one; `None` for a year outside
/// [`YEARS`], which is written as `null`.
pub(crate) fn date_time_text(p: &Parts) -> Option<Text> {
    if !YEARS.contains(&p.year) {
        return None;
    }
    let mut t = Text::new();
    push_date(&mut t, p.year, p.month, p.day);
    t.push(b'T');
    push_time(&mut t, p.hour, p.minute, p.second, p.nano);
    if let Some(off) = p.offset {
        push_offset(&mut t, off);
    }
    Some(t)
}

/// The text of a date, `None` for a year outside [`YEARS`].
#[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
pub(crate) fn date_text(y: i64, m: u32, d: u32) -> Option<Text> {
    if !YEARS.contains(&y) {
        return None;
    }
    let mut t = Text::new();
    push_date(&mut t, y, m, d);
    Some(t)
}

/// The text of a time of day.
#[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
pub(crate) fn time_text(h: u32, m: u32, s: u32, nano: u32) -> Text {
    let mut t = Text::new();
    push_time(&mut t, h, m, s, nano);
    t
}

/// A value written as a date or time text of its own, or as `null` when it has none (a year
/// outside [`YEARS`]).
pub(crate) trait AsText {
    /// The text, or `None` for `null`.
    fn text(&self) -> Option<Text>;
}

/// The writing half of `Reflect` for an [`AsText`] type: the text or `null`; a sequence of them
/// as BEVE's string array (a generic array when one of them is `null`).
macro_rules! text_writes {
    () => {
        #[inline]
        fn write<W: $crate::reflect::Writer>(&self, w: &mut W) {
            match $crate::impls::iso8601::AsText::text(self) {
                Some(t) => w.str(t.as_str()),
                None => w.null(),
            }
        }
        #[inline]
        fn write_iter<'a, W: $crate::reflect::Writer, I>(items: I, w: &mut W)
        where
            I: ExactSizeIterator<Item = &'a Self>,
        {
            $crate::impls::text::write_texts(items, w, |v, out| {
                match $crate::impls::iso8601::AsText::text(v) {
                    Some(t) => {
                        out.push_str(t.as_str());
                        true
                    }
                    None => false,
                }
            })
        }
    };
}
pub(crate) use text_writes;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trips() {
        for z in (-800_000..3_000_000).step_by(7) {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
            assert!(d >= 1 && d <= days_in_month(y, m));
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(0, 1, 1), -719_528);
    }

    #[test]
    fn parses_what_glaze_reads() {
        let p = parse_date_time(b"2024-02-29T23:59:59.5+05:30").unwrap();
        assert_eq!((p.year, p.month, p.day), (2024, 2, 29));
        assert_eq!(
            (p.hour, p.minute, p.second, p.nano),
            (23, 59, 59, 500_000_000)
        );
        assert_eq!(p.offset, Some(5 * 3600 + 30 * 60));
        assert_eq!(
            parse_date_time(b"2024-01-01T00:00:00").unwrap().offset,
            None
        );
        assert_eq!(parse_offset(b"-0800"), Some(-8 * 3600));
        assert_eq!(parse_offset(b"+01"), Some(3600));
        assert_eq!(parse_offset(b"z"), Some(0));
        let p = parse_date_time(b"2024-01-01t00:00:00.1234567891234z").unwrap();
        assert_eq!(p.nano, 123_456_789);
        for bad in [
            &b"2023-02-29T00:00:00Z"[..],
            b"2024-13-01T00:00:00Z",
            b"2024-01-01T24:00:00Z",
            b"2024-01-01T00:60:00Z",
            b"2024-01-01T00:00:00.Z",
            b"2024-01-01 00:00:00Z",
            b"2024-01-01T00:00:00+5:30",
            b"2024-01-01T00:00:00+05:3",
            b"2024-01-01T00:00:00ZZ",
            b"+2024-01-01T00:00:00Z",
            b"2024-1-01T00:00:00Z",
            b"",
        ] {
            assert_eq!(
                parse_date_time(bad),
                None,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
