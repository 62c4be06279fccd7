//! Where the tests' data is: the repository's golden files (`formats/`, `tests/shapes/`) and the
//! third-party data copied into `tests/data/`. All of it is in the repository; a missing file
//! fails the test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Reads a file under the repository root; panics with the path if it is missing.
pub fn read(rel: &str) -> Vec<u8> {
    let p = root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `rel` under the repository root. Panics if it is missing: a test never passes by not finding
/// its data.
pub fn path(rel: &str) -> PathBuf {
    let p = root().join(rel);
    assert!(
        p.exists(),
        "{} is missing (test data is part of the repository)",
        p.display()
    );
    p
}

/// `tests/data/<rel>`: third-party data copied into the repository (JSONTestSuite, the float
/// vectors, the JSON corpora; see `tests/data/README.md`).
pub fn data(rel: &str) -> PathBuf {
    path(&format!("tests/data/{rel}"))
}

/// The files of folder `dir` whose names end in `ext`, sorted. Panics if the folder is missing
/// or has none.
pub fn list(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(ext)))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {ext} files in {}", dir.display());
    out
}

/// The names of the seven Glaze benchmark documents.
pub const DOCS: [&str; 7] = [
    "mixed",
    "strings",
    "uints",
    "ints",
    "doubles",
    "exact_decimals",
    "bools",
];
