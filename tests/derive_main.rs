//! Behaviour of `#[derive(Reflect)]`: every feature round-trips through JSON and BEVE, and
//! misuse at run time (bad documents) gives the documented errors. One binary keeps link time
//! down; the cases live in `derive_cases/`.

mod derive_cases;
