#[derive(structio::Reflect, Default)]
struct S {
    #[structio(renmae = "x")]
    a: u8,
}

fn main() {
    // Uses of the type raise no further errors.
    let _ = structio::to_json(&S::default());
}
