//! Typed shapes of the JSON corpus (`twitter.json`, `citm_catalog.json`, `canada.json`) and of
//! a JSON-RPC `tools/call` message, modelled on the types of the well-known Rust json-benchmark.
//! Every type derives both `structio::Reflect` and serde's traits, so each library reads the
//! same file into the same Rust value. Unknown keys are errors in structio by default, so these
//! types name every member the files hold.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Derives shared by every corpus type.
macro_rules! corpus_type {
    ($(#[$m:meta])* pub struct $name:ident $($rest:tt)*) => {
        #[derive(structio::Reflect, Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
        $(#[$m])*
        pub struct $name $($rest)*
    };
}

// ---------------------------------------------------------------------------------------------
// twitter.json

corpus_type! {
    /// `twitter.json`: one page of search results.
    pub struct Twitter {
        pub statuses: Vec<Status>,
        pub search_metadata: SearchMetadata,
    }
}

corpus_type! {
    /// One tweet.
    pub struct Status {
        pub metadata: Metadata,
        pub created_at: String,
        pub id: u64,
        pub id_str: String,
        pub text: String,
        pub source: String,
        pub truncated: bool,
        pub in_reply_to_status_id: Option<u64>,
        pub in_reply_to_status_id_str: Option<String>,
        pub in_reply_to_user_id: Option<u64>,
        pub in_reply_to_user_id_str: Option<String>,
        pub in_reply_to_screen_name: Option<String>,
        pub user: User,
        pub geo: (),
        pub coordinates: (),
        pub place: (),
        pub contributors: (),
        pub retweeted_status: Option<Box<Status>>,
        pub retweet_count: u32,
        pub favorite_count: u32,
        pub entities: StatusEntities,
        pub favorited: bool,
        pub retweeted: bool,
        pub possibly_sensitive: Option<bool>,
        pub lang: String,
    }
}

corpus_type! {
    /// Search metadata of a tweet.
    pub struct Metadata {
        pub result_type: String,
        pub iso_language_code: String,
    }
}

corpus_type! {
    /// The author of a tweet.
    pub struct User {
        pub id: u64,
        pub id_str: String,
        pub name: String,
        pub screen_name: String,
        pub location: String,
        pub description: String,
        pub url: Option<String>,
        pub entities: UserEntities,
        pub protected: bool,
        pub followers_count: u32,
        pub friends_count: u32,
        pub listed_count: u32,
        pub created_at: String,
        pub favourites_count: u32,
        pub utc_offset: Option<i32>,
        pub time_zone: Option<String>,
        pub geo_enabled: bool,
        pub verified: bool,
        pub statuses_count: u32,
        pub lang: String,
        pub contributors_enabled: bool,
        pub is_translator: bool,
        pub is_translation_enabled: bool,
        pub profile_background_color: String,
        pub profile_background_image_url: String,
        pub profile_background_image_url_https: String,
        pub profile_background_tile: bool,
        pub profile_image_url: String,
        pub profile_image_url_https: String,
        pub profile_banner_url: Option<String>,
        pub profile_link_color: String,
        pub profile_sidebar_border_color: String,
        pub profile_sidebar_fill_color: String,
        pub profile_text_color: String,
        pub profile_use_background_image: bool,
        pub default_profile: bool,
        pub default_profile_image: bool,
        pub following: bool,
        pub follow_request_sent: bool,
        pub notifications: bool,
    }
}

corpus_type! {
    /// Links in a user's profile.
    pub struct UserEntities {
        pub url: Option<UrlList>,
        pub description: UrlList,
    }
}

corpus_type! {
    /// A list of links.
    pub struct UrlList {
        pub urls: Vec<Url>,
    }
}

corpus_type! {
    /// A link and where it sits in the text.
    pub struct Url {
        pub url: String,
        pub expanded_url: String,
        pub display_url: String,
        pub indices: [u16; 2],
    }
}

corpus_type! {
    /// Hashtags, links, mentions and media of a tweet.
    pub struct StatusEntities {
        pub hashtags: Vec<Hashtag>,
        pub symbols: Vec<Hashtag>,
        pub urls: Vec<Url>,
        pub user_mentions: Vec<UserMention>,
        pub media: Option<Vec<Media>>,
    }
}

corpus_type! {
    /// A hashtag (or a cashtag symbol).
    pub struct Hashtag {
        pub text: String,
        pub indices: [u16; 2],
    }
}

corpus_type! {
    /// A mention of another user.
    pub struct UserMention {
        pub screen_name: String,
        pub name: String,
        pub id: u64,
        pub id_str: String,
        pub indices: [u16; 2],
    }
}

corpus_type! {
    /// A picture attached to a tweet.
    pub struct Media {
        pub id: u64,
        pub id_str: String,
        pub indices: [u16; 2],
        pub media_url: String,
        pub media_url_https: String,
        pub url: String,
        pub display_url: String,
        pub expanded_url: String,
        #[structio(rename = "type")]
        #[serde(rename = "type")]
        pub kind: String,
        pub sizes: Sizes,
        pub source_status_id: Option<u64>,
        pub source_status_id_str: Option<String>,
    }
}

corpus_type! {
    /// The sizes a picture is served in.
    pub struct Sizes {
        pub medium: Size,
        pub small: Size,
        pub thumb: Size,
        pub large: Size,
    }
}

corpus_type! {
    /// One served size of a picture.
    pub struct Size {
        pub w: u32,
        pub h: u32,
        pub resize: String,
    }
}

corpus_type! {
    /// About the search itself.
    pub struct SearchMetadata {
        pub completed_in: f64,
        pub max_id: u64,
        pub max_id_str: String,
        pub next_results: String,
        pub query: String,
        pub refresh_url: String,
        pub count: u32,
        pub since_id: u64,
        pub since_id_str: String,
    }
}

// ---------------------------------------------------------------------------------------------
// citm_catalog.json

corpus_type! {
    /// `citm_catalog.json`: a ticketing catalogue; most members are maps keyed by id strings.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct CitmCatalog {
        pub area_names: BTreeMap<String, String>,
        pub audience_sub_category_names: BTreeMap<String, String>,
        pub block_names: BTreeMap<String, String>,
        pub events: BTreeMap<String, Event>,
        pub performances: Vec<Performance>,
        pub seat_category_names: BTreeMap<String, String>,
        pub sub_topic_names: BTreeMap<String, String>,
        pub subject_names: BTreeMap<String, String>,
        pub topic_names: BTreeMap<String, String>,
        pub topic_sub_topics: BTreeMap<String, Vec<u32>>,
        pub venue_names: BTreeMap<String, String>,
    }
}

corpus_type! {
    /// An event of the catalogue.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct Event {
        pub description: (),
        pub id: u32,
        pub logo: Option<String>,
        pub name: String,
        pub sub_topic_ids: Vec<u32>,
        pub subject_code: (),
        pub subtitle: (),
        pub topic_ids: Vec<u32>,
    }
}

corpus_type! {
    /// One performance of an event.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct Performance {
        pub event_id: u32,
        pub id: u32,
        pub logo: Option<String>,
        pub name: (),
        pub prices: Vec<Price>,
        pub seat_categories: Vec<SeatCategory>,
        pub seat_map_image: (),
        pub start: u64,
        pub venue_code: String,
    }
}

corpus_type! {
    /// A price for one audience in one seat category.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct Price {
        pub amount: u32,
        pub audience_sub_category_id: u32,
        pub seat_category_id: u32,
    }
}

corpus_type! {
    /// A seat category and its areas.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct SeatCategory {
        pub areas: Vec<Area>,
        pub seat_category_id: u32,
    }
}

corpus_type! {
    /// An area of a venue.
    #[structio(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    pub struct Area {
        pub area_id: u32,
        pub block_ids: Vec<u32>,
    }
}

// ---------------------------------------------------------------------------------------------
// canada.json

corpus_type! {
    /// `canada.json`: a GeoJSON FeatureCollection of polygons (mostly numbers).
    pub struct Canada {
        #[structio(rename = "type")]
        #[serde(rename = "type")]
        pub kind: String,
        pub features: Vec<Feature>,
    }
}

corpus_type! {
    /// One feature: a name and a polygon.
    pub struct Feature {
        #[structio(rename = "type")]
        #[serde(rename = "type")]
        pub kind: String,
        pub properties: BTreeMap<String, String>,
        pub geometry: Geometry,
    }
}

corpus_type! {
    /// A polygon: rings of `[longitude, latitude]` points.
    pub struct Geometry {
        #[structio(rename = "type")]
        #[serde(rename = "type")]
        pub kind: String,
        pub coordinates: Vec<Vec<[f64; 2]>>,
    }
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC tools/call

/// A JSON-RPC `tools/call` request as an MCP server receives it.
pub const TOOLS_CALL: &str = r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris","units":"metric"}}}"#;

corpus_type! {
    /// A JSON-RPC request whose strings borrow from the input.
    pub struct ToolsCall<'a> {
        pub jsonrpc: &'a str,
        pub id: u64,
        pub method: &'a str,
        #[serde(borrow)]
        pub params: CallParams<'a>,
    }
}

corpus_type! {
    /// The `params` of a `tools/call` request.
    pub struct CallParams<'a> {
        pub name: &'a str,
        #[serde(borrow)]
        pub arguments: WeatherArgs<'a>,
    }
}

corpus_type! {
    /// The arguments of the `get_weather` tool.
    pub struct WeatherArgs<'a> {
        pub city: &'a str,
        pub units: &'a str,
    }
}
