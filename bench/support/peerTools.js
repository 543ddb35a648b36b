// The peers of bench/peers.js: each CLI pinned to a version, installed from npm into a cache
// prefix reused across runs, and configured against the bench's one fake LLM server in a temp
// dir of its own (HOME, config dirs, a project dir), never the user's. bench/README (peers)
// documents each configuration and the wire API it speaks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODEL } from './peerLlmServer.js';

export const PEER_CACHE = process.env.YOI_BENCH_PEERS_CACHE ?? path.join(os.homedir(), '.cache', 'yoi-bench-peers');

const PINNED = {
  codex: { pkg: '@openai/codex', version: '0.171.0' },
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33' },
  pi: { pkg: '@mariozechner/pi-coding-agent', version: '0.73.1' },
};

const installedVersion = (pkg) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(PEER_CACHE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

/** Installs the pinned versions missing from the cache (`npm install --prefix`); throws on failure. */
export function installPeers() {
  const missing = Object.values(PINNED)
    .filter((p) => installedVersion(p.pkg) !== p.version)
    .map((p) => `${p.pkg}@${p.version}`);
  if (!missing.length) return;
  fs.mkdirSync(PEER_CACHE, { recursive: true });
  console.log(`installing ${missing.join(' ')} into ${PEER_CACHE}`);
  const r = spawnSync(
    'npm',
    ['install', '--prefix', PEER_CACHE, '--no-audit', '--no-fund', '--loglevel=error', ...missing],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`npm install of the peers failed (exit ${r.status})`);
}

const bin = (name) => path.join(PEER_CACHE, 'node_modules', '.bin', name);

/** The native binary the `codex` launcher (a node script) runs, for a `--version` without node. */
function codexNative() {
  const scope = path.join(PEER_CACHE, 'node_modules', '@openai');
  for (const pkg of fs.existsSync(scope) ? fs.readdirSync(scope).filter((d) => d.startsWith('codex-')) : []) {
    const vendor = path.join(scope, pkg, 'vendor');
    for (const triple of fs.existsSync(vendor) ? fs.readdirSync(vendor) : []) {
      const file = path.join(vendor, triple, 'bin', 'codex');
      if (fs.existsSync(file)) return file;
    }
  }
  return undefined;
}
const write = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

/**
 * The peers, each configured in `root` (a temp dir) against `origin` (the fake server;
 * `opencodePort` a free port for `opencode serve`, whose `--port 0` means its default 4096):
 * `{ name, pkg, version, cmd, native?, env, cwd, oneShot(prompt): args, server: { args, hello, ready } }`.
 * `server` is the long-running form, `hello` a line to write on its stdin and `ready` what its
 * stdout prints once it answered (or, without `hello`, once it listens).
 */
export function peers(root, origin, { opencodePort }) {
  const dir = (name) => {
    const d = path.join(root, name);
    for (const sub of ['home', 'project']) fs.mkdirSync(path.join(d, sub), { recursive: true });
    return d;
  };
  const base = (d) => ({
    ...process.env,
    HOME: path.join(d, 'home'),
    XDG_CONFIG_HOME: path.join(d, 'home/.config'),
    XDG_DATA_HOME: path.join(d, 'home/.local/share'),
    XDG_CACHE_HOME: path.join(d, 'home/.cache'),
    XDG_STATE_HOME: path.join(d, 'home/.local/state'),
  });

  const codexDir = dir('codex');
  // Codex 0.171 speaks only the Responses API to a custom provider.
  write(
    path.join(codexDir, 'codex-home/config.toml'),
    [
      `model = "${MODEL}"`,
      'model_provider = "fake"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${origin}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_API_KEY"',
      '',
    ].join('\n'),
  );
  const claudeDir = dir('claude');
  const opencodeDir = dir('opencode');
  write(
    path.join(opencodeDir, 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      model: `fake/${MODEL}`,
      autoupdate: false,
      share: 'disabled',
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: `${origin}/v1`, apiKey: 'x' },
          models: { [MODEL]: { name: 'Fake' } },
        },
      },
    }),
  );
  const piDir = dir('pi');
  write(
    path.join(piDir, 'agent/models.json'),
    JSON.stringify({
      providers: {
        fake: {
          baseUrl: `${origin}/v1`,
          api: 'openai-completions',
          apiKey: 'x',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: MODEL }],
        },
      },
    }),
  );

  return [
    {
      name: 'Codex',
      ...PINNED.codex,
      cmd: bin('codex'),
      native: codexNative(),
      cwd: path.join(codexDir, 'project'),
      env: { ...base(codexDir), CODEX_HOME: path.join(codexDir, 'codex-home'), FAKE_API_KEY: 'x' },
      oneShot: (prompt) => ['exec', '--skip-git-repo-check', prompt],
      server: {
        args: ['app-server'],
        hello: '{"id":1,"method":"initialize","params":{"clientInfo":{"name":"bench","version":"0"}}}',
        ready: '"id":1',
      },
    },
    {
      name: 'Claude Code',
      ...PINNED.claude,
      cmd: bin('claude'),
      cwd: path.join(claudeDir, 'project'),
      env: {
        ...base(claudeDir),
        CLAUDE_CONFIG_DIR: path.join(claudeDir, 'home/.claude'),
        ANTHROPIC_BASE_URL: origin,
        ANTHROPIC_API_KEY: 'x',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      oneShot: (prompt) => ['-p', prompt, '--model', MODEL],
      server: {
        args: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--model', MODEL],
        hello: '{"type":"control_request","request_id":"1","request":{"subtype":"initialize"}}',
        ready: '"control_response"',
      },
    },
    {
      name: 'opencode',
      ...PINNED.opencode,
      cmd: bin('opencode'),
      cwd: path.join(opencodeDir, 'project'),
      env: {
        ...base(opencodeDir),
        OPENCODE_CONFIG: path.join(opencodeDir, 'opencode.json'),
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
      },
      oneShot: (prompt) => ['run', prompt],
      server: { args: ['serve', '--hostname', '127.0.0.1', '--port', String(opencodePort)], ready: 'listening on' },
    },
    {
      name: 'pi',
      ...PINNED.pi,
      cmd: bin('pi'),
      cwd: path.join(piDir, 'project'),
      env: { ...base(piDir), PI_CODING_AGENT_DIR: path.join(piDir, 'agent'), PI_OFFLINE: '1', PI_TELEMETRY: '0' },
      oneShot: (prompt) => ['-p', prompt, '--provider', 'fake', '--model', MODEL],
      server: {
        args: ['--mode', 'rpc', '--provider', 'fake', '--model', MODEL],
        hello: '{"type":"get_state","id":"1"}',
        ready: '"get_state"',
      },
    },
  ];
}
