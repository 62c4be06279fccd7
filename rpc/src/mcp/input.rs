//! Input a tool asks the client for, in both eras with one piece of code
//! ([`Context::ask`], [`Context::ask_all`], ...): in the handshake era a request to the
//! client (`elicitation/create`, `sampling/createMessage`, `roots/list`) awaited on the
//! connection; in revision 2026-07-28 a multi round-trip request: the call ends with an
//! `InputRequiredResult` naming what it needs, and the client retries it with the answers
//! (`inputResponses`) and the sealed `requestState` the server gave.
//!
//! The `requestState` this server mints is sealed with HMAC-SHA256 ([`StateKey`]) and bound
//! to the method, the tool's name, a digest of the call's arguments and an expiry; it
//! carries the answers given so far (so a tool asking its second question still has the
//! first answer on the third round), the keys of the requests it answers (an answer to
//! anything else is ignored) and the tool's own state ([`InputRequired::state`]). It is
//! signed, not encrypted: the client can read it. A call's [`Round`] is cheap until the
//! call asks or brings a state: the arguments are digested, and the client's capabilities
//! read, only then.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use structio::{JsonSchema, RawJson, ReflectOwned, Value};

use super::client::{
    capability_bits, elicitation_schema, Elicitation, SamplingRequest, SamplingResult, ELICITATION,
    ROOTS, SAMPLING,
};
use super::context::Context;
use super::protocol::skip;
use super::server::invalid_state;
use super::tool::{End, ToolError};
use super::MISSING_REQUIRED_CLIENT_CAPABILITY;
use crate::dispatch::Fault;
use crate::{code, ErrorObject};

/// How long a `requestState` this server mints stays valid, by default
/// ([`Server::request_state_ttl`](super::Server::request_state_ttl)): ten minutes, for each
/// round (every round seals a new state).
pub const DEFAULT_REQUEST_STATE_TTL: Duration = Duration::from_secs(600);

/// The fewest bytes of a key given to
/// [`Server::request_state_key`](super::Server::request_state_key).
pub const MIN_REQUEST_STATE_KEY: usize = 32;

/// One request for input a tool makes of the client: a form for the user to fill
/// (`elicitation/create`), a completion of the client's language model
/// (`sampling/createMessage`), or the client's roots (`roots/list`). Given to
/// [`Context::ask_all`] or [`InputRequired::request`]; [`Context::ask`],
/// [`Context::ask_sample`] and [`Context::ask_roots`] make one each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRequest {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// The form's message and `requestedSchema` (JSON text).
    Elicit { message: String, schema: String },
    /// The `sampling/createMessage` parameters, as JSON text.
    Sample(String),
    /// `roots/list`.
    Roots,
}

impl InputRequest {
    /// A form asking the user for a `T` (`elicitation/create` in form mode): `message`, and
    /// a `requestedSchema` made from `T`'s derive as [`Context::elicit`] makes it.
    pub fn elicit<T: JsonSchema>(message: impl Into<String>) -> InputRequest {
        let schema = structio::to_json(&elicitation_schema(structio::json_schema::<T>()));
        InputRequest::elicit_with_schema(message, &schema)
    }

    /// A form with `message` and a `requestedSchema` given as JSON text.
    pub fn elicit_with_schema(message: impl Into<String>, schema: &str) -> InputRequest {
        InputRequest {
            kind: Kind::Elicit {
                message: message.into(),
                schema: schema.trim().to_owned(),
            },
        }
    }

    /// A completion of the client's language model (`sampling/createMessage`).
    pub fn sample(request: &SamplingRequest) -> InputRequest {
        InputRequest {
            kind: Kind::Sample(structio::to_json(request)),
        }
    }

    /// The client's roots (`roots/list`).
    pub fn roots() -> InputRequest {
        InputRequest { kind: Kind::Roots }
    }

    /// The request's method: `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub fn method(&self) -> &'static str {
        match self.kind {
            Kind::Elicit { .. } => "elicitation/create",
            Kind::Sample(_) => "sampling/createMessage",
            Kind::Roots => "roots/list",
        }
    }

    /// The client capability the request needs, as a bit of [`capability_bits`] and by name.
    fn capability(&self) -> (u8, &'static str) {
        match self.kind {
            Kind::Elicit { .. } => (ELICITATION, "elicitation"),
            Kind::Sample(_) => (SAMPLING, "sampling"),
            Kind::Roots => (ROOTS, "roots"),
        }
    }

    /// The request's parameters as JSON text (`None`: none); `modern`: as an entry of
    /// `inputRequests` (a form names its `mode`).
    fn params(&self, modern: bool) -> Option<String> {
        match &self.kind {
            Kind::Elicit { message, schema } => {
                let mut params = if modern {
                    br#"{"mode":"form","message":"#.to_vec()
                } else {
                    br#"{"message":"#.to_vec()
                };
                structio::write_json(message, &mut params);
                params.extend_from_slice(br#","requestedSchema":"#);
                params.extend_from_slice(schema.as_bytes());
                params.push(b'}');
                Some(String::from_utf8(params).unwrap_or_default())
            }
            Kind::Sample(params) => Some(params.clone()),
            Kind::Roots => None,
        }
    }

    /// The request as an entry of `inputRequests`: `{"method":...,"params":...}`.
    fn write_entry(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(br#"{"method":"#);
        structio::write_json(&self.method(), out);
        if let Some(params) = self.params(true) {
            out.extend_from_slice(br#","params":"#);
            out.extend_from_slice(params.as_bytes());
        }
        out.push(b'}');
    }
}

/// What ends a call in revision 2026-07-28 when it needs more from the client: the requests
/// for input (each under a key of the tool's choosing, unique in the call) and an opaque
/// state of the tool's own, given back on the retry ([`Context::request_state`]). Made into
/// the call's end by [`Context::input_required`]; the low-level form of [`Context::ask_all`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputRequired {
    requests: Vec<(String, InputRequest)>,
    state: Option<String>,
}

impl InputRequired {
    /// Nothing asked yet.
    pub fn new() -> InputRequired {
        InputRequired::default()
    }

    /// With one more request, under `key` (a request under a key given before replaces it).
    pub fn request(mut self, key: impl Into<String>, request: InputRequest) -> InputRequired {
        let key = key.into();
        self.requests.retain(|(k, _)| *k != key);
        self.requests.push((key, request));
        self
    }

    /// With the tool's own state: any text, sealed with the server's, and read back on the
    /// retry with [`Context::request_state`]. Signed, not encrypted: keep secrets out of it.
    pub fn state(mut self, state: impl Into<String>) -> InputRequired {
        self.state = Some(state.into());
        self
    }
}

/// The client's answer to one [`InputRequest`]: its result, as JSON text, read as the
/// request's kind says. A bad answer is a tool error naming its key and the path at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    key: String,
    json: String,
}

impl Answer {
    /// The key the request was made under.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The answer as the client sent it, as JSON text (an `ElicitResult`, a
    /// `CreateMessageResult`, a `ListRootsResult`).
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The answer to a form: the user's action, and for `accept` the `content` read as `T`.
    pub fn elicitation<T: ReflectOwned>(&self) -> Result<Elicitation<T>, ToolError> {
        #[derive(structio::Reflect)]
        struct ElicitResult<'a> {
            action: Cow<'a, str>,
            content: Option<RawJson<'a>>,
        }
        let answer = structio::json::from_json_with::<ElicitResult<'_>>(&self.json, &skip())
            .map_err(|e| self.bad("", &e))?;
        match answer.action.as_ref() {
            "accept" => {
                let content = answer.content.as_ref().map_or("{}", |c| c.get());
                structio::json::from_json_with::<T>(content, &skip())
                    .map(Elicitation::Accept)
                    .map_err(|e| self.bad(".content", &e))
            }
            "decline" => Ok(Elicitation::Decline),
            "cancel" => Ok(Elicitation::Cancel),
            other => Err(ToolError::new(format!(
                "the answer to the input request `{}` does not read",
                self.key
            ))
            .and(
                format!("{}.action", self.path()),
                format!("unknown action {other:?}: one of accept, decline, cancel"),
            )),
        }
    }

    /// The answer to a completion of the client's model.
    pub fn sampling(&self) -> Result<SamplingResult, ToolError> {
        structio::json::from_json_with::<SamplingResult>(&self.json, &skip())
            .map_err(|e| self.bad("", &e))
    }

    /// The answer to `roots/list`: the roots.
    pub fn roots(&self) -> Result<Vec<Root>, ToolError> {
        #[derive(structio::Reflect)]
        struct ListRootsResult {
            roots: Vec<Root>,
        }
        structio::json::from_json_with::<ListRootsResult>(&self.json, &skip())
            .map(|r| r.roots)
            .map_err(|e| self.bad("", &e))
    }

    /// Where the answer is in the request: `$.inputResponses.<key>` (a key that is not a
    /// plain name quoted).
    fn path(&self) -> String {
        let plain = !self.key.is_empty()
            && self
                .key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if plain {
            format!("$.inputResponses.{}", self.key)
        } else {
            format!("$.inputResponses[{}]", structio::to_json(&self.key))
        }
    }

    /// The tool error of an answer whose part `at` (`.content`, or the whole) did not read.
    fn bad(&self, at: &str, e: &structio::Error) -> ToolError {
        let inner = e.path();
        let inner = inner.strip_prefix('$').unwrap_or(&inner);
        ToolError::new(format!(
            "the answer to the input request `{}` does not read",
            self.key
        ))
        .and(format!("{}{at}{inner}", self.path()), e.message())
    }
}

/// One of the client's roots (`roots/list`): a `file://` URI and an optional name.
#[derive(structio::Reflect, Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The root's URI.
    pub uri: String,
    /// A name to show for it.
    pub name: Option<String>,
}

/// The key that seals `requestState` (HMAC-SHA256), and how long a state stays valid.
pub(super) struct StateKey {
    /// `None`: the system gave no random key (no state can be minted or verified).
    key: Option<Vec<u8>>,
    pub(super) ttl: Duration,
}

impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateKey")
            .field("key", &self.key.as_ref().map(|_| "..."))
            .field("ttl", &self.ttl)
            .finish()
    }
}

impl StateKey {
    /// A key of 32 bytes drawn from the operating system.
    pub(super) fn random() -> StateKey {
        let mut key = vec![0u8; 32];
        let key = getrandom::fill(&mut key).ok().map(|()| key);
        StateKey {
            key,
            ttl: DEFAULT_REQUEST_STATE_TTL,
        }
    }

    /// `key`, given.
    pub(super) fn given(key: &[u8], ttl: Duration) -> StateKey {
        StateKey {
            key: Some(key.to_vec()),
            ttl,
        }
    }

    /// The same key with another lifetime.
    pub(super) fn with_ttl(&self, ttl: Duration) -> StateKey {
        StateKey {
            key: self.key.clone(),
            ttl,
        }
    }

    fn mac(&self) -> Option<Hmac<Sha256>> {
        let key = self.key.as_ref()?;
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).ok()?;
        // Domain separation: the tag is of a request state of this format, nothing else.
        mac.update(b"structio-rpc requestState v1\0");
        Some(mac)
    }

    /// `payload` sealed: `base64url(payload).base64url(tag)`.
    fn seal(&self, payload: &[u8]) -> Option<String> {
        let mut mac = self.mac()?;
        mac.update(payload);
        let tag = mac.finalize().into_bytes();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        Some(format!("{}.{}", b64.encode(payload), b64.encode(tag)))
    }

    /// The payload of a sealed `token`, when its tag verifies (in constant time).
    fn open(&self, token: &str) -> Option<Vec<u8>> {
        let (payload, tag) = token.split_once('.')?;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let payload = b64.decode(payload).ok()?;
        let tag = b64.decode(tag).ok()?;
        let mut mac = self.mac()?;
        mac.update(&payload);
        mac.verify_slice(&tag).ok()?;
        Some(payload)
    }
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// What a sealed state holds, as read back.
#[derive(structio::Reflect)]
struct Payload<'a> {
    /// The method it was minted for.
    m: Cow<'a, str>,
    /// The tool (prompt, resource) it was minted for.
    t: Cow<'a, str>,
    /// The digest of the arguments it was minted for ([`digest`]).
    d: Cow<'a, str>,
    /// When it expires, in milliseconds since the Unix epoch.
    x: u64,
    /// The keys of the requests it answers.
    q: Vec<String>,
    /// The answers given so far, by key.
    a: BTreeMap<String, RawJson<'a>>,
    /// The tool's own state.
    s: Option<String>,
}

/// A call's part of revision 2026-07-28's multi round-trip requests: what it was asked as
/// (method, tool), what the client can answer (its capabilities), the answers given so far
/// (this request's `inputResponses` to the keys its verified `requestState` asked, and the
/// answers the state carries), the tool's own state, and the key to seal the next state
/// with. A call of the handshake era has none.
#[derive(Debug)]
pub(super) struct Round {
    method: &'static str,
    target: String,
    /// The call's arguments, as JSON text (digested when a state is verified or minted).
    arguments: String,
    /// The client's capabilities from `_meta`, as JSON text (read when the call asks).
    caps: String,
    answers: Vec<(String, String)>,
    state: Option<String>,
    key: Arc<StateKey>,
}

impl Round {
    /// The round of the request `method` of `target` (a tool's name) with `arguments` (JSON
    /// text), from its `inputResponses`, `requestState` and client capabilities (`_meta`):
    /// `-32602` for a state that does not verify, expired, or was minted for another method,
    /// target or arguments (one message for every cause), and for `inputResponses` that is
    /// not an object.
    pub(super) fn new(
        key: &Arc<StateKey>,
        method: &'static str,
        target: &str,
        arguments: &str,
        responses: Option<RawJson<'_>>,
        state: Option<RawJson<'_>>,
        caps: Option<RawJson<'_>>,
    ) -> Result<Round, Fault> {
        let mut round = Round {
            method,
            target: target.to_owned(),
            arguments: arguments.to_owned(),
            caps: caps.map_or_else(String::new, |c| c.get().to_owned()),
            answers: Vec::new(),
            state: None,
            key: key.clone(),
        };
        let responses = match responses {
            Some(r) => {
                let map = structio::json::from_json_with::<BTreeMap<String, RawJson<'_>>>(
                    r.get(),
                    &skip(),
                )
                .map_err(|_| {
                    ErrorObject::new(
                        code::INVALID_PARAMS,
                        "Invalid params: inputResponses must be an object",
                    )
                })?;
                Some(map)
            }
            None => None,
        };
        let Some(state) = state else {
            // No state, no request of this server's to answer: `inputResponses` is ignored.
            return Ok(round);
        };
        let opened = open_state(key, &round, state).ok_or_else(invalid_state)?;
        let payload = structio::json::from_json_with::<Payload<'_>>(&opened, &skip())
            .map_err(|_| invalid_state())?;
        round.answers = payload
            .a
            .iter()
            .map(|(k, v)| (k.clone(), v.get().to_owned()))
            .collect();
        for (k, v) in responses.iter().flatten() {
            if !payload.q.contains(k) {
                continue;
            }
            round.answers.retain(|(known, _)| known != k);
            round.answers.push((k.clone(), v.get().trim().to_owned()));
        }
        round.state = payload.s;
        Ok(round)
    }

    /// The answer under `key`, if given.
    fn answer(&self, key: &str) -> Option<Answer> {
        self.answers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(k, json)| Answer {
                key: k.clone(),
                json: json.clone(),
            })
    }

    /// The call's end asking for `required`: the `InputRequiredResult`'s members (the
    /// requests and the sealed state, carrying every answer so far), or `-32021` when a
    /// request needs a capability the client did not declare.
    fn end(&self, required: InputRequired) -> ToolError {
        let caps = capability_bits(&self.caps);
        let mut missing: Vec<&'static str> = Vec::new();
        for (_, request) in &required.requests {
            let (bit, name) = request.capability();
            if caps & bit == 0 && !missing.contains(&name) {
                missing.push(name);
            }
        }
        if !missing.is_empty() {
            return missing_capabilities(&missing);
        }
        let mut payload = br#"{"m":"#.to_vec();
        structio::write_json(&self.method, &mut payload);
        payload.extend_from_slice(br#","t":"#);
        structio::write_json(&self.target, &mut payload);
        payload.extend_from_slice(br#","d":"#);
        structio::write_json(&digest(&self.arguments), &mut payload);
        payload.extend_from_slice(br#","x":"#);
        let ttl = u64::try_from(self.key.ttl.as_millis()).unwrap_or(u64::MAX);
        structio::write_json(&now_ms().saturating_add(ttl), &mut payload);
        payload.extend_from_slice(br#","q":["#);
        for (i, (key, _)) in required.requests.iter().enumerate() {
            if i > 0 {
                payload.push(b',');
            }
            structio::write_json(key, &mut payload);
        }
        payload.extend_from_slice(br#"],"a":{"#);
        for (i, (key, json)) in self.answers.iter().enumerate() {
            if i > 0 {
                payload.push(b',');
            }
            structio::write_json(key, &mut payload);
            payload.push(b':');
            payload.extend_from_slice(json.as_bytes());
        }
        payload.extend_from_slice(br#"},"s":"#);
        structio::write_json(&required.state, &mut payload);
        payload.push(b'}');
        let Some(sealed) = self.key.seal(&payload) else {
            return ToolError::ending(
                "no key to seal requestState with",
                End::Protocol(
                    code::INTERNAL_ERROR,
                    "Internal error: the server has no key to seal requestState with".into(),
                    None,
                ),
            );
        };
        let mut body = Vec::new();
        if !required.requests.is_empty() {
            body.extend_from_slice(br#","inputRequests":{"#);
            for (i, (key, request)) in required.requests.iter().enumerate() {
                if i > 0 {
                    body.push(b',');
                }
                structio::write_json(key, &mut body);
                body.push(b':');
                request.write_entry(&mut body);
            }
            body.push(b'}');
        }
        body.extend_from_slice(br#","requestState":"#);
        structio::write_json(&sealed, &mut body);
        let keys: Vec<&str> = required.requests.iter().map(|(k, _)| k.as_str()).collect();
        ToolError::ending(
            format!("input required: {}", keys.join(", ")),
            End::InputRequired(String::from_utf8(body).unwrap_or_default()),
        )
    }
}

/// The plaintext of the sealed `state` (a JSON string), when it verifies under `key`, has
/// not expired and was minted for the method, target and arguments of `round`.
fn open_state(key: &StateKey, round: &Round, state: RawJson<'_>) -> Option<String> {
    let token = state.parse::<Cow<'_, str>>().ok()?;
    let payload = String::from_utf8(key.open(&token)?).ok()?;
    #[derive(structio::Reflect)]
    struct Binding<'a> {
        m: Cow<'a, str>,
        t: Cow<'a, str>,
        d: Cow<'a, str>,
        x: u64,
    }
    let binding = structio::json::from_json_with::<Binding<'_>>(&payload, &skip()).ok()?;
    let fits = binding.m == round.method
        && binding.t == round.target
        && binding.d == digest(&round.arguments)
        && now_ms() < binding.x;
    fits.then_some(payload)
}

/// The digest a state binds the call's arguments by: SHA-256 of their canonical JSON (object
/// members sorted by key, no spaces; the text itself when it is not JSON), base64url, so that
/// a client that writes the same arguments another way still fits, and other arguments do
/// not.
fn digest(arguments: &str) -> String {
    fn canonical(v: &Value, out: &mut Vec<u8>) {
        match v {
            Value::Object(m) => {
                let mut members: Vec<_> = m.iter().collect();
                members.sort_by(|a, b| a.0.cmp(b.0));
                out.push(b'{');
                for (i, (k, v)) in members.into_iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    structio::write_json(&k, out);
                    out.push(b':');
                    canonical(v, out);
                }
                out.push(b'}');
            }
            Value::Array(a) => {
                out.push(b'[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    canonical(v, out);
                }
                out.push(b']');
            }
            other => structio::write_json(other, out),
        }
    }
    let mut text = Vec::new();
    match structio::json::from_json::<Value>(arguments) {
        Ok(v) => canonical(&v, &mut text),
        Err(_) => text.extend_from_slice(arguments.as_bytes()),
    }
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(&text))
}

/// `-32021` (`MissingRequiredClientCapabilityError`) for the capabilities `missing`.
fn missing_capabilities(missing: &[&str]) -> ToolError {
    let message = format!(
        "Server requires the {} capabilit{} for this request",
        missing.join(" and "),
        if missing.len() == 1 { "y" } else { "ies" }
    );
    let mut data = br#"{"requiredCapabilities":{"#.to_vec();
    for (i, name) in missing.iter().enumerate() {
        if i > 0 {
            data.push(b',');
        }
        structio::write_json(name, &mut data);
        data.extend_from_slice(b":{}");
    }
    data.extend_from_slice(b"}}");
    ToolError::ending(
        message.clone(),
        End::Protocol(
            MISSING_REQUIRED_CLIENT_CAPABILITY,
            message,
            Some(String::from_utf8(data).unwrap_or_default()),
        ),
    )
}

impl Context {
    /// Whether the call is in revision 2026-07-28, where a tool asks for input by ending its
    /// call with an `InputRequiredResult` (and the client retries it with the answers), not
    /// by sending requests to the client: then [`Context::input`], [`Context::request_state`]
    /// and [`Context::input_required`] apply.
    pub fn multi_round(&self) -> bool {
        self.round().is_some()
    }

    /// The client's answer under `key` given so far in revision 2026-07-28 (in this retry's
    /// `inputResponses`, or recorded in its `requestState` from an earlier round); `None`
    /// in the handshake era.
    pub fn input(&self, key: &str) -> Option<Answer> {
        self.round()?.answer(key)
    }

    /// The tool's own state ([`InputRequired::state`]) given back by the retry, verified;
    /// `None` on the first round and in the handshake era.
    pub fn request_state(&self) -> Option<&str> {
        self.round()?.state.as_deref()
    }

    /// The error that ends the call with an `InputRequiredResult` asking for `required`
    /// (revision 2026-07-28): return it (`Err(ctx.input_required(...))`). Its state is sealed
    /// with every answer given so far. A request needing a capability the client did not
    /// declare in the request's `_meta` ends the call with the error `-32021` instead. In the
    /// handshake era (see [`Context::multi_round`]) a call cannot end so: the error is then a
    /// plain tool error saying so; ask with [`Context::ask`] or [`Context::ask_all`], which
    /// work in both eras.
    pub fn input_required(&self, required: InputRequired) -> ToolError {
        match self.round() {
            Some(round) => round.end(required),
            None => ToolError::new(
                "the tool asked to end its call with an input-required result, which only \
                 revision 2026-07-28 has",
            ),
        }
    }

    /// Asks the client for several inputs at once, and gives the answers in the order of
    /// `requests`. In the handshake era each request is sent to the client in turn and
    /// awaited ([`Context::request`]; fails as it does). In revision 2026-07-28 the answers
    /// are looked up under their keys ([`Context::input`]); when one is missing, the call
    /// ends (the error returned: pass it on with `?`) with an `InputRequiredResult` asking
    /// for every missing one, and the client retries the call with them.
    pub async fn ask_all(
        &self,
        requests: &[(&str, InputRequest)],
    ) -> Result<Vec<Answer>, ToolError> {
        if let Some(round) = self.round() {
            let mut answers = Vec::with_capacity(requests.len());
            let mut missing = InputRequired {
                requests: Vec::new(),
                state: round.state.clone(),
            };
            for (key, request) in requests {
                match round.answer(key) {
                    Some(answer) => answers.push(answer),
                    None => missing = missing.request(*key, request.clone()),
                }
            }
            if missing.requests.is_empty() {
                return Ok(answers);
            }
            return Err(round.end(missing));
        }
        let mut answers = Vec::with_capacity(requests.len());
        for (key, request) in requests {
            let params = request.params(false).unwrap_or_default();
            let json = self.request(request.method(), &params).await?;
            answers.push(Answer {
                key: (*key).to_owned(),
                json,
            });
        }
        Ok(answers)
    }

    /// Asks the user for a `T` with `message` (a form, `elicitation/create`), in both eras:
    /// in the handshake era as [`Context::elicit`] does; in revision 2026-07-28 under `key`
    /// ([`Context::ask_all`]): the answer when the retry holds it, else the call ends asking
    /// for it. An answer whose content does not read as `T` is a tool error naming `key`
    /// and the member at fault.
    ///
    /// ```
    /// use structio_rpc::mcp::{Context, Elicitation, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Order { item: String }
    /// #[derive(structio::Reflect)]
    /// struct Quantity { count: u32 }
    ///
    /// let mut server = Server::new("shop", "1").tool("order", "Orders an item", |ctx: Context, o: Order| async move {
    ///     Ok::<_, ToolError>(match ctx.ask::<Quantity>("quantity", &format!("How many {}?", o.item)).await? {
    ///         Elicitation::Accept(q) => format!("ordered {} {}", q.count, o.item),
    ///         Elicitation::Decline | Elicitation::Cancel => "no order".to_owned(),
    ///     })
    /// });
    /// let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
    /// let mut out = Vec::new();
    /// server.handle_line(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"order","arguments":{{"item":"pears"}},{meta}}}}}"#).as_bytes(), &mut out);
    /// let first = String::from_utf8(out).unwrap();
    /// assert!(first.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"quantity":{"method":"elicitation/create","params":{"mode":"form","message":"How many pears?","#));
    /// // The client retries with the answer and the state, echoed.
    /// let state = first.split(r#""requestState":"#).nth(1).unwrap().split(',').next().unwrap();
    /// let mut out = Vec::new();
    /// server.handle_line(format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"order","arguments":{{"item":"pears"}},"inputResponses":{{"quantity":{{"action":"accept","content":{{"count":3}}}}}},"requestState":{state},{meta}}}}}"#).as_bytes(), &mut out);
    /// assert!(String::from_utf8(out).unwrap().contains(r#""text":"ordered 3 pears""#));
    /// ```
    pub async fn ask<T: ReflectOwned + JsonSchema>(
        &self,
        key: &str,
        message: &str,
    ) -> Result<Elicitation<T>, ToolError> {
        let answers = self
            .ask_all(&[(key, InputRequest::elicit::<T>(message))])
            .await?;
        answers[0].elicitation()
    }

    /// Asks the client's language model (`sampling/createMessage`), in both eras: as
    /// [`Context::sample`] in the handshake era, under `key` in revision 2026-07-28
    /// ([`Context::ask_all`]).
    pub async fn ask_sample(
        &self,
        key: &str,
        request: &SamplingRequest,
    ) -> Result<SamplingResult, ToolError> {
        let answers = self
            .ask_all(&[(key, InputRequest::sample(request))])
            .await?;
        answers[0].sampling()
    }

    /// Asks the client for its roots (`roots/list`), in both eras, under `key` in revision
    /// 2026-07-28 ([`Context::ask_all`]).
    pub async fn ask_roots(&self, key: &str) -> Result<Vec<Root>, ToolError> {
        let answers = self.ask_all(&[(key, InputRequest::roots())]).await?;
        answers[0].roots()
    }
}
