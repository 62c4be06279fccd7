#[derive(structio::Reflect)]
union U {
    a: u32,
    b: f32,
}

fn main() {}
