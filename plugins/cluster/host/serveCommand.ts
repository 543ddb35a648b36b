import type { Placement } from './ReportRelay.js';
import { CommandBodySchema, CommandRequestSchema, type CommandReply } from '../PlacementSchemas.js';
import { verifyReport } from '../reportSignature.js';
import { connectToPod } from '../../podtree/shared/connectToPod.js';
import { requestShutdown } from '../../podtree/shared/requestShutdown.js';
import { decodeMethodLine, PodRequestError, podPaths } from '../../../core/api.js';

/** A command older (or further ahead) than this is refused: a captured one cannot be replayed later. */
const MAX_SKEW_MS = 5 * 60 * 1000;
/** Command ids remembered against replays within that window. */
const MAX_SEEN = 4096;

/**
 * Runs one command a remote parent sends to a pod this host placed (SendToPod, StopPod,
 * ReadPodOutput): it must be signed with that pod's secret and come from its parent, once; the
 * host then sends the method to the pod's socket as `pod/<parent>` and answers with the pod's
 * reply and state.
 */
export class CommandServer {
  private readonly seen = new Set<string>();
  /**
   * The seen ids die with the process: a command sent before this host started is refused, so a
   * captured one cannot be replayed after a restart (a parent whose clock is behind this host's
   * may see its first commands after a restart refused, for as long as the difference).
   */
  private readonly since = Date.now();

  constructor(
    private readonly placements: ReadonlyMap<string, Placement>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async handle(data: Uint8Array): Promise<CommandReply> {
    const refuse = (message: string): CommandReply => ({ ok: false, code: 'invalid_request', message });
    let outer;
    try {
      outer = CommandRequestSchema.safeParse(JSON.parse(Buffer.from(data).toString('utf8')));
    } catch {
      return refuse('the command is not JSON');
    }
    if (!outer.success) return refuse('the command is not a signed command');
    let body;
    try {
      body = CommandBodySchema.safeParse(JSON.parse(outer.data.body));
    } catch {
      return refuse('the command body is not JSON');
    }
    if (!body.success) return refuse('the command body is not valid');
    const { pod, parent, id, at, method } = body.data;
    const placement = this.placements.get(pod);
    if (
      !placement ||
      placement.parent !== parent ||
      !verifyReport(placement.secret, Buffer.from(outer.data.body, 'utf8'), outer.data.sig)
    ) {
      return refuse(`command refused: the sender did not authenticate as the parent of pod \`${pod}\``);
    }
    if (Math.abs(Date.now() - at) > MAX_SKEW_MS || this.seen.has(id))
      return refuse('command refused: it was sent before (or too long ago)');
    if (at < this.since) return refuse('command refused: it was sent before this host started (it may be a replay)');
    this.seen.add(id);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.values().next().value!);
    const decoded = decodeMethodLine(JSON.stringify(method));
    if (!decoded.ok) return refuse(decoded.error);
    const socket = podPaths(pod, this.env).socket;
    if (decoded.value.method === 'shutdown') {
      const reached = await requestShutdown(socket, parent);
      return reached
        ? { ok: true, reply: { event: 'ack', data: { method: 'shutdown' } } }
        : { ok: false, code: 'unreachable', message: `pod \`${pod}\` is not running` };
    }
    let client;
    try {
      client = await connectToPod(socket, parent);
    } catch (e) {
      return { ok: false, code: 'unreachable', message: `pod \`${pod}\` is not reachable: ${(e as Error).message}` };
    }
    try {
      const reply = await client.request(decoded.value as Parameters<typeof client.request>[0]);
      return {
        ok: true,
        reply: reply as unknown as CommandReply & { event: string },
        status: client.welcome?.status,
        session_id: client.welcome?.session_id,
      };
    } catch (e) {
      if (e instanceof PodRequestError)
        return { ok: false, code: e.podCode, message: e.message.replace(/^[a-z_]+: /, '') };
      return { ok: false, code: 'unreachable', message: (e as Error).message };
    } finally {
      await client.close();
    }
  }
}
