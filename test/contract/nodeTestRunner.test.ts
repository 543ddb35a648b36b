import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

// `yoi/testing`'s contract suite is not tied to jest: the same suite under node:test, through the
// built package's own exports (as a plugin package imports it).
const fixture = path.resolve('test/fixtures/node-test/contract.test.mjs');
const run = (resolver: string) =>
  spawnSync(process.execPath, ['--test', '--test-reporter=spec', fixture], {
    encoding: 'utf8',
    env: { ...process.env, YOI_FIXTURE_RESOLVER: resolver },
    timeout: 120_000,
  });

describe('the resolver contract suite under node:test', () => {
  it('passes a resolver that keeps the contract', () => {
    const r = run('good');
    expect(r.stdout).toContain('resolver contract: acme:echo-ref (echo_ref)');
    expect(r.stdout).toContain('never returns content from outside the scope');
    expect(r.status).toBe(0);
  });

  it('fails a resolver that leaks what lies outside the scope', () => {
    const r = run('leaky');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/never returns content from outside the scope[\s\S]*leaked outside content/);
  });
});
