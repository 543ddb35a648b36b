import { describe } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedConfig } from '../../../core/api.js';
import type { PodInfo } from '../../../core/hooks/HookTypes.js';
import type { PodServices } from '../../../core/hooks/PodServices.js';
import { createTestServices } from '../../../testing/createTestServices.js';
import { PluginHost } from '../../../core/plugin/PluginHost.js';
import { Scope, type ScopeConfigInput } from '../../../core/scope/Scope.js';
import type { ToolOutput } from '../../../core/tools/Tool.js';
import type { BashOptions } from '../../../plugins/bash/bashSettings.js';
import { bashTool, type BashTool } from '../../../plugins/bash/bashTool.js';
import { probeSandbox } from '../../../plugins/bash/probeSandbox.js';

/** Whether the real bubblewrap works here (tests that need it are skipped, saying why, if not). */
export const sandbox = probeSandbox(undefined, { network: false });
export const describeSandboxed: typeof describe.skip = sandbox.ok ? describe : describe.skip;
if (!sandbox.ok) console.warn(`bash sandbox tests skipped: ${sandbox.reason}`);

/**
 * Trees live outside /tmp: inside the sandbox /tmp is a private tmpfs, where a write "outside the
 * scope" would succeed unseen instead of failing against the read-only host.
 */
const REPO_SCRATCH = fileURLToPath(new URL('../../../.scratch/', import.meta.url));
// A checkout under /tmp (a CI clone there) has its scratch folder inside the private /tmp too.
const SCRATCH = REPO_SCRATCH.startsWith('/tmp/') ? '/var/tmp/yoi-test-scratch/' : REPO_SCRATCH;

/** A real temp dir (canonical, not under /tmp) with `project/` inside and room for things outside it. */
export function tempTree(files: Record<string, string> = {}) {
  fs.mkdirSync(SCRATCH, { recursive: true });
  const root = fs.realpathSync(fs.mkdtempSync(path.join(SCRATCH, 'yoi-bash-')));
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  const write = (rel: string, content: string, base = project) => {
    const file = path.join(base, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return {
    root,
    project,
    write,
    at: (rel: string) => path.join(project, rel),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The Bash tool of a pod without a socket: created through its plugin's `tools` tap over a real
 * scope, alerts recorded. `call` validates the input with the tool's schema as the pod does.
 */
export function bashFixture(
  project: string,
  opts: { scope?: ScopeConfigInput; options?: BashOptions; cwd?: string; config?: Partial<ResolvedConfig> } = {},
) {
  const alerts: string[] = [];
  const host = new PluginHost();
  host.applyPlugins([bashTool(opts.options)]);
  host.start();
  const base = createTestServices({
    projectDir: project,
    scope: new Scope(opts.scope, project),
    ...(opts.config ? { config: opts.config } : {}),
  });
  const services: PodServices = { ...base, alert: (_level, message) => void alerts.push(message) };
  const info: PodInfo = { podName: 'test', cwd: opts.cwd ?? project, projectDir: project, services, launch: {} };
  const tool = host.hooks.tools.get('Bash')!.call(info) as BashTool | undefined;
  const call = async (
    args: Record<string, unknown>,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ToolOutput> => {
    if (!tool) throw new Error(`Bash is not offered: ${alerts.join('; ')}`);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) return { summary: `Invalid argument: ${parsed.error.issues[0].message}`, is_error: true };
    return tool.execute(parsed.data, { ...info, signal, callId: 'c1' });
  };
  return { tool, call, alerts, services, scope: services.scope! };
}

/** Live processes whose command line contains `token` (other than this test process). */
export function processesWith(token: string): { pid: number; pgid: number; cmd: string }[] {
  const found: { pid: number; pgid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (!cmd.includes(token)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // exited, waiting to be reaped
      found.push({ pid: Number(entry), pgid: Number(fields[2]), cmd });
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** Resolves once `check()` holds, polling; rejects with `what` after `timeoutMs`. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A token unique to one test, to find its processes in /proc. */
export const token = () => `yoi${process.pid}x${Math.random().toString(36).slice(2, 10)}`;
