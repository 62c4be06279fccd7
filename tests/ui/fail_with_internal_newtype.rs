mod codec {
    use super::Inner;

    pub fn write<W: structio::Writer>(_: &Inner, _: &mut W) {}
    pub fn read<'de, R: structio::Reader<'de>>(_: &mut Inner, _: &mut R) -> structio::Result<()> {
        Ok(())
    }
    pub fn read_new<'de, R: structio::Reader<'de>>(_: &mut R) -> structio::Result<Inner> {
        Ok(Inner { a: 0 })
    }
}

#[derive(structio::Reflect, Default)]
struct Inner {
    a: u8,
}

#[derive(structio::Reflect, Default)]
#[structio(tag = "t")]
enum E {
    #[default]
    Unit,
    Wrapped(#[structio(with = "codec")] Inner),
}

fn main() {
    let _ = structio::to_json(&E::default());
}
