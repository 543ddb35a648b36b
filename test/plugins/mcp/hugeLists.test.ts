// A server listing its tools, resources, templates and prompts as endless pages of one item with
// a huge description (replayed attack over HTTP: 9.5 MiB each, and the pod held 2.1 GB). Each
// list now reads at most 8 MiB of the server's JSON, keeps copies with descriptions cut to what
// the model may see, and says once, naming the server, that the list was cut.
import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FLOODING, newManager, NODE } from './mcpServers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('lists of endless pages of 1 MiB items: at most 8 MiB read per list, trimmed copies kept, one alert per list', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-big-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'log');
  const { m, alerts } = newManager({ big: { command: NODE, args: [FLOODING, 'big-pages', log] } });
  cleanups.push(() => m.close());
  await m.start();
  const conn = m.servers.get('big')!;
  expect(conn.state).toBe('ready');
  // Seven 1 MiB items fit in 8 MiB of JSON; the eighth page ends the listing.
  const asked = fs.readFileSync(log, 'utf8').trim().split('\n');
  for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'])
    expect(asked.filter((a) => a.startsWith(`${method} `))).toHaveLength(8);
  expect(conn.tools.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
  expect(conn.tools.every((t) => t.description!.length === 4097)).toBe(true);
  expect([conn.resources.length, conn.templates.length, conn.prompts.length]).toEqual([7, 7, 7]);
  const held = JSON.stringify([conn.tools, conn.resources, conn.templates, conn.prompts]).length;
  expect(held).toBeLessThan(64 * 1024);
  expect(alerts.sort()).toEqual(
    ['prompts', 'resource templates', 'resources', 'tools'].map(
      (list) => `MCP server big: its ${list} list was cut at 8 MiB of JSON (7 kept)`,
    ),
  );
  expect(m.describe().servers[0].last_error).toMatch(/list was cut at 8 MiB of JSON \(7 kept\)$/);
  expect(m.podTools().map((t) => t.description.length)).toEqual(Array(7).fill(4097));
}, 60_000);
