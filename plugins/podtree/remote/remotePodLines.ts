import type { PodRemotes } from './PodRemotes.js';
import { ToolRefusal } from '../../../core/api.js';

/**
 * ListPods' lines for the remote pods of the config, each probed at once (connect, `welcome`,
 * close): `rev [alive] remote ws://h:7000 (pod reviewer, idle)`, or `[unreachable]` with why.
 */
export async function remotePodLines(remotes: PodRemotes, self: string): Promise<string[]> {
  return Promise.all(
    remotes.list().map(async (remote) => {
      const head = `${remote.name} [%s] remote ${remote.url}`;
      try {
        const client = await remotes.connect(remote, self);
        const welcome = client.welcome;
        await client.close();
        const what = welcome ? `pod ${welcome.pod_name}, ${welcome.status}` : 'a v1 pod';
        return `${head.replace('%s', 'alive')} (${what})`;
      } catch (e) {
        const why = e instanceof ToolRefusal ? e.message : (e as Error).message;
        return `${head.replace('%s', 'unreachable')} (${why})`;
      }
    }),
  );
}
