#[derive(structio::Reflect)]
#[structio(as_integer)]
enum WithData {
    A,
    B(u32),
}

#[derive(structio::Reflect)]
#[structio(as_integer)]
struct NotAnEnum {
    a: u32,
}

#[derive(structio::Reflect)]
#[structio(as_integer, tag = "t")]
enum Tagged {
    A,
    B,
}

fn main() {}
