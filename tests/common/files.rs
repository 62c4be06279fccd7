//! Where the tests' data is: the repository's own files (`formats/`, `tests/`) and the
//! project's read-only `shared/` folder, which a user's clone does not have.
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

/// `shared/<rel>`, found at `../shared` from the crate root, or `../../shared` when the crate
/// is a worktree one level deeper. `None`, after printing why, when it is absent (a user's
/// clone): the test then skips.
pub fn shared(rel: &str) -> Option<PathBuf> {
    for up in ["..", "../.."] {
        let p = root().join(up).join("shared").join(rel);
        if p.exists() {
            return Some(p);
        }
    }
    println!("skipped: ../shared/{rel} is absent");
    None
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
