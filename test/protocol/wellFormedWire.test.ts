import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as P from '../../core/protocol/index.js';
import { ExtensionEvent, encodeExtensionEvent } from '../../core/protocol/ExtensionEvent.js';
import { fuzzAssert } from '../support/fuzzRuns.js';
import { anyString, asWire } from '../support/protocolArbitraries.js';

const greeting = { pod_name: 'p', cwd: '/w', provider: 'echo', model: 'echo', scope_summary: '', tools: [] };

/** The event's decoded data, failing the test when a decoder refuses the line. */
function roundTrip(e: P.Event): unknown {
  const d = P.decodeEventLine(P.encodeEvent(e, 7));
  if (!d.ok) throw new Error(`refused: ${d.error}`);
  return d.value.data;
}

describe('what the encoder writes decodes everywhere: a lone surrogate goes out as U+FFFD', () => {
  // serde_json, and yoi's decoder like it, refuse a line with a lone surrogate escape: one such
  // string in a history item (a summary cut inside an emoji) made every later get_history unreadable.
  it('in every kind of event, a history item, a plugin event and a method', async () => {
    await fuzzAssert(
      'encoder: only well-formed strings',
      fc.property(anyString, (s) => {
        const wire = asWire(s);
        expect(roundTrip({ event: 'text_delta', data: { text: s } })).toEqual({ text: wire });
        expect(roundTrip({ event: 'text_done', data: { text: s } })).toEqual({ text: wire });
        expect(roundTrip({ event: 'tool_call_args_delta', data: { id: s, json: s } })).toEqual({
          id: wire,
          json: wire,
        });
        expect(roundTrip({ event: 'error', data: { code: 'internal', message: s } })).toEqual({
          code: 'internal',
          message: wire,
        });
        const item = { type: 'message', role: 'user', content: [{ type: 'text', text: s }], [s]: 1 };
        expect(roundTrip({ event: 'history', data: { items: [item], greeting } })).toEqual({
          items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: wire }], [wire]: 1 }],
          greeting,
        });
        const plugin = P.parseJsonExact(encodeExtensionEvent(new ExtensionEvent('x_ask', { args: s }, false), 3));
        expect(plugin).toEqual({ event: 'x_ask', seq: 3, data: { args: wire } });
        const method = P.decodeMethodLine(
          P.encodeMethod({ method: 'run', params: { input: [{ kind: 'text', content: s }] } }),
        );
        expect(method).toMatchObject({ ok: true, value: { params: { input: [{ kind: 'text', content: wire }] } } });
      }),
      300,
    );
  });
});
