//! Files in and out: which format a file is in, reading it whole (in chunks, with a progress
//! line for large inputs on a terminal), and writing output so that a failed command leaves no
//! half-written file behind. `-` is standard input or output.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tempfile::NamedTempFile;

use structio::beve::DELIMITER;

use crate::error::{quote, usage, CliError};

/// The formats structio reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON text.
    Json,
    /// BEVE binary.
    Beve,
    /// Newline-delimited JSON: one record per line, the elements of an array.
    Ndjson,
    /// BEVE values separated by the data delimiter (`0x06`), the elements of an array
    /// (Glaze's `write_beve_delimited`).
    BeveDelimited,
}

impl Format {
    /// Parses `json`, `beve`, `ndjson` (also `jsonl`) or `beve-delimited`, the value of
    /// `--from` / `--to`.
    pub fn parse(s: &str) -> Result<Format, CliError> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "beve" => Ok(Format::Beve),
            "ndjson" | "jsonl" => Ok(Format::Ndjson),
            "beve-delimited" => Ok(Format::BeveDelimited),
            _ => usage(format!(
                "unknown format `{s}`: expected `json`, `beve`, `ndjson` or `beve-delimited`"
            )),
        }
    }

    /// The format a file name's extension names (`.json`, `.beve`, `.ndjson`, `.jsonl`), if
    /// any.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Format::Json),
            "beve" => Some(Format::Beve),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            _ => None,
        }
    }

    /// Guesses from the first bytes: JSON text starts with whitespace or one of `{["-0..9tfn`;
    /// BEVE that starts with the data delimiter is a delimited sequence (Glaze writes one
    /// delimiter before each appended value).
    pub fn sniff(bytes: &[u8]) -> Format {
        match bytes.first() {
            None => Format::Json,
            Some(b) if b" \t\r\n{[\"-0123456789tfn".contains(b) => Format::Json,
            Some(&DELIMITER) => Format::BeveDelimited,
            Some(_) => Format::Beve,
        }
    }

    /// The format of an input: `--from` if given, else the extension, else a guess. BEVE (by
    /// `--from` or extension) that starts with the data delimiter is a delimited sequence: no
    /// single BEVE value starts with it.
    pub fn of_input(explicit: Option<Format>, path: &str, bytes: &[u8]) -> Format {
        match explicit.or_else(|| Format::from_path(path)) {
            Some(Format::Beve) if bytes.first() == Some(&DELIMITER) => Format::BeveDelimited,
            Some(f) => f,
            None => Format::sniff(bytes),
        }
    }

    /// Whether the format is binary (not for a terminal).
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Beve | Format::BeveDelimited)
    }

    /// `JSON`, `BEVE`, `NDJSON` or `delimited BEVE`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Beve => "BEVE",
            Format::Ndjson => "NDJSON",
            Format::BeveDelimited => "delimited BEVE",
        }
    }
}

/// How a file is named in messages: `<stdin>` for `-`, long names cut (see [`quote`]).
pub fn display_name(path: &str) -> String {
    if path == "-" {
        "<stdin>".into()
    } else {
        quote(path).into_owned()
    }
}

/// Inputs at least this large get a progress line (when stderr is a terminal).
const PROGRESS_FROM: u64 = 32 << 20;

/// Bytes read per call.
const READ_CHUNK: u64 = 4 << 20;

/// The environment variable that sets the largest input read, in bytes (`1000000`) or with a
/// binary suffix (`64K`, `512M`, `8G`).
pub const MAX_INPUT_VAR: &str = "STRUCTIO_MAX_INPUT";

/// The largest input read when [`MAX_INPUT_VAR`] is not set: 4 GiB.
pub const DEFAULT_MAX_INPUT: u64 = 4 << 30;

/// The largest input to read: [`MAX_INPUT_VAR`] if set, else [`DEFAULT_MAX_INPUT`].
pub fn max_input() -> Result<u64, CliError> {
    match std::env::var(MAX_INPUT_VAR) {
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT_MAX_INPUT),
        Ok(v) => parse_size(&v).ok_or_else(|| {
            CliError::Usage(format!(
                "{MAX_INPUT_VAR} must be a number of bytes, optionally with K, M or G, not `{}`",
                quote(&v)
            ))
        }),
        Err(_) => usage(format!("{MAX_INPUT_VAR} is not valid UTF-8")),
    }
}

/// `1000`, `64K`, `512M`, `8G` (binary multiples; `KiB`, `MB` and the like are read alike).
fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n: u64 = s[..digits].parse().ok()?;
    let shift = match s[digits..].to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return None,
    };
    n.checked_mul(1 << shift)
}

/// Reads a whole file (`-`: standard input), in chunks, with a progress line on stderr for
/// large inputs when stderr is a terminal. Every input (regular files, standard input, pipes,
/// devices such as `/dev/zero`) is read through a bound of [`max_input`] bytes: a larger one
/// is an error, as is one that memory cannot hold, never an abort.
pub fn read_input(path: &str) -> Result<Vec<u8>, CliError> {
    let name = display_name(path);
    let show = io::stderr().is_terminal();
    let limit = max_input()?;
    if path == "-" {
        return read_all(io::stdin().lock(), None, limit, &name, show);
    }
    let file = File::open(path).map_err(|e| CliError::io(path, e))?;
    let meta = file.metadata().map_err(|e| CliError::io(path, e))?;
    if meta.is_dir() {
        return Err(CliError::Failed(format!("{name}: is a directory")));
    }
    // Only a regular file's length is its size: devices and FIFOs say 0.
    let len = meta.is_file().then_some(meta.len());
    read_all(file, len, limit, &name, show)
}

/// The error for an input over the limit.
fn too_large(name: &str, size: Option<u64>, limit: u64) -> CliError {
    let size = match size {
        Some(n) => format!("{n} bytes"),
        None => format!("more than {limit} bytes"),
    };
    CliError::Failed(format!(
        "{name}: too large to load ({size}; the limit is {limit} bytes, set by {MAX_INPUT_VAR})"
    ))
}

/// The error for an input memory cannot hold.
fn out_of_memory(name: &str, len: usize) -> CliError {
    CliError::Failed(format!(
        "{name}: too large to load (out of memory after {len} bytes)"
    ))
}

/// Reads `r` to its end, `total` bytes if known, at most `limit` bytes: past that, or when
/// memory runs out, an error. Reads through `take(limit + 1)`, so an endless input (a pipe,
/// `/dev/zero`) costs at most `limit + 1` bytes of reading, and every allocation is a
/// `try_reserve`, never one that aborts.
fn read_all(
    r: impl Read,
    total: Option<u64>,
    limit: u64,
    name: &str,
    show: bool,
) -> Result<Vec<u8>, CliError> {
    let mut buf: Vec<u8> = Vec::new();
    if let Some(n) = total {
        if n > limit {
            return Err(too_large(name, Some(n), limit));
        }
        let n = usize::try_from(n).map_err(|_| too_large(name, Some(n), limit))?;
        buf.try_reserve_exact(n)
            .map_err(|_| out_of_memory(name, 0))?;
    }
    let mut r = r.take(limit.saturating_add(1));
    let mut progress = Progress::new(name, total, show);
    loop {
        if buf.len() == buf.capacity() {
            // Full (a regular file read to its length) or empty: a small read says whether
            // there is more before the buffer grows.
            let mut probe = [0u8; 8192];
            let n = fill(&mut r, &mut probe).map_err(|e| CliError::io(name, e))?;
            if n == 0 {
                break;
            }
            // Grows by doubling, at least a chunk, never past the limit.
            let len = buf.len() as u64;
            let room = len.max(READ_CHUNK).min(limit.saturating_add(1) - len);
            let room = usize::try_from(room).unwrap_or(usize::MAX).max(n);
            buf.try_reserve_exact(room)
                .map_err(|_| out_of_memory(name, buf.len()))?;
            buf.extend_from_slice(&probe[..n]);
        } else {
            // Read into the room there is (no allocation), a chunk at a time.
            let len = buf.len();
            let room = (buf.capacity() - len).min(READ_CHUNK as usize);
            buf.resize(len + room, 0);
            let n = fill(&mut r, &mut buf[len..]);
            let n = n.map_err(|e| CliError::io(name, e))?;
            buf.truncate(len + n);
            if n == 0 {
                break;
            }
        }
        if buf.len() as u64 > limit {
            return Err(too_large(name, None, limit));
        }
        progress.update(buf.len() as u64);
    }
    progress.finish();
    Ok(buf)
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match r.read(&mut buf[done..]) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// A progress line on stderr: `name  [#####.....]  45%  120.3 / 267.0 MB`, redrawn at most
/// ten times a second and erased when done.
pub struct Progress<'a> {
    name: &'a str,
    total: Option<u64>,
    show: bool,
    drawn: bool,
    last: Option<Instant>,
}

impl<'a> Progress<'a> {
    /// A progress line for reading `name`, `total` bytes if known; nothing is shown unless
    /// `show` and the input turns out large.
    pub fn new(name: &'a str, total: Option<u64>, show: bool) -> Progress<'a> {
        Progress {
            name,
            total,
            show,
            drawn: false,
            last: None,
        }
    }

    /// Redraws for `done` bytes read.
    pub fn update(&mut self, done: u64) {
        let large = self.total.unwrap_or(done) >= PROGRESS_FROM;
        if !self.show || !large {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(now);
        let mb = |b: u64| b as f64 / 1e6;
        let line = match self.total {
            Some(total) if total > 0 => {
                let frac = (done as f64 / total as f64).min(1.0);
                let filled = (frac * 30.0) as usize;
                format!(
                    "{}  [{}{}] {:3.0}%  {:.1} / {:.1} MB",
                    self.name,
                    "#".repeat(filled),
                    ".".repeat(30 - filled),
                    frac * 100.0,
                    mb(done),
                    mb(total)
                )
            }
            _ => format!("{}  {:.1} MB read", self.name, mb(done)),
        };
        eprint!("\r\x1b[2K{line}");
        self.drawn = true;
    }

    /// Erases the line.
    pub fn finish(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        }
    }
}

impl Drop for Progress<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Where output goes: standard output, a special file written directly, or a regular file
/// written under a temporary name beside it and renamed into place by [`Output::commit`]
/// (dropped without it, the temporary is removed).
///
/// The temporary is created exclusively (`O_EXCL`) under an unpredictable name, so that no
/// link planted in the folder is followed. Replacing an existing file keeps its permission
/// bits (`rwx` for owner, group and others; set-user-ID and the like are dropped) and, where
/// allowed, its owner and group; an output that is a symbolic link stays one, and the file
/// it points to is replaced. A file with several hard links is split from its other names by
/// the rename: they keep the old content.
pub enum Output {
    /// Standard output.
    Stdout(io::StdoutLock<'static>),
    /// A regular file being written.
    File {
        /// The temporary file.
        file: BufWriter<NamedTempFile>,
        /// The file it replaces when done (a symbolic link's target).
        dest: PathBuf,
        /// The output as named on the command line, for messages.
        name: String,
    },
    /// A device or FIFO (`/dev/null`, `/dev/stdout`), written directly: there is no file to
    /// replace.
    Direct {
        /// The open device.
        file: BufWriter<File>,
        /// The output as named on the command line, for messages.
        name: String,
    },
}

impl Output {
    /// Opens `path` (`-`: standard output) for writing.
    pub fn open(path: &str) -> Result<Output, CliError> {
        if path == "-" {
            return Ok(Output::Stdout(io::stdout().lock()));
        }
        let name = quote(path).into_owned();
        let fail = |e| CliError::io(path, e);
        // What the name leads to, links followed.
        let existing = match std::fs::metadata(path) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(e)),
        };
        let dest = match &existing {
            Some(m) if m.is_dir() => {
                return Err(CliError::Failed(format!("{name}: is a directory")));
            }
            Some(m) if !m.is_file() => {
                let file = File::options().write(true).open(path).map_err(fail)?;
                return Ok(Output::Direct {
                    file: BufWriter::with_capacity(1 << 20, file),
                    name,
                });
            }
            Some(_) => std::fs::canonicalize(path).map_err(fail)?,
            // Not there, or a dangling link: the file the link would create.
            None => follow_links(Path::new(path)).map_err(fail)?,
        };
        let file_name = dest
            .file_name()
            .ok_or_else(|| CliError::Failed(format!("{name}: not a file name")))?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(file_name);
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".structio.tmp");
        // A new output gets the mode any new file gets (0666 less the umask); one that
        // replaces a file is created private (tempfile's 0600) and then given that file's.
        #[cfg(unix)]
        if existing.is_none() {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = builder.tempfile_in(dir).map_err(fail)?;
        if let Some(m) = &existing {
            keep_metadata(tmp.as_file(), m).map_err(fail)?;
        }
        Ok(Output::File {
            file: BufWriter::with_capacity(1 << 20, tmp),
            dest,
            name,
        })
    }

    /// Whether this is standard output (or a device) and that is a terminal.
    pub fn is_terminal(&self) -> bool {
        match self {
            Output::Stdout(s) => s.is_terminal(),
            Output::Direct { file, .. } => file.get_ref().is_terminal(),
            Output::File { .. } => false,
        }
    }

    /// The name for messages.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "<stdout>".into(),
            Output::File { name, .. } | Output::Direct { name, .. } => name.clone(),
        }
    }

    /// Flushes, and gives a file its final name: its data is synced to disk first, and the
    /// folder after (best effort), so that a crash leaves the old file or the new one.
    pub fn commit(self) -> Result<(), CliError> {
        match self {
            Output::Stdout(mut s) => s.flush().map_err(|e| CliError::io("<stdout>", e)),
            Output::Direct { mut file, name } => file.flush().map_err(|e| CliError::io(&name, e)),
            Output::File { file, dest, name } => {
                let fail = |e| CliError::io(&name, e);
                let tmp = file.into_inner().map_err(|e| fail(e.into_error()))?;
                tmp.as_file().sync_all().map_err(fail)?;
                // On failure the temporary comes back in the error and is removed with it.
                tmp.persist(&dest).map_err(|e| fail(e.error))?;
                #[cfg(unix)]
                if let Some(dir) = dest.parent() {
                    let dir = if dir.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        dir
                    };
                    let _ = File::open(dir).and_then(|d| d.sync_all());
                }
                Ok(())
            }
        }
    }
}

/// The most links followed from an output name.
const MAX_LINKS: usize = 40;

/// `path` with the symbolic links of its last component followed, for an output that does
/// not exist yet: a dangling link names the file it would create.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Gives the temporary `tmp` what the file it replaces has: its permission bits and (where
/// allowed: as root, or a group one belongs to) its owner and group.
#[cfg(unix)]
fn keep_metadata(tmp: &File, old: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::{fchown, MetadataExt, PermissionsExt};
    let mine = tmp.metadata()?;
    if (mine.uid(), mine.gid()) != (old.uid(), old.gid())
        && fchown(tmp, Some(old.uid()), Some(old.gid())).is_err()
    {
        let _ = fchown(tmp, None, Some(old.gid()));
    }
    // After the owner: changing it clears the set-ID bits.
    tmp.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o777))
}

/// Gives the temporary `tmp` the permissions of the file it replaces.
#[cfg(not(unix))]
fn keep_metadata(tmp: &File, old: &std::fs::Metadata) -> io::Result<()> {
    tmp.set_permissions(old.permissions())
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(s) => s.write(b),
            Output::File { file, .. } => file.write(b),
            Output::Direct { file, .. } => file.write(b),
        }
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(s) => s.write_all(b),
            Output::File { file, .. } => file.write_all(b),
            Output::Direct { file, .. } => file.write_all(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(s) => s.flush(),
            Output::File { file, .. } => file.flush(),
            Output::Direct { file, .. } => file.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_limits_parse_with_binary_suffixes() {
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("64K"), Some(64 << 10));
        assert_eq!(parse_size("512mib"), Some(512 << 20));
        assert_eq!(parse_size(" 8G "), Some(8 << 30));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("1.5G"), None);
        assert_eq!(parse_size("99999999999T"), None);
    }

    #[track_caller]
    fn too_large_error(r: Result<Vec<u8>, CliError>) -> String {
        match r {
            Err(CliError::Failed(m)) if m.contains("too large to load") => m,
            Err(e) => panic!("{e}"),
            Ok(b) => panic!("{} bytes read", b.len()),
        }
    }

    #[test]
    fn read_all_stops_one_byte_past_the_limit() {
        // An endless input: read through `take(limit + 1)`, never further.
        let m = too_large_error(read_all(io::repeat(7), None, 10_000, "zeros", false));
        assert!(
            m.starts_with("zeros: too large to load (more than 10000 bytes"),
            "{m}"
        );
        let mut endless = io::repeat(7).take(u64::MAX);
        let _ = read_all(&mut endless, None, 10_000, "zeros", false);
        assert_eq!(
            u64::MAX - endless.limit(),
            10_001,
            "bytes taken from the input"
        );
        // At the limit is fine.
        let b = read_all(&[1u8; 10_000][..], None, 10_000, "x", false).unwrap();
        assert_eq!(b.len(), 10_000);
        // More than READ_CHUNK through a reader that returns a little at a time.
        let big = vec![3u8; (READ_CHUNK as usize) * 2 + 5];
        let b = read_all(
            io::BufReader::with_capacity(100, &big[..]),
            None,
            1 << 30,
            "x",
            false,
        )
        .unwrap();
        assert_eq!(b, big);
    }

    #[test]
    fn read_all_of_a_known_length_allocates_it_once() {
        let b = read_all(&[1u8; 5000][..], Some(5000), 10_000, "f", false).unwrap();
        assert_eq!((b.len(), b.capacity()), (5000, 5000));
        let m = too_large_error(read_all(
            &[1u8; 20_000][..],
            Some(20_000),
            10_000,
            "f",
            false,
        ));
        assert!(m.contains("(20000 bytes;"), "{m}");
        // A file that grows past the length it had is still bounded.
        too_large_error(read_all(&[1u8; 20_000][..], Some(100), 10_000, "f", false));
    }
}
