//! Tools added and removed while the server serves (feature `async`): the [`LiveTools`]
//! handle, and the table of tools it changes, which each message reads a snapshot of.

use std::sync::{Arc, RwLock};

use super::notify::{Hub, ListKind};
use super::protocol::ListToolsResult;
use super::tool::{BuildError, Tool, ToolHandler, ToolOptions};

/// The tools of a server whose [`LiveTools`] handle was taken, shared with the handle.
#[derive(Default)]
pub(super) struct Shared {
    table: RwLock<Arc<Table>>,
}

/// The tools at one moment, and their `tools/list` result (the handshake era's, unpaged).
pub(super) struct Table {
    pub(super) tools: Vec<Arc<Tool>>,
    pub(super) catalog: Vec<u8>,
}

impl Default for Table {
    fn default() -> Table {
        Table::new(Vec::new())
    }
}

impl Table {
    fn new(tools: Vec<Arc<Tool>>) -> Table {
        let list = ListToolsResult {
            tools: tools.iter().map(|t| t.listed()).collect(),
            next_cursor: None,
        };
        let catalog = structio::to_json(&list).into_bytes();
        Table { tools, catalog }
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let table = self.table();
        f.debug_list()
            .entries(table.tools.iter().map(|t| &t.name))
            .finish()
    }
}

impl Shared {
    /// A table holding `tools`.
    pub(super) fn new(tools: Vec<Arc<Tool>>) -> Shared {
        Shared {
            table: RwLock::new(Arc::new(Table::new(tools))),
        }
    }

    /// The tools now: a snapshot that a change made meanwhile leaves as it is.
    pub(super) fn table(&self) -> Arc<Table> {
        // Nothing panics while the table is locked; a poisoned lock is used as it was left.
        self.table.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Changes the tools with `change` (which says whether it changed anything, and what to
    /// return), under the lock, so that two changes never lose one another.
    fn change<R>(&self, change: impl FnOnce(&mut Vec<Arc<Tool>>) -> (bool, R)) -> R {
        let mut table = self.table.write().unwrap_or_else(|e| e.into_inner());
        let mut tools = table.tools.clone();
        let (changed, r) = change(&mut tools);
        if changed {
            *table = Arc::new(Table::new(tools));
        }
        r
    }

    /// Adds the tool `build` makes for `name` (told whether a tool of that name is there
    /// already, as the tools are under the lock, so that two adds of one name never both
    /// succeed); the problem, if it is refused.
    pub(super) fn add(
        &self,
        name: &str,
        build: impl FnOnce(bool) -> Result<Tool, BuildError>,
    ) -> Result<(), BuildError> {
        self.change(|tools| {
            let taken = tools.iter().any(|t| t.name == name);
            match build(taken) {
                Ok(tool) => {
                    tools.push(Arc::new(tool));
                    (true, Ok(()))
                }
                Err(e) => (false, Err(e)),
            }
        })
    }

    /// Removes the tool named `name`; whether there was one.
    pub(super) fn remove(&self, name: &str) -> bool {
        self.change(|tools| {
            let before = tools.len();
            tools.retain(|t| t.name != name);
            let removed = tools.len() != before;
            (removed, removed)
        })
    }
}

/// A handle adding and removing a running server's tools (feature `async`), taken with
/// [`Server::live_tools`](super::Server::live_tools) before serving. Each change takes effect
/// for the messages read after it (a call already started keeps its tool) and is announced
/// with `notifications/tools/list_changed`: to every initialized connection of the handshake
/// era that has a session outbox (stdio: stdout; Streamable HTTP: the session's `GET`
/// stream), and on every `subscriptions/listen` stream of revision 2026-07-28 that asked for
/// `toolsListChanged`. Taking the handle makes the server advertise `tools.listChanged: true`.
/// Cheap to clone; usable from any thread, and from inside a tool.
///
/// ```
/// use structio_rpc::mcp::{Server, ToolError};
///
/// #[derive(structio::Reflect)]
/// struct Text { text: String }
///
/// let mut server = Server::new("echo", "1");
/// let tools = server.live_tools();
/// tools.add("echo", "Says it back", |t: Text| Ok::<_, ToolError>(t.text)).unwrap();
/// let mut out = Vec::new();
/// server.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#, &mut out);
/// assert!(String::from_utf8_lossy(&out).contains(r#""text":"hi""#));
///
/// assert!(tools.remove("echo"));
/// out.clear();
/// server.handle_line(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#, &mut out);
/// assert!(String::from_utf8_lossy(&out).contains("Unknown tool: echo"));
/// ```
#[derive(Debug, Clone)]
pub struct LiveTools {
    shared: Arc<Shared>,
    hub: Arc<Hub>,
}

impl LiveTools {
    /// The handle of the tools in `shared`, announcing changes to the connections in `hub`.
    pub(super) fn new(shared: Arc<Shared>, hub: Arc<Hub>) -> LiveTools {
        LiveTools { shared, hub }
    }

    /// Adds a tool, as [`Server::tool`](super::Server::tool) does (the same handlers, the same
    /// schemas), and announces the change; the problem if the name is not valid or taken
    /// ([`BuildError`]), and then nothing changes.
    pub fn add<M, F>(&self, name: &str, description: &str, call: F) -> Result<(), BuildError>
    where
        F: ToolHandler<M>,
        F::Args: structio::JsonSchema,
        F::Output: structio::JsonSchema,
    {
        self.add_with(name, description, ToolOptions::default(), call)
    }

    /// [`LiveTools::add`] with a title, behaviour hints and icons ([`ToolOptions`]).
    pub fn add_with<M, F>(
        &self,
        name: &str,
        description: &str,
        options: ToolOptions,
        call: F,
    ) -> Result<(), BuildError>
    where
        F: ToolHandler<M>,
        F::Args: structio::JsonSchema,
        F::Output: structio::JsonSchema,
    {
        let (input, output) = Tool::schemas::<M, F>();
        self.shared.add(name, |taken| {
            Tool::build(
                name,
                description,
                options,
                (&input, output.as_deref()),
                call,
                taken,
            )
        })?;
        self.hub.list_changed(ListKind::Tools);
        Ok(())
    }

    /// Removes the tool named `name` and announces the change; whether there was one (if
    /// not, nothing is announced). Calls of it already started run to their end.
    pub fn remove(&self, name: &str) -> bool {
        let removed = self.shared.remove(name);
        if removed {
            self.hub.list_changed(ListKind::Tools);
        }
        removed
    }

    /// The names of the tools now, in the order they were added.
    pub fn names(&self) -> Vec<String> {
        self.shared
            .table()
            .tools
            .iter()
            .map(|t| t.name.clone())
            .collect()
    }
}
