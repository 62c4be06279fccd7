//! Files in and out: which format a file is in, reading it whole (in chunks, with a progress
//! line for large inputs on a terminal), and writing output so that a failed command leaves no
//! half-written file behind. `-` is standard input or output.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// Reads a whole file (`-`: standard input), in chunks, with a progress line on stderr for
/// large inputs when stderr is a terminal.
pub fn read_input(path: &str) -> Result<Vec<u8>, CliError> {
    let name = display_name(path);
    let show = io::stderr().is_terminal();
    if path == "-" {
        return read_all(io::stdin().lock(), None, &name, show);
    }
    let file = File::open(path).map_err(|e| CliError::io(path, e))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(CliError::Failed(format!("{name}: is a directory")));
    }
    let len = file.metadata().ok().map(|m| m.len());
    read_all(file, len, &name, show)
}

fn read_all(
    mut r: impl Read,
    total: Option<u64>,
    name: &str,
    show: bool,
) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    if let Some(n) = total {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        buf.try_reserve_exact(n)
            .map_err(|_| CliError::Failed(format!("{name}: too large to load ({n} bytes)")))?;
    }
    let mut progress = Progress::new(name, total, show);
    loop {
        let n = (&mut r)
            .take(READ_CHUNK)
            .read_to_end(&mut buf)
            .map_err(|e| CliError::io(name, e))?;
        if n == 0 {
            break;
        }
        progress.update(buf.len() as u64);
    }
    progress.finish();
    Ok(buf)
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

/// Where output goes: standard output, or a file written under a temporary name beside it and
/// renamed into place by [`Output::commit`] (dropped without it, the temporary is removed).
pub enum Output {
    /// Standard output.
    Stdout(io::StdoutLock<'static>),
    /// A file being written.
    File {
        /// The temporary file.
        file: BufWriter<File>,
        /// Its name.
        tmp: PathBuf,
        /// The name it gets when done.
        dest: PathBuf,
        /// Set once renamed.
        done: bool,
    },
}

impl Output {
    /// Opens `path` (`-`: standard output) for writing.
    pub fn open(path: &str) -> Result<Output, CliError> {
        if path == "-" {
            return Ok(Output::Stdout(io::stdout().lock()));
        }
        let dest = PathBuf::from(path);
        let file_name = dest
            .file_name()
            .ok_or_else(|| CliError::Failed(format!("{path}: not a file name")))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        tmp_name.push(format!(".structio-{}.tmp", std::process::id()));
        let tmp = dest.with_file_name(tmp_name);
        let file = File::create(&tmp).map_err(|e| CliError::io(path, e))?;
        Ok(Output::File {
            file: BufWriter::with_capacity(1 << 20, file),
            tmp,
            dest,
            done: false,
        })
    }

    /// Whether this is standard output and that is a terminal.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Output::Stdout(s) if s.is_terminal())
    }

    /// The name for messages.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "<stdout>".into(),
            Output::File { dest, .. } => quote(&dest.display().to_string()).into_owned(),
        }
    }

    /// Flushes, and gives a file its final name.
    pub fn commit(mut self) -> Result<(), CliError> {
        let name = self.name();
        match &mut self {
            Output::Stdout(s) => s.flush().map_err(|e| CliError::io(&name, e)),
            Output::File {
                file,
                tmp,
                dest,
                done,
            } => {
                file.flush().map_err(|e| CliError::io(&name, e))?;
                std::fs::rename(&*tmp, &*dest).map_err(|e| CliError::io(&name, e))?;
                *done = true;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(s) => s.write(b),
            Output::File { file, .. } => file.write(b),
        }
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(s) => s.write_all(b),
            Output::File { file, .. } => file.write_all(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(s) => s.flush(),
            Output::File { file, .. } => file.flush(),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Output::File {
            tmp, done: false, ..
        } = self
        {
            let _ = std::fs::remove_file(&*tmp);
        }
    }
}
