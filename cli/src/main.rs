//! `structio`: convert, pretty-print, minify, validate, view and measure JSON and BEVE files,
//! without a schema (documents are handled as bytes or as [`structio::Value`]).
//!
//! Exit codes: 0 success, 1 a bad or unreadable file, 2 a wrong command line.

mod args;
mod beve_out;
mod commands;
mod error;
mod files;
mod json_out;
mod paint;
mod path;
mod scan;
mod stats;

use error::CliError;

const USAGE: &str = "\
structio: JSON, NDJSON and BEVE files from the command line

Usage: structio <command> [options] [files]

Commands:
  convert IN OUT      convert between JSON, NDJSON, BEVE and delimited BEVE
  pretty [IN] [OUT]   lay JSON out one value per line (BEVE input becomes pretty JSON)
  minify [IN] [OUT]   remove the whitespace from JSON (BEVE input becomes compact JSON)
  validate FILE...    check that files are well-formed; exit 1 if any is not
  view [FILE]         show a file as pretty JSON, colored on a terminal
  stats [FILE]        count values by type, sizes, and the bytes of each top-level part

A file named `-` is standard input or output; a missing IN is standard input, a missing OUT
standard output. The format comes from `--from`/`--to`, else the extension (.json, .beve,
.ndjson or .jsonl), else (for input) from the first byte. NDJSON input (one record per line)
is read as the JSON array of its records by every command, and delimited BEVE input (values
separated by the data delimiter 0x06, `--from beve-delimited`; BEVE that starts with 0x06 is
taken for it) as the BEVE array of its values.

Every input is read whole into memory, at most 4 GiB of it: the environment variable
STRUCTIO_MAX_INPUT sets another limit, in bytes or with K, M or G (`STRUCTIO_MAX_INPUT=16G`).
A larger input, or one memory cannot hold, is an error.

An output file is written under a temporary name in its folder and renamed into place when
the command succeeded. Replacing a file keeps its permission bits (and, where allowed, its
owner and group); an OUT that is a symbolic link stays one, and the file it points to is
replaced. A file with several hard links is split from its other names by the rename: they
keep the old content. Devices and FIFOs (/dev/null) are written to directly.

Options:
  -h, --help          help for structio or for a command (`structio convert --help`)
  -V, --version       the version

Exit codes: 0 success, 1 a bad or unreadable file, 2 a wrong command line.";

/// Help for one command.
fn command_help(command: &str) -> Option<&'static str> {
    Some(match command {
        "convert" => {
            "\
Usage: structio convert [options] IN OUT

Converts JSON to BEVE, BEVE to JSON (or JSON to compact JSON, BEVE to BEVE). The output format
is `--to`, else OUT's extension, else the other format. JSON output is compact unless
`--pretty`. The output file appears only when the whole conversion succeeded.

NDJSON input becomes the array of its records; NDJSON output (`--to ndjson`, or an OUT ending
in .ndjson or .jsonl) writes each element of a top-level array as one compact line, with
`\n` between lines and none after the last (Glaze's write_ndjson). Delimited BEVE works the
same way (`--to beve-delimited`: the elements as BEVE values with the data delimiter 0x06
between them, Glaze's write_beve_delimited).

Options:
  --from FORMAT             json, beve, ndjson or beve-delimited (default: the extension,
                            else a guess)
  --to FORMAT               the output format (as --from)
  --typed                   JSON to BEVE: arrays of only numbers, only booleans or only
                            strings become typed arrays (as Glaze writes a std::vector<double>)
  --aligned                 BEVE output: numeric typed arrays aligned in the file
  --pretty                  JSON output: one value per line
  --indent N                JSON output with --pretty: spaces per level (default 3)"
        }
        "pretty" => {
            "\
Usage: structio pretty [options] [IN] [OUT]

Lays JSON out as Glaze's prettify does: one value per line, `\"key\": value`, 3 spaces per
level. Strings and numbers are copied as they are. BEVE input is written as pretty JSON.

Options:
  --from FORMAT             json, beve, ndjson or beve-delimited
  --indent N                spaces per level (default 3)"
        }
        "minify" => {
            "\
Usage: structio minify [options] [IN] [OUT]

Removes all whitespace outside strings. BEVE input is written as compact JSON.

Options:
  --from FORMAT             json, beve, ndjson or beve-delimited"
        }
        "validate" => {
            "\
Usage: structio validate [options] FILE...

Checks that each file is exactly one well-formed JSON or BEVE value, or well-formed NDJSON
(one value per line). Prints `FILE: ok` for good files and the error for bad ones (JSON and
NDJSON: line, column, path and the line with a caret; BEVE: byte offset and path). Exit code
1 if any file is bad.

Options:
  --from FORMAT             json, beve, ndjson or beve-delimited, for every file
  -q, --quiet               print nothing for good files"
        }
        "view" => {
            "\
Usage: structio view [options] [FILE]

Shows a file (BEVE or JSON) as pretty JSON on standard output, colored on a terminal.

Options:
  --path PATH               show only this part: `$.a[3]`, `$[\"odd key\"].b`, or a JSON pointer `/a/3`
  --color WHEN              auto (default: on a terminal, unless NO_COLOR is set), always, never
  --indent N                spaces per level (default 3)
  --from FORMAT             json, beve, ndjson or beve-delimited"
        }
        "stats" => {
            "\
Usage: structio stats [options] [FILE]

Counts the values of a document by type and number kind, sizes of strings, arrays and
objects, the nesting depth, and the bytes each top-level member or element takes.

Options:
  --top N                   list the N largest top-level parts (default 20)
  --from FORMAT             json, beve, ndjson or beve-delimited"
        }
        _ => return None,
    })
}

/// Runs the command line; `Ok` means exit 0.
fn run(argv: Vec<String>) -> Result<(), CliError> {
    let Some(command) = argv.first() else {
        eprintln!("{USAGE}");
        return Err(CliError::Usage(String::new()));
    };
    match command.as_str() {
        "-h" | "--help" | "help" => {
            match argv.get(1).map(|c| (c, command_help(c))) {
                Some((_, Some(h))) => println!("{h}"),
                Some((c, None)) => return error::usage(format!("unknown command `{c}`")),
                None => println!("{USAGE}"),
            }
            return Ok(());
        }
        "-V" | "--version" => {
            println!("structio {}", env!("CARGO_PKG_VERSION"));
            return Ok(());
        }
        _ => {}
    }
    let Some(help) = command_help(command) else {
        return error::usage(format!("unknown command `{command}`"));
    };
    let parsed = args::parse(&argv[1..], commands::options(command))
        .map_err(|e| CliError::Usage(format!("{command}: {e}")))?;
    if parsed.flag("help") {
        println!("{help}");
        return Ok(());
    }
    // A bad STRUCTIO_MAX_INPUT is a wrong command line, found before any file is read.
    files::max_input()?;
    commands::run(command, &parsed)
}

fn main() {
    // A panic is a bug in structio; say so in one line instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("structio: internal error (please report it): {info}");
    }));
    let mut argv = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => argv.push(s),
            Err(a) => {
                let a = format!("{a:?}");
                eprintln!("structio: argument {} is not valid UTF-8", error::quote(&a));
                std::process::exit(2);
            }
        }
    }
    if let Err(e) = run(argv) {
        match &e {
            CliError::Usage(m) if !m.is_empty() => eprintln!(
                "structio: {}\nRun `structio --help` for the commands and options.",
                error::bounded(m)
            ),
            CliError::Failed(m) if !m.is_empty() => eprintln!("structio: {}", error::bounded(m)),
            _ => {}
        }
        std::process::exit(e.exit_code());
    }
}
