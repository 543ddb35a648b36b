import { afterEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defineSegmentKind } from '../../../core/segments/defineSegmentKind.js';
import type { Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

const TicketRef = defineSegmentKind({
  kind: 'ticket_ref',
  schema: z.object({ id: z.string().regex(/^[A-Z]+-\d+$/, { error: 'expected a ticket id like ACME-1' }) }),
  sigil: '!',
  field: 'id',
  description: 'a ticket in the tracker',
});

const seen: unknown[] = [];
const tickets = definePlugin({
  name: 'acme:tickets',
  apply(api) {
    api.segmentKind(TicketRef).resolve(async (segment) => {
      seen.push(segment);
      // Typed: `segment.id` is a string here, checked by the pod before this runs.
      return { type: 'context', label: `Ticket: ${segment.id}`, text: `${segment.id.toLowerCase()} is open` };
    });
  },
});

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  seen.length = 0;
});

describe('typed segment kinds', () => {
  it('the welcome lists every kind the pod resolves, with sigil, field and description', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), tickets()] });
    const c = await tp.connect();
    expect(c.welcome?.segments).toEqual(
      expect.arrayContaining([
        { kind: 'file_ref', sigil: '@', field: 'path', description: "a file or directory in the pod's scope" },
        { kind: 'ticket_ref', sigil: '!', field: 'id', description: 'a ticket in the tracker' },
      ]),
    );
    expect(c.welcome?.segment_kinds).toContain('ticket_ref');
    await c.close();
  });

  it('a valid segment reaches the resolver typed; an invalid one falls back to the placeholder and an alert naming the field', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), tickets()] });
    const c = await tp.connect();
    const events: Event[] = recorder(c);
    let ended = runEnded(c);
    await c.request({
      method: 'run',
      params: { input: [text('see '), { kind: 'ticket_ref', id: 'ACME-7', extra: 'dropped' } as never] },
    });
    await ended;
    expect(seen).toEqual([{ kind: 'ticket_ref', id: 'ACME-7' }]);
    ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('see '), { kind: 'ticket_ref', id: 7 } as never] } });
    await ended;
    expect(seen).toHaveLength(1); // the resolver never saw the bad payload
    const alerts = events.filter((e) => e.event === 'alert').map((e) => (e.event === 'alert' ? e.data.message : ''));
    expect(alerts).toContain(
      'ticket_ref !7 was not resolved (invalid ticket_ref segment: id: expected string); the model sees a placeholder',
    );
    const history = await c.request({ method: 'get_history' });
    const items = JSON.stringify(history.event === 'history' ? history.data.items : []);
    expect(items).toContain('[Ticket: ACME-7]');
    expect(items).toContain('[unresolved ticket_ref: 7]');
    await c.close();
  });
});
