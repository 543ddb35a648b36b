import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeMethodLine, encodeMethod } from '../../../core/protocol/index.js';
import { fuzzAssert, fuzzRuns } from '../../support/fuzzRuns.js';
import { damagedLine, envelopeLike, methodArb } from '../../support/protocolArbitraries.js';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';

// A real pod on a real socket, fed random lines by one client after another: it keeps
// answering, and each bad line gets one error, one line, on its own connection.

const CASES = 40;

let tp: TestPod;
beforeAll(async () => {
  tp = await startTestPod({ name: 'fuzz' });
});
afterAll(() => tp.stop());

/** Lines a hostile client writes; never a valid `shutdown` (which rightly stops the pod). */
const line: fc.Arbitrary<Buffer> = fc
  .oneof(
    damagedLine.map((l) => Buffer.from(`${l}\n`)),
    methodArb.map((m) => Buffer.from(`${encodeMethod(m)}\n`)),
    envelopeLike.map((v) => Buffer.from(`${JSON.stringify(v) ?? 'null'}\n`)),
    fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b)),
    fc.constantFrom(Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from([0xff, 0x0a]), Buffer.from('{"method":"ru')),
  )
  .filter(
    (b) =>
      !b
        .toString()
        .split('\n')
        .some((l) => {
          const d = decodeMethodLine(l.trim());
          return d.ok && d.value.method === 'shutdown';
        }),
  );

describe('a pod fed random lines', () => {
  it(
    'keeps answering every client; errors go to the sender, one line each',
    async () => {
      let probes = 0;
      let errors = 0;
      await fuzzAssert(
        'pod: random lines',
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (lines) => {
          const fuzzer = await RawClient.connect(tp.socket);
          const bystander = await RawClient.connect(tp.socket);
          try {
            for (const l of lines) fuzzer.write(l);
            fuzzer.write('\n');
            const id = `probe-${++probes}`;
            bystander.write(
              `{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n{"method":"get_history","request_id":"${id}"}\n`,
            );
            await bystander.until((e) => e.event === 'history' && e.request_id === id, 20_000);
            expect(bystander.events.filter((e) => e.event === 'error' && e.request_id !== undefined)).toEqual([]);
            for (const e of fuzzer.events) {
              if (e.event !== 'error') continue;
              errors++;
              expect(e.data.message.length).toBeGreaterThan(0);
              expect(e.data.message).not.toMatch(/[\n\r\u2028\u2029]/);
            }
          } finally {
            fuzzer.destroy();
            bystander.destroy();
          }
        }),
        CASES,
      );
      expect(errors).toBeGreaterThan(0); // the bad lines were seen, and answered
      await tp.pod.runtime.work.settled();
      expect(tp.pod.status).not.toBe('running');
    },
    120_000 + fuzzRuns(CASES) * 250,
  );
});
