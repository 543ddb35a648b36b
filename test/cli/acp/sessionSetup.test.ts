import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { findSession } from '../../../cli/acp/findSession.js';
import { mapMcpServers } from '../../../cli/acp/mcpServers.js';
import { podNameFor } from '../../../cli/acp/podNameFor.js';
import { availableCommands } from '../../../cli/acp/availableCommands.js';
import { validatePodName } from '../../../core/pod/runtimePaths.js';
import { makeProject } from '../../support/startTestPod.js';

describe('session setup', () => {
  it("pod names: the config's when it sets one, else the directory and a hash of its path, always valid", () => {
    expect(podNameFor('api', '/work/x')).toBe('api');
    const a = podNameFor('default', '/work/web app');
    expect(a).toMatch(/^web-app-[0-9a-f]{8}$/);
    expect(podNameFor('default', '/other/web app')).not.toBe(a); // same directory name, another project
    expect(podNameFor('default', '/work/web app/')).toBe(a);
    for (const dir of ['/', '/work/.hidden', '/work/scope.lock', '/work/ünïcode', `/work/${'x'.repeat(100)}`]) {
      expect(validatePodName(podNameFor('default', dir))).toBeUndefined();
    }
  });

  it("MCP servers in yoi's form: stdio, http and sse kept, names made valid and unique, acp transport skipped", () => {
    const { servers, skipped } = mapMcpServers([
      { name: 'git hub', command: 'gh-mcp', args: ['-v'], env: [{ name: 'TOKEN', value: 't' }] },
      { type: 'http', name: 'git hub', url: 'https://x/mcp', headers: [{ name: 'A', value: 'b' }] },
      { type: 'sse', name: '__weird__name__', url: 'https://x/sse', headers: [] },
      { type: 'acp', name: 'inproc', serverId: 's1' },
      { name: '!!!', command: 'c', args: [], env: [] },
      { name: 'y'.repeat(40), command: 'c', args: [], env: [] },
      { name: 'y'.repeat(40), command: 'c', args: [], env: [] },
    ]);
    expect(servers).toEqual({
      'git-hub': { command: 'gh-mcp', args: ['-v'], env: { TOKEN: 't' } },
      'git-hub-2': { url: 'https://x/mcp', headers: { A: 'b' } },
      weird_name: { url: 'https://x/sse', headers: {} },
      server: { command: 'c', args: [], env: {} },
      ['y'.repeat(32)]: { command: 'c', args: [], env: {} },
      [`${'y'.repeat(30)}-2`]: { command: 'c', args: [], env: {} },
    });
    for (const name of Object.keys(servers)) expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/);
    expect(skipped).toEqual(['MCP server "inproc": the "acp" transport is not supported']);
  });

  it("commands from the pod's /slug completions: workflows and MCP prompts", () => {
    expect(availableCommands(['review', 'docs:search', 'has space', ''])).toEqual([
      { name: 'review', description: 'yoi workflow review', input: { hint: 'what to apply it to' } },
      {
        name: 'docs:search',
        description: 'MCP prompt search from server docs',
        input: { hint: 'arguments as key=value' },
      },
    ]);
  });

  it('a session id names its pod, and compaction moves it on to the newest session made from it', () => {
    const dir = makeProject();
    const start = (id: string, pod: string, from?: string) =>
      fs.writeFileSync(
        path.join(dir, `${id}.jsonl`),
        `${JSON.stringify({
          type: 'session_start',
          v: 1,
          ts: 1,
          session_id: id,
          pod_name: pod,
          cwd: '/',
          provider: 'echo',
          model: 'echo',
          system_prompt: 'x'.repeat(100_000),
          ...(from ? { compacted_from: { session_id: from, at: 2 } } : {}),
        })}\n{"type":"usage"}\n`,
      );
    const id = (n: number) => `0190${String(n).padStart(4, '0')}-0000-7000-8000-000000000000`;
    start(id(1), 'web');
    start(id(2), 'web', id(1));
    start(id(3), 'other', id(2)); // another pod's session is never taken
    start(id(4), 'web', id(2));
    start(id(5), 'web'); // unrelated
    expect(findSession(dir, id(1))).toEqual({ podName: 'web', current: id(4) });
    expect(findSession(dir, id(5).toUpperCase())).toEqual({ podName: 'web', current: id(5) });
    fs.symlinkSync(path.join(dir, `${id(1)}.jsonl`), path.join(dir, `${id(9)}.jsonl`));
    for (const missing of [id(8), id(9), '../../etc/passwd', 'not-a-uuid'])
      expect(() => findSession(dir, missing)).toThrow('Resource not found');
  });
});
