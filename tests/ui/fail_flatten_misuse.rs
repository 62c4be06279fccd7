#[derive(structio::Reflect, Default)]
struct Inner {
    a: u8,
}

#[derive(structio::Reflect, Default)]
struct Renamed {
    #[structio(flatten, rename = "x")]
    inner: Inner,
}

fn main() {
    let _ = structio::to_json(&Renamed::default());
}
