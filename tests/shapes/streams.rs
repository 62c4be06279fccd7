//! The stream readers against the in-memory ones: NDJSON through `JsonLines::from_reader`,
//! delimited BEVE through `Delimited::from_reader` and a JSON array through `array_iter`, fed
//! in pieces of any size, must hand out the same values and the same errors (message, offset,
//! line and column, path) as `JsonLines`, `Delimited` and `from_json::<Vec<T>>` reading the
//! whole input. Used by the `streams` fuzz target and `tests/io.rs`.

use std::fmt::Debug;
use std::io::{self, Read};

use structio::beve::Delimited;
use structio::json::JsonLines;
use structio::{Error, ReflectOwned, Value};

use super::everything::Everything;

/// Reads `data` in pieces, their sizes taken from `sizes` in turn: every read is short.
pub struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [usize],
    next: usize,
}

impl<'a> Pieces<'a> {
    /// `data` in pieces of `sizes[0]`, `sizes[1]`, ... (round and round).
    pub fn new(data: &'a [u8], sizes: &'a [usize]) -> Pieces<'a> {
        Pieces {
            data,
            sizes,
            next: 0,
        }
    }
}

impl Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let want = self.sizes[self.next % self.sizes.len()].max(1);
        self.next += 1;
        let n = want.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What an error says: message, offset, line and column, path.
pub type Said = (String, usize, Option<(usize, usize)>, String);

/// What `e` says.
pub fn said(e: &Error) -> Said {
    (e.message(), e.offset(), e.line_column(), e.path())
}

/// Each record's value (by its debug form, so that NaNs compare) or its error.
type Outcomes = Vec<Result<String, Said>>;

fn outcome<T: Debug>(r: structio::Result<T>) -> Result<String, Said> {
    r.map(|v| format!("{v:?}")).map_err(|e| said(&e))
}

/// Reads every record of `$whole` and of `$stream` as `$t` (which may borrow from the
/// record: each is shown before the next is read) and checks that they agree.
macro_rules! same_records {
    ($t:ty, $whole:expr, $stream:expr, $what:expr) => {{
        let mut whole = $whole;
        let mut expect: Outcomes = Vec::new();
        while let Some(r) = whole.read::<$t>() {
            expect.push(outcome(r));
        }
        let mut stream = $stream;
        let mut got: Outcomes = Vec::new();
        while let Some(r) = stream.read::<$t>() {
            got.push(outcome(r));
            assert!(got.len() <= expect.len(), "more records than in memory");
        }
        assert_eq!(got, expect, "{}", $what);
        expect
    }};
}

/// NDJSON `data` read as `T`s by `JsonLines` and by `JsonLines::from_reader` in pieces of
/// `sizes`: the same records and errors, through `read` and `read_into`.
pub fn ndjson_same<T: ReflectOwned + Default + Debug>(data: &[u8], sizes: &[usize]) {
    let what = || {
        format!(
            "NDJSON stream in pieces of {sizes:?} differs on {:?}",
            String::from_utf8_lossy(data)
        )
    };
    let expect = same_records!(
        T,
        JsonLines::new(data),
        JsonLines::from_reader(Pieces::new(data, sizes)),
        what()
    );
    let mut stream = JsonLines::from_reader(Pieces::new(data, sizes));
    let mut v = T::default();
    let mut n = 0;
    while let Some(r) = stream.read_into(&mut v) {
        assert_eq!(
            outcome(r.map(|()| &v)),
            expect[n],
            "read_into, record {n}: {}",
            what()
        );
        n += 1;
    }
    assert_eq!(n, expect.len());
}

/// Delimited BEVE `data` read as `T`s by `Delimited` and by `Delimited::from_reader` in pieces
/// of `sizes`: the same values and errors.
pub fn delimited_same<T: ReflectOwned + Default + Debug>(data: &[u8], sizes: &[usize]) {
    same_records!(
        T,
        Delimited::new(data),
        Delimited::from_reader(Pieces::new(data, sizes)),
        format!("delimited stream in pieces of {sizes:?} differs on {data:02X?}")
    );
}

/// JSON `data` read by `from_json::<Vec<T>>` and by `array_iter::<T>` in pieces of `sizes`:
/// the elements of the one, then the same error if any.
pub fn array_same<T: ReflectOwned + Default + Debug>(data: &[u8], sizes: &[usize]) {
    let whole = structio::from_json::<Vec<T>>(data);
    let got: Outcomes = structio::json::array_iter::<T, _>(Pieces::new(data, sizes))
        .map(outcome)
        .collect();
    let (elems, err) = match got.split_last() {
        Some((Err(e), elems)) => (elems, Some(e)),
        _ => (&got[..], None),
    };
    assert!(
        elems.iter().all(Result::is_ok),
        "an error before the last item"
    );
    match &whole {
        Ok(v) => {
            assert!(
                err.is_none(),
                "array_iter rejects what from_json reads: {err:?} on {:?}",
                String::from_utf8_lossy(data)
            );
            let v: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
            let elems: Vec<String> = elems.iter().map(|x| x.clone().unwrap()).collect();
            assert_eq!(elems, v);
        }
        Err(e) => {
            assert_eq!(
                err,
                Some(&said(e)),
                "array_iter in pieces of {sizes:?} differs on {:?}",
                String::from_utf8_lossy(data)
            );
        }
    }
}

/// The fuzz target `streams`: the first byte chooses how the rest is cut into pieces; the
/// rest is read as NDJSON, delimited BEVE and a JSON array, as `Value`s, and as NDJSON and
/// delimited BEVE as `Everything`s (which borrow strings from the record).
pub fn streams(data: &[u8]) {
    let Some((&sel, data)) = data.split_first() else {
        return;
    };
    let sizes: &[usize] = match sel % 5 {
        0 => &[1],
        1 => &[3, 1, 7],
        2 => &[64],
        3 => &[1000, 1],
        _ => &[1 << 20],
    };
    ndjson_same::<Value>(data, sizes);
    delimited_same::<Value>(data, sizes);
    array_same::<Value>(data, sizes);
    // A type that borrows strings from the record.
    same_records!(
        Everything,
        JsonLines::new(data),
        JsonLines::from_reader(Pieces::new(data, sizes)),
        "NDJSON as Everything"
    );
    same_records!(
        Everything,
        Delimited::new(data),
        Delimited::from_reader(Pieces::new(data, sizes)),
        "delimited BEVE as Everything"
    );
}
