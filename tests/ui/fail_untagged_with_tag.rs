#[derive(structio::Reflect)]
#[structio(tag = "t", untagged)]
enum E {
    A(u8),
}

fn main() {}
