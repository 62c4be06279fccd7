//! `rename_all`: the naming conventions a container can ask for, applied the way serde does, so
//! that names match when a type moves between the two.
//!
//! Field names are taken to be `snake_case` and variant names `PascalCase` (Rust's own
//! conventions); each rule converts from that.

/// A `rename_all` convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// The accepted spellings, for parsing and for the error message that lists them.
const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    /// Parses a rule name.
    pub fn parse(name: &str) -> Option<RenameRule> {
        RULES.iter().find(|(n, _)| *n == name).map(|&(_, r)| r)
    }

    /// The accepted names, quoted, for messages.
    pub fn expected() -> String {
        let names: Vec<String> = RULES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        names.join(", ")
    }

    /// Applies the rule to a `snake_case` field name.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_string(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            RenameRule::Camel => lower_first(&RenameRule::Pascal.apply_to_field(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Applies the rule to a `PascalCase` variant name.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_string(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut out = String::with_capacity(variant.len() + 4);
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

/// The text with its first character in ASCII lower case.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    #[test]
    fn fields() {
        let cases: &[(RenameRule, &str)] = &[
            (Lower, "outcome_wins"),
            (Upper, "OUTCOME_WINS"),
            (Pascal, "OutcomeWins"),
            (Camel, "outcomeWins"),
            (Snake, "outcome_wins"),
            (ScreamingSnake, "OUTCOME_WINS"),
            (Kebab, "outcome-wins"),
            (ScreamingKebab, "OUTCOME-WINS"),
        ];
        for &(rule, want) in cases {
            assert_eq!(rule.apply_to_field("outcome_wins"), want, "{rule:?}");
        }
        assert_eq!(Camel.apply_to_field("a"), "a");
        assert_eq!(Pascal.apply_to_field("x_1_y"), "X1Y");
    }

    #[test]
    fn variants() {
        let cases: &[(RenameRule, &str)] = &[
            (Lower, "veryblue"),
            (Upper, "VERYBLUE"),
            (Pascal, "VeryBlue"),
            (Camel, "veryBlue"),
            (Snake, "very_blue"),
            (ScreamingSnake, "VERY_BLUE"),
            (Kebab, "very-blue"),
            (ScreamingKebab, "VERY-BLUE"),
        ];
        for &(rule, want) in cases {
            assert_eq!(rule.apply_to_variant("VeryBlue"), want, "{rule:?}");
        }
        assert_eq!(Snake.apply_to_variant("A"), "a");
        assert_eq!(Camel.apply_to_variant(""), "");
    }

    #[test]
    fn parse_all_names() {
        for name in [
            "lowercase",
            "UPPERCASE",
            "PascalCase",
            "camelCase",
            "snake_case",
            "SCREAMING_SNAKE_CASE",
            "kebab-case",
            "SCREAMING-KEBAB-CASE",
        ] {
            assert!(RenameRule::parse(name).is_some(), "{name}");
        }
        assert_eq!(RenameRule::parse("Snake_Case"), None);
    }
}
