/**
 * What the report kill-window tests share: a config whose plugin has a side effect keyed by the
 * report's request id on `errored` reports, then a kill point (armed by the file `kill.armed` in
 * the project, fired once: the pod SIGKILLs itself right after the side effect).
 */

/** The config; `extra` is added to its default export (a `cluster` section, ...). */
export const killPointConfig = (extra: Record<string, unknown> = {}) => `import fs from 'node:fs';
import path from 'node:path';
import { defaultPlugins, definePlugin } from 'yoi';

// A side effect keyed by the report's request id, then a kill point (armed by a file, fired once).
const killPoint = definePlugin({
  name: 'test:kill-point',
  apply(api) {
    api.hooks.podEvent.for('errored').tapPromise('test:kill-point', async (event, ctx) => {
      const effects = path.join(ctx.projectDir, 'effects.log');
      const done = fs.existsSync(effects) ? fs.readFileSync(effects, 'utf8').split('\\n') : [];
      if (!done.includes(String(ctx.requestId))) fs.appendFileSync(effects, ctx.requestId + '\\n');
      const armed = path.join(ctx.projectDir, 'kill.armed');
      if (fs.existsSync(armed)) {
        fs.unlinkSync(armed);
        process.kill(process.pid, 'SIGKILL');
      }
    });
  },
});

export default { plugins: [...defaultPlugins(), killPoint()], ...${JSON.stringify(extra)} };
`;

/** How many system notes of `history` mention `text`. */
export function notesAbout(history: unknown[], text: string): number {
  return history.filter(
    (i: any) => i.type === 'message' && i.role === 'system' && JSON.stringify(i.content).includes(text),
  ).length;
}

/** Polls `probe` until it holds (bounded by `timeoutMs`): for conditions no event announces. */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
