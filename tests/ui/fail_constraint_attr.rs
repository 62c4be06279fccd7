// Misused constraint attributes: one error each, on the offending token.

#[derive(structio::Reflect)]
struct BadPattern {
    #[structio(pattern = "([a-z")]
    a: String,
}

#[derive(structio::Reflect)]
struct MinOverMax {
    #[structio(length(min = 5, max = 2))]
    a: String,
}

#[derive(structio::Reflect)]
struct UnknownBound {
    #[structio(range(low = 1))]
    a: u8,
}

#[derive(structio::Reflect)]
struct Skipped {
    #[structio(skip, length(min = 1))]
    a: String,
}

#[derive(structio::Reflect)]
enum InVariant {
    A {
        #[structio(range(max = 1))]
        x: u8,
    },
}

#[derive(structio::Reflect)]
#[structio(check = "f")]
enum CheckOnEnum {
    A,
}

fn main() {}
