#[derive(structio::Reflect, Default)]
struct Inner {
    x: u32,
}

#[derive(structio::Reflect)]
#[structio(as_array)]
struct Flat {
    a: u32,
    #[structio(flatten)]
    inner: Inner,
}

#[derive(structio::Reflect)]
#[structio(as_array)]
struct Pair(u32, u32);

#[derive(structio::Reflect)]
#[structio(as_array)]
enum Choice {
    A,
}

#[derive(structio::Reflect)]
#[structio(as_array, canonical)]
struct Canon {
    a: u32,
}

fn main() {}
