//! What derived code names at run time, re-exported from the modules that define it. For
//! derived code only: not a public API, names and signatures may change without notice.

pub use crate::constraint::{self, Bound, Choice, Pattern, Rule, Violations};
pub use crate::enums::{
    is_unknown_variant, no_matching_variant, read_adjacent, read_adjacent_or, read_enum_integer,
    read_external, read_internal, read_internal_or, read_null, read_untagged, variant_from_int_key,
    variant_from_key, VariantsInfo,
};
pub use crate::error::{PathSegment, Result};
pub use crate::fields::{
    conversion_error, default_value_broken, left_out, left_out_new, member_of, missing_key,
    no_default_value, own_member, read_member, read_member_new, read_member_of, read_members_in,
    read_slot, take_slot, Fields, KeptKeys, NO_FIELDS,
};
pub use crate::number::NumKind;
// `#[structio(quoted)]` fields.
pub use crate::quoted::{self, Quoted};
pub use crate::read::{
    expect_element, expect_end, out_of_line, read_canonical, read_fields, read_fields_in,
    read_flat_fields_in, try_canonical, Member,
};
pub use crate::reflect::{
    EnumInfo, FieldName, FieldsInfo, Key, KeyKind, MapKey, Reader, Reflect, Writer,
};
// `impl JsonSchema`, emitted beside `Reflect`.
pub use crate::report::enforce;
pub use crate::schema::derive_support::{
    adjacent as adjacent_schema, annotate as annotate_schema, any as any_schema,
    any_of as any_of_schema, any_string as any_string_schema, constant as constant_schema,
    describe, external as external_schema, integer_keys as integer_keys_schema,
    integers as integers_schema, names as names_schema, null as null_schema,
    one_of as one_of_schema, tuple as tuple_schema, ObjectSchema, SchemaProbe, ViaAnySchema,
    ViaJsonSchema,
};
pub use crate::schema::rules::constrain as constrain_schema;
pub use crate::schema::{JsonSchema, SchemaGenerator};
pub use crate::value::Value;
// `value!`'s literals: the `Value` that reading the same JSON text gives, chosen at compile time.
pub use structio_derive::value_literal;
// `#[structio(serde)]` fields: written and read through their serde impls.
#[cfg(feature = "serde")]
pub use crate::serde::{read_serde, write_serde};
pub use core::any::type_name;
pub use core::clone::Clone;
pub use core::convert::{From, Into, TryFrom};
pub use core::default::Default;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{Err, Ok};
pub use structio_keys::{unpack as unpack_slots, Probe};

// Not named by the derive: the hand-written `MapKey` impl in `tests/json_api.rs` reports an
// unknown variant name as derived code would.
pub use crate::enums::unknown_variant;

/// `text` read by the canonical-layout reader alone ([`crate::Reflect::CANONICAL`]), whatever
/// the type: `None` where [`crate::from_json`] would read it again the ordinary way. For the
/// tests and fuzz targets that hold it to the ordinary reader's value.
pub fn json_compact<'de, T: Reflect<'de>>(text: &'de [u8]) -> Option<T> {
    if !crate::json::compact::may_be_compact(text) {
        return None;
    }
    let opts = crate::reflect::ReadOptions::DEFAULT;
    crate::json::compact::read_in_layout(text, opts)
        .or_else(|| crate::json::compact::read(text, opts).ok())
}
