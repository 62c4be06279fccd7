//! Enables the AVX-512 UTF-8 check (`cfg(structio_avx512)`) when the compiler is Rust 1.89 or
//! later, where AVX-512 intrinsics and target features are stable. The crate's `rust-version`
//! (1.95) is past that; an older compiler made to build it anyway uses the AVX2 check. So does a build with
//! `STRUCTIO_NO_AVX512` set in its environment: the way to test, fuzz and time the AVX2 paths
//! on a processor that has AVX-512.
//!
//! It also sets `cfg(structio_x86)` on x86_64 targets, where the x86 vector code is built;
//! `STRUCTIO_PORTABLE=1` leaves it unset so the portable code is built and tested instead.

use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=STRUCTIO_NO_AVX512");
    println!("cargo::rerun-if-env-changed=STRUCTIO_PORTABLE");
    println!("cargo::rustc-check-cfg=cfg(structio_avx512)");
    println!("cargo::rustc-check-cfg=cfg(structio_x86)");
    // docs.rs documents with `--cfg docsrs` (Cargo.toml, [package.metadata.docs.rs]).
    println!("cargo::rustc-check-cfg=cfg(docsrs)");
    // The x86 vector code (SSE2 blocks, AVX2 and AVX-512 kernels chosen at run time) is built
    // for x86_64 targets unless `STRUCTIO_PORTABLE` is set: then the portable code that other
    // targets run is built instead, so that it can be tested on x86_64.
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let portable = std::env::var_os("STRUCTIO_PORTABLE").is_some_and(|v| !v.is_empty() && v != "0");
    if arch != "x86_64" || !features.split(',').any(|f| f == "sse2") || portable {
        return;
    }
    println!("cargo::rustc-cfg=structio_x86");
    if std::env::var_os("STRUCTIO_NO_AVX512").is_some() {
        return;
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)": the minor number after "1.".
    let text = String::from_utf8_lossy(&out.stdout);
    let minor = text
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo::rustc-cfg=structio_avx512");
    }
}
