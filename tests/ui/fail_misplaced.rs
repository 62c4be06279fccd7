#[derive(structio::Reflect, Default)]
#[structio(tag = "t")]
struct S {
    a: u8,
}

#[derive(structio::Reflect, Default)]
struct T(#[structio(rename = "x")] u8);

#[derive(structio::Reflect, Default)]
struct K {
    #[structio(skip = true)]
    a: u8,
}

fn main() {}
