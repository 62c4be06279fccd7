#[derive(structio::Reflect)]
#[structio(content = "c")]
enum E {
    A(u8),
}

fn main() {}
