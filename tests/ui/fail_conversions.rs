#[derive(structio::Reflect)]
#[structio(from = "u8", try_from = "u16")]
struct Both(u32);

#[derive(structio::Reflect)]
#[structio(default)]
enum E {
    A,
}

#[derive(structio::Reflect)]
struct F {
    #[structio(serde, with = "m")]
    a: u8,
}

fn main() {}
