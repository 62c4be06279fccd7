//! Compile-time diagnostics of `#[derive(Reflect)]`: each misuse gives one clear error on the
//! offending token (and nothing else, thanks to the stub impl); the pass case checks that the
//! generated code is warning-free under `#![deny(warnings, missing_docs)]`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
