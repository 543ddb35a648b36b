import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  bashSettings,
  BashOptionsSchema,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  type BashOptions,
  type BashSettings,
} from './bashSettings.js';
import { bwrapArgs, shellCommand } from './bwrapArgs.js';
import { CommandWatch } from './CommandWatch.js';
import { controlPlaneOf } from './controlPlane.js';
import { formatResult } from './formatResult.js';
import { planMounts } from './planMounts.js';
import { probeSandbox } from './probeSandbox.js';
import { runCommand } from './runCommand.js';
import { sandboxEnv } from './sandboxEnv.js';
import {
  definePlugin,
  type PodInfo,
  type PodServices,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from '../../core/api.js';

export const BASH = 'yoi:bash';
/** Longest command line accepted, in bytes (Linux refuses a single argument over 128 KiB). */
export const MAX_COMMAND_BYTES = 100_000;

export const BashInputSchema = z.object({
  command: z.string().min(1).describe('The command line, run with `bash -c`.'),
  timeout_ms: z
    .int()
    .min(1)
    .optional()
    .describe(
      `Time limit in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}); the command and all its processes are killed then.`,
    ),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe("Working directory, absolute or relative to the pod's (default: the pod's working directory)."),
});
export type BashInput = z.infer<typeof BashInputSchema>;

/** The Bash tool of one pod. `sandboxed: false` marks commands that run without bubblewrap. */
export interface BashTool extends Tool<BashInput> {
  readonly sandboxed: boolean;
}

/** Whether the pod's Bash runs sandboxed; `undefined` when the pod offers no Bash. */
const offered = new WeakMap<PodServices, boolean>();
export function bashSandboxed(services: PodServices): boolean | undefined {
  return offered.get(services);
}

/**
 * `Bash`: runs a command with `bash -c` in a bubblewrap sandbox shaped by the pod's scope (see
 * planMounts): everything read-only but the write scope, denied regions unreadable, the control
 * plane read-only, a private /tmp, no network unless `network: true`, a fresh PID namespace and
 * a clean environment. Where no sandbox can be made Bash is not offered and the pod says why,
 * once, at start — unless `sandbox: 'off'`.
 */
export const bashTool = definePlugin({
  name: BASH,
  options: BashOptionsSchema.optional(),
  config: { key: 'bash', schema: BashOptionsSchema.optional() },
  apply(api, options) {
    api.hooks.tools
      .for('Bash')
      .tap(BASH, (pod) => createBashTool(pod, bashSettings(options, api.config, pod.services.config)));
  },
});

declare module '../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** The Bash tool: `network` (default off), `sandbox` (`bwrap`, or `off` to run unsandboxed). */
    bash?: BashOptions;
  }
}

/** The tool for one pod, or `undefined` (with one alert saying why) when it cannot be offered. */
export function createBashTool(pod: PodInfo, settings: BashSettings): BashTool | undefined {
  if (settings.sandbox === 'off') {
    pod.services.alert(
      'warn',
      `${BASH}: Bash runs commands without a sandbox (bash.sandbox: 'off'): they can read and write whatever this user can`,
    );
    offered.set(pod.services, false);
    return makeTool(settings, undefined);
  }
  const probe = probeSandbox(settings.bwrapPath, { network: settings.network }, process.env, pod.services.runtime.base);
  if (!probe.ok) {
    pod.services.alert(
      'warn',
      `${BASH}: Bash is not offered: ${probe.reason}; set bash.sandbox: 'off' to run commands without a sandbox`,
    );
    return undefined;
  }
  offered.set(pod.services, true);
  return makeTool(settings, probe.bwrap);
}

function makeTool(settings: BashSettings, bwrap: string | undefined): BashTool {
  const where = bwrap
    ? "in a sandbox: the filesystem is read-only except the pod's write scope, denied paths are unreadable, /tmp is private" +
      `${settings.network ? '' : ', there is no network'}, and no process outlives the command`
    : 'WITHOUT a sandbox';
  // One per pod: what its overlapping commands must not leave behind.
  const watch = new CommandWatch();
  return {
    name: 'Bash',
    sandboxed: bwrap !== undefined,
    description:
      `Runs a bash command line (bash -c) ${where}. stdin is empty; stdout and stderr come back interleaved, ` +
      `long output with its head and tail kept. The default time limit is ${settings.timeoutMs} ms. ` +
      'Use it to run programs, tests and builds; prefer Read, Write, Edit, Glob and Grep for files.',
    input: BashInputSchema,
    execute: (input, ctx) => runBash(input, ctx, settings, bwrap, watch),
  };
}

async function runBash(
  input: BashInput,
  ctx: ToolContext,
  settings: BashSettings,
  bwrap: string | undefined,
  watch: CommandWatch,
): Promise<ToolOutput> {
  if (input.command.includes('\0')) return refuse('the command contains a NUL byte');
  const bytes = Buffer.byteLength(input.command);
  if (bytes > MAX_COMMAND_BYTES)
    return refuse(
      `the command is too long (${bytes} bytes, at most ${MAX_COMMAND_BYTES}): write a script file and run it`,
    );
  const cwd = workingDir(ctx, input.cwd);
  if (!cwd.ok) return refuse(cwd.reason);
  // Never past the pod's own deadline for a tool call (limits.toolTimeoutMs).
  const podLimit = ctx.services.config?.limits.toolTimeoutMs ?? Infinity;
  const timeoutMs = Math.min(input.timeout_ms ?? settings.timeoutMs, settings.maxTimeoutMs, podLimit);
  const env = sandboxEnv();
  const argv = shellCommand(input.command);
  const end = await watch.begin(ctx);
  let result: ToolOutput;
  let removed: string[];
  try {
    let launch: { file: string; args: string[]; dataFds: number; infoFd?: number };
    if (bwrap) {
      const scope = ctx.services.scope;
      const plan = planMounts({
        allow: scope.allowRules,
        deny: scope.denyRules,
        locks: scope.locks,
        ...controlPlaneOf(ctx),
      });
      const invocation = bwrapArgs(plan, { network: settings.network }, cwd.path, env, argv);
      launch = { file: bwrap, ...invocation };
    } else {
      launch = { file: argv[0], args: argv.slice(1), dataFds: 0 };
    }
    const outcome = await runCommand({
      ...launch,
      cwd: cwd.path,
      env,
      timeoutMs,
      signal: ctx.signal,
      maxOutputBytes: settings.maxOutputBytes,
    });
    result = formatResult(outcome, timeoutMs);
  } finally {
    // runCommand resolves once the sandbox is empty (or, unsandboxed, the group is killed).
    removed = await end();
  }
  if (removed.length === 0) return result;
  // An abandoned call's result is dropped by the pod: say it as an alert too.
  if (ctx.signal.aborted) ctx.services.alert('warn', `${BASH}: ${removed.join('; ')}`);
  return { ...result, summary: [result.summary, ...removed].join('; '), is_error: true };
}

/** The canonical working directory: readable in scope, and a directory. */
function workingDir(
  ctx: ToolContext,
  given: string | undefined,
): { ok: true; path: string } | { ok: false; reason: string } {
  if (given?.includes('\0')) return { ok: false, reason: 'the working directory contains a NUL byte' };
  const absolute = path.resolve(ctx.cwd, given ?? '.');
  const check = ctx.services.scope.check(absolute, 'read');
  if (!check.ok) return { ok: false, reason: `cannot run in ${absolute}: ${check.reason}` };
  let isDir = false;
  try {
    isDir = fs.statSync(check.path).isDirectory();
  } catch {
    return { ok: false, reason: `cannot run in ${absolute}: it does not exist` };
  }
  return isDir ? { ok: true, path: check.path } : { ok: false, reason: `cannot run in ${absolute}: not a directory` };
}

function refuse(reason: string): ToolOutput {
  return { summary: reason, is_error: true };
}
