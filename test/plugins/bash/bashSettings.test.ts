import { describe, expect, it } from '@jest/globals';
import type { ResolvedConfig } from '../../../core/config/resolveConfig.js';
import { bashSettings, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../../../plugins/bash/bashSettings.js';
import { bashTool } from '../../../plugins/bash/bashTool.js';

const config = (extra: Record<string, unknown> = {}, toolOutputBytes = 16 * 1024) =>
  ({ limits: { toolOutputBytes }, ...extra }) as unknown as ResolvedConfig;

describe('bashSettings', () => {
  it('defaults: sandboxed, no network, 2 minutes, the pod\'s tool output limit', () => {
    expect(bashSettings(undefined, undefined)).toEqual({
      network: false, sandbox: 'bwrap', timeoutMs: DEFAULT_TIMEOUT_MS, maxTimeoutMs: MAX_TIMEOUT_MS, maxOutputBytes: 16 * 1024,
    });
  });

  it('never lets output exceed the pod\'s own limit; a longer default timeout raises the maximum', () => {
    expect(bashSettings({ maxOutputBytes: 1_000_000 }, config({}, 4096)).maxOutputBytes).toBe(4096);
    expect(bashSettings({ maxOutputBytes: 1000 }, config({}, 4096)).maxOutputBytes).toBe(1000);
    expect(bashSettings({ timeoutMs: 3_600_000 }, undefined)).toMatchObject({ timeoutMs: 3_600_000, maxTimeoutMs: 3_600_000 });
  });

  it('a config section `bash` wins over the plugin options, key by key', () => {
    expect(bashSettings({ network: false, timeoutMs: 5000 }, config({ bash: { network: true, sandbox: 'off' } }))).toMatchObject({
      network: true, sandbox: 'off', timeoutMs: 5000,
    });
  });

  it('bad options or a bad config section are one clear line naming the key', () => {
    expect(() => bashSettings(undefined, config({ bash: { sandbox: 'docker' } }))).toThrow('invalid config: bash.sandbox: expected "bwrap" or "off"');
    expect(() => bashSettings(undefined, config({ bash: { netwrok: true } }))).toThrow(/bash\.netwrok: unknown key \(did you mean "network"\?\)/);
    expect(() => bashTool({ timeoutMs: 0 })).toThrow('plugin yoi:bash: invalid options: timeoutMs: must be ≥ 1');
  });
});
