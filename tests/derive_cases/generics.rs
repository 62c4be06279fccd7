//! Generic types, lifetimes, borrowed fields, `bound` and the `crate` path.

use std::borrow::Cow;

use structio::{RawJson, Reflect};

use super::common::{both, from_json};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Pair<T, U> {
    one: T,
    many: Vec<U>,
    maybe: Option<T>,
}

#[test]
fn type_parameters() {
    let v = Pair {
        one: 1u8,
        many: vec!["a".to_string()],
        maybe: Some(2u8),
    };
    both(
        &v,
        r#"{"one":1,"many":["a"],"maybe":2}"#,
        r#"
            03 0c                        // object, 3 members
            0c 6f 6e 65  11 01           // "one": u8 1
            10 6d 61 6e 79  3c 04 04 61  // "many": string array ["a"]
            14 6d 61 79 62 65  11 02     // "maybe": u8 2
        "#,
    );
}

/// Parameters named like the generated code's own (`W`, `R`) must not clash.
#[derive(Reflect, Debug, PartialEq)]
enum Either<W, R> {
    Left(W),
    Right { r: R },
}

impl<W: Default, R> Default for Either<W, R> {
    fn default() -> Self {
        Either::Left(W::default())
    }
}

#[test]
fn generic_enum() {
    both(
        &Either::<u8, String>::Left(1),
        r#"{"Left":1}"#,
        r#"
            03 04                  // object, 1 member
            10 4c 65 66 74  11 01  // "Left": u8 1
        "#,
    );
    both(
        &Either::<u8, String>::Right { r: "x".into() },
        r#"{"Right":{"r":"x"}}"#,
        r#"
            03 04                     // object, 1 member
            14 52 69 67 68 74  03 04  // "Right": object, 1 member
              04 72  02 04 78         // "r": string "x"
        "#,
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    note: Cow<'a, str>,
    values: Cow<'a, [f64]>,
    raw: RawJson<'a>,
}

#[test]
fn borrowed_fields_read_from_the_input() {
    let text = String::from(r#"{"name":"n","note":"a\nb","values":[1,2.5],"raw":{"k": [1]}}"#);
    let v: Borrowed = structio::from_json::<Borrowed>(text.as_str()).unwrap();
    assert_eq!(v.name, "n");
    assert!(text.as_bytes().as_ptr_range().contains(&v.name.as_ptr()));
    assert_eq!(v.note, "a\nb");
    assert_eq!(&*v.values, &[1.0, 2.5]);
    assert_eq!(v.raw.get(), r#"{"k": [1]}"#);
    assert_eq!(
        structio::to_json(&v),
        r#"{"name":"n","note":"a\nb","values":[1,2.5],"raw":{"k": [1]}}"#
    );
}

/// A user lifetime named `'de` is used as the document lifetime.
#[derive(Reflect, Default, Debug, PartialEq)]
struct OwnDe<'de, 'b> {
    a: &'de str,
    b: Cow<'b, str>,
}

#[derive(Reflect, Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Num(u32),
    Both { w: &'a str, n: u32 },
}

impl Default for Token<'_> {
    fn default() -> Self {
        Token::Num(0)
    }
}

#[test]
fn lifetimes() {
    let v = structio::from_json::<OwnDe>(r#"{"a":"x","b":"y"}"#).unwrap();
    assert_eq!((v.a, &*v.b), ("x", "y"));
    let t =
        structio::from_json::<Vec<Token>>(r#"[{"Word":"w"},{"Num":2},{"Both":{"w":"v","n":1}}]"#)
            .unwrap();
    assert_eq!(
        t,
        vec![
            Token::Word("w"),
            Token::Num(2),
            Token::Both { w: "v", n: 1 }
        ]
    );
}

/// Not `Default`: the generic newtype needs only `Reflect` of its parameter.
#[derive(Debug, PartialEq)]
struct NoDefault(u8);

impl<'de> Reflect<'de> for NoDefault {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        self.0.write(w)
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        self.0.read(r)
    }
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        Ok(NoDefault(u8::read_new(r)?))
    }
}

#[derive(Reflect, Debug, PartialEq)]
struct Wrapper<T>(T);

#[derive(Reflect, Debug, PartialEq)]
struct Fields<T> {
    inner: T,
}

#[test]
fn bare_parameters_need_no_default() {
    let mut w = Wrapper(NoDefault(1));
    structio::read_json(&mut w, "5").unwrap();
    assert_eq!(w, Wrapper(NoDefault(5)));
    let mut f = Fields {
        inner: NoDefault(1),
    };
    structio::read_json(&mut f, r#"{"inner":6}"#).unwrap();
    assert_eq!(structio::to_json(&f), r#"{"inner":6}"#);
}

/// A parameter that appears only in a skipped field gets no bound.
#[derive(Reflect, Debug, PartialEq)]
struct Tagged<T> {
    id: u32,
    #[structio(skip)]
    marker: std::marker::PhantomData<T>,
}

impl<T> Default for Tagged<T> {
    fn default() -> Self {
        Tagged {
            id: 0,
            marker: std::marker::PhantomData,
        }
    }
}

struct NotReflect;

/// `bound` replaces the inferred bounds: `T` inside `Box` would get `Default` too.
#[derive(Reflect, Debug, PartialEq)]
#[structio(bound = "T: structio::Reflect<'de>")]
struct Boxed<T> {
    b: Box<T>,
}

#[test]
fn bound_attribute_and_phantom_parameters() {
    let v: Tagged<NotReflect> = from_json(r#"{"id":4}"#);
    assert_eq!(v.id, 4);
    assert_eq!(structio::to_json(&v), r#"{"id":4}"#);
    let mut b = Boxed {
        b: Box::new(NoDefault(1)),
    };
    structio::read_json(&mut b, r#"{"b":2}"#).unwrap();
    assert_eq!(*b.b, NoDefault(2));
}

mod renamed_crate {
    // The runtime reached through another path.
    use structio as sio;

    #[derive(sio::Reflect, Default, Debug, PartialEq)]
    #[structio(crate = "sio")]
    pub struct ViaAlias {
        pub x: u8,
    }
}

#[test]
fn crate_path() {
    let v = renamed_crate::ViaAlias { x: 3 };
    super::common::both(
        &v,
        r#"{"x":3}"#,
        r#"
            03 04         // object, 1 member
            04 78  11 03  // "x": u8 3
        "#,
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Tree<T> {
    value: T,
    children: Vec<Tree<T>>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Fixed<'a, const N: usize> {
    v: [u8; N],
    name: &'a str,
}

#[test]
fn recursive_and_const_generic_types() {
    let t = Tree {
        value: 1u8,
        children: vec![Tree {
            value: 2,
            children: vec![],
        }],
    };
    both(
        &t,
        r#"{"value":1,"children":[{"value":2,"children":[]}]}"#,
        r#"
            03 08                                  // object, 2 members
            14 76 61 6c 75 65  11 01               // "value": u8 1
            20 63 68 69 6c 64 72 65 6e  05 04      // "children": generic array, 1 element
              03 08                                // object, 2 members
                14 76 61 6c 75 65  11 02           // "value": u8 2
                20 63 68 69 6c 64 72 65 6e  05 00  // "children": generic array, 0 elements
        "#,
    );
    let mut f = Fixed::<3> {
        v: [0; 3],
        name: "",
    };
    structio::read_json(&mut f, r#"{"v":[1,2,3],"name":"n"}"#).unwrap();
    assert_eq!(
        f,
        Fixed {
            v: [1, 2, 3],
            name: "n"
        }
    );
    assert!(structio::read_json(&mut f, r#"{"v":[1,2]}"#).is_err());
}
