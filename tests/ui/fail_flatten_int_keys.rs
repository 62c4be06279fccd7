use std::collections::BTreeMap;

#[derive(structio::Reflect, Default)]
struct S {
    id: u8,
    #[structio(flatten)]
    rest: BTreeMap<u32, String>,
}

fn main() {
    // Using `S` would add a second error at the use: its impl needs the flattened type's.
    let _ = S::default();
}
