//! A small command-line parser (no dependency, so the tool builds fast): long options as
//! `--name value` or `--name=value`, short flags (`-q`), `--` to end the options, and `-` as a
//! file name (standard input or output).

use crate::error::{usage, CliError};

/// One option a command accepts.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The short letter, if any.
    pub short: Option<char>,
    /// Whether it takes a value.
    pub takes_value: bool,
}

/// A flag without a value.
pub const fn flag(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes_value: false,
    }
}

/// An option with a value.
pub const fn value(long: &'static str) -> Opt {
    Opt {
        long,
        short: None,
        takes_value: true,
    }
}

/// What was given on the command line.
#[derive(Debug, Default)]
pub struct Args {
    /// File names and other operands, in order.
    pub positional: Vec<String>,
    given: Vec<(&'static str, Option<String>)>,
}

impl Args {
    /// Whether the flag was given.
    pub fn flag(&self, long: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == long)
    }

    /// The value of an option (the last one given wins).
    pub fn value(&self, long: &str) -> Option<&str> {
        self.given
            .iter()
            .rev()
            .find(|(n, _)| *n == long)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of an option parsed as a number.
    pub fn number(&self, long: &str) -> Result<Option<usize>, CliError> {
        match self.value(long) {
            None => Ok(None),
            Some(v) => match v.parse() {
                Ok(n) => Ok(Some(n)),
                Err(_) => usage(format!("--{long} needs a number, not `{v}`")),
            },
        }
    }
}

/// Parses `args` against `opts`. `--help`/`-h` is always accepted (as the flag `help`).
pub fn parse(args: &[String], opts: &[Opt]) -> Result<Args, CliError> {
    let mut out = Args::default();
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if options_done || a == "-" || !a.starts_with('-') {
            out.positional.push(a.clone());
        } else if a == "--" {
            options_done = true;
        } else if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if name == "help" {
                out.given.push(("help", None));
                continue;
            }
            let Some(opt) = opts.iter().find(|o| o.long == name) else {
                return usage(format!("unknown option `--{name}`"));
            };
            if opt.takes_value {
                let v = match inline {
                    Some(v) => v,
                    None if i < args.len() => {
                        i += 1;
                        args[i - 1].clone()
                    }
                    None => return usage(format!("`--{name}` needs a value")),
                };
                out.given.push((opt.long, Some(v)));
            } else if inline.is_some() {
                return usage(format!("`--{name}` takes no value"));
            } else {
                out.given.push((opt.long, None));
            }
        } else {
            for c in a[1..].chars() {
                if c == 'h' {
                    out.given.push(("help", None));
                    continue;
                }
                match opts.iter().find(|o| o.short == Some(c) && !o.takes_value) {
                    Some(opt) => out.given.push((opt.long, None)),
                    None => return usage(format!("unknown option `-{c}`")),
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: &[Opt] = &[flag("quiet", Some('q')), value("to"), flag("aligned", None)];

    fn p(args: &[&str]) -> Result<Args, CliError> {
        parse(
            &args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            OPTS,
        )
    }

    #[test]
    fn options_and_operands() {
        let a = p(&[
            "a.json",
            "--to",
            "beve",
            "-q",
            "-",
            "--aligned",
            "--to=json",
        ])
        .unwrap();
        assert_eq!(a.positional, ["a.json", "-"]);
        assert!(a.flag("quiet") && a.flag("aligned") && !a.flag("help"));
        assert_eq!(a.value("to"), Some("json"));
        let a = p(&["--", "--to", "-q"]).unwrap();
        assert_eq!(a.positional, ["--to", "-q"]);
        assert!(p(&["-h"]).unwrap().flag("help"));
        assert!(p(&["--help"]).unwrap().flag("help"));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        for (args, msg) in [
            (&["--nope"][..], "unknown option `--nope`"),
            (&["-x"][..], "unknown option `-x`"),
            (&["--to"][..], "`--to` needs a value"),
            (&["--aligned=1"][..], "`--aligned` takes no value"),
        ] {
            match p(args) {
                Err(CliError::Usage(m)) => assert_eq!(m, msg),
                other => panic!("{args:?}: {other:?}"),
            }
        }
    }
}
