#[derive(structio::Reflect)]
enum NotUnit {
    A,
    #[structio(other)]
    B(u32),
}

#[derive(structio::Reflect)]
enum Two {
    #[structio(other)]
    A,
    #[structio(other)]
    B,
}

#[derive(structio::Reflect)]
#[structio(untagged)]
enum Untagged {
    A(u32),
    #[structio(other)]
    B,
}

#[derive(structio::Reflect)]
enum External {
    A(u32),
    #[structio(other)]
    B,
}

fn main() {}
