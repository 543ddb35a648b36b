import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { envResolver } from '../../examples/env-resolver/envResolver.js';
import { resolverContract } from '../../testing/resolverContract.js';
import { completeContext, completeWith, hostWith, resolveContext, resolveWith } from '../../testing/resolverHarness.js';

/** The contract suite registers its cases with jest's functions (node:test's work the same). */
const jest = { describe, it, before: beforeAll, after: afterAll };

process.env.YOI_PUBLIC_GREETING = 'hello';
process.env.YOI_PUBLIC_LONG = 'z'.repeat(5000);
const plugin = () => envResolver({ allow: ['YOI_PUBLIC_*', 'YOI_UNSET_VARIABLE'] });

// The example third-party plugin keeps the same contract as the built-ins.
resolverContract(jest, plugin(), 'env_ref', {
  field: 'name',
  valid: () => [
    { kind: 'env_ref', name: 'YOI_PUBLIC_GREETING' },
    { kind: 'env_ref', name: 'YOI_PUBLIC_LONG' },
  ],
  escapes: () => [
    { kind: 'env_ref', name: 'YOI_CONTRACT_SECRET' },
    { kind: 'env_ref', name: 'YOI_PUBLIC_*' },
    { kind: 'env_ref', name: 'YOI_PUBLIC_GREETING\0YOI_CONTRACT_SECRET' },
  ],
});

describe('example:env', () => {
  const host = hostWith(plugin());
  const resolve = (name: unknown) =>
    resolveWith(host, 'env_ref', { kind: 'env_ref', name }, resolveContext({ projectDir: process.cwd() }));

  it('gives an allowed variable, cut to maxChars with a warning', async () => {
    expect(await resolve('YOI_PUBLIC_GREETING')).toEqual({
      type: 'context',
      label: 'Env: YOI_PUBLIC_GREETING',
      text: 'hello',
    });
    expect(await resolve('YOI_PUBLIC_LONG')).toMatchObject({
      text: 'z'.repeat(4096),
      warning: '$YOI_PUBLIC_LONG was cut to 4096 of 5000 characters',
    });
  });

  it('says why it does not resolve, without revealing variables outside the allow list', async () => {
    expect(await resolve('HOME')).toEqual({
      type: 'unresolved',
      ref: 'HOME',
      reason: '$HOME is not in the example:env allow list',
    });
    expect(await resolve('YOI_UNSET_VARIABLE')).toEqual({
      type: 'unresolved',
      ref: 'YOI_UNSET_VARIABLE',
      reason: '$YOI_UNSET_VARIABLE is not set',
    });
    expect(await resolve('1BAD')).toMatchObject({ type: 'unresolved', reason: 'not a variable name' });
  });

  it('completes allowed names only', async () => {
    const items = await completeWith(host, 'env_ref', completeContext({ projectDir: process.cwd(), prefix: 'YOI_' }));
    expect(items).toEqual(['YOI_PUBLIC_GREETING', 'YOI_PUBLIC_LONG']);
  });
});
