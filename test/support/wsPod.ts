import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { startTestPod, type TestPod, type TestPodOptions } from './startTestPod.js';

export interface WsTestPod extends TestPod {
  /** The first listener's URL (its real port). */
  url: string;
  /** Every URL the pod listens on (`<pod dir>/endpoints.json`). */
  urls: string[];
  /** The token in the pod's token file. */
  token: string;
  connectWs(opts?: { token?: string; protocol?: 1 | 2; ca?: string | Buffer; url?: string }): Promise<PodClient>;
}

/** A real pod listening on its Unix socket and on `urls` (default one ws:// listener on a free loopback port). */
export async function startWsPod(
  opts: TestPodOptions & { urls?: string[]; tokenEnv?: string; tlsCert?: string; tlsKey?: string } = {},
): Promise<WsTestPod> {
  const { urls = ['ws://127.0.0.1:0'], tokenEnv, tlsCert, tlsKey, ...rest } = opts;
  const launch =
    urls.length > 0
      ? { listen: { urls, ...(tokenEnv ? { tokenEnv } : {}), ...(tlsCert ? { tlsCert, tlsKey } : {}) } }
      : undefined;
  const tp = await startTestPod({ ...rest, launch: { ...rest.launch, ...launch } });
  const endpoints = JSON.parse(fs.readFileSync(path.join(tp.pod.paths.dir, 'endpoints.json'), 'utf8')) as {
    listen: string[];
  };
  const tokenFile = path.join(tp.pod.paths.dir, 'token');
  const token = tokenEnv ? process.env[tokenEnv]! : fs.readFileSync(tokenFile, 'utf8').trim();
  return {
    ...tp,
    url: endpoints.listen[0],
    urls: endpoints.listen,
    token,
    connectWs: (o = {}) =>
      PodClient.connect({
        url: o.url ?? endpoints.listen[0],
        token: o.token ?? token,
        protocol: o.protocol ?? 2,
        clientName: 'test-ws/1',
        ...(o.ca ? { ca: o.ca } : {}),
      }),
  };
}
