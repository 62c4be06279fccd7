#[derive(structio::Reflect, Default)]
#[structio(rename_all = "camelCase")]
struct S {
    first_name: u8,
    #[structio(rename = "firstName")]
    other: u8,
}

#[derive(structio::Reflect, Default)]
struct T {
    a: u8,
    #[structio(alias = "a")]
    b: u8,
}

fn main() {}
