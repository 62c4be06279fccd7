//! Which vector instructions structio uses on this processor, and the switches that lower it.
//!
//! structio picks its vector paths at run time: AVX-512 (F, BW, VBMI, BMI2) for the BEVE string
//! checks, AVX2 for JSON string scanning and the rest, and the portable code (SSE2 on x86_64,
//! SWAR elsewhere) when neither is there. Each answer is asked of the processor once and then
//! read with one relaxed load.
//!
//! Two switches make a machine behave like a smaller one, so that every path can be tested
//! (and timed) on a processor that has more:
//!
//! - `STRUCTIO_SIMD` in the environment of the running program caps the level at run time:
//!   `avx512` (or `native`, or unset: whatever the processor has), `avx2` (no AVX-512 paths),
//!   `portable` (or `scalar`: no AVX2 or AVX-512 paths). It is read once, the first time a
//!   vector path asks. An unknown value caps nothing and [`vector_level_setting`] reports it.
//!   It cannot lower a build whose compile-time target features already include AVX2
//!   (`-C target-cpu=native`): such a build always uses its AVX2 paths.
//! - `STRUCTIO_PORTABLE=1` in the environment of the *build* compiles no x86 vector code at
//!   all (not even SSE2): the code that ARM, wasm and other targets run is then built and
//!   tested on x86_64 too.
//!
//! # The home of structio's `unsafe` code
//!
//! This module and its submodules hold every `unsafe` block of the crate; the crate root
//! denies `unsafe_code` and every other module forbids it. What is here is offered to the rest
//! of the crate as safe functions and types; where a safe wrapper would have added a check to a
//! hot loop, the loop itself lives here. Each `unsafe` block carries a `// SAFETY:` comment.
//!
//! - [`detect`]: what the processor has ([`detect::has_avx2`], [`detect::has_avx512`]),
//!   asked once.
//! - [`utf8`]: the AVX2 and AVX-512 UTF-8 checks, the batched check of many short strings, and
//!   text made from bytes already known to be UTF-8.
//! - [`json_scan`]: which bytes of a 16-byte block are special in a JSON string, whitespace,
//!   digits (SSE2 intrinsics; SWAR elsewhere).
//! - [`json_blocks`]: the re-formatter's 32-byte string blocks, with AVX2 the UTF-8 check in
//!   the same pass.
//! - [`json_string`]: JSON strings copied and scanned in blocks, written with escapes into
//!   reserved spare capacity and read into reused `String`s.
//! - [`spare`]: the output cursor that stores fixed-size blocks into a `Vec`'s spare capacity.
//! - [`digits16`]: the SSE2 halves of the sixteen-digit number conversions.
//! - [`beve_str`]: the strings of a BEVE string array, checked per string in place or as one
//!   stream while they are copied into reused `String`s.

pub(crate) mod beve_str;
#[cfg(structio_x86)]
pub(crate) mod detect;
#[cfg(structio_x86)]
pub(crate) mod digits16;
pub(crate) mod json_blocks;
pub(crate) mod json_scan;
pub(crate) mod json_string;
pub(crate) mod spare;
pub(crate) mod utf8;

/// The widest vector instructions structio's own code uses in this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum VectorLevel {
    /// Portable code only: SSE2 blocks on x86_64 (part of every x86_64 target), SWAR
    /// elsewhere, or no vector code at all in a `STRUCTIO_PORTABLE` build.
    Portable,
    /// AVX2 for JSON strings, escapes and the BEVE string checks.
    Avx2,
    /// AVX-512 for the BEVE string checks, AVX2 for the rest.
    Avx512,
}

impl VectorLevel {
    /// The name `STRUCTIO_SIMD` uses for this level.
    pub fn name(self) -> &'static str {
        match self {
            VectorLevel::Portable => "portable",
            VectorLevel::Avx2 => "avx2",
            VectorLevel::Avx512 => "avx512",
        }
    }
}

/// The level in force: what the processor has, capped by `STRUCTIO_SIMD`.
pub fn vector_level() -> VectorLevel {
    #[cfg(structio_x86)]
    {
        #[cfg(structio_avx512)]
        if detect::has_avx512() {
            return VectorLevel::Avx512;
        }
        if detect::has_avx2() {
            return VectorLevel::Avx2;
        }
    }
    VectorLevel::Portable
}

/// What `STRUCTIO_SIMD` says: `Ok(None)` when it is unset (or `native`), `Ok(Some(level))`
/// for a cap, `Err(text)` for a value structio does not understand (which caps nothing).
pub fn vector_level_setting() -> Result<Option<VectorLevel>, String> {
    let Some(v) = std::env::var_os("STRUCTIO_SIMD") else {
        return Ok(None);
    };
    match v.to_str().map(str::to_ascii_lowercase).as_deref() {
        Some("" | "native") => Ok(None),
        Some("avx512") => Ok(Some(VectorLevel::Avx512)),
        Some("avx2") => Ok(Some(VectorLevel::Avx2)),
        Some("portable" | "scalar" | "none") => Ok(Some(VectorLevel::Portable)),
        _ => Err(v.to_string_lossy().into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mistyped `STRUCTIO_SIMD` would silently test the wrong level: the suite refuses it,
    /// and a cap it names is what the library then uses (never more).
    #[test]
    fn the_level_switch_is_understood_and_obeyed() {
        let setting = vector_level_setting();
        assert!(
            setting.is_ok(),
            "STRUCTIO_SIMD={:?} is not a level",
            setting
        );
        let level = vector_level();
        if let Ok(Some(cap)) = setting {
            assert!(level <= cap, "{level:?} above the cap {cap:?}");
        }
        println!("vector level in force: {}", level.name());
    }
}
