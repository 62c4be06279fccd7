//! How a command fails, and the exit code each failure gets.

use std::borrow::Cow;
use std::fmt;
use std::io;

/// The most characters of user data (a file name, a key, a path, a value) a message quotes:
/// longer ones are cut, with an ellipsis.
pub const MAX_QUOTE: usize = 200;

/// The most characters of one line of a message, whatever it quotes.
pub const MAX_LINE: usize = 1000;

/// The most lines of one message.
pub const MAX_LINES: usize = 20;

/// `s` cut to at most `max` characters (on a character boundary), ending in `…` when cut.
pub fn clip(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some(_) => {
            // Room for the ellipsis.
            let keep = s
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(s.len(), |(i, _)| i);
            Cow::Owned(format!("{}…", &s[..keep]))
        }
    }
}

/// User data quoted in a message: `s` cut to [`MAX_QUOTE`] characters.
pub fn quote(s: &str) -> Cow<'_, str> {
    clip(s, MAX_QUOTE)
}

/// A message as printed: each line cut to [`MAX_LINE`] characters and at most [`MAX_LINES`]
/// lines, so that no input (a megabyte key in an error's path, a file name full of newlines)
/// makes a message long.
pub fn bounded(message: &str) -> String {
    let mut out = String::new();
    for (i, line) in message.split('\n').enumerate() {
        if i == MAX_LINES {
            out.push_str("\n…");
            break;
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&clip(line, MAX_LINE));
    }
    out
}

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
            CliError::Failed(format!("{}: {e}", quote(what)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_long_text_on_a_char_boundary() {
        assert_eq!(clip("short", 200), "short");
        assert_eq!(clip("abcdef", 6), "abcdef");
        assert_eq!(clip("abcdefg", 6), "abcde…");
        // Multi-byte characters are never split.
        let s = "é".repeat(300);
        let c = clip(&s, 200);
        assert_eq!(c.chars().count(), 200);
        assert!(c.ends_with("é…"));
        assert_eq!(quote(&"k".repeat(1 << 20)).chars().count(), MAX_QUOTE);
    }

    #[test]
    fn bounded_messages_have_short_lines_and_few_of_them() {
        let m = format!(
            "bad at 1:2, path $.{}\n   snippet\n   ^",
            "k".repeat(1 << 20)
        );
        let b = bounded(&m);
        assert!(b.len() < MAX_LINE * 2 + 40, "{}", b.len());
        assert!(b.ends_with("…\n   snippet\n   ^"));
        let many = "x\n".repeat(1 << 20);
        assert!(bounded(&many).lines().count() <= MAX_LINES + 1);
        assert_eq!(bounded("plain"), "plain");
    }
}
