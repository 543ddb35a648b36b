import type { MountPlan } from './planMounts.js';

/** First file descriptor bwrap reads (empty) data from for `--ro-bind-data`; 0–2 are stdio. */
export const FIRST_DATA_FD = 3;

/**
 * Runs `bash -c <command>` with stderr on the same pipe as stdout, so both arrive interleaved in
 * the order they were written. `sh` only sets up the redirection and execs bash.
 */
export function shellCommand(command: string): string[] {
  return ['/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', 'bash', '-c', command];
}

/** Options of the sandbox itself, the same for every command of a pod. */
export interface SandboxFlags {
  readonly network: boolean;
}

/**
 * Namespaces and process settings: a new PID namespace (the whole tree dies with its first
 * process), IPC and UTS namespaces, no network unless allowed, a new session (no terminal to
 * inject input into), killed with its parent, no capabilities even for root.
 */
export function isolationArgs({ network }: SandboxFlags): string[] {
  return [
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(network ? [] : ['--unshare-net']),
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
}

/** The filesystem every command starts from: `/` (read-only unless `root` says write), bwrap's `/dev` and `/proc`, a private `/tmp`. */
export function baseMountArgs(root: 'read' | 'write'): string[] {
  return [root === 'write' ? '--bind' : '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
}

/** What bwrap is started with: its arguments, how many empty data fds (from 3 on) it reads, and its info fd (after them). */
export interface BwrapInvocation {
  readonly args: string[];
  readonly dataFds: number;
  readonly infoFd: number;
}

/**
 * The bwrap command line for one command: the root read-only (or writable, when the scope says
 * so), `/dev`, `/proc` and a private `/tmp` from bwrap, then the plan's mounts in order — a
 * hidden directory is an empty tmpfs and a hidden file an empty file, both mode 0000 (reading
 * them fails with "Permission denied") — then isolation, a clean environment and the cwd.
 * `--info-fd` reports the sandbox's PID 1, whose end says the whole tree is dead.
 */
export function bwrapArgs(
  plan: MountPlan,
  flags: SandboxFlags,
  cwd: string,
  env: Readonly<Record<string, string>>,
  argv: readonly string[],
): BwrapInvocation {
  const args = baseMountArgs(plan.root);
  let dataFds = 0;
  for (const m of plan.mounts) {
    if (m.mode === 'write') args.push('--bind-try', m.path, m.path);
    else if (m.mode === 'read') args.push('--ro-bind-try', m.path, m.path);
    else if (m.kind === 'dir') args.push('--perms', '0000', '--tmpfs', m.path);
    else args.push('--perms', '0000', '--ro-bind-data', String(FIRST_DATA_FD + dataFds++), m.path);
  }
  const infoFd = FIRST_DATA_FD + dataFds;
  args.push(...isolationArgs(flags), '--info-fd', String(infoFd), '--clearenv');
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  args.push('--chdir', cwd, '--', ...argv);
  return { args, dataFds, infoFd };
}
