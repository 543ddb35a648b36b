import { PodClient } from '../../client/PodClient.js';
import { startPodProcess } from './runCli.js';

/**
 * The fault tests' parent: `yoi pod start --name root …` as its own process, with a driver client;
 * both are killed/closed by `cleanups` (the test kills the process itself when it needs to).
 */
export async function startRootPod(dir: string, env: NodeJS.ProcessEnv, args: string[], cleanups: (() => unknown)[]) {
  const pod = await startPodProcess(['--name', 'root', ...args], { cwd: dir, env });
  cleanups.push(() => void pod.child.kill('SIGKILL'));
  const client = await PodClient.connect({
    socketPath: pod.socket,
    clientName: 'test/driver',
    requestTimeoutMs: 30_000,
  });
  cleanups.push(() => client.close());
  return { pod, client };
}

/** The pod's history items, as the driver reads them. */
export async function historyItems(c: PodClient): Promise<unknown[]> {
  const h = await c.request({ method: 'get_history' });
  return h.event === 'history' ? (h.data.items as unknown[]) : [];
}
