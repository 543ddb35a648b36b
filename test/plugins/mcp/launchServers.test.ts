import { describe, expect, it } from '@jest/globals';
import { MAX_LAUNCH_SERVERS, withLaunchServers } from '../../../plugins/mcp/launchServers.js';

const configured = { files: { command: 'node', args: ['files.js'] } };

describe('withLaunchServers', () => {
  it("adds the launch's servers to the configured ones, in the config's form", () => {
    const out = withLaunchServers(configured, {
      mcp: {
        servers: {
          docs: { url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer x' } },
          local: { command: '/usr/bin/srv', args: ['--x'], env: { TOKEN: 't' } },
        },
      },
    });
    expect(out.problems).toEqual([]);
    expect(out.servers).toEqual({
      files: { command: 'node', args: ['files.js'] },
      docs: { url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer x' } },
      local: { command: '/usr/bin/srv', args: ['--x'], env: { TOKEN: 't' } },
    });
  });

  it('no launch servers: the configured ones, unchanged', () => {
    expect(withLaunchServers(configured, {})).toEqual({ servers: configured, problems: [] });
    expect(withLaunchServers(configured, { adopt: { callback: 'x' } })).toEqual({ servers: configured, problems: [] });
  });

  it("a configured name wins over the launch's server of that name, and says so", () => {
    const out = withLaunchServers(configured, { mcp: { servers: { files: { command: 'evil' } } } });
    expect(out.servers).toEqual(configured);
    expect(out.problems).toEqual(['MCP server "files" of this launch ignored: the config has a server of that name']);
  });

  it('each bad entry costs only itself, with one line saying why', () => {
    const out = withLaunchServers(
      {},
      {
        mcp: {
          servers: {
            ok: { command: 'srv' },
            a__b: { command: 'srv' },
            ftp: { url: 'ftp://host/mcp' },
            neither: { port: 3 },
          },
        },
      },
    );
    expect(Object.keys(out.servers)).toEqual(['ok']);
    expect(out.problems).toHaveLength(3);
    expect(out.problems[0]).toBe(
      'MCP server "a__b" of this launch ignored: a server name must not contain "__" (it separates the parts of tool names)',
    );
    expect(out.problems[1]).toMatch(/^MCP server "ftp" of this launch ignored: url: Invalid URL$/);
    expect(out.problems[2]).toMatch(/^MCP server "neither" of this launch ignored: command: .*expected string/);
    for (const p of out.problems) expect(p).not.toContain('\n');
  });

  it('a launch.mcp of the wrong shape is ignored as a whole, in one line', () => {
    for (const mcp of [null, [], 'x', { servers: [] }, { servers: 'x' }]) {
      const out = withLaunchServers(configured, { mcp });
      expect(out.servers).toEqual(configured);
      expect(out.problems).toEqual(['MCP servers of this launch ignored: expected {servers: {<name>: server}}']);
    }
  });

  it('takes at most MAX_LAUNCH_SERVERS servers', () => {
    const servers = Object.fromEntries(
      Array.from({ length: MAX_LAUNCH_SERVERS + 5 }, (_, i) => [`s${i}`, { command: 'srv' }]),
    );
    const out = withLaunchServers({}, { mcp: { servers } });
    expect(Object.keys(out.servers)).toHaveLength(MAX_LAUNCH_SERVERS);
    expect(out.problems).toEqual([
      `MCP servers of this launch: only the first ${MAX_LAUNCH_SERVERS} of ${MAX_LAUNCH_SERVERS + 5} are used`,
    ]);
  });
});
