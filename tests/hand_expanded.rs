//! What `#[derive(Reflect)]` emits for a small struct, written by hand: keeps the runtime API
//! the derive targets compiling, and checks it against both formats.

use structio::__private as p;

#[derive(Default, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
    name: String,
    tag: Option<u8>,
}

const _: () = {
    const INFO: p::FieldsInfo = p::FieldsInfo {
        names: &["x", "y", "label", "tag"],
        optional: &[],
        keys: &["x", "y", "label", "tag", "name"],
        key_field: &[0, 1, 2, 3, 2],
        probe: p::Probe::Linear,
        plain: true,
    };
    impl<'de> p::Reflect<'de> for Point {
        fn write<W: p::Writer>(&self, w: &mut W) {
            let nulls = w.write_null_members();
            let n = 3 + usize::from(nulls || !p::Reflect::is_absent(&self.tag));
            w.begin_struct(n);
            w.key(INFO.names[0]);
            p::Reflect::write(&self.x, w);
            w.sep();
            w.key(INFO.names[1]);
            p::Reflect::write(&self.y, w);
            w.sep();
            w.key(INFO.names[2]);
            p::Reflect::write(&self.name, w);
            if nulls || !p::Reflect::is_absent(&self.tag) {
                w.sep();
                w.key(INFO.names[3]);
                p::Reflect::write(&self.tag, w);
            }
            w.end_object();
        }
        fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
            p::read_fields(r, &INFO, None, |m, r| match m {
                p::Member::Index(0) => p::Reflect::read(&mut self.x, r),
                p::Member::Index(1) => p::Reflect::read(&mut self.y, r),
                p::Member::Index(2) => p::Reflect::read(&mut self.name, r),
                p::Member::Index(3) => p::Reflect::read(&mut self.tag, r),
                _ => Ok(()),
            })
        }
        fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
            let mut v = <Self as Default>::default();
            v.read(r)?;
            Ok(v)
        }
    }
};

#[test]
fn hand_expanded_struct_round_trips() {
    let v = Point {
        x: 1.5,
        y: -2.0,
        name: "a\"b".into(),
        tag: None,
    };
    let text = structio::to_json(&v);
    assert_eq!(text, r#"{"x":1.5,"y":-2,"label":"a\"b"}"#);
    assert_eq!(structio::from_json::<Point>(&text).unwrap(), v);
    let alias: Point = structio::from_json(r#"{"name":"n","tag":3}"#).unwrap();
    assert_eq!(alias.name, "n");
    assert_eq!(alias.tag, Some(3));
    let both = structio::from_json::<Point>(r#"{"name":"n","label":"m"}"#).unwrap_err();
    assert_eq!(
        both.message(),
        "keys `name` and `label` name the same field"
    );
    let bytes = structio::to_beve(&v);
    assert_eq!(structio::from_beve::<Point>(&bytes).unwrap(), v);
}
