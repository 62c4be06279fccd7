//! How a command fails, and the exit code each failure gets.

use std::fmt;
use std::io;

/// A failed command.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong: exit code 2, with a hint to `--help`.
    Usage(String),
    /// A file is bad or could not be read or written: exit code 1.
    Failed(String),
    /// Whoever read standard output stopped reading (`structio view big.beve | head`): exit
    /// quietly.
    BrokenPipe,
}

impl CliError {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
            CliError::BrokenPipe => 0,
        }
    }

    /// An I/O error while working on `what` (a file name).
    pub fn io(what: &str, e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Failed(format!("{what}: {e}"))
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failed(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

/// Shorthand for a usage error.
pub fn usage<T>(message: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Usage(message.into()))
}
