#[derive(structio::Reflect, Default)]
#[structio(rename_all = "snake")]
struct S {
    a: u8,
}

fn main() {}
