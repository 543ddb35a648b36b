import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { RuntimeFiles, STATUS_SETTLE_MS } from '../../../core/pod/RuntimeFiles.js';
import { podPaths } from '../../../core/pod/runtimePaths.js';
import type { PodStatus } from '../../../core/protocol/index.js';
import { waitUntil } from '../../support/waitUntil.js';

let base: string;
let watcher: fs.FSWatcher | undefined;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-rtf-'));
});
afterEach(() => {
  watcher?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

/** A pod's runtime files with a status the test sets, and a count of status.json's replacements. */
function filesFor(name: string) {
  const paths = podPaths(name, { YOI_RUNTIME_DIR: base });
  let status: PodStatus = 'idle';
  const files = new RuntimeFiles(
    paths,
    () => status,
    () => 'session-1',
  );
  fs.mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  files.listening();
  let replaced = 0;
  // Each rewrite renames a temp file onto status.json.
  watcher = fs.watch(paths.dir, (event, file) => {
    if (event === 'rename' && file === 'status.json' && fs.existsSync(paths.status)) replaced++;
  });
  const state = () => JSON.parse(fs.readFileSync(paths.status, 'utf8')).state as PodStatus;
  const set = (s: PodStatus) => {
    status = s;
    files.statusChanged();
  };
  return { files, set, state, replaced: () => replaced };
}

describe('RuntimeFiles: status.json', () => {
  it('is written when listening, then once for a burst of transitions, with the state the pod settled in', async () => {
    const f = filesFor('burst');
    expect(f.state()).toBe('idle');
    f.set('paused');
    for (let i = 0; i < 200; i++) f.set(i % 2 ? 'running' : 'idle');
    f.set('running');
    await waitUntil(() => f.state() === 'running' && f.replaced() >= 1, 'status.json to say running', 5_000);
    // Every event the kernel queued by now has reached the watcher.
    await new Promise((r) => setImmediate(r));
    expect(f.replaced()).toBe(1);
  });

  it('is not rewritten by a burst that ends where it began', async () => {
    const f = filesFor('roundtrip');
    for (let i = 0; i < 100; i++) f.set(i % 2 ? 'idle' : 'running');
    // A timer of the same length, set after the burst's, runs after it (whatever it did).
    await new Promise((r) => setTimeout(r, STATUS_SETTLE_MS));
    // A later transition is one write: had the burst written its `idle` again, there would be two.
    f.set('paused');
    await waitUntil(() => f.state() === 'paused', 'status.json to say paused', 5_000);
    await new Promise((r) => setImmediate(r));
    expect(f.replaced()).toBe(1);
  });

  it('leaves no write behind a clean stop', async () => {
    const f = filesFor('stopping');
    f.set('running');
    await f.files.remove();
    expect(fs.existsSync(path.join(base, 'stopping'))).toBe(false);
  });
});
