//! Files and `std::io`: Glaze's file helpers ([`read_file_json`], [`write_file_json`], ...),
//! the buffer the stream readers ([`crate::json::LinesReader`], [`crate::json::ArrayIter`],
//! [`crate::beve::DelimitedReader`]) keep their records in, and the atomic file write.
//!
//! Reading a file reads it whole, then parses it as the in-memory functions do. Writing a file
//! writes a temporary file in the same folder, flushes it to the disk and renames it over the
//! target: a reader of the file sees the old contents or the new ones, never part of them, and
//! a failure (a full disk, an error of the writer) leaves the old file as it was and no
//! temporary file behind. Errors name the file ([`Error::file`]).

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::error::{Code, Error, Result};
use crate::reflect::Reflect;
use crate::ReflectOwned;

/// The longest record a stream reader accepts unless told otherwise: 1 GiB.
pub(crate) const MAX_RECORD: usize = 1 << 30;

/// What a stream reader asks of the input at a time (the buffer grows past it only for a
/// longer record); also how far past a malformed record it reads ahead.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Reads all of `r`. An I/O error names the offset it happened at (the bytes read before it).
pub(crate) fn read_all(mut r: impl Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match r.read_to_end(&mut bytes) {
        Ok(_) => Ok(bytes),
        Err(e) => Err(Error::io("read failed", e, bytes.len())),
    }
}

/// Finishes a sink (writes out and flushes what it holds); an I/O failure is a
/// [`Category::Io`](crate::Category::Io) error.
pub(crate) fn finish<W: Write>(sink: crate::IoSink<W>) -> Result<()> {
    sink.finish()
        .map(drop)
        .map_err(|e| Error::io("write failed", e, 0))
}

/// Where the record a stream reader gathers ends, as far as the bytes at hand tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framed {
    /// After this many bytes.
    Ends(usize),
    /// Its end has not been read yet.
    More,
    /// The reader is to take all the bytes at hand: they hold an error it will report.
    Whole,
}

/// The input of a stream reader: `buf[head..end]` holds the bytes read and not yet consumed,
/// `buf[0]` is byte `base` of the stream. The readers borrow `buf` and move `head` themselves
/// (so that a value read can borrow a record while the reader moves past it).
pub(crate) struct Source<R> {
    r: R,
    pub(crate) buf: Vec<u8>,
    pub(crate) head: usize,
    end: usize,
    pub(crate) base: usize,
    eof: bool,
    /// The longest record accepted, in bytes.
    pub(crate) max_record: usize,
    /// For text: the line breaks counted in the bytes the buffer let go of.
    lines: Option<Lines>,
}

/// Line breaks counted up to a stream offset: the line there (1-based) and the offset where
/// that line starts. Counted when the buffer lets bytes go, a buffer at a time, rather than
/// record by record.
#[derive(Debug, Clone, Copy)]
struct Lines {
    counted: usize,
    line: usize,
    line_start: usize,
}

impl Lines {
    /// Moves past `bytes`, which start at stream offset `self.counted`.
    fn pass(&mut self, bytes: &[u8]) {
        // Sums of 64 one-byte flags, which the compiler turns into byte-wide vector adds.
        let mut chunks = bytes.chunks_exact(64);
        let mut n = 0;
        for c in &mut chunks {
            n += usize::from(c.iter().fold(0u8, |k, &b| k + u8::from(b == b'\n')));
        }
        n += chunks.remainder().iter().filter(|&&b| b == b'\n').count();
        if n > 0 {
            self.line += n;
            let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
            self.line_start = self.counted + last + 1;
        }
        self.counted += bytes.len();
    }
}

impl<R> Source<R> {
    pub(crate) fn new(r: R) -> Source<R> {
        Source {
            r,
            buf: Vec::new(),
            head: 0,
            end: 0,
            base: 0,
            eof: false,
            max_record: MAX_RECORD,
            lines: None,
        }
    }

    /// A source of text, whose lines are counted (see [`Source::line_of`]).
    pub(crate) fn text(r: R) -> Source<R> {
        Source {
            lines: Some(Lines {
                counted: 0,
                line: 1,
                line_start: 0,
            }),
            ..Source::new(r)
        }
    }

    /// For text, the line of `buf[h]` (1-based; `h` at least `head`) and the stream offset
    /// where that line starts; `(1, 0)` for a source that does not count lines.
    #[cold]
    pub(crate) fn line_of(&self, h: usize) -> (usize, usize) {
        let Some(mut lines) = self.lines else {
            return (1, 0);
        };
        lines.pass(&self.buf[lines.counted - self.base..h]);
        (lines.line, lines.line_start)
    }

    /// The bytes read and not yet consumed.
    #[inline]
    pub(crate) fn data(&self) -> &[u8] {
        &self.buf[self.head..self.end]
    }

    /// The bytes in the buffer from `buf[from]` to the last one read.
    #[inline]
    pub(crate) fn context(&self, from: usize) -> &[u8] {
        &self.buf[from..self.end]
    }

    /// Whether the input has ended (all of it is in [`Source::data`] or consumed).
    #[inline]
    pub(crate) fn at_eof(&self) -> bool {
        self.eof
    }

    /// The stream offset of the first byte of [`Source::data`].
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.base + self.head
    }
}

impl<R: Read> Source<R> {
    /// Reads more input after [`Source::data`] (which stays, moved to the front of the buffer
    /// when that frees enough room); false at the end of the input. One read: whatever the
    /// input has at hand, so that a record is handed out as soon as its last byte arrived.
    pub(crate) fn fill(&mut self) -> Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let len = self.end - self.head;
        if self.buf.len() - self.end < CHUNK / 2 {
            if self.head >= self.buf.len() / 2 {
                // Most of the buffer is consumed: move the rest to the front (at most half
                // the buffer is moved, after at least as much was consumed), counting the
                // line breaks of the bytes let go.
                if let Some(lines) = &mut self.lines {
                    lines.pass(&self.buf[lines.counted - self.base..self.head]);
                }
                self.buf.copy_within(self.head..self.end, 0);
                self.base += self.head;
                self.head = 0;
                self.end = len;
            }
            if self.buf.len() - self.end < CHUNK / 2 {
                let grown = (self.buf.len() * 2).max(CHUNK);
                self.buf.resize(grown, 0);
            }
        }
        loop {
            match self.r.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n.min(self.buf.len() - self.end);
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io("read failed", e, self.base + self.end)),
            }
        }
    }

    /// Reads on until [`Source::data`] holds `want` bytes (or as many as the limit on a
    /// record allows), or the input ends. For a malformed record: the reader then sees what
    /// it would see in memory, unless the record declares more than that.
    pub(crate) fn read_ahead(&mut self, want: usize) -> Result<()> {
        let want = want.min(self.max_record.saturating_add(1));
        while self.end - self.head < want {
            if !self.fill()? {
                break;
            }
        }
        Ok(())
    }

    /// The error for a record starting at `start` (in [`Source::data`]) whose `len` bytes
    /// known so far are more than the limit.
    pub(crate) fn check_record(&self, start: usize, len: usize) -> Result<()> {
        if len > self.max_record {
            return Err(Error::new(Code::RecordTooLarge(self.max_record), start));
        }
        Ok(())
    }
}

/// The most bytes of the target's name a temporary file's name keeps: with the dot before,
/// the dot after, six random characters and `.tmp`, a temporary name is at most 44 bytes.
const TEMP_STEM: usize = 32;

/// The start of `name` a temporary file is named after: at most [`TEMP_STEM`] bytes, cut
/// between characters.
fn temp_stem(name: &str) -> &str {
    let mut end = name.len().min(TEMP_STEM);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Writes the file at `path` atomically: `write` writes its contents into a temporary file in
/// the same folder, which is flushed and synced to the disk, then renamed over `path`. On any
/// failure the temporary file is removed and `path` is left as it was. A file replaced keeps
/// its permissions (on Unix); a new one gets the permissions `File::create` would give it.
pub(crate) fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let fail = |what: &str, e: io::Error| Error::io(what, e, 0).with_file(path);
    let Some(name) = path.file_name() else {
        return Err(fail(
            "cannot write",
            io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"),
        ));
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A name of its own, random and exclusive (`tempfile` creates it with `O_EXCL`), in the
    // same folder so that the rename is atomic. Its length is bounded whatever the target's:
    // at most `TEMP_STEM` bytes of the name, so that a target whose name is as long as the
    // system allows (255 bytes) still gets a temporary file.
    let prefix = format!(".{}.", temp_stem(&name.to_string_lossy()));
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    let old = fs::metadata(path).ok().map(|m| m.permissions());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // As `File::create` does: 0o666 less the umask (the temporary file's own default is
        // 0o600).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| fail("cannot create a temporary file", e))?;
    #[cfg(unix)]
    if let Some(perms) = old {
        tmp.as_file()
            .set_permissions(perms)
            .map_err(|e| fail("cannot set permissions", e))?;
    }
    // Through the file itself: its errors are the system's (`NamedTempFile` adds the path).
    let file = tmp.as_file_mut();
    write(file).map_err(|e| fail("write failed", e))?;
    file.flush().map_err(|e| fail("write failed", e))?;
    file.sync_all().map_err(|e| fail("write failed", e))?;
    tmp.persist(path)
        .map_err(|e| fail("cannot replace the file", e.error))?;
    // The rename is durable once the folder is synced; the file is complete either way, so a
    // folder that cannot be synced is no error.
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The contents of the file at `path`.
fn read_file(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| Error::io("cannot read", e, 0).with_file(path))
}

/// Reads the JSON file at `path` into a new `T` (Glaze's `read_file_json`). Errors name the
/// file, then line and column: `config.json:3:14: number out of range for u8, path $.port`.
///
/// ```
/// #[derive(structio::Reflect, Default, Debug, PartialEq)]
/// struct Config { name: String, port: u8 }
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("config.json");
/// std::fs::write(&path, "{\n  \"name\": \"a\",\n  \"port\": 300\n}").unwrap();
/// let e = structio::read_file_json::<Config>(&path).unwrap_err();
/// assert_eq!(e.file(), Some(path.as_path()));
/// assert!(e.to_string().starts_with(&format!(
///     "{}:3:11: number out of range for u8, path $.port",
///     path.display()
/// )));
///
/// structio::write_file_json(&Config { name: "b".into(), port: 80 }, &path).unwrap();
/// assert_eq!(structio::read_file_json::<Config>(&path).unwrap().port, 80);
/// ```
pub fn read_file_json<T: ReflectOwned>(path: impl AsRef<Path>) -> Result<T> {
    read_file_json_with(path, &crate::json::Options::default())
}

/// [`read_file_json`] with options.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("deep.json");
/// std::fs::write(&path, "[[1]]").unwrap();
/// let mut opts = structio::json::Options::default();
/// opts.read.max_depth = 1;
/// let e = structio::read_file_json_with::<Vec<Vec<u8>>>(&path, &opts).unwrap_err();
/// assert_eq!(e.message(), "nesting deeper than the limit of 1");
/// ```
pub fn read_file_json_with<T: ReflectOwned>(
    path: impl AsRef<Path>,
    opts: &crate::json::Options,
) -> Result<T> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    crate::json::from_json_with(&bytes, opts).map_err(|e| e.with_file(path))
}

/// Writes `v` as compact JSON to the file at `path`, atomically (Glaze's `write_file_json`):
/// the file holds either its old contents or all of the new ones, whatever fails.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("list.json");
/// structio::write_file_json(&vec![1, 2, 3], &path).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "[1,2,3]");
/// ```
pub fn write_file_json<'de, T: Reflect<'de>>(v: &T, path: impl AsRef<Path>) -> Result<()> {
    write_file_json_with(v, path, &crate::json::Options::default())
}

/// [`write_file_json`] with options (`pretty` for Glaze's pretty layout, ...).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("list.json");
/// let pretty = structio::json::Options { pretty: true, ..Default::default() };
/// structio::write_file_json_with(&vec![1, 2], &path, &pretty).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "[\n   1,\n   2\n]");
/// ```
pub fn write_file_json_with<'de, T: Reflect<'de>>(
    v: &T,
    path: impl AsRef<Path>,
    opts: &crate::json::Options,
) -> Result<()> {
    let mut out = Vec::new();
    crate::json::write_json_with(v, &mut out, opts);
    write_atomic(path.as_ref(), |w| w.write_all(&out))
}

/// Reads the BEVE file at `path` into a new `T` (Glaze's `read_file_beve`). Errors name the
/// file and the byte offset: `data.beve: invalid header byte 0x07 at byte 17, path $.a`.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("xs.beve");
/// structio::write_file_beve(&vec![1.5f64, 2.5], &path).unwrap();
/// assert_eq!(structio::read_file_beve::<Vec<f64>>(&path).unwrap(), [1.5, 2.5]);
/// let e = structio::read_file_beve::<String>(&path).unwrap_err();
/// assert_eq!(e.file(), Some(path.as_path()));
/// assert!(e.to_string().starts_with(&format!("{}: expected a string", path.display())));
/// ```
pub fn read_file_beve<T: ReflectOwned>(path: impl AsRef<Path>) -> Result<T> {
    read_file_beve_with(path, &crate::beve::Options::default())
}

/// [`read_file_beve`] with options.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("deep.beve");
/// structio::write_file_beve(&vec![vec![1u8]], &path).unwrap();
/// let mut opts = structio::beve::Options::default();
/// opts.read.max_depth = 1;
/// assert!(structio::read_file_beve_with::<Vec<Vec<u8>>>(&path, &opts).is_err());
/// ```
pub fn read_file_beve_with<T: ReflectOwned>(
    path: impl AsRef<Path>,
    opts: &crate::beve::Options,
) -> Result<T> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    crate::beve::from_beve_with(&bytes, opts).map_err(|e| e.with_file(path))
}

/// Writes `v` as BEVE to the file at `path`, atomically (Glaze's `write_file_beve`; see
/// [`write_file_json`]).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("n.beve");
/// structio::write_file_beve(&7u8, &path).unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), structio::to_beve(&7u8));
/// ```
pub fn write_file_beve<'de, T: Reflect<'de>>(v: &T, path: impl AsRef<Path>) -> Result<()> {
    write_file_beve_with(v, path, &crate::beve::Options::default())
}

/// [`write_file_beve`] with options (aligned arrays, null members). Aligned arrays are padded
/// from the start of the file.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("xs.beve");
/// let aligned = structio::beve::Options { aligned_arrays: true, ..Default::default() };
/// structio::write_file_beve_with(&vec![1.5f64], &path, &aligned).unwrap();
/// assert_eq!(std::fs::read(&path).unwrap()[0], structio::beve::header::ALIGNED_ARRAY);
/// ```
pub fn write_file_beve_with<'de, T: Reflect<'de>>(
    v: &T,
    path: impl AsRef<Path>,
    opts: &crate::beve::Options,
) -> Result<()> {
    let mut out = Vec::new();
    crate::beve::write_beve_with(v, &mut out, opts);
    write_atomic(path.as_ref(), |w| w.write_all(&out))
}

/// Reads every record of the NDJSON file at `path` (Glaze's `read_file_ndjson`; see
/// [`crate::json::from_ndjson`]). Errors name the file, line and column, and the record's
/// index first in the path: `events.ndjson:2:8: expected `,` or `}`, path $[1]`. For a file
/// too large to hold its records in memory, read it one record at a time with
/// [`crate::json::JsonLines::from_reader`].
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("xs.ndjson");
/// structio::write_file_ndjson(&[vec![1u8], vec![2, 3]], &path).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "[1]\n[2,3]");
/// assert_eq!(structio::read_file_ndjson::<Vec<u8>>(&path).unwrap(), [vec![1], vec![2, 3]]);
/// ```
pub fn read_file_ndjson<T: ReflectOwned>(path: impl AsRef<Path>) -> Result<Vec<T>> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    crate::json::from_ndjson(&bytes).map_err(|e| e.with_file(path))
}

/// Writes `items` to the file at `path` as NDJSON, atomically (Glaze's `write_file_ndjson`;
/// the text [`crate::json::to_ndjson`] makes: `\n` between two records, none after the last).
/// Records are written as they are made, so the text is never all in memory.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("pairs.ndjson");
/// let pairs = vec![(1, "a"), (2, "b")];
/// structio::write_file_ndjson(&pairs, &path).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "[1,\"a\"]\n[2,\"b\"]");
/// ```
pub fn write_file_ndjson<'de, T: Reflect<'de>>(items: &[T], path: impl AsRef<Path>) -> Result<()> {
    write_atomic(path.as_ref(), |w| {
        let mut out = Vec::with_capacity(CHUNK + CHUNK / 2);
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            crate::json::write_ndjson(std::slice::from_ref(item), &mut out);
            if out.len() >= CHUNK {
                w.write_all(&out)?;
                out.clear();
            }
        }
        w.write_all(&out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_write_failing_midway_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        fs::write(&path, "old contents").unwrap();
        let e = write_atomic(&path, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        })
        .unwrap_err();
        assert_eq!(e.category(), crate::Category::Io);
        assert_eq!(e.file(), Some(path.as_path()));
        assert_eq!(e.io_error().unwrap().kind(), io::ErrorKind::StorageFull);
        assert_eq!(
            e.to_string(),
            format!("{}: write failed: disk full", path.display())
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "old contents");
        assert_eq!(names(dir.path()), ["config.json"]);
        // A new file is not created either.
        let fresh = dir.path().join("new.json");
        assert!(write_atomic(&fresh, |_| Err(io::Error::other("no"))).is_err());
        assert_eq!(names(dir.path()), ["config.json"]);
        // And a write that succeeds replaces the contents whole.
        write_atomic(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(dir.path()), ["config.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        fs::write(&path, "1").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, |w| w.write_all(b"2")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A new file: what `File::create` gives (0o666 less the umask), not 0o600.
        let created = dir.path().join("created");
        fs::File::create(&created).unwrap();
        let fresh = dir.path().join("fresh.json");
        write_atomic(&fresh, |w| w.write_all(b"3")).unwrap();
        assert_eq!(
            fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
            fs::metadata(&created).unwrap().permissions().mode() & 0o777
        );
    }

    #[test]
    fn temporary_names_stay_short_for_the_longest_file_names() {
        assert_eq!(temp_stem("config.json"), "config.json");
        let long = "x".repeat(255);
        assert_eq!(temp_stem(&long).len(), TEMP_STEM);
        // Cut between characters: 31 bytes of 'a', then a two-byte character.
        let mixed = format!("{}é{}", "a".repeat(31), "b".repeat(200));
        assert_eq!(temp_stem(&mixed), "a".repeat(31));
        // Seen from inside the write: the temporary file's name is short, next to the target.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(&long);
        write_atomic(&path, |w| {
            let names = names(dir.path());
            assert_eq!(names.len(), 1);
            assert!(names[0].len() <= 44, "{}", names[0]);
            assert!(names[0].starts_with(&format!(".{}.", &long[..TEMP_STEM])));
            assert!(names[0].ends_with(".tmp"));
            w.write_all(b"1")
        })
        .unwrap();
        assert_eq!(names(dir.path()), [long]);
    }

    #[test]
    fn paths_without_a_file_name_and_missing_folders_are_errors() {
        let e = write_atomic(Path::new("/"), |w| w.write_all(b"x")).unwrap_err();
        assert_eq!(e.category(), crate::Category::Io);
        let dir = tempfile::tempdir().unwrap();
        let e = write_atomic(&dir.path().join("no/such/dir/f.json"), |w| {
            w.write_all(b"x")
        })
        .unwrap_err();
        assert_eq!(e.io_error().unwrap().kind(), io::ErrorKind::NotFound, "{e}");
        assert!(
            e.to_string().contains("cannot create a temporary file"),
            "{e}"
        );
    }

    /// Reads `data` a few bytes at a time, then fails.
    struct Dribble<'a>(&'a [u8], usize);
    impl Read for Dribble<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("cable cut"));
            }
            let n = self.1.min(self.0.len()).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_source_keeps_unconsumed_bytes_and_counts_offsets() {
        let data: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        let mut src = Source::new(Dribble(&data, 7000));
        let mut consumed = 0;
        loop {
            match src.fill() {
                Ok(true) => {}
                Ok(false) => unreachable!(),
                Err(e) => {
                    assert_eq!(e.offset(), data.len());
                    assert_eq!(e.message(), "read failed: cable cut");
                    break;
                }
            }
            assert_eq!(src.offset(), consumed);
            assert_eq!(src.data(), &data[consumed..consumed + src.data().len()]);
            // Consume all but a third, so data is kept across fills.
            let n = src.data().len() * 2 / 3;
            src.head += n;
            consumed += n;
        }
        // Memory stays near the chunk size.
        assert!(src.buf.len() <= 4 * CHUNK, "{}", src.buf.len());
    }
}
