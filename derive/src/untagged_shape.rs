//! Which kinds of value a variant's payload can be read from, so an untagged enum tries only
//! the variants that can match. The bits are those of `structio_keys::shape`, which the reader
//! tests too.
//!
//! For a newtype variant the inner type is judged by its name: well-known std types get their
//! kind, anything else may be any value. A wrong guess could only hide a variant, so guesses
//! are made only for names that are unambiguous.

use structio_keys::shape::{ANY, ARRAY, BOOL, NULL, NUMBER, OBJECT, STRING};
use syn::{GenericArgument, PathArguments, Type};

/// The shapes a value of type `ty` may be read from.
pub fn of_type(ty: &Type) -> u8 {
    match ty {
        Type::Reference(r) => of_type(&r.elem),
        Type::Paren(p) => of_type(&p.elem),
        Type::Group(g) => of_type(&g.elem),
        Type::Array(_) | Type::Slice(_) => ARRAY,
        Type::Tuple(t) if t.elems.is_empty() => NULL,
        Type::Tuple(_) => ARRAY,
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return ANY;
            };
            let args: Vec<&Type> = match &last.arguments {
                PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            match (last.ident.to_string().as_str(), args.as_slice()) {
                ("bool", []) => BOOL,
                (
                    "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                    | "u128" | "usize",
                    [],
                ) => NUMBER,
                // Non-finite floats are written as null.
                ("f32" | "f64" | "f16" | "bf16", []) => NUMBER | NULL,
                ("String" | "str" | "char", []) => STRING,
                (
                    "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "LinkedList" | "BinaryHeap",
                    [_],
                ) => ARRAY,
                ("HashSet", [_, _]) => ARRAY,
                ("HashMap" | "BTreeMap", [_, _]) => OBJECT,
                ("HashMap", [_, _, _]) => OBJECT,
                ("Option", [inner]) => NULL | of_type(inner),
                ("Box" | "Rc" | "Arc", [inner]) => of_type(inner),
                ("Cow", [inner]) => match of_type(inner) {
                    STRING => STRING,
                    ARRAY => ARRAY,
                    _ => ANY,
                },
                _ => ANY,
            }
        }
        _ => ANY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(src: &str) -> u8 {
        of_type(&syn::parse_str(src).unwrap())
    }

    #[test]
    fn known_types() {
        assert_eq!(shape("bool"), BOOL);
        assert_eq!(shape("u64"), NUMBER);
        assert_eq!(shape("f64"), NUMBER | NULL);
        assert_eq!(shape("&'a str"), STRING);
        assert_eq!(shape("std::borrow::Cow<'a, str>"), STRING);
        assert_eq!(shape("Cow<'a, [f64]>"), ARRAY);
        assert_eq!(shape("Vec<Point>"), ARRAY);
        assert_eq!(shape("[u8; 4]"), ARRAY);
        assert_eq!(shape("(u8, String)"), ARRAY);
        assert_eq!(shape("BTreeMap<String, u8>"), OBJECT);
        assert_eq!(shape("Option<bool>"), NULL | BOOL);
        assert_eq!(shape("Box<Option<String>>"), NULL | STRING);
    }

    #[test]
    fn unknown_types_may_be_anything() {
        assert_eq!(shape("Point"), ANY);
        assert_eq!(shape("T"), ANY);
        assert_eq!(shape("structio::Value"), ANY);
        assert_eq!(shape("<T as Tr>::Assoc"), ANY);
        assert_eq!(shape("Cow<'a, Point>"), ANY);
    }
}
