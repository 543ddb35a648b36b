import path from 'node:path';
import { YoiError, definePlugin, formatZodError, writeFileAtomic, type PodInfo } from '../../core/api.js';
import { tokenDigest } from './bearer.js';
import { FailureLimiter } from './FailureLimiter.js';
import {
  ListenConfigSchema,
  ListenLaunchSchema,
  isLoopback,
  planListeners,
  type ListenLaunch,
} from './ListenConfig.js';
import { GUESS_PROOF_CHARS, podTokenFile, tokenFromEnv, type PodToken } from './podToken.js';
import { RefusalLog } from './RefusalLog.js';
import type { WsListener } from './WsListener.js';

const NAME = 'yoi:ws';

/** Failed attempts per address: 10 at once, one more every 6 s; at most 4096 addresses remembered. */
const FAILURES = { burst: 10, refillMs: 6000, maxKeys: 4096 };

/**
 * The pod on the network: every `listen` URL (config, `yoi pod start --listen`) becomes a
 * WebSocket listener speaking the pod's NDJSON protocol, one message per text frame, with the
 * same per-connection semantics as the Unix socket. Every upgrade needs the pod's bearer token
 * (`<pod dir>/token`, made at the first start, or `--token-env VAR`). Listeners bind at podInit
 * (a bad URL or a taken port stops the start), serve clients from podStart, stop at podStop.
 * The URLs listened on are in `<pod dir>/endpoints.json` (`{"listen": [...]}`).
 */
export const wsPlugin = definePlugin({
  name: NAME,
  config: { key: 'listen', schema: ListenConfigSchema },
  apply(api) {
    let listeners: WsListener[] = [];
    let ready = false;
    const limiter = new FailureLimiter(FAILURES);
    const log = new RefusalLog((line) => void process.stderr.write(`yoi: ${NAME}: ${line}\n`));

    api.hooks.podInit.tapPromise(NAME, async (pod) => {
      const plans = planListeners(api.config, launchOf(pod), pod.projectDir);
      if (plans.length === 0) return;
      const { services } = pod;
      // `ws` and Node's HTTP(S) servers only for a pod that listens.
      const { WsListener } = await import('./WsListener.js');
      const tokens = new Map<string, PodToken>();
      const tokenFor = (env: string | undefined) => {
        const key = env ?? '';
        if (!tokens.has(key)) tokens.set(key, env ? tokenFromEnv(env) : podTokenFile(services.runtime.dir));
        return tokens.get(key)!;
      };
      for (const plan of plans) {
        const token = tokenFor(plan.tokenEnv);
        if (!plan.tokenEnv) services.runtime.keep(token.source); // the token outlives the pod's runtime files
        const listener = new WsListener(plan, {
          digest: tokenDigest(token.token),
          guessProof: token.token.length >= GUESS_PROOF_CHARS,
          limiter,
          maxLineBytes: services.config.limits.maxLineBytes,
          ready: () => ready,
          serve: (transport) => services.serveClient(transport),
          refused: (address, status, why) =>
            log.refused(refusalLine(address, status, why, limiter.retryAfterMs(address))),
        });
        listeners.push(listener);
        const url = await listener.listen();
        services.note(`listening ${url} (bearer token: ${token.source})`);
        if (!plan.secure && !isLoopback(plan.host))
          services.note(
            `${url} is reachable beyond this machine without TLS: its token and every message cross the network in clear; use wss://`,
          );
      }
      writeFileAtomic(
        path.join(services.runtime.dir, 'endpoints.json'),
        `${JSON.stringify({ listen: listeners.map((l) => l.url) })}\n`,
      );
    });

    api.hooks.podStart.tapPromise(NAME, async () => {
      ready = true;
    });

    // Stops accepting; the pod then sends its clients `shutdown` and closes them like socket clients.
    api.hooks.podStop.tapPromise(NAME, async () => {
      ready = false;
      for (const listener of listeners) listener.close();
      listeners = [];
    });
  },
});

function launchOf(pod: PodInfo): ListenLaunch | undefined {
  if (pod.launch.listen === undefined) return undefined;
  const parsed = ListenLaunchSchema.safeParse(pod.launch.listen);
  if (!parsed.success)
    throw new YoiError('YOI_ERR_LISTEN', `cannot listen: ${formatZodError(parsed.error, ListenLaunchSchema)}`);
  return parsed.data;
}

function refusalLine(address: string, status: number, why: string, limitedForMs: number): string {
  const limited =
    limitedForMs > 0 ? `; further attempts from it get HTTP 429 for ${Math.ceil(limitedForMs / 1000)} s` : '';
  return `refused a connection from ${address} (HTTP ${status}): ${why}${limited}`;
}
