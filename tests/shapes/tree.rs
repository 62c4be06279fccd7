//! `Tree`: a small recursive struct for the read-option oracle (`oracles::typed_options`). Where
//! `Everything` has one member of every kind, `Tree` nests structs, maps and the tagged enums a
//! few levels deep in a few bytes, so small depth limits, missing keys (at every level) and
//! duplicate or unknown keys inside enum payloads are reached often.

use std::collections::{BTreeMap, HashMap};

use structio::Reflect;

use super::everything::{Adjacent, External, Fixed, Internal, Untagged};

/// A leaf struct with an optional member (which may be missing even under
/// `error_on_missing_keys`) and an alias.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub struct Leaf {
    pub a: u8,
    #[structio(alias = "bee")]
    pub b: Option<bool>,
}

/// An enum whose struct variant recurses, externally tagged.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub enum Node {
    #[default]
    End,
    Leaf(Leaf),
    Branch {
        left: Box<Tree>,
        right: Option<Box<Tree>>,
    },
}

/// A recursive struct: through `Vec`, `Option<Box>`, a map value and an enum variant. Every
/// member may be left out (the sample leaves some out).
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(default)]
pub struct Tree {
    pub id: u8,
    #[structio(rename = "nm", alias = "name")]
    pub name: String,
    pub opt: Option<u8>,
    pub leaf: Leaf,
    pub kids: Vec<Tree>,
    pub next: Option<Box<Tree>>,
    pub node: Node,
    pub map: BTreeMap<String, Tree>,
    pub imap: HashMap<u8, Leaf, Fixed>,
    pub pair: (u8, Leaf),
    pub ext: External,
    pub int: Internal,
    pub adj: Adjacent,
    pub unt: Untagged,
}

/// A sample with every member set, as JSON text (a seed for the fuzzer); `tree.beve` beside it
/// is the same value as BEVE, checked by `tests/regressions.rs`.
pub const TREE_JSON: &str = include_str!("tree.json");
