#[derive(structio::Reflect)]
#[structio(tag = "type")]
enum E {
    Count(u32),
}

impl Default for E {
    fn default() -> Self {
        E::Count(0)
    }
}

fn main() {}
