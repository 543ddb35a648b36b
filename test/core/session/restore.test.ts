import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { openSession } from '../../../core/pod/openSession.js';
import { readSession } from '../../../core/session/readSession.js';
import { makeProject } from '../../support/startTestPod.js';

const base = { podName: 'p', cwd: '/w', provider: 'echo', model: 'echo', systemPrompt: 'sys' };

function newSession() {
  const dir = path.join(makeProject(), 'sessions');
  const s = openSession({ ...base, dir });
  return { dir, s };
}

describe('session restore', () => {
  it('ignores a torn last line and appends after it on a fresh line', () => {
    const { dir, s } = newSession();
    s.log.append({
      type: 'user_input',
      ts: 1,
      segments: [{ kind: 'text', content: 'hi' }],
      items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    s.log.append({ type: 'run_end', ts: 2, result: 'finished' });
    s.log.close();
    fs.appendFileSync(s.log.file, '{"type":"items","ts":3,"source":"assis'); // crash mid-write
    const state = readSession(s.log.file);
    expect(state.skippedLines).toBe(0);
    expect(state.history).toHaveLength(1);
    const again = openSession({ ...base, dir, resume: true });
    again.log.append({ type: 'run_end', ts: 4, result: 'finished' });
    again.log.close();
    expect(JSON.parse(fs.readFileSync(s.log.file, 'utf8').split('\n').at(-2)!)).toMatchObject({
      type: 'run_end',
      ts: 4,
      result: 'finished',
    });
    const after = readSession(s.log.file);
    expect(after.skippedLines).toBe(1); // the torn line, now in the middle, is skipped and counted
    expect(after.chain.status).toBe('intact'); // the entry after it follows the last whole line
  });

  it('closes tool calls left open by a crash and writes the closure to the log', () => {
    const { dir, s } = newSession();
    s.log.append({
      type: 'user_input',
      ts: 1,
      segments: [],
      items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'go' }] }],
    });
    s.log.append({
      type: 'items',
      ts: 2,
      source: 'assistant',
      items: [{ type: 'tool_call', call_id: 'c1', name: 'Write', arguments: '{}' }],
    });
    s.log.close();
    const restored = openSession({ ...base, dir, resume: s.log.sessionId });
    expect(restored.history.at(-1)).toEqual({
      type: 'tool_result',
      call_id: 'c1',
      summary: '[Interrupted: the pod stopped before this tool call finished]',
      is_error: true,
    });
    expect(restored.notes).toContain('1 tool call(s) left open by the last stop were closed');
    restored.log.close();
    const state = readSession(s.log.file);
    expect(state.history).toEqual(restored.history);
    expect(state.interrupted).toBe(false);
  });

  it('gives one clear error for an unknown session id or an empty directory', () => {
    const { dir } = newSession();
    expect(() => openSession({ ...base, dir, resume: 'nope' })).toThrow(`no session nope in ${dir}`);
    expect(() => openSession({ ...base, dir: path.join(dir, 'empty'), resume: true })).toThrow('no session to resume');
  });
});
