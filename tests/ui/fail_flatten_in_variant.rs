#[derive(structio::Reflect, Default)]
struct Inner {
    a: u8,
}

#[derive(structio::Reflect, Default)]
enum E {
    #[default]
    Unit,
    Data {
        #[structio(flatten)]
        inner: Inner,
    },
}

fn main() {
    let _ = structio::to_json(&E::default());
}
