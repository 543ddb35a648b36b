import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PodClient } from '../../client/PodClient.js';
import { listPods } from '../../client/listPods.js';
import { isSocketLive } from '../../core/pod/podFiles.js';
import { podPaths, validatePodName } from '../../core/pod/runtimePaths.js';
import { formatHistoryItem } from '../formatHistoryItem.js';
import { sendAndWait } from './sendAndWait.js';

/** Most characters of a history handed back (the newest items are kept). */
const MAX_HISTORY_CHARS = 200_000;
const CLIENT = 'yoi-mcp/0.1.0';

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
const oneLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ').slice(0, 1000);

/** The socket of a running pod, or a one-line reason it cannot be reached. */
async function podSocket(pod: string): Promise<string> {
  const bad = validatePodName(pod);
  if (bad) throw new Error(bad);
  const { socket } = podPaths(pod);
  if (!(await isSocketLive(socket))) throw new Error(`pod ${pod} is not running (start it with yoi_start)`);
  return socket;
}

/** Wraps a tool body: every failure is an `isError` result with one line, never a crash. */
function guarded<A>(body: (args: A, signal: AbortSignal) => Promise<CallToolResult>) {
  return async (args: A, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
    try {
      return await body(args, extra.signal);
    } catch (e) {
      return fail(oneLine(e));
    }
  };
}

/**
 * `yoi mcp serve`: the user's pods as MCP tools, for Claude Code, Codex or any MCP client.
 * `yoi_pods` lists them, `yoi_start` starts one in a directory, `yoi_send` runs a message and
 * returns the reply, `yoi_history` prints a conversation. Everything goes through `PodClient`
 * and the runtime directory, as the CLI does.
 */
export function createYoiMcpServer(opts: {
  version: string;
  startPod: (name: string, dir: string) => Promise<string>;
}): McpServer {
  const server = new McpServer({ name: 'yoi', version: opts.version });

  server.registerTool(
    'yoi_pods',
    {
      description:
        "Lists this user's yoi pods: name, whether it is alive, its state (idle, running, paused, compacting) and socket.",
      inputSchema: {},
    },
    guarded(async () => {
      const pods = await listPods();
      if (pods.length === 0) return ok('no pods are running');
      return ok(
        JSON.stringify(
          pods.map((p) => ({
            name: p.name,
            alive: p.alive,
            state: p.state ?? null,
            pid: p.pid ?? null,
            session_id: p.session_id ?? null,
            socket: p.socket,
          })),
          null,
          2,
        ),
      );
    }),
  );

  server.registerTool(
    'yoi_send',
    {
      description:
        'Sends a message to a running yoi pod, waits until its run ends and returns what the agent replied. The pod may call tools and start child pods meanwhile.',
      inputSchema: { pod: z.string().describe('pod name'), message: z.string().min(1).describe('the message to send') },
    },
    guarded(async ({ pod, message }: { pod: string; message: string }, signal) => {
      const { text, result } = await sendAndWait(await podSocket(pod), message, signal, CLIENT);
      const note =
        result === 'limit_reached'
          ? '\n\n[the run stopped at its tool-round limit]'
          : result === 'paused'
            ? '\n\n[the run was paused]'
            : '';
      return ok(`${text || '(no text in the reply)'}${note}`);
    }),
  );

  server.registerTool(
    'yoi_history',
    {
      description: "Returns a running pod's conversation history, one item per line (newest last).",
      inputSchema: { pod: z.string().describe('pod name') },
    },
    guarded(async ({ pod }: { pod: string }) => {
      const client = await PodClient.connect({ socketPath: await podSocket(pod), clientName: CLIENT, protocol: 2 });
      try {
        const reply = await client.request({ method: 'get_history' });
        if (reply.event !== 'history') return fail(`pod ${pod} answered ${reply.event}`);
        let text = reply.data.items.map(formatHistoryItem).join('\n');
        if (text.length > MAX_HISTORY_CHARS) text = `[… older items left out]\n${text.slice(-MAX_HISTORY_CHARS)}`;
        return ok(text || '(the history is empty)');
      } finally {
        await client.close();
      }
    }),
  );

  server.registerTool(
    'yoi_start',
    {
      description:
        'Starts a yoi pod named `name` in directory `dir` (its config is found from there) and returns once it accepts messages.',
      inputSchema: {
        name: z.string().describe('pod name: letters, digits, ".", "_" or "-"'),
        dir: z.string().describe('project directory (absolute, or relative to where yoi mcp serve runs)'),
      },
    },
    guarded(async ({ name, dir }: { name: string; dir: string }) => {
      const bad = validatePodName(name);
      if (bad) return fail(bad);
      const abs = path.resolve(dir);
      if (!fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return fail(`${abs} is not a directory`);
      if (await isSocketLive(podPaths(name).socket)) return fail(`pod ${name} is already running`);
      const socket = await opts.startPod(name, abs);
      return ok(`started pod ${name} in ${abs}, listening ${socket}`);
    }),
  );

  return server;
}
