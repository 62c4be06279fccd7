#[derive(structio::Reflect)]
struct NoDefault {
    #[structio(skip_read)]
    count: u32,
}

#[derive(structio::Reflect)]
struct Constrained {
    #[structio(skip_read, default, range(max = 3))]
    count: u32,
}

#[derive(structio::Reflect)]
struct Both {
    #[structio(skip_write, skip_read)]
    count: Option<u32>,
}

#[derive(structio::Reflect)]
struct WithSkip {
    #[structio(skip, skip_write)]
    count: u32,
}

#[derive(structio::Reflect)]
struct Tuple(#[structio(skip_write)] u32);

#[derive(structio::Reflect)]
enum E {
    V {
        #[structio(skip_write)]
        a: u32,
    },
}

fn main() {}
