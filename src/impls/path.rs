//! Paths: `PathBuf` and `&'de Path`, strings in both formats.
//!
//! A path is written as its text when it is valid UTF-8. One that is not (possible on Unix and
//! Windows) has no string form that would read back as the same path, and a writer cannot
//! fail, so it is written as `null`, as NaN is: reading it back is an error ("expected a
//! string, found null"), never another path. Nothing is ever written or read lossily. A
//! vector of paths is BEVE's string array (a generic array when one of them is `null`).
//! `&Path` borrows its text from the input, so text with escapes is an error for it, as for
//! `&str`.

use std::path::{Path, PathBuf};

use crate::error::{Code, Error, Result};
use crate::reflect::{Reader, Reflect, Str, Writer};

/// Writes `p` as a string, or `null` when it is not valid UTF-8.
#[inline]
fn write_path<W: Writer>(p: &Path, w: &mut W) {
    match p.to_str() {
        Some(s) => w.str(s),
        None => w.null(),
    }
}

/// Writes paths as one array: BEVE's string array when all are UTF-8, else a generic array
/// holding `null` for those that are not.
fn write_paths<W: Writer>(paths: &[&Path], w: &mut W) {
    if paths.iter().all(|p| p.to_str().is_some()) {
        w.str_array(paths.iter().map(|p| p.to_str().unwrap_or("")));
        return;
    }
    w.begin_array(paths.len());
    for (i, p) in paths.iter().enumerate() {
        if i > 0 {
            w.sep();
        }
        write_path(p, w);
    }
    w.end_array();
}

impl<'de> Reflect<'de> for PathBuf {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_path(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let s = r.read_str()?;
        // The path's own buffer is reused.
        let os = self.as_mut_os_string();
        os.clear();
        os.push(s.as_str());
        Ok(())
    }
    crate::impls::new_from_default!('de);
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        let paths: Vec<&Path> = items.map(PathBuf::as_path).collect();
        write_paths(&paths, w)
    }
}

impl<'de: 'a, 'a> Reflect<'de> for &'a Path {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_path(self, w)
    }
    super::text::read_via_new!('de);
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mark = r.save();
        match r.read_str()? {
            Str::Borrowed(b) => Ok(Path::new(b)),
            Str::Transient(_) => Err(Error::new(
                Code::BorrowedEscape,
                crate::read::offset_at(r, mark),
            )),
        }
    }
    #[inline]
    fn write_iter<'i, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'i Self>,
        Self: 'i,
    {
        let paths: Vec<&Path> = items.copied().collect();
        write_paths(&paths, w)
    }
}
