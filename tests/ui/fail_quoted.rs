#[derive(structio::Reflect)]
struct Text {
    #[structio(quoted)]
    name: String,
}

mod codec {
    pub fn write<W: structio::Writer>(v: &u32, w: &mut W) {
        w.number(*v)
    }
    pub fn read<'de, R: structio::Reader<'de>>(v: &mut u32, r: &mut R) -> structio::Result<()> {
        *v = r.read_number()?;
        Ok(())
    }
}

#[derive(structio::Reflect)]
struct Both {
    #[structio(quoted, with = "codec")]
    n: u32,
}

fn main() {}
