import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { openSession } from '../../../core/pod/openSession.js';
import { makeProject } from '../../support/startTestPod.js';
import { writeSession, writeUnchainedSession, openTestSession } from '../../support/sessionLogs.js';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('session files are private', () => {
  it('creates .yoi/sessions 0700 and logs 0600, whatever the umask', () => {
    const project = makeProject();
    const dir = path.join(project, '.yoi', 'sessions');
    const old = process.umask(0o000);
    try {
      const { file } = writeSession(dir, 'alpha', ['secret']);
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(project, '.yoi'))).toBe(0o700);
      expect(mode(file)).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it('tightens a 0755 directory and a 0644 log written before, when a pod opens them', () => {
    const dir = path.join(makeProject(), '.yoi', 'sessions');
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const file = writeUnchainedSession(dir, '01900000-0000-7000-8000-00000000000a', 'alpha', ['hi']);
    fs.chmodSync(file, 0o644);
    const s = openTestSession(dir, 'alpha', { resume: true });
    s.log.close();
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  (isRoot ? it : it.skip)(
    'refuses a session directory another user owns (needs root to chown; skipped otherwise)',
    () => {
      const dir = path.join(makeProject(), '.yoi', 'sessions');
      fs.mkdirSync(dir, { recursive: true });
      fs.chownSync(dir, 65534, 65534);
      expect(() =>
        openSession({ dir, podName: 'alpha', cwd: '/w', provider: 'echo', model: 'echo', systemPrompt: 'sys' }),
      ).toThrow(
        `the session directory ${dir} belongs to another user (uid 65534); set sessions.dir to a directory of yours`,
      );
    },
  );
});
