import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AtomicFileWriter } from '../../../core/pod/AtomicFileWriter.js';
import { atomicTempPath as tmpOf } from '../../../core/pod/podFiles.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-afw-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('AtomicFileWriter', () => {
  it('coalesces writes: the latest content wins, owner-only, no temp file left', async () => {
    const file = path.join(dir, 'status.json');
    const writer = new AtomicFileWriter(file);
    for (let i = 0; i < 50; i++) writer.write(`state ${i}\n`);
    await writer.drain();
    expect(fs.readFileSync(file, 'utf8')).toBe('state 49\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['status.json']);
    // A write after the drain is written too.
    writer.write('later\n');
    await writer.drain();
    expect(fs.readFileSync(file, 'utf8')).toBe('later\n');
  });

  it('replaces a temp file a killed writer left, and never writes through a link planted at its name', async () => {
    const file = path.join(dir, 'status.json');
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'untouched');
    fs.writeFileSync(tmpOf(file), 'left over');
    const writer = new AtomicFileWriter(file);
    writer.write('one\n');
    await writer.drain();
    expect(fs.readFileSync(file, 'utf8')).toBe('one\n');
    fs.symlinkSync(outside, tmpOf(file));
    writer.write('two\n');
    await writer.drain();
    expect(fs.readFileSync(file, 'utf8')).toBe('two\n');
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(fs.existsSync(tmpOf(file))).toBe(false);
  });

  it('gives up quietly when its directory is gone, and drains', async () => {
    const file = path.join(dir, 'gone', 'status.json');
    const writer = new AtomicFileWriter(file);
    writer.write('x');
    writer.write('y');
    await expect(writer.drain()).resolves.toBeUndefined();
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});
