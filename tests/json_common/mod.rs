//! Helpers shared by the JSON integration tests.

use std::path::{Path, PathBuf};

/// `shared/<rel>` (the project's read-only test data), found at `../shared` from the crate
/// root, or `../../shared` when the crate is a worktree one level deeper. `None`, after
/// printing why, when it is absent (a user's clone): the test then skips.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for up in ["..", "../.."] {
        let p = root.join(up).join("shared").join(rel);
        if p.exists() {
            return Some(p);
        }
    }
    println!("skipped: ../shared/{rel} is absent");
    None
}

/// A file of the repository (`formats/...`).
pub fn repo_file(rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}
