import { describe, expect, it } from '@jest/globals';
import type { ResolvedConfig } from '../../../core/config/resolveConfig.js';
import { bashSettings, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../../../plugins/bash/bashSettings.js';
import { bashTool } from '../../../plugins/bash/bashTool.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../core/config/loadConfig.js';
import { defaultPlugins } from '../../../plugins/index.js';

const config = (extra: Record<string, unknown> = {}, toolOutputBytes = 16 * 1024) =>
  ({ limits: { toolOutputBytes }, ...extra }) as unknown as ResolvedConfig;

describe('bashSettings', () => {
  it("defaults: sandboxed, no network, 2 minutes, the pod's tool output limit", () => {
    expect(bashSettings(undefined, undefined, undefined)).toEqual({
      network: false,
      sandbox: 'bwrap',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxTimeoutMs: MAX_TIMEOUT_MS,
      maxOutputBytes: 16 * 1024,
    });
  });

  it("never lets output exceed the pod's own limit; a longer default timeout raises the maximum", () => {
    expect(bashSettings({ maxOutputBytes: 1_000_000 }, undefined, config({}, 4096)).maxOutputBytes).toBe(4096);
    expect(bashSettings({ maxOutputBytes: 1000 }, undefined, config({}, 4096)).maxOutputBytes).toBe(1000);
    expect(bashSettings({ timeoutMs: 3_600_000 }, undefined, undefined)).toMatchObject({
      timeoutMs: 3_600_000,
      maxTimeoutMs: 3_600_000,
    });
  });

  it('a config section `bash` wins over the plugin options, key by key', () => {
    expect(
      bashSettings({ network: false, timeoutMs: 5000 }, { network: true, sandbox: 'off' }, config()),
    ).toMatchObject({
      network: true,
      sandbox: 'off',
      timeoutMs: 5000,
    });
  });

  it('bad options or a bad config section are one clear line naming the key and the plugin', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bash-config-'));
    const load = (bash: unknown) => {
      fs.writeFileSync(path.join(dir, 'yoi.config.json'), JSON.stringify({ bash }));
      return loadConfig({ cwd: dir, env: {}, defaultPlugins: defaultPlugins() });
    };
    await expect(load({ sandbox: 'docker' })).rejects.toThrow(
      'yoi.config.json: bash.sandbox: expected "bwrap" or "off" (plugin yoi:bash)',
    );
    await expect(load({ netwrok: true })).rejects.toThrow(
      'yoi.config.json: bash.netwrok: unknown key (did you mean "network"?) (plugin yoi:bash)',
    );
    expect((await load({ network: true })).sections.get('yoi:bash')).toEqual({ network: true });
    expect(() => bashTool({ timeoutMs: 0 })).toThrow('plugin yoi:bash: invalid options: timeoutMs: must be ≥ 1');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
