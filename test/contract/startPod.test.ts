import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { z } from 'zod';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import { defaultPlugins } from '../../plugins/index.js';
import { startPod, type TestPodHandle } from '../../testing/startPod.js';

let handle: TestPodHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

const shout = definePlugin({
  name: 'acme:shout',
  apply: (api) =>
    api.hooks.resolveSegment
      .for('shout')
      .tapPromise('acme:shout', async (s) => ({ type: 'inline', text: String(s.text).toUpperCase() })),
});

describe('yoi/testing startPod', () => {
  it("starts a real pod with the given plugins and a connected client; run() returns the run's events", async () => {
    handle = await startPod({ plugins: [...defaultPlugins(), shout()], files: { 'a.txt': 'A' } });
    expect(handle.client.welcome?.segment_kinds).toContain('shout');
    const events = await handle.run([{ kind: 'text', content: 'say ' }, { kind: 'shout', text: 'hi' } as never]);
    const done = events.find((e) => e.event === 'text_done');
    expect(done?.event === 'text_done' && done.data.text).toContain('[user] say HI');
    expect(events.filter((e) => e.event === 'run_end')).toEqual([
      expect.objectContaining({ data: { result: 'finished' } }),
    ]);
  });

  it('applies the config given as data, plugin sections included', async () => {
    handle = await startPod({ config: { knowledge: { dir: 'notes' } }, files: { 'notes/n.md': 'From notes.' } });
    const events = await handle.run([{ kind: 'knowledge_ref', slug: 'n' }]);
    const done = events.find((e) => e.event === 'text_done');
    expect(done?.event === 'text_done' && done.data.text).toContain('From notes.');
  });

  it('validates the config sections of the plugins it is given, and leaves nothing behind when the start fails', async () => {
    const greeter = definePlugin({
      name: 'acme:greeter',
      config: { key: 'greeter', schema: z.strictObject({ word: z.string().default('hi') }).prefault({}) },
      apply: (api) =>
        api.hooks.resolveSegment
          .for('greet')
          .tapPromise('acme:greeter', async () => ({ type: 'inline', text: api.config.word })),
    });
    // The temp dirs startPod makes, recorded as it makes them (other suites' pods do not count).
    const made: string[] = [];
    const mkdtemp = fs.mkdtempSync;
    fs.mkdtempSync = ((prefix: string, options?: never) => {
      const dir = mkdtemp(prefix, options) as string;
      made.push(dir);
      return dir;
    }) as typeof fs.mkdtempSync;
    try {
      await expect(
        startPod({ plugins: [...defaultPlugins(), greeter()], config: { greeter: { wrod: 'hello' } } }),
      ).rejects.toThrow(/greeter.*wrod/);
    } finally {
      fs.mkdtempSync = mkdtemp;
    }
    expect(made.length).toBeGreaterThanOrEqual(2); // the project and the runtime dir
    expect(made.filter((dir) => fs.existsSync(dir))).toEqual([]);

    handle = await startPod({ plugins: [...defaultPlugins(), greeter()], config: { greeter: { word: 'hello' } } });
    const events = await handle.run([{ kind: 'greet' } as never]);
    const done = events.find((e) => e.event === 'text_done');
    expect(done?.event === 'text_done' && done.data.text).toContain('hello');
  });
});
