import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ERROR_CODES } from '../../../core/errors/codes.js';
import { PluginError, isPluginError } from '../../../core/errors/PluginError.js';
import { YoiError, isYoiError } from '../../../core/errors/YoiError.js';

describe('error catalog', () => {
  it('is sorted alphabetically and uses the YOI_ERR_ prefix', () => {
    const codes = Object.keys(ERROR_CODES);
    expect(codes).toEqual([...codes].sort());
    for (const code of codes) expect(code).toMatch(/^YOI_ERR_[A-Z_]+$/);
  });

  it('gives errors a code and a one-line message', () => {
    const error = new PluginError('acme:jira', 'resolveSegment(jira)', new Error('HTTP 503\n  at somewhere'));
    expect(error).toBeInstanceOf(YoiError);
    expect(error.message).toBe('plugin acme:jira failed in resolveSegment(jira): HTTP 503');
    expect(isPluginError(error)).toBe(true);
    expect(isYoiError(error)).toBe(true);
    expect(isYoiError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
    expect(isYoiError(new YoiError('YOI_ERR_CONFIG', 'x'))).toBe(true);
  });

  it('is listed, code by code, in CONTRIBUTING.md', () => {
    const doc = readFileSync(new URL('../../../CONTRIBUTING.md', import.meta.url), 'utf8');
    const listed = [...doc.matchAll(/^\| `(YOI_ERR_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(ERROR_CODES));
  });
});
