import { afterEach, describe, expect, it } from '@jest/globals';
import { render, cleanup } from 'ink-testing-library';
import { stripVTControlCharacters } from 'node:util';
import { AttachApp } from '../../../cli/attach/AttachApp.js';
import { AttachStore, initialAttachState } from '../../../cli/attach/AttachStore.js';
import type { PermissionRequest } from '../../../plugins/permissions/permissionWire.js';
import { call, scriptedPod, Watch } from '../../plugins/permissions/permissionsHarness.js';
import type { TestPod } from '../../support/startTestPod.js';
import { attachTo, inputText, texts, type AttachHarness } from './attachHarness.js';

let tp: TestPod | undefined;
let h: AttachHarness | undefined;
afterEach(async () => {
  cleanup();
  await h?.stop();
  await tp?.stop();
  h = undefined;
  tp = undefined;
});

const askRead = { rules: [{ tool: 'Read', action: 'ask' }] };
const has = (s: Parameters<typeof texts>[0], needle: string) => texts(s).some((t) => t.includes(needle));

describe('yoi attach and permission asks, against a real pod', () => {
  it('shows the ask as a modal that takes the keys; y allows it once and the call runs', async () => {
    tp = await scriptedPod([call('Read', { file_path: 'a.txt' }), { text: 'read it' }], {
      permissions: askRead,
      files: { 'a.txt': 'alpha\n' },
    });
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected' && s.transcript.status === 'idle');
    h.type('read a.txt\r');
    const asked = await h.until((s) => (s.asks?.length ?? 0) === 1);
    expect(asked.asks![0]).toMatchObject({ tool: 'Read', summary: 'Read a.txt', args: { file_path: 'a.txt' } });
    // Keys that are no answer do not leak into the input behind the modal.
    h.type('x');
    h.type('\r');
    expect(inputText(h.store.getState())).toBe('');
    expect(h.store.getState().asks).toHaveLength(1);
    // The countdown's clock moves on by itself while the ask is shown.
    await h.until((s) => s.askClock !== asked.askClock);
    h.type('y');
    const done = await h.until(
      (s) => has(s, '[permission] Read a.txt: allow_once (yoi-attach)') && s.transcript.status === 'idle',
      20_000,
    );
    expect(done.asks).toEqual([]);
    expect(texts(done)).toContain('tool Read done');
  });

  it('a client attaching later gets the pending ask; 3 rejects it; an answer given elsewhere takes the modal away', async () => {
    tp = await scriptedPod(
      [
        {
          tool_calls: [
            { name: 'Read', arguments: { file_path: 'a.txt' } },
            { name: 'Read', arguments: { file_path: 'b.txt' } },
          ],
        },
        { text: 'done' },
      ],
      { permissions: askRead, files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } },
    );
    const other = await Watch.on(tp, 'test/other');
    await other.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'read both' }] } });
    const first = await other.request((r) => r.summary === 'Read a.txt');
    const second = await other.request((r) => r.summary === 'Read b.txt');

    h = await attachTo(tp.socket);
    await h.until((s) => (s.asks?.length ?? 0) === 2);
    expect(h.store.getState().asks!.map((a) => a.id)).toEqual([first.id, second.id]);
    h.type('3');
    await h.until((s) => has(s, '[permission] Read a.txt: reject_once (yoi-attach)'));
    expect(h.store.getState().asks!.map((a) => a.id)).toEqual([second.id]);
    expect(await other.resolved(first.id)).toMatchObject({ decision: 'reject_once', by: 'yoi-attach' });

    await other.client.requestExtension('permission_reply', { id: second.id, decision: 'allow_once' });
    const s = await h.until((st) => has(st, '[permission] Read b.txt: allow_once (test/other)'));
    expect(s.asks).toEqual([]);
    await other.client.close();
  });
});

describe('the permission modal', () => {
  const request: PermissionRequest = {
    id: '3f9a1c2e',
    tool: 'Bash',
    args: { command: 'npm test -- --watch=false', timeout_ms: 60000 },
    summary: 'Bash: npm test -- --watch=false',
    options: ['allow_once', 'reject_once', 'reject_always'],
    deadline_ms: 0,
    default: 'reject_once',
    pod: 'worker',
    expires_at: 1_000_000,
  };

  it('shows who asks, the call and its arguments, the options with their keys and a countdown that ticks', async () => {
    const store = new AttachStore({
      ...initialAttachState,
      connection: 'connected',
      asks: [request, { ...request, id: '0b0b0b0b' }],
      askClock: 1_000_000 - 125_000,
    });
    const app = render(<AttachApp store={store} podName="lead" columns={80} rows={24} />);
    await new Promise((r) => setTimeout(r, 20));
    const screen = () => stripVTControlCharacters(app.lastFrame() ?? '');
    const text = screen();
    expect(text).toContain('Permission needed from pod worker · 3f9a1c2e');
    expect(text).toContain('Bash: npm test -- --watch=false');
    expect(text).toContain('"command": "npm test -- --watch=false"');
    expect(text).toContain('"timeout_ms": 60000');
    // Only the ask's options (an unsandboxed Bash cannot be always allowed), each with its keys.
    expect(text).toContain('1/y allow once   2/n reject   3/N always reject calls like it');
    expect(text).not.toContain('always allow');
    expect(text).toContain('reject once in 2m 05s · 1 more waiting');
    store.update((s) => ({ ...s, askClock: 1_000_000 - 59_000 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen()).toContain('reject once in 59s · 1 more waiting');
  });
});
