import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compactionTempName, removeStaleCompactionTemps } from '../../../core/session/compactionTempFiles.js';

const ID = '01900000-0000-7000-8000-000000000001';

describe('compaction temp files', () => {
  it("removes the temp file of a killed writer, keeps a live writer's, an old one only once it is old, and nothing else", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-ctmp-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    const files = {
      killed: compactionTempName(ID, deadPid),
      live: compactionTempName(ID, process.pid),
      parent: compactionTempName(ID, process.ppid),
      oldFresh: `.${ID}.jsonl.tmp`,
      session: `${ID}.jsonl`,
      user: '.notes.jsonl.tmp.bak',
    };
    for (const name of Object.values(files)) fs.writeFileSync(path.join(dir, name), '{"type":"session_start"');
    expect(removeStaleCompactionTemps(dir)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(
      Object.values(files)
        .filter((n) => n !== files.killed)
        .sort(),
    );
    // An older yoi's temp file (no pid) is removed once no compaction could still be writing it.
    expect(removeStaleCompactionTemps(dir, Date.now() + 120_000)).toBe(1);
    expect(fs.existsSync(path.join(dir, files.oldFresh))).toBe(false);
    expect(fs.existsSync(path.join(dir, files.session))).toBe(true);
  });

  it('a missing directory is nothing to clean', () => {
    expect(removeStaleCompactionTemps(path.join(os.tmpdir(), 'yoi-no-such-dir-for-temps'))).toBe(0);
  });
});
