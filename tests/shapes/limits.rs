//! Types that stress the budgets that hold across a whole input and for every element type
//! (the re-read budget of a delimited sequence, the reservation for a claimed count, the stack
//! taken by nesting types with large inline data), and the oracle of the `limits` fuzz target.

use structio::Reflect;

/// An untagged enum whose first variant fails only at the bottom of a nest, so that reading it
/// re-reads the nest once per level and per variant.
#[derive(Reflect, Debug, PartialEq)]
#[structio(untagged)]
pub enum Nest {
    Pair((Vec<Nest>, u8)),
    List(Vec<Nest>),
}

impl Default for Nest {
    fn default() -> Self {
        Nest::List(Vec::new())
    }
}

/// An element that takes 4 KiB in memory.
#[derive(Reflect, Debug, Clone)]
pub struct Blob {
    pub bytes: [u8; 4096],
}

impl Default for Blob {
    fn default() -> Self {
        Blob { bytes: [0; 4096] }
    }
}

/// A struct with 32 KiB of inline data that nests through a `Vec` of itself.
#[derive(Reflect, Debug)]
pub struct Huge {
    pub data: [u64; 4096],
    pub kids: Vec<Huge>,
}

impl Default for Huge {
    fn default() -> Self {
        Huge {
            data: [0; 4096],
            kids: Vec::new(),
        }
    }
}

/// The same nesting through `Option<Box<_>>`.
#[derive(Reflect, Debug)]
pub struct HugeChain {
    pub data: [u64; 4096],
    pub next: Option<Box<HugeChain>>,
}

impl Default for HugeChain {
    fn default() -> Self {
        HugeChain {
            data: [0; 4096],
            next: None,
        }
    }
}

/// A small recursive type.
#[derive(Reflect, Debug, Default)]
pub struct Tree {
    pub kids: Vec<Tree>,
}

/// Runs `f` on a thread with a stack of `bytes` and returns what it returns.
pub fn on_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// [`on_stack`] with 2 MiB, the size of a thread Rust spawns by default.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    on_stack(2 << 20, f)
}

/// A value read or a clean error; an error of the limit category about the stack is fine too.
fn clean<T>(r: structio::Result<T>, input: &[u8]) {
    if let Err(e) = r {
        super::oracles::clean_error(&e, input);
    }
}

/// The `limits` fuzz target: the input read as a delimited BEVE sequence of [`Nest`] (time
/// linear in the input: one re-read budget for the whole sequence), as `Vec<Blob>` in BEVE
/// (memory bounded whatever count it claims), and as [`Huge`], [`HugeChain`] and [`Tree`] in
/// both formats on a 2 MiB stack with the depth limit lifted for `Tree` (an error, never a
/// stack overflow). Every error is clean.
pub fn limits(data: &[u8]) {
    let mut seq = structio::beve::Delimited::new(data);
    while let Some(r) = seq.read::<Nest>() {
        if let Err(e) = r {
            super::oracles::clean_error(&e, data);
            break;
        }
    }
    clean(structio::from_beve::<Vec<Blob>>(data), data);
    let input = data.to_vec();
    on_small_stack(move || {
        let data = &input[..];
        clean(structio::from_json::<Huge>(data), data);
        clean(structio::from_beve::<Huge>(data), data);
        clean(structio::from_json::<HugeChain>(data), data);
        clean(structio::from_beve::<HugeChain>(data), data);
        let mut deep = structio::json::Options::default();
        deep.read.max_depth = usize::MAX;
        clean(structio::json::from_json_with::<Tree>(data, &deep), data);
        let mut deep = structio::beve::Options::default();
        deep.read.max_depth = usize::MAX;
        clean(structio::beve::from_beve_with::<Tree>(data, &deep), data);
    });
}
