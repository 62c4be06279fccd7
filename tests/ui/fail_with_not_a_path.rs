#[derive(structio::Reflect, Default)]
struct S {
    #[structio(with = "not a path")]
    a: u8,
}

fn main() {
    let _ = structio::to_json(&S::default());
}
