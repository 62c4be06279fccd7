#[derive(structio::Reflect)]
#[structio(tag = "type")]
enum E {
    A { x: u8 },
    B(u8, u8),
}

#[derive(structio::Reflect)]
#[structio(tag = "type")]
enum F {
    A {
        #[structio(rename = "type")]
        kind: u8,
    },
}

fn main() {}
