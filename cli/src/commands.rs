//! The commands: convert, pretty, minify, validate, view, stats.
//!
//! Each reads its input once, whole. JSON that only changes layout (pretty, minify, validate)
//! is worked on as bytes, never as a tree. BEVE becomes JSON by replaying its bytes into the
//! streaming [`json_out::stream`] (no tree either); only JSON -> BEVE, `--path` and `stats` build a
//! [`Value`], and the input is dropped before the output is written.

use std::io::{IsTerminal, Write};

use structio::beve::{BeveReader, BeveWriter, Delimited, DelimitedWriter, DELIMITER};
use structio::json::{JsonLines, LinesWriter, PrettyOptions};
use structio::value::TypedArray;
use structio::{ReadOptions, Reader, Reflect, Value, Writer};

use crate::args::{self, Args, Opt};
use crate::beve_out::BeveOut;
use crate::error::{quote, usage, CliError};
use crate::files::{display_name, read_input, Format, Output};
use crate::json_out::{self, Job, Layout};
use crate::paint;
use crate::scan::{Pick, Tally};

/// The options of each command, for the parser.
pub fn options(command: &str) -> &'static [Opt] {
    const FROM: Opt = args::value("from");
    const INDENT: Opt = args::value("indent");
    const CONVERT: &[Opt] = &[
        FROM,
        args::value("to"),
        args::flag("aligned", None),
        args::flag("typed", None),
        args::flag("pretty", None),
        INDENT,
    ];
    const PRETTY: &[Opt] = &[FROM, INDENT];
    const MINIFY: &[Opt] = &[FROM];
    const VALIDATE: &[Opt] = &[FROM, args::flag("quiet", Some('q'))];
    const VIEW: &[Opt] = &[FROM, INDENT, args::value("path"), args::value("color")];
    const STATS: &[Opt] = &[FROM, args::value("top")];
    match command {
        "convert" => CONVERT,
        "pretty" => PRETTY,
        "minify" => MINIFY,
        "validate" => VALIDATE,
        "view" => VIEW,
        "stats" => STATS,
        _ => &[],
    }
}

/// Runs `command` with its parsed arguments.
pub fn run(command: &str, a: &Args) -> Result<(), CliError> {
    match command {
        "convert" => convert(a),
        "pretty" => pretty(a),
        "minify" => minify(a),
        "validate" => validate(a),
        "view" => view(a),
        "stats" => stats(a),
        _ => usage(format!("unknown command `{command}`")),
    }
}

/// What a loaded document's bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// JSON text (NDJSON input is held as the JSON array of its records).
    Json,
    /// BEVE (delimited BEVE input is held as the BEVE array of its values).
    Beve,
}

/// A document read into memory. NDJSON and delimited BEVE input are checked as they are
/// loaded and kept as the array of their records, so every command treats them as that array.
struct Doc {
    name: String,
    bytes: Vec<u8>,
    format: Held,
    /// For NDJSON or delimited BEVE input, how many records it held.
    records: Option<usize>,
    /// The size of the input as read.
    size: usize,
}

impl Doc {
    fn load(path: &str, a: &Args) -> Result<Doc, CliError> {
        let from = a.value("from").map(Format::parse).transpose()?;
        let bytes = read_input(path)?;
        let name = display_name(path);
        let size = bytes.len();
        let failed = |e: structio::Error| CliError::Failed(format!("{name}: {}", error_text(&e)));
        let (bytes, format, records) = match Format::of_input(from, path, &bytes) {
            Format::Ndjson => {
                let (array, n) = ndjson_as_array(&bytes).map_err(failed)?;
                (array, Held::Json, Some(n))
            }
            Format::BeveDelimited => {
                let (array, n) = delimited_as_array(&bytes).map_err(failed)?;
                (array, Held::Beve, Some(n))
            }
            Format::Json => (bytes, Held::Json, None),
            Format::Beve => (bytes, Held::Beve, None),
        };
        Ok(Doc {
            name,
            bytes,
            format,
            records,
            size,
        })
    }

    /// The format the input was in.
    fn input_format(&self) -> Format {
        match (self.format, self.records) {
            (Held::Json, Some(_)) => Format::Ndjson,
            (Held::Beve, Some(_)) => Format::BeveDelimited,
            (Held::Json, None) => Format::Json,
            (Held::Beve, None) => Format::Beve,
        }
    }

    /// An error about this document; BEVE followed by the data delimiter gets a hint.
    fn bad(&self, e: structio::Error) -> CliError {
        let delimited = self.format == Held::Beve
            && self.records.is_none()
            && e.category() == structio::Category::Syntax
            && self.bytes.get(e.offset()) == Some(&DELIMITER);
        let hint = if delimited {
            " (values separated by the data delimiter 0x06: read them with --from beve-delimited)"
        } else {
            ""
        };
        CliError::Failed(format!("{}: {}{hint}", self.name, error_text(&e)))
    }

    /// An error found by a pass that does not track paths (validation, reformatting,
    /// replaying BEVE), given the path by reading the document as a [`Value`], when that
    /// stops at the same place for the same reason.
    fn bad_with_path(&self, e: structio::Error) -> CliError {
        let again = match self.format {
            Held::Json => structio::from_json::<Value>(&self.bytes).err(),
            Held::Beve => structio::from_beve::<Value>(&self.bytes).err(),
        };
        match again {
            Some(a) if a.offset() == e.offset() && a.message() == e.message() => self.bad(a),
            _ => self.bad(e),
        }
    }

    /// Checks the document is one well-formed value.
    fn validate(&self) -> Result<(), CliError> {
        let r = match self.format {
            Held::Json => structio::json::validate(&self.bytes),
            Held::Beve => {
                let mut r = BeveReader::new(&self.bytes, ReadOptions::default());
                r.skip_value().and_then(|()| r.finish())
            }
        };
        r.map_err(|e| self.bad_with_path(e))
    }

    /// The document as a [`Value`].
    fn value(&self) -> Result<Value, CliError> {
        match self.format {
            Held::Json => structio::from_json(&self.bytes),
            Held::Beve => structio::from_beve(&self.bytes),
        }
        .map_err(|e| self.bad(e))
    }

    /// Writes the document as JSON text into `out` without building a tree: JSON is laid out
    /// again from its bytes (numbers keep their spelling), BEVE is replayed into [`json_out::stream`].
    fn write_json(&self, out: &mut Output, layout: Layout) -> Result<(), CliError> {
        let oname = out.name();
        match self.format {
            Held::Json => {
                let text = if layout.pretty {
                    let opts = PrettyOptions {
                        indent: layout.indent,
                        ..PrettyOptions::default()
                    };
                    structio::json::prettify_with(&self.bytes, &opts)
                } else {
                    structio::minify(&self.bytes)
                }
                .map_err(|e| self.bad_with_path(e))?;
                if layout.color {
                    paint::paint(text.as_bytes(), out)
                } else {
                    out.write_all(text.as_bytes())
                }
                .map_err(|e| CliError::io(&oname, e))?;
            }
            Held::Beve => {
                /// BEVE replayed into the JSON writer.
                struct Transcode<'b>(&'b [u8]);
                impl Job for Transcode<'_> {
                    type Output = structio::Result<()>;
                    fn run<W: structio::Writer>(self, w: &mut W) -> Self::Output {
                        structio::beve::transcode(self.0, w)
                    }
                }
                let (r, written) = json_out::stream(&mut *out, layout, Transcode(&self.bytes));
                written.map_err(|e| CliError::io(&oname, e))?;
                r.map_err(|e| self.bad_with_path(e))?;
            }
        }
        Ok(())
    }
}

/// A library error as a message, the user data it quotes (a key, the path) cut to
/// [`crate::error::MAX_QUOTE`] characters: a document with a megabyte key gets a short message.
fn error_text(e: &structio::Error) -> String {
    let mut text = e.to_string();
    let path = e.path();
    if quote(&path).len() < path.len() {
        text = text.replacen(&path, &quote(&path), 1);
    }
    if let Some(key) = e.key() {
        if quote(key).len() < key.len() {
            text = text.replace(key, &quote(key));
        }
    }
    text
}

/// The options records are checked with: one level less deep than a document, so that the
/// array holding them stays within the limit.
fn record_options() -> ReadOptions {
    ReadOptions {
        max_depth: ReadOptions::default().max_depth - 1,
        ..ReadOptions::default()
    }
}

/// The records of NDJSON text as the text of one JSON array (`[r1,r2,...]`), and their count.
/// Records are checked with [`record_options`].
fn ndjson_as_array(text: &[u8]) -> Result<(Vec<u8>, usize), structio::Error> {
    let mut out = Vec::with_capacity(text.len() + 2);
    out.push(b'[');
    let mut n = 0;
    for record in JsonLines::with_options(text, record_options()) {
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(record?);
        n += 1;
    }
    out.push(b']');
    Ok((out, n))
}

/// The values of delimited BEVE as one BEVE array (a generic array of them), and their count.
/// Values are checked with [`record_options`].
fn delimited_as_array(bytes: &[u8]) -> Result<(Vec<u8>, usize), structio::Error> {
    let values =
        Delimited::with_options(bytes, record_options()).collect::<Result<Vec<&[u8]>, _>>()?;
    let mut w = BeveWriter::new(Vec::with_capacity(bytes.len() + 9));
    w.begin_array(values.len());
    let mut out = w.into_inner();
    for v in &values {
        out.extend_from_slice(v);
    }
    Ok((out, values.len()))
}

/// Writes the elements of `v`, which must be an array, as a sequence of records: NDJSON
/// (Glaze's `write_ndjson` layout) or delimited BEVE (`write_beve_delimited`'s).
fn write_records(v: &Value, to: Format, out: &mut Output, name: &str) -> Result<(), CliError> {
    let typed;
    let items = match v {
        Value::Array(items) => &items[..],
        Value::Typed(t) => {
            typed = t.to_values();
            &typed[..]
        }
        _ => {
            return Err(CliError::Failed(format!(
                "{name}: {} output needs a top-level array (each element becomes one record), \
                 not {}",
                to.name(),
                crate::path::describe(v)
            )))
        }
    };
    let bytes = if to == Format::Ndjson {
        let mut w = LinesWriter::new();
        items.iter().for_each(|x| w.push(x));
        w.into_bytes()
    } else {
        let mut w = DelimitedWriter::new();
        items.iter().for_each(|x| w.push(x));
        w.into_bytes()
    };
    out.write_all(&bytes)
        .map_err(|e| CliError::io(&out.name(), e))
}

/// Opens an output, checks binary output is not going to a terminal.
fn open_output(path: &str, format: Format) -> Result<Output, CliError> {
    let out = Output::open(path)?;
    if format.is_binary() && out.is_terminal() {
        return usage(
            "refusing to write binary BEVE to a terminal: give an output file or redirect",
        );
    }
    Ok(out)
}

/// Ends text written to standard output with a newline; files get exactly the JSON text.
fn end_text(out: &mut Output, text_written: bool) -> Result<(), CliError> {
    if text_written && matches!(out, Output::Stdout(_)) {
        out.write_all(b"\n")
            .map_err(|e| CliError::io("<stdout>", e))?;
    }
    Ok(())
}

/// The indent width (`--indent`, default 3 as Glaze).
fn indent(a: &Args) -> Result<usize, CliError> {
    match a.number("indent")? {
        Some(n) if n > 16 => usage("--indent is at most 16"),
        n => Ok(n.unwrap_or(3)),
    }
}

/// Standard input, when no file was named: unless it is a terminal, where waiting for a
/// document to be typed is more likely a forgotten file name (`-` still reads a terminal).
fn implicit_stdin(command: &str) -> Result<String, CliError> {
    if std::io::stdin().is_terminal() {
        return usage(format!(
            "`{command}` needs a file, or a document piped into it"
        ));
    }
    Ok("-".into())
}

/// `[IN] [OUT]`, both defaulting to `-`.
fn in_out(a: &Args, command: &str) -> Result<(String, String), CliError> {
    match a.positional.as_slice() {
        [] => Ok((implicit_stdin(command)?, "-".into())),
        [i] => Ok((i.clone(), "-".into())),
        [i, o] => Ok((i.clone(), o.clone())),
        _ => usage(format!(
            "`{command}` takes an input and an output file at most"
        )),
    }
}

fn convert(a: &Args) -> Result<(), CliError> {
    let [input, output] = a.positional.as_slice() else {
        return usage("`convert` needs an input and an output file (`-` for stdin/stdout)");
    };
    let to = a.value("to").map(Format::parse).transpose()?;
    let layout = Layout {
        pretty: a.flag("pretty"),
        indent: indent(a)?,
        color: false,
    };
    let check = |to: Format| {
        if (a.flag("aligned") || a.flag("typed")) && to != Format::Beve {
            return usage("--aligned and --typed apply to BEVE output");
        }
        if (a.flag("pretty") || a.value("indent").is_some()) && to != Format::Json {
            return usage("--pretty and --indent apply to JSON output");
        }
        Ok(())
    };
    // Mistakes that the command line shows are reported before the input is read.
    let to = to.or(Format::from_path(output));
    if let Some(to) = to {
        check(to)?;
    }
    let doc = Doc::load(input, a)?;
    let to = to.unwrap_or(match doc.format {
        Held::Json => Format::Beve,
        Held::Beve => Format::Json,
    });
    check(to)?;
    let mut out = open_output(output, to)?;
    let oname = out.name();
    match (doc.format, to) {
        (_, Format::Json) => {
            doc.write_json(&mut out, layout)?;
            end_text(&mut out, true)?;
        }
        (_, Format::Ndjson | Format::BeveDelimited) => {
            let v = doc.value()?;
            let name = doc.name.clone();
            drop(doc);
            write_records(&v, to, &mut out, &name)?;
            if to == Format::Ndjson {
                end_text(&mut out, true)?;
            }
        }
        (Held::Json, Format::Beve) => {
            let mut v = doc.value()?;
            drop(doc);
            if a.flag("typed") {
                pack_typed(&mut v);
            }
            let mut w = BeveOut::new(&mut out, a.flag("aligned"));
            v.write(&mut w);
            w.finish().map_err(|e| CliError::io(&oname, e))?;
        }
        (Held::Beve, Format::Beve) => {
            let mut w = BeveOut::new(&mut out, a.flag("aligned"));
            let r = structio::beve::transcode(&doc.bytes, &mut w);
            w.finish().map_err(|e| CliError::io(&oname, e))?;
            r.map_err(|e| doc.bad_with_path(e))?;
        }
    }
    out.commit()
}

/// Turns every non-empty array whose elements are all numbers, all booleans or all strings
/// into a typed array (numbers of one kind keep it; a mix becomes the kind that holds every
/// one exactly, see [`TypedArray::from_values`]): BEVE then writes them as Glaze writes a
/// `std::vector<double>` or `std::vector<std::string>`.
fn pack_typed(root: &mut Value) {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        if let Value::Array(items) = v {
            let scalars = !items.is_empty()
                && items
                    .iter()
                    .all(|x| matches!(x, Value::Number(_) | Value::Bool(_) | Value::String(_)));
            if let Some(t) = scalars.then(|| TypedArray::from_values(items)).flatten() {
                *v = Value::Typed(t);
                continue;
            }
        }
        match v {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(m) => stack.extend(m.values_mut()),
            Value::IntObject(m) => stack.extend(m.iter_mut().map(|(_, x)| x)),
            _ => {}
        }
    }
}

fn pretty(a: &Args) -> Result<(), CliError> {
    let (input, output) = in_out(a, "pretty")?;
    let doc = Doc::load(&input, a)?;
    let mut out = open_output(&output, Format::Json)?;
    let layout = Layout {
        pretty: true,
        indent: indent(a)?,
        color: false,
    };
    doc.write_json(&mut out, layout)?;
    end_text(&mut out, true)?;
    out.commit()
}

fn minify(a: &Args) -> Result<(), CliError> {
    let (input, output) = in_out(a, "minify")?;
    let doc = Doc::load(&input, a)?;
    let mut out = open_output(&output, Format::Json)?;
    let layout = Layout {
        pretty: false,
        indent: 0,
        color: false,
    };
    doc.write_json(&mut out, layout)?;
    end_text(&mut out, true)?;
    out.commit()
}

fn validate(a: &Args) -> Result<(), CliError> {
    if a.positional.is_empty() {
        return usage("`validate` needs at least one file (`-` for stdin)");
    }
    let quiet = a.flag("quiet");
    let mut failed = 0;
    for path in &a.positional {
        let r = Doc::load(path, a).and_then(|doc| {
            doc.validate()?;
            Ok(doc)
        });
        match r {
            Ok(doc) if !quiet => {
                let records = doc
                    .records
                    .map_or(String::new(), |n| format!(", {n} records"));
                println!(
                    "{}: ok ({}{records}, {} bytes)",
                    doc.name,
                    doc.input_format().name(),
                    doc.size
                )
            }
            Ok(_) => {}
            Err(e) => {
                failed += 1;
                eprintln!("{}", crate::error::bounded(&e.to_string()));
            }
        }
    }
    match failed {
        0 => Ok(()),
        1 if a.positional.len() == 1 => Err(CliError::Failed(String::new())),
        n => Err(CliError::Failed(format!(
            "{n} of {} files are not valid",
            a.positional.len()
        ))),
    }
}

/// Whether to color: `--color always|never|auto`; auto colors a terminal unless `NO_COLOR`
/// is set to something.
fn use_color(a: &Args) -> Result<bool, CliError> {
    match a.value("color").unwrap_or("auto") {
        "always" => Ok(true),
        "never" => Ok(false),
        "auto" => Ok(std::io::stdout().is_terminal()
            && !matches!(std::env::var_os("NO_COLOR"), Some(v) if !v.is_empty())),
        other => usage(format!(
            "--color takes `auto`, `always` or `never`, not `{other}`"
        )),
    }
}

fn view(a: &Args) -> Result<(), CliError> {
    let input = match a.positional.as_slice() {
        [] => implicit_stdin("view")?,
        [i] => i.clone(),
        _ => return usage("`view` shows one file"),
    };
    let layout = Layout {
        pretty: true,
        indent: indent(a)?,
        color: use_color(a)?,
    };
    let steps = a.value("path").map(crate::path::parse).transpose();
    let steps = steps.map_err(CliError::Usage)?;
    let doc = Doc::load(&input, a)?;
    let mut out = Output::open("-")?;
    match steps {
        None => doc.write_json(&mut out, layout)?,
        Some(steps) => {
            let mut pick = Pick::new(steps);
            match doc.format {
                Held::Json => structio::read_json(&mut pick, &doc.bytes),
                Held::Beve => structio::read_beve(&mut pick, &doc.bytes),
            }
            .map_err(|e| doc.bad_with_path(e))?;
            let part = match (pick.found, pick.missing) {
                (Some(part), _) => part,
                (None, m) => {
                    let m = m.unwrap_or_else(|| "nothing found".into());
                    return Err(CliError::Failed(format!("{}: {m}", doc.name)));
                }
            };
            drop(doc.bytes);
            let (_, written) = json_out::stream(&mut out, layout, json_out::Value(&part));
            written.map_err(|e| CliError::io("<stdout>", e))?;
        }
    }
    end_text(&mut out, true)?;
    out.commit()
}

fn stats(a: &Args) -> Result<(), CliError> {
    let input = match a.positional.as_slice() {
        [] => implicit_stdin("stats")?,
        [i] => i.clone(),
        _ => return usage("`stats` measures one file"),
    };
    let top = a.number("top")?.unwrap_or(20);
    let doc = Doc::load(&input, a)?;
    // The walk keeps the `top` largest parts only: memory does not grow with the document.
    let json = (doc.format == Held::Json).then_some(&doc.bytes[..]);
    let mut tally = Tally::new(top, json);
    match doc.format {
        Held::Json => structio::read_json(&mut tally, &doc.bytes),
        Held::Beve => structio::read_beve(&mut tally, &doc.bytes),
    }
    .map_err(|e| doc.bad_with_path(e))?;
    // NDJSON is measured as the array of its records (sizes of its parts as written compact).
    let report = crate::stats::report(&doc.name, doc.input_format(), doc.size, &tally);
    let mut out = Output::open("-")?;
    out.write_all(report.as_bytes())
        .map_err(|e| CliError::io("<stdout>", e))?;
    out.commit()
}
