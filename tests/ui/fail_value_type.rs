#[derive(structio::Reflect, Default)]
struct S {
    #[structio(rename = 5)]
    a: u8,
}

fn main() {}
