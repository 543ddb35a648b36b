import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { AttachController } from '../../../cli/attach/AttachController.js';
import { AttachStore } from '../../../cli/attach/AttachStore.js';
import { startWsPod, type WsTestPod } from '../../support/wsPod.js';
import { texts } from './attachHarness.js';
import { waitUntil } from '../../support/waitUntil.js';

let tp: WsTestPod | undefined;
let controller: AttachController | undefined;
afterEach(async () => {
  await controller?.stop();
  await tp?.stop();
  controller = undefined;
  tp = undefined;
});

describe('yoi attach --url', () => {
  it('drives a pod over its ws:// listener with the bearer token: the turn streams back, the history is replayed', async () => {
    tp = await startWsPod();
    const local = await tp.connect();
    await local.request({ method: 'notify', params: { message: 'said before attach' } });
    await local.close();
    const store = new AttachStore();
    const env = { XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-state-')) };
    controller = new AttachController({
      socketPath: tp.socket,
      url: tp.url,
      token: tp.token,
      store,
      onQuit: () => undefined,
      env,
    });
    await controller.start();
    await waitUntil(
      () => store.getState().connection === 'connected' && store.getState().transcript.status === 'idle',
      'connected',
    );
    await waitUntil(() => texts(store.getState()).some((t) => t.includes('said before attach')), 'the history over ws');
    controller.terminal.write(Buffer.from('hello over the network\r'));
    await waitUntil(
      () => texts(store.getState()).some((t) => t.startsWith('assistant:') && t.includes('hello over the network')),
      'the echoed reply',
    );
    // Every client connection the pod has is a WebSocket one now (the socket client left).
    expect(tp.pod.bus.size).toBe(1);
  });

  it('a wrong token fails the first connection with one line', async () => {
    tp = await startWsPod();
    const store = new AttachStore();
    const c = new AttachController({
      socketPath: tp.socket,
      url: tp.url,
      token: 'wrong-wrong-wrong-wrong',
      store,
      onQuit: () => undefined,
      env: { XDG_STATE_HOME: os.tmpdir() },
    });
    await expect(c.start()).rejects.toMatchObject({ code: 'YOI_ERR_AUTH' });
    await c.stop();
  });
});
