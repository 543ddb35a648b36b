/**
 * Every error code yoi reports, with a one-line description of what it means. Sorted
 * alphabetically; a test keeps it that way. Codes are stable: scripts may match on them.
 */
export const ERROR_CODES = {
  /** `yoi pod start --adopt` found no scope reserved for it by the pod at `--callback` (SpawnPod starts such pods). */
  YOI_ERR_ADOPT: 'a pod started with --adopt found no scope reserved for it',
  /** A pod's network listener refused the client: no or a wrong bearer token (HTTP 401), a browser Origin (403), too many failures from this address (429). */
  YOI_ERR_AUTH: 'the pod at <url> refused the connection: <why>',
  /** The cluster (NATS JetStream) could not be reached or used: the message names the servers and the cause. */
  YOI_ERR_CLUSTER: 'cannot use the cluster at <servers>: <cause>',
  /** A cluster command (`yoi host`, `yoi pod list --cluster`, SpawnPod with `host`) found no `cluster` section in the config. */
  YOI_ERR_CLUSTER_NOT_CONFIGURED: 'cluster mode needs a `cluster: {nats: {servers}}` section in the config',
  /** A manual compaction (`yoi compact`) ended with `compact_failed`; the history is unchanged. */
  YOI_ERR_COMPACTION: 'the compaction of pod <name> failed: <cause>',
  /** A config file could not be loaded or does not match the schema. */
  YOI_ERR_CONFIG: 'the configuration is invalid (the message names the file and the key)',
  /** `yoi init` found a config file already present. */
  YOI_ERR_CONFIG_EXISTS: 'a config file already exists here; yoi init does not overwrite it',
  /** `--config FILE` or `YOI_CONFIG` names a file that does not exist. */
  YOI_ERR_CONFIG_NOT_FOUND: 'the config file given with --config or YOI_CONFIG does not exist',
  /**
   * A pod started by SpawnPod found its config changed since its spawner loaded it (or a config
   * where its spawner had none), and the user has not trusted that content with `yoi trust`.
   */
  YOI_ERR_CONFIG_UNTRUSTED:
    'the config changed since the spawning pod loaded it; run yoi trust to let spawned pods load it',
  /** The pod's socket could not be reached, or the connection closed before the answer. */
  YOI_ERR_CONNECTION: 'cannot reach pod <name> at <socket>',
  /** A network listener (`--listen`, config `listen`) cannot be set up: a bad URL, a non-loopback host without `allowRemote`, TLS files, the port. */
  YOI_ERR_LISTEN: 'cannot listen on <url>: <cause>',
  /** An interactive command (`yoi attach`) was run without a terminal on stdin and stdout. */
  YOI_ERR_NOT_A_TERMINAL: 'yoi attach needs an interactive terminal',
  /** What was opened is not the path that was checked: a directory on the way was moved or swapped for a symlink meanwhile. */
  YOI_ERR_PATH_CHANGED: '<path> changed while it was being opened; try again',
  /** `.yoi/permissions.json` (the saved permission rules) is invalid, unsafe (not the user's, a link) or cannot be written. */
  YOI_ERR_PERMISSIONS_FILE: 'the permissions file <file> cannot be used: <cause>',
  /** A plugin's tap or `apply()` threw or rejected; the message names the plugin and the hook. */
  YOI_ERR_PLUGIN: 'plugin <name> failed in <hook>: <cause>',
  /** A plugin lists in `dependsOn` a plugin that is not applied before it. */
  YOI_ERR_PLUGIN_DEPENDENCY: 'plugin <name> depends on <other>, which is not applied before it',
  /** Two plugins with the same name were applied to one host. */
  YOI_ERR_PLUGIN_DUPLICATE: 'plugin <name> is applied twice',
  /** A tap or `applyPlugins()` came after the pod started; taps belong in a plugin\'s apply(). */
  YOI_ERR_PLUGIN_FROZEN: 'hooks are frozen once the pod starts',
  /** A plugin definition is malformed (empty name, not made with definePlugin()). */
  YOI_ERR_PLUGIN_INVALID: 'not a valid plugin',
  /** A plugin factory was called with options its schema rejects. */
  YOI_ERR_PLUGIN_OPTIONS: 'plugin <name>: invalid options: <key path>: <problem>',
  /** A plugin uses a service nobody provides, or two plugins provide the same one. */
  YOI_ERR_PLUGIN_SERVICE: 'plugin <name> uses service <key>, which no plugin provides',
  /** A tap used the callback style (`tapAsync`) or passed an async function to `tap()`. */
  YOI_ERR_PLUGIN_TAP_ASYNC: 'use tapPromise() for async taps; tapAsync() and async functions in tap() are refused',
  /** A pod name is not usable as a directory name. */
  YOI_ERR_POD_NAME: 'invalid pod name <name>',
  /** No pod of that name is running (no live socket). */
  YOI_ERR_POD_NOT_FOUND: 'pod <name> is not running',
  /** A pod of that name already holds an allocation in scope.lock. */
  YOI_ERR_POD_REGISTERED: 'pod name <name> is already registered',
  /** A live pod already listens on that socket. */
  YOI_ERR_POD_RUNNING: 'pod <name> is already running',
  /** scope.lock has no allocation for that pod. */
  YOI_ERR_POD_UNREGISTERED: 'pod <name> is not registered',
  /** The pod answered a request with an event this client cannot take as its answer: a core event whose data does not match the protocol, or an event that answers no core method. */
  YOI_ERR_PROTOCOL: 'the pod sent a malformed <event> event: <why>',
  /** The configured provider could not be created (e.g. a missing API key). */
  YOI_ERR_PROVIDER: 'cannot start provider <name>: <cause>',
  /** A line from the pod (a history of a very long session) was over what a client holds; the requests waiting fail, and a line that answered none ends the connection. */
  YOI_ERR_REPLY_TOO_LARGE: 'a reply from the pod was over <limit>, more than a client holds',
  /** The pod refused a request; the message carries the pod's error code and text. */
  YOI_ERR_REQUEST: '<pod error code>: <message>',
  /** A run this client started was paused by another client; `yoi resume` continues it. */
  YOI_ERR_RUN_PAUSED: 'the run was paused by another client',
  /** A delegated write rule overlaps a region another pod holds exclusively. */
  YOI_ERR_SCOPE_CONFLICT: 'requested scope <target> conflicts with pod <name>',
  /** scope.lock could not be locked, read or written (or is not valid JSON of the expected shape). */
  YOI_ERR_SCOPE_LOCK: 'the scope lock <file> cannot be used: <cause>',
  /** A rule to delegate is not covered by the spawning pod's own scope. */
  YOI_ERR_SCOPE_NOT_SUBSET: "requested scope <target> is not within spawner <name>'s effective scope",
  /** A segment kind is declared badly (name, sigil, field) or twice. */
  YOI_ERR_SEGMENT_KIND: 'segment kind <kind>: <problem>',
  /** A session id prefix (`--resume ID`, `yoi sessions show ID`) matches more than one session. */
  YOI_ERR_SESSION_AMBIGUOUS: 'session id <prefix> matches <n> sessions',
  /** The session directory is not a directory, or belongs to another user. */
  YOI_ERR_SESSION_DIR: 'the session directory <dir> cannot be used',
  /** `--resume` names a session that does not exist, or there is none. */
  YOI_ERR_SESSION_NOT_FOUND: 'no session <id> in <dir>',
  /** `--resume ID` names a session another pod wrote: a pod resumes only its own. */
  YOI_ERR_SESSION_OTHER_POD: 'session <id> belongs to pod <name>',
  /** A session log cannot be read (not a session log, not a regular file of this user, too large). */
  YOI_ERR_SESSION_UNREADABLE: 'cannot read session <file>: <cause>',
  /** The socket path is longer than the OS allows for Unix sockets. */
  YOI_ERR_SOCKET_PATH: 'socket path is too long for this OS',
  /** The pod did not answer in time. */
  YOI_ERR_TIMEOUT: 'no answer from pod <name> within <ms> ms',
  /** The bearer token for a network listener or client is missing or unusable (an unset variable, a token file not the user's own or readable by others). */
  YOI_ERR_TOKEN: 'no usable token: <cause>',
  /** The trust store (`~/.config/yoi/trust.json`) is not valid JSON of the expected shape. */
  YOI_ERR_TRUST_STORE: 'the trust store <file> cannot be used: <cause>',
  /** `model.provider` names a provider no plugin registers. */
  YOI_ERR_UNKNOWN_PROVIDER: 'unknown provider <name> (available: <names>)',
  /** The pod does not offer what was asked (a v1 pod has no `compact`, `list_completions`). */
  YOI_ERR_UNSUPPORTED: 'the pod does not support <method> (it speaks protocol v1)',
  /**
   * A runtime directory, runtime file, socket or the trust store is not the user's own (another
   * owner, a link, writable by others, or in a directory others can swap it in).
   */
  YOI_ERR_UNTRUSTED_PATH: '<what> <path> is not yours (another owner, a link, writable by others): <fix>',
  /** A command line flag or argument is wrong. */
  YOI_ERR_USAGE: 'invalid command line',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
