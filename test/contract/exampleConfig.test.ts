import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProject } from '../../cli/loadProject.js';
import { PodClient } from '../../client/PodClient.js';
import { Pod } from '../../core/pod/Pod.js';
import { makeProject, recorder, runEnded } from '../support/startTestPod.js';

const exampleConfig = fileURLToPath(new URL('../../examples/env-resolver/yoi.config.ts', import.meta.url));
const dir = makeProject();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the example third-party plugin, loaded from its yoi.config.ts', () => {
  it('is applied next to the built-ins and resolves its own segment kind in a running pod', async () => {
    const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const { config, host } = await loadProject({ cwd: dir, configFile: exampleConfig, env });
    expect(config.configPath).toBe(exampleConfig);
    expect(host.describePlugins()).toContainEqual(
      expect.objectContaining({ name: 'example:env', hooks: ['resolveSegment(env_ref)', 'completeSegment(env_ref)'] }),
    );
    // Sessions go to the temp dir, not next to the example.
    const pod = await Pod.start({
      config: { ...config, sessions: { dir: path.join(dir, 'sessions') } },
      host,
      name: 'example',
      env,
    });
    try {
      const c = await PodClient.connect({ socketPath: pod.paths.socket });
      expect(c.welcome?.segment_kinds).toContain('env_ref');
      const events = recorder(c);
      const ended = runEnded(c);
      await c.request({
        method: 'run',
        params: {
          input: [
            { kind: 'text', content: 'which environment? ' },
            { kind: 'env_ref', name: 'NODE_ENV' } as never,
            { kind: 'env_ref', name: 'HOME' } as never,
          ],
        },
      });
      await ended;
      const reply = events.find((e) => e.event === 'text_done');
      // The plugin was loaded by the config loader, outside jest's sandboxed process.env: jest
      // itself sets NODE_ENV in the real environment (and the example allows it).
      expect(reply?.event === 'text_done' && reply.data.text).toContain('[Env: NODE_ENV]\ntest');
      const alert = events.find((e) => e.event === 'alert');
      expect(alert?.event === 'alert' && alert.data.message).toContain('$HOME is not in the example:env allow list');
      await c.close();
    } finally {
      await pod.stop();
    }
  });
});
