// A constraint that cannot apply to its field's type is an error at the attribute.

#[derive(structio::Reflect)]
struct Wrong {
    #[structio(length(max = 3))]
    count: u32,
    #[structio(range(min = 1))]
    name: String,
    #[structio(pattern = "^a$")]
    tags: Vec<String>,
    #[structio(items(length(min = 1)))]
    text: String,
    #[structio(one_of("a"))]
    flag: bool,
}

fn main() {}
