//! Helpers shared by the JSON integration tests.
#![allow(dead_code)]

use structio::{Key, Reader, Reflect, Result, ValueKind, Wire, Writer};

#[path = "../common/files.rs"]
mod files;
#[allow(unused_imports)]
pub use files::{data, list, path, read, DOCS};

/// Any JSON value, read through the public `Reader` interface.
#[derive(Debug, Default, PartialEq, Clone)]
pub enum Any {
    #[default]
    Null,
    Bool(bool),
    Num(Wire),
    Str(String),
    Arr(Vec<Any>),
    Obj(Vec<(String, Any)>),
}

impl<'de> Reflect<'de> for Any {
    fn write<W: Writer>(&self, w: &mut W) {
        match self {
            Any::Null => w.null(),
            Any::Bool(b) => w.bool(*b),
            Any::Num(Wire::Int(i)) => w.number(*i),
            Any::Num(Wire::Uint(u)) => w.number(*u),
            Any::Num(Wire::F32(f)) => w.number(*f),
            Any::Num(Wire::F64(f)) => w.number(*f),
            Any::Str(s) => w.str(s),
            Any::Arr(v) => {
                w.begin_array(v.len());
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        w.sep();
                    }
                    x.write(w);
                }
                w.end_array();
            }
            Any::Obj(m) => {
                w.begin_object(m.len());
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        w.sep();
                    }
                    w.key(k);
                    x.write(w);
                }
                w.end_object();
            }
        }
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = match r.peek_kind()? {
            ValueKind::Null => {
                assert!(r.take_null()?);
                Any::Null
            }
            ValueKind::Bool => Any::Bool(r.read_bool()?),
            ValueKind::Number(_) => Any::Num(r.read_wire_number()?),
            ValueKind::String => Any::Str(r.read_str()?.as_str().to_string()),
            ValueKind::Array => {
                let mut v = Vec::new();
                let mut seq = r.begin_array()?;
                while r.next_element(&mut seq)? {
                    let mut x = Any::Null;
                    x.read(r)?;
                    v.push(x);
                }
                Any::Arr(v)
            }
            ValueKind::Object => {
                let mut v = Vec::new();
                let mut map = r.begin_object()?;
                while let Some(k) = r.next_key(&mut map)? {
                    let Key::Str(k) = k else {
                        panic!("JSON keys are strings");
                    };
                    let k = k.as_str().to_string();
                    let mut x = Any::Null;
                    x.read(r)?;
                    v.push((k, x));
                }
                Any::Obj(v)
            }
            _ => return Err(r.invalid_type("a JSON value")),
        };
        Ok(())
    }

    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}
