import { describe, expect, it } from '@jest/globals';
import { bearerMatches, tokenDigest } from '../../../plugins/ws/bearer.js';
import { FailureLimiter } from '../../../plugins/ws/FailureLimiter.js';
import { isLoopback, planListeners } from '../../../plugins/ws/ListenConfig.js';
import { RefusalLog } from '../../../plugins/ws/RefusalLog.js';

describe('FailureLimiter', () => {
  it('allows `burst` failures, then refuses until one refills', () => {
    let now = 0;
    const limiter = new FailureLimiter({ burst: 3, refillMs: 1000, maxKeys: 10 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.allows('a')).toBe(true);
      limiter.fail('a');
    }
    expect(limiter.allows('a')).toBe(false);
    expect(limiter.retryAfterMs('a')).toBe(1000);
    expect(limiter.allows('b')).toBe(true); // per address
    now = 999;
    expect(limiter.allows('a')).toBe(false);
    now = 1000;
    expect(limiter.allows('a')).toBe(true);
  });

  it('remembers at most maxKeys addresses, whatever a flood of them', () => {
    const limiter = new FailureLimiter({ burst: 1, refillMs: 60_000, maxKeys: 100 }, () => 0);
    for (let i = 0; i < 100_000; i++) limiter.fail(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBe(100);
    expect(limiter.allows('10.0.0.0')).toBe(true); // the oldest were forgotten
    expect(limiter.allows(`10.0.${99_999 >> 8}.${99_999 & 255}`)).toBe(false);
  });
});

describe('bearer tokens', () => {
  const digest = tokenDigest('s3cret-token-of-some-length');
  it.each([
    ['Bearer s3cret-token-of-some-length', true],
    ['bearer s3cret-token-of-some-length', true],
    ['Bearer s3cret-token-of-some-lengtH', false],
    ['Bearer s3cret', false],
    ['Bearer s3cret-token-of-some-length-and-more', false],
    ['Basic s3cret-token-of-some-length', false],
    ['s3cret-token-of-some-length', false],
    ['Bearer ', false],
  ])('%s → %s', (header, ok) => {
    expect(bearerMatches(header, digest)).toBe(ok);
  });
  it('no header does not match', () => expect(bearerMatches(undefined, digest)).toBe(false));
});

describe('listen URLs', () => {
  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1'].some(isLoopback)).toBe(false);
  });

  it("merges the command line's URLs into the config's; a URL both name takes the config's settings", () => {
    const plans = planListeners(
      [
        {
          url: 'ws://127.0.0.1:7001',
          allowRemote: false,
          allowOrigins: ['https://a.example'],
          maxConnections: 8,
          handshakeTimeoutMs: 1000,
        },
      ],
      { urls: ['ws://127.0.0.1:7001', 'ws://[::1]:7002'], tokenEnv: 'T' },
      '/project',
    );
    expect(plans.map((p) => [p.host, p.port, p.maxConnections, p.tokenEnv])).toEqual([
      ['127.0.0.1', 7001, 8, 'T'],
      ['::1', 7002, 1024, 'T'],
    ]);
    expect(() => planListeners(['ws://127.0.0.1:7001', 'ws://127.0.0.1:7001/'], undefined, '/p')).toThrow(
      /listed twice/,
    );
  });
});

describe('RefusalLog', () => {
  it('writes a bounded number of lines and counts the rest', () => {
    const lines: string[] = [];
    const log = new RefusalLog((l) => void lines.push(l), { burst: 5, refillMs: 60_000 });
    for (let i = 0; i < 10_000; i++) log.refused('refused a connection: wrong bearer token');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('refused a connection: wrong bearer token');
  });
});
