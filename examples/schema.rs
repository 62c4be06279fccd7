//! Prints the JSON Schema (draft 2020-12) of a derived type, as an HTTP API or a language
//! model's tool definition would publish it.
//!
//! Run with `cargo run --release --example schema`.

use std::collections::BTreeMap;

/// A request to create an order.
#[derive(structio::Reflect, Debug)]
#[structio(rename_all = "camelCase")]
struct CreateOrder {
    /// The customer's account.
    customer_id: u64,
    /// What is ordered; at least one line.
    lines: Vec<Line>,
    /// Where to ship; the account's address when left out.
    ship_to: Option<Address>,
    /// Free-form labels.
    #[structio(default)]
    labels: BTreeMap<String, String>,
    payment: Payment,
}

/// One line of an order.
#[derive(structio::Reflect, Debug)]
struct Line {
    sku: String,
    quantity: std::num::NonZeroU32,
}

#[derive(structio::Reflect, Debug)]
struct Address {
    street: String,
    city: String,
    /// ISO 3166-1 alpha-2.
    country: [char; 2],
}

/// How the order is paid.
#[derive(structio::Reflect, Debug)]
#[structio(tag = "method", rename_all = "snake_case")]
enum Payment {
    /// Charged to the card on file.
    Card { last4: String },
    /// Paid on an invoice due within `days`.
    Invoice { days: u16 },
    /// Nothing to pay.
    Free,
}

fn main() {
    let schema = structio::json_schema::<CreateOrder>();
    let text = structio::prettify(&structio::to_json(&schema)).expect("valid JSON");
    println!("{text}");
}
