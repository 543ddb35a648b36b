import { PodClient, type UnknownEvent } from '../../../client/PodClient.js';
import type { Event } from '../../../core/protocol/index.js';
import type { PermissionRequest, PermissionResolved } from '../../../plugins/permissions/permissionWire.js';
import {
  recorder,
  runEnded,
  startTestPod,
  text,
  type TestPod,
  type TestPodOptions,
} from '../../support/startTestPod.js';

export type Reply = { text?: string; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };
export const call = (name: string, args: Record<string, unknown>): Reply => ({
  tool_calls: [{ name, arguments: args }],
});

/** A pod on the scripted provider, with a `permissions` section (omitted: the built-in policy). */
export function scriptedPod(
  script: Reply[],
  opts: {
    permissions?: Record<string, unknown>;
    files?: Record<string, string>;
    dir?: string;
    resume?: true;
    name?: string;
  } = {},
): Promise<TestPod> {
  const config = {
    model: { provider: 'scripted', script: 's.json' },
    ...(opts.permissions ? { permissions: opts.permissions } : {}),
  };
  const options: TestPodOptions = {
    files: { 's.json': JSON.stringify(script), ...opts.files },
    config,
    ...(opts.name ? { name: opts.name } : {}),
  };
  if (opts.dir) Object.assign(options, { dir: opts.dir, resume: opts.resume });
  return startTestPod(options);
}

/** Every event a client gets, protocol and extension alike, in order. */
export class Watch {
  readonly events: Event[];
  readonly ext: UnknownEvent[] = [];
  private waiters: (() => void)[] = [];

  constructor(readonly client: PodClient) {
    this.events = recorder(client);
    client.onEvent(() => this.wake());
    client.onUnknownEvent((e) => {
      this.ext.push(e);
      this.wake();
    });
  }

  /** Connects and says hello with the listeners in place (as attach does), so nothing sent after the welcome is missed. */
  static async on(tp: TestPod, clientName = 'test/1'): Promise<Watch> {
    const client = await PodClient.connect({ socketPath: tp.socket, protocol: 1, clientName });
    const w = new Watch(client);
    const welcome = await client.request({ method: 'hello', params: { protocol_version: 2, client: clientName } });
    if (welcome.event === 'welcome') client.welcome = welcome.data;
    return w;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits for an extension event matching `pred` (past ones included). */
  async waitExt(name: string, pred: (data: any) => boolean = () => true, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.ext.find((e) => e.event === name && pred(e.data));
      if (found) return found.data;
      if (Date.now() > deadline)
        throw new Error(`no ${name} event; got ${JSON.stringify(this.ext.map((e) => e.event))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100).unref();
      });
    }
  }

  request(pred: (r: PermissionRequest) => boolean = () => true): Promise<PermissionRequest> {
    return this.waitExt('permission_request', pred);
  }

  resolved(id: string): Promise<PermissionResolved> {
    return this.waitExt('permission_resolved', (d) => d.id === id);
  }

  async event(pred: (e: Event) => boolean, timeoutMs = 20_000): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; saw ${JSON.stringify(this.events.map((e) => e.event))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100).unref();
      });
    }
  }

  results(): { id: string; summary: string; output?: string; is_error: boolean }[] {
    return this.events.flatMap((e) => (e.event === 'tool_result' ? [e.data] : []));
  }
}

/** Starts a run with `input` on `client`; resolves (once acknowledged) with its terminal event's promise, wrapped. */
export async function startRun(client: PodClient, input: string): Promise<{ ended: Promise<Event> }> {
  const ended = runEnded(client, 60_000);
  await client.request({ method: 'run', params: { input: [text(input)] } });
  return { ended };
}

export const reply = (client: PodClient, id: string, decision: string, extra: Record<string, unknown> = {}) =>
  client.requestExtension('permission_reply', { id, decision, ...extra });
