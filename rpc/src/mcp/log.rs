//! Log levels: what `logging/setLevel` sets and what a tool's log messages carry
//! (`notifications/message`), as RFC 5424 orders them.

use std::fmt;

/// The severity of a log message (RFC 5424's, as the MCP specification names them), least
/// severe first: a client sets the lowest it wants with `logging/setLevel`, and a message of a
/// lower level is not sent.
///
/// ```
/// use structio_rpc::mcp::LogLevel;
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(LogLevel::parse("error"), Some(LogLevel::Error));
/// assert_eq!(LogLevel::Notice.as_str(), "notice");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// A normal but significant event.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name in the protocol (`"debug"`, ..., `"emergency"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// The level named `name` in the protocol, if it is one.
    pub fn parse(name: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.as_str() == name)
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
