//! Dates and times at the edges (issue 42): every date type of every feature (`SystemTime`;
//! chrono's `DateTime<Utc>`, `DateTime<FixedOffset>`, `DateTime<Local>`, `NaiveDateTime`,
//! `NaiveDate`, `NaiveTime`; the `time` crate's `OffsetDateTime`, `PrimitiveDateTime`, `Date`,
//! `Time`) reads a text either as an error, in every reader (JSON, BEVE, into an existing
//! value, `json::parse`, `beve::parse`), or as a value that converts to UTC without a panic and
//! writes back, in JSON and BEVE, as text that reads as the same value.
//!
//! Run with `--features chrono,time`, and once with `time/large-dates` added too (the `time`
//! crate's range then reaches the years -999999 to 999999; the texts read stay 0000-9999).

use std::fmt::Debug;
use std::time::{SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use structio::ReflectOwned;

/// A date type under test: a sample value (for the reads into an existing value) and the value
/// at UTC, which must be computed without a panic and itself write back and read as the same
/// instant.
trait Dated: ReflectOwned + PartialEq + Debug + Clone {
    const NAME: &'static str;
    /// Whether the text has a date, a time of day and an offset (`None`: none of them).
    const SHAPE: Shape;
    fn sample() -> Self;
    /// Converts to UTC (may panic, the failure this guards against) and checks that the UTC
    /// value round-trips.
    fn check_utc(&self);
}

/// What the text of a type holds (dates and times alone come with the `chrono` and `time`
/// features).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
enum Shape {
    /// `YYYY-MM-DDTHH:MM:SS[.f][offset]`.
    DateTime,
    /// `YYYY-MM-DD`.
    Date,
    /// `HH:MM:SS[.f]`.
    Time,
}

/// `v` written in JSON and BEVE reads back as `v`, and writes the same text again.
fn round_trips<T: ReflectOwned + PartialEq + Debug>(v: &T, what: &str) {
    let json = structio::to_json(v);
    let back: T = structio::from_json(&json)
        .unwrap_or_else(|e| panic!("{what}: {v:?} wrote {json}, which reads as {e}"));
    assert_eq!(&back, v, "{what}: JSON {json}");
    assert_eq!(structio::to_json(&back), json, "{what}: written again");
    let beve = structio::to_beve(v);
    let back: T = structio::from_beve(&beve)
        .unwrap_or_else(|e| panic!("{what}: {v:?} wrote BEVE that reads as {e}"));
    assert_eq!(&back, v, "{what}: BEVE");
    assert_eq!(structio::to_beve(&back), beve, "{what}: BEVE written again");
}

/// Reads `text` as a `T` through every reader: all fail alike, or all give the same value,
/// which is usable (see [`Dated`]). The value, if any.
fn check<T: Dated>(text: &str) -> Option<T> {
    let what = format!("{} from {text:?}", T::NAME);
    let json = structio::to_json(&text);
    let beve = structio::to_beve(&text);
    let read = structio::from_json::<T>(&json);
    let from_beve = structio::from_beve::<T>(&beve);
    let parsed = structio::json::parse::<T>(&json);
    let parsed_beve = structio::beve::parse::<T>(&beve);
    let mut into = T::sample();
    let into_ok = structio::read_json(&mut into, &json).is_ok();
    let mut into_beve = T::sample();
    let into_beve_ok = structio::read_beve(&mut into_beve, &beve).is_ok();
    let oks = [
        read.is_ok(),
        from_beve.is_ok(),
        parsed.is_ok(),
        parsed_beve.is_ok(),
        into_ok,
        into_beve_ok,
    ];
    assert!(
        oks.iter().all(|&ok| ok == oks[0]),
        "{what}: the readers disagree {oks:?}"
    );
    let v = read.ok()?;
    for other in [
        from_beve.unwrap(),
        parsed.unwrap(),
        parsed_beve.unwrap(),
        into,
        into_beve,
    ] {
        assert_eq!(other, v, "{what}");
        assert_eq!(structio::to_json(&other), structio::to_json(&v), "{what}");
    }
    v.check_utc();
    round_trips(&v, &what);
    Some(v)
}

impl Dated for SystemTime {
    const NAME: &'static str = "SystemTime";
    const SHAPE: Shape = Shape::DateTime;
    fn sample() -> Self {
        UNIX_EPOCH
    }
    fn check_utc(&self) {
        let _ = self.duration_since(UNIX_EPOCH);
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use chrono::{DateTime, FixedOffset, Local, NaiveDate, NaiveDateTime, NaiveTime, Utc};

    macro_rules! date_time {
        ($($tz:ty),*) => {$(
            impl Dated for DateTime<$tz> {
                const NAME: &'static str = concat!("DateTime<", stringify!($tz), ">");
                const SHAPE: Shape = Shape::DateTime;
                fn sample() -> Self {
                    DateTime::<Utc>::UNIX_EPOCH.with_timezone(&<$tz>::sample_zone())
                }
                fn check_utc(&self) {
                    let utc = self.with_timezone(&Utc);
                    assert_eq!(utc, *self);
                    round_trips(&utc, "at UTC");
                    round_trips(&self.fixed_offset(), "at its offset");
                }
            }
        )*};
    }

    /// A value of each zone for the samples.
    trait SampleZone {
        fn sample_zone() -> Self;
    }
    impl SampleZone for Utc {
        fn sample_zone() -> Self {
            Utc
        }
    }
    impl SampleZone for FixedOffset {
        fn sample_zone() -> Self {
            FixedOffset::east_opt(3600).unwrap()
        }
    }
    impl SampleZone for Local {
        fn sample_zone() -> Self {
            Local
        }
    }

    date_time!(Utc, FixedOffset, Local);

    impl Dated for NaiveDateTime {
        const NAME: &'static str = "NaiveDateTime";
        const SHAPE: Shape = Shape::DateTime;
        fn sample() -> Self {
            DateTime::<Utc>::UNIX_EPOCH.naive_utc()
        }
        fn check_utc(&self) {
            round_trips(&self.and_utc(), "as UTC");
        }
    }

    impl Dated for NaiveDate {
        const NAME: &'static str = "NaiveDate";
        const SHAPE: Shape = Shape::Date;
        fn sample() -> Self {
            NaiveDate::from_ymd_opt(1970, 1, 1).unwrap()
        }
        fn check_utc(&self) {
            round_trips(&self.and_hms_opt(0, 0, 0).unwrap().and_utc(), "as UTC");
        }
    }

    impl Dated for NaiveTime {
        const NAME: &'static str = "NaiveTime";
        const SHAPE: Shape = Shape::Time;
        fn sample() -> Self {
            NaiveTime::from_hms_opt(1, 2, 3).unwrap()
        }
        fn check_utc(&self) {}
    }
}

#[cfg(feature = "time")]
mod time_impls {
    use super::*;
    use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

    impl Dated for OffsetDateTime {
        const NAME: &'static str = "OffsetDateTime";
        const SHAPE: Shape = Shape::DateTime;
        fn sample() -> Self {
            OffsetDateTime::UNIX_EPOCH
        }
        fn check_utc(&self) {
            // What the caller of issue 42 did: `to_offset` panics past the crate's range.
            let utc = self.to_offset(UtcOffset::UTC);
            assert_eq!(utc, *self);
            round_trips(&utc, "at UTC");
        }
    }

    impl Dated for PrimitiveDateTime {
        const NAME: &'static str = "PrimitiveDateTime";
        const SHAPE: Shape = Shape::DateTime;
        fn sample() -> Self {
            PrimitiveDateTime::new(
                Date::from_calendar_date(1970, Month::January, 1).unwrap(),
                Time::MIDNIGHT,
            )
        }
        fn check_utc(&self) {
            round_trips(&self.assume_utc().to_offset(UtcOffset::UTC), "as UTC");
        }
    }

    impl Dated for Date {
        const NAME: &'static str = "time::Date";
        const SHAPE: Shape = Shape::Date;
        fn sample() -> Self {
            Date::from_calendar_date(1970, Month::January, 1).unwrap()
        }
        fn check_utc(&self) {
            round_trips(&self.midnight().assume_utc(), "as UTC");
        }
    }

    impl Dated for Time {
        const NAME: &'static str = "time::Time";
        const SHAPE: Shape = Shape::Time;
        fn sample() -> Self {
            Time::MIDNIGHT
        }
        fn check_utc(&self) {}
    }
}

/// Runs `$f::<T>` for every date type of the features built.
macro_rules! for_every_type {
    ($f:ident $(, $arg:expr)*) => {{
        $f::<SystemTime>($($arg),*);
        #[cfg(feature = "chrono")]
        {
            $f::<chrono::DateTime<chrono::Utc>>($($arg),*);
            $f::<chrono::DateTime<chrono::FixedOffset>>($($arg),*);
            $f::<chrono::DateTime<chrono::Local>>($($arg),*);
            $f::<chrono::NaiveDateTime>($($arg),*);
            $f::<chrono::NaiveDate>($($arg),*);
            $f::<chrono::NaiveTime>($($arg),*);
        }
        #[cfg(feature = "time")]
        {
            $f::<time::OffsetDateTime>($($arg),*);
            $f::<time::PrimitiveDateTime>($($arg),*);
            $f::<time::Date>($($arg),*);
            $f::<time::Time>($($arg),*);
        }
    }};
}

/// The offsets at the ends of what the texts take (23:59:59 either way), in every form, and
/// none.
const EDGE_OFFSETS: &[&str] = &[
    "",
    "Z",
    "z",
    "+00:00",
    "+23:59",
    "-23:59",
    "+2359",
    "-2359",
    "+23",
    "-23",
    "+23:59:59",
    "-23:59:59",
    "+00:00:01",
    "-00:00:01",
    "+05:30:15",
    "-05:30:15",
];

/// Dates at the ends of the years a text holds, of the crates' ranges (chrono: -262143 to
/// 262142; `time`: -9999 to 9999, or -999999 to 999999 with `large-dates`), and past them.
const EDGE_DATES: &[&str] = &[
    "0000-01-01",
    "0000-12-31",
    "0001-01-01",
    "9999-12-31",
    "9999-01-01",
    "9998-12-31",
    "-0001-12-31",
    "-9999-01-01",
    "+9999-12-31",
    "10000-01-01",
    "-10000-12-31",
    "999999-12-31",
    "-999999-01-01",
    "+262142-12-31",
    "-262143-01-01",
    "262143-01-01",
];

/// Times of day at both ends of a day, with and without a leap second and a fraction.
const EDGE_TIMES: &[&str] = &[
    "00:00:00",
    "00:00:00.000000001",
    "23:59:59",
    "23:59:59.999999999",
    "23:59:60",
    "23:59:60.999999999",
    "00:00:60",
    "12:30:60.5",
];

/// Every text of the edges a type's shape takes, read as a `T`: an error or a usable value.
/// Returns how many read.
fn edges<T: Dated>() -> usize {
    let mut texts = Vec::new();
    match T::SHAPE {
        Shape::Date => texts.extend(EDGE_DATES.iter().map(|d| d.to_string())),
        Shape::Time => texts.extend(EDGE_TIMES.iter().map(|t| t.to_string())),
        Shape::DateTime => {
            for d in EDGE_DATES {
                for t in EDGE_TIMES {
                    for o in EDGE_OFFSETS {
                        texts.push(format!("{d}T{t}{o}"));
                    }
                }
            }
        }
    }
    texts.iter().filter(|t| check::<T>(t).is_some()).count()
}

#[test]
fn date_times_at_the_ends_of_every_range_with_extreme_offsets_are_errors_or_usable() {
    fn each<T: Dated>() {
        let read = edges::<T>();
        assert!(read > 0, "{}: nothing at the edges reads", T::NAME);
    }
    for_every_type!(each);
}

/// The case of issue 42: an `OffsetDateTime` whose UTC instant is in the year 10000 read as a
/// value, on which `to_offset(UtcOffset::UTC)` then panicked. Its mirror at year 0, and the same
/// texts for every type with an offset.
#[test]
fn a_date_time_whose_utc_instant_is_outside_the_years_is_an_error() {
    fn refused<T: Dated>(text: &str) {
        assert!(check::<T>(text).is_none(), "{} read {text}", T::NAME);
    }
    fn each<T: Dated>() {
        if T::SHAPE != Shape::DateTime {
            return;
        }
        let naive = T::NAME.contains("Naive") || T::NAME.contains("Primitive");
        // Local time is in the zone of the machine, which may move these past the years.
        let local = T::NAME.contains("Local");
        for text in [
            "9999-12-31T23:59:59-23:59",
            "9999-12-31T23:59:59.999999999-00:00:01",
            "9999-12-31T23:59:60-23:59:59",
            "0000-01-01T00:00:00+23:59",
            "0000-01-01T00:00:00+00:00:01",
            "0000-01-01T00:00:00.5+23:59:59",
        ] {
            refused::<T>(text);
        }
        // One second inside either end reads (where the type takes an offset).
        for text in [
            "9999-12-31T23:58:59-00:01",
            "9999-12-31T23:59:59+23:59:59",
            "0000-01-01T00:00:00-23:59:59",
            "0000-01-01T00:00:01+00:00:01",
        ] {
            let read = check::<T>(text).is_some();
            assert!(local || read != naive, "{} {text}", T::NAME);
        }
    }
    for_every_type!(each);
}

/// The case of issue 42: a leap second at an offset with seconds read as chrono's
/// `DateTime<FixedOffset>` (and the other zones), then wrote another instant. It cannot be
/// written as itself at UTC (its UTC second is 44, not 59), so it is an error; at an offset of
/// whole minutes the same leap second reads and is kept, at its offset and at UTC.
#[test]
fn a_leap_second_at_an_offset_with_seconds_is_an_error() {
    fn each<T: Dated>() {
        if T::SHAPE != Shape::DateTime {
            return;
        }
        assert!(
            check::<T>("1969-01-30T23:00:60+05:30:15").is_none(),
            "{}",
            T::NAME
        );
        assert!(check::<T>("2016-12-31T23:59:60.5-00:00:30").is_none());
        // Kept where the type has leap seconds (chrono's types with an offset).
        check::<T>("2017-01-01T05:29:60.5+05:30");
        check::<T>("2016-12-31T23:59:60.5Z");
    }
    for_every_type!(each);
    #[cfg(feature = "chrono")]
    {
        use chrono::{DateTime, FixedOffset, Utc};
        let t = check::<DateTime<FixedOffset>>("2017-01-01T05:29:60.5+05:30").unwrap();
        assert_eq!(
            structio::to_json(&t),
            "\"2017-01-01T05:29:60.500000000+05:30\""
        );
        assert_eq!(
            structio::to_json(&t.with_timezone(&Utc)),
            "\"2016-12-31T23:59:60.500000000Z\""
        );
        // A leap second moved by a conversion onto another second has no text: `null`, as
        // a time outside the years, never another instant.
        let odd = t.with_timezone(&FixedOffset::east_opt(5 * 3600 + 30 * 60 + 15).unwrap());
        assert_eq!(structio::to_json(&odd), "null");
        assert!(structio::from_json::<DateTime<FixedOffset>>("null").is_err());
    }
}

/// A random date-time text: any day of the years 0000-9999, a leap second one time in three,
/// a fraction of up to twelve digits, and an offset (none, `Z`, whole minutes, or with
/// seconds, up to 23:59:59 either way).
fn date_time_text() -> impl Strategy<Value = String> {
    let date = (0i32..=9999, 1u32..=12, 1u32..=31);
    let second = prop_oneof![Just(60u32), Just(59u32), 0u32..60];
    let time = (0u32..24, 0u32..60, second);
    let fraction = prop_oneof![Just(String::new()), "[.][0-9]{1,12}"];
    let offset = prop_oneof![
        Just(String::new()),
        Just("Z".to_string()),
        ("[+-]", 0u32..24, 0u32..60).prop_map(|(s, h, m)| format!("{s}{h:02}:{m:02}")),
        ("[+-]", 0u32..24, 0u32..60, 1u32..60)
            .prop_map(|(s, h, m, x)| format!("{s}{h:02}:{m:02}:{x:02}")),
    ];
    (date, time, fraction, offset).prop_map(|((y, mo, d), (h, mi, s), f, o)| {
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{f}{o}")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Leap seconds and offsets with seconds (issue 42: 72 of 20,000 such texts read as chrono's
    /// types and wrote another instant): read, written (JSON and BEVE) and read again, every
    /// type gives the same value, or the first read is an error.
    #[test]
    fn leap_seconds_and_offsets_with_seconds_read_back_as_themselves(text in date_time_text()) {
        fn each<T: Dated>(text: &str) {
            match T::SHAPE {
                Shape::DateTime => {
                    check::<T>(text);
                    // The same wall time without its offset (the naive types take only that).
                    check::<T>(&text[..text.find(['Z', '+']).or_else(|| text[19..].find('-').map(|i| i + 19)).unwrap_or(text.len())]);
                }
                Shape::Date => {
                    check::<T>(&text[..10]);
                }
                Shape::Time => {
                    let end = text[11..].find(['Z', '+', '-']).map_or(text.len(), |i| i + 11);
                    check::<T>(&text[11..end]);
                }
            }
        }
        for_every_type!(each, &text);
    }
}
