import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bundleIdentity,
  codeCacheDir,
  codeCacheFile,
  codeCacheKey,
  readCodeCache,
  writeCodeCache,
} from '../../../cli/hot/codeCacheFile.js';

const temp = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-cc-')));
const payload = Buffer.from('bytecode '.repeat(1000));

describe('code cache files', () => {
  it('round-trips a payload under its key, 0600 in a 0700 directory', () => {
    const dir = codeCacheDir({ XDG_CACHE_HOME: temp() })!;
    expect(dir).toBeDefined();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    writeCodeCache(dir, 'k1', payload);
    const file = codeCacheFile(dir, 'k1');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readCodeCache(file, 'k1')).toEqual(payload);
    // Another key's file under this name is no cache for it.
    expect(readCodeCache(file, 'k2')).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual(['k1.bin']);
  });

  it('keys on the bundle, the role and the runtime', () => {
    const a = codeCacheKey(Buffer.from('a'), 'pod', {});
    expect(codeCacheKey(Buffer.from('a'), 'pod', {})).toBe(a);
    expect(codeCacheKey(Buffer.from('b'), 'pod', {})).not.toBe(a);
    expect(codeCacheKey(Buffer.from('a'), 'client', {})).not.toBe(a);
    expect(codeCacheKey(Buffer.from('a'), 'pod', { NODE_OPTIONS: '--no-opt' })).not.toBe(a);
  });

  it("identifies the bundle by the build's digest, its size and mtime, and by its bytes without a digest", () => {
    const dir = temp();
    const file = path.join(dir, 'yoi.cjs');
    const source = Buffer.from('(function () {})');
    fs.writeFileSync(file, source);
    const stat = () => fs.statSync(file);
    // No digest file, or one that is not a SHA-256: the bytes decide.
    const byBytes = bundleIdentity(file, source, stat());
    expect(bundleIdentity(file, Buffer.from('(function () {1})'), stat())).not.toBe(byBytes);
    fs.writeFileSync(`${file}.sha256`, 'not a digest\n');
    expect(bundleIdentity(file, source, stat())).toBe(byBytes);
    fs.writeFileSync(`${file}.sha256`, `${'a'.repeat(64)}\n`);
    const byDigest = bundleIdentity(file, source, stat());
    expect(byDigest).not.toBe(byBytes);
    expect(bundleIdentity(file, source, stat())).toBe(byDigest);
    // The file rewritten after its build (another mtime) or the digest of another build: no match.
    fs.utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect(bundleIdentity(file, source, stat())).not.toBe(byDigest);
    const touched = bundleIdentity(file, source, stat());
    fs.writeFileSync(`${file}.sha256`, `${'b'.repeat(64)}\n`);
    expect(bundleIdentity(file, source, stat())).not.toBe(touched);
    expect(codeCacheKey(touched, 'pod', {})).not.toBe(codeCacheKey(byDigest, 'pod', {}));
  });

  it('reads nothing from a truncated file, a link, a FIFO or a group-writable file', () => {
    const dir = codeCacheDir({ XDG_CACHE_HOME: temp() })!;
    writeCodeCache(dir, 'k', payload);
    const file = codeCacheFile(dir, 'k');
    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, whole.length - 1));
    expect(readCodeCache(file, 'k')).toBeUndefined();
    fs.writeFileSync(file, whole.subarray(0, 20));
    expect(readCodeCache(file, 'k')).toBeUndefined();

    const real = path.join(dir, 'real.bin');
    fs.writeFileSync(real, whole, { mode: 0o600 });
    const link = codeCacheFile(dir, 'l');
    fs.symlinkSync(real, link);
    expect(readCodeCache(link, 'k')).toBeUndefined();

    const fifo = codeCacheFile(dir, 'f');
    execFileSync('mkfifo', [fifo]);
    expect(readCodeCache(fifo, 'f')).toBeUndefined(); // returns at once: opened non-blocking, then refused

    fs.writeFileSync(file, whole);
    fs.chmodSync(file, 0o620);
    expect(readCodeCache(file, 'k')).toBeUndefined();
  });

  it('is no directory when the cache directory is a link or not a directory', () => {
    const base = temp();
    fs.mkdirSync(path.join(base, 'elsewhere'));
    fs.mkdirSync(path.join(base, 'yoi'), { mode: 0o700 });
    fs.symlinkSync(path.join(base, 'elsewhere'), path.join(base, 'yoi', 'v8'));
    expect(codeCacheDir({ XDG_CACHE_HOME: base })).toBeUndefined();
    const file = temp();
    fs.mkdirSync(path.join(file, 'yoi'), { mode: 0o700 });
    fs.writeFileSync(path.join(file, 'yoi', 'v8'), '');
    expect(codeCacheDir({ XDG_CACHE_HOME: file })).toBeUndefined();
  });

  it('keeps at most 16 caches, removing the oldest, and leaves no temp file', () => {
    const dir = codeCacheDir({ XDG_CACHE_HOME: temp() })!;
    for (let i = 0; i < 20; i++) {
      writeCodeCache(dir, `k${i}`, payload);
      // Distinct ages without waiting: the clock's resolution may give two writes one mtime.
      fs.utimesSync(codeCacheFile(dir, `k${i}`), 1000 + i, 1000 + i);
    }
    const left = fs.readdirSync(dir).sort();
    expect(left).toHaveLength(16);
    expect(left).not.toContain('k0.bin');
    expect(left).toContain('k19.bin');
    expect(left.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
