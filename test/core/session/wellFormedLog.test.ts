import { describe, expect, it } from '@jest/globals';
import { messageItem } from '../../../core/history/HistoryItem.js';
import { readSession } from '../../../core/session/readSession.js';
import { openTestSession, testSessionsDir } from '../../support/sessionLogs.js';

describe('a session log line with half an emoji', () => {
  it('reads back on resume, the half as U+FFFD, instead of being skipped as unreadable', () => {
    const { log } = openTestSession(testSessionsDir(), 'halves');
    const cut = '😀😀'.slice(0, 3); // a pair and a lone high surrogate: what a careless cut leaves
    log.append({ type: 'items', ts: Date.now(), source: 'assistant', items: [messageItem('assistant', cut)] });
    log.append({ type: 'run_end', ts: Date.now(), result: 'finished' });
    log.close();
    const read = readSession(log.file);
    expect(read.history).toEqual([messageItem('assistant', '😀\ufffd')]);
    expect(read.chain).toMatchObject({ status: 'intact' });
  });
});
