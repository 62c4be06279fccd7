//! What the processor has, asked once per feature and then read with one relaxed load:
//! [`has_avx2`] for the AVX2 paths, [`has_avx512`] for the AVX-512 string checks. Each answer
//! is capped by `STRUCTIO_SIMD` ([`allowed`]). Only on x86_64 builds (`cfg(structio_x86)`);
//! elsewhere no vector path is chosen at run time.

use super::{vector_level_setting, VectorLevel};

/// Whether `STRUCTIO_SIMD` lets structio use `level` (asked once per detected feature, when it
/// is first needed).
pub(crate) fn allowed(level: VectorLevel) -> bool {
    match vector_level_setting() {
        Ok(Some(cap)) => level <= cap,
        _ => true,
    }
}

/// A yes-or-no about the processor, asked once and then read with one relaxed load.
pub(crate) struct Detected(std::sync::atomic::AtomicU8);

impl Detected {
    /// Not asked yet.
    pub(crate) const fn new() -> Self {
        Self(std::sync::atomic::AtomicU8::new(0))
    }

    /// The answer of `ask`, which runs the first time only.
    #[inline(always)]
    pub(crate) fn get(&self, ask: fn() -> bool) -> bool {
        // 0: not asked yet, 1: no, 2: yes.
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            2 => true,
            1 => false,
            _ => self.ask(ask),
        }
    }

    #[cold]
    #[inline(never)]
    fn ask(&self, ask: fn() -> bool) -> bool {
        let yes = ask();
        self.0.store(
            if yes { 2 } else { 1 },
            std::sync::atomic::Ordering::Relaxed,
        );
        yes
    }
}

/// Whether the processor has AVX2: asked once, then one relaxed load (a constant when the
/// build enables AVX2).
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    #[cfg(target_feature = "avx2")]
    {
        true
    }
    #[cfg(not(target_feature = "avx2"))]
    {
        static AVX2: Detected = Detected::new();
        AVX2.get(|| allowed(VectorLevel::Avx2) && std::arch::is_x86_feature_detected!("avx2"))
    }
}

/// Whether the processor has what the AVX-512 string checks use (AVX-512 F, BW, VBMI and
/// BMI2): asked once, then one relaxed load. Built only with Rust 1.89 or later
/// (`cfg(structio_avx512)`, set by the build script).
#[cfg(structio_avx512)]
#[clippy::msrv = "1.89"]
#[inline(always)]
pub(crate) fn has_avx512() -> bool {
    static AVX512: Detected = Detected::new();
    AVX512.get(|| {
        allowed(VectorLevel::Avx512)
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("bmi2")
    })
}
