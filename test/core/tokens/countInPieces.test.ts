import fs from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { messageItem } from '../../../core/history/HistoryItem.js';
import { AbortedError } from '../../../core/provider/providerErrors.js';
import { FULL_LIMITS, SYNC_LIMITS, countInPieces, countPlan } from '../../../core/tokens/countInPieces.js';
import {
  countItemsTokens,
  countTextTokens,
  estimateItemTokens,
  estimateItemsTokens,
  loadTokenizer,
} from '../../../core/tokens/estimateTokens.js';
import { MAX_PIECE_CHARS } from '../../../core/tokens/textPieces.js';
import { fuzzAssert } from '../../support/fuzzRuns.js';
import { unbrokenRun } from '../../support/hostileText.js';
import { seededRandom } from '../../support/seededRandom.js';

const options = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => countTokens(text, options);

const cjk = (n: number, seed?: number) => unbrokenRun(n, 0x4e00, 2000, seed);

/** Prose of a size between the synchronous and the full exact limits (the file itself keeps growing). */
/**
 * 60,000 characters of a developer guide's mix (sentences, code, table rows), the same every run:
 * the sample's error is a property of the estimator, not of whatever a living document holds.
 */
const proseOfSize = (): string => {
  const random = seededRandom(12);
  const words = [
    'the',
    'pod',
    'config',
    'scope',
    'a',
    'client',
    'writes',
    'reads',
    'its',
    'session',
    'log',
    'of',
    'each',
    'plugin',
    'hook',
    'tool',
    'and',
    'is',
    'refused',
    'bounded',
    'queue',
    'socket',
    'every',
    'run',
    'to',
    'model',
    'sees',
    'placeholder',
    'alert',
    'compaction',
    'history',
    'with',
    'not',
    'in',
    'one',
    'line',
  ];
  const sentence = () =>
    Array.from({ length: random.int(6, 18) }, () => random.pick(words))
      .join(' ')
      .replace(/^./, (c) => c.toUpperCase()) + '.';
  const parts: string[] = [];
  let size = 0;
  while (size < 60_000) {
    const kind = random.int(0, 9);
    const part =
      kind < 6
        ? Array.from({ length: random.int(2, 5) }, sentence).join(' ')
        : kind < 8
          ? `\`\`\`ts\nconst ${random.pick(words)}${random.int(0, 99)} = await ${random.pick(words)}.${random.pick(words)}({ limit: ${random.int(1, 9999)} });\n\`\`\``
          : `| \`${random.pick(words)}/\` | ${sentence()} |`;
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join('\n\n').slice(0, 60_000);
};

const REAL_TEXT = [
  'README.md',
  'CONTRIBUTING.md',
  'core/pod/Pod.ts',
  'core/protocol/LineReader.ts',
  'package.json',
  'test/fixtures/yoi-v1/vectors.jsonl',
];

describe('counting in pieces', () => {
  beforeAll(() => loadTokenizer());

  it('counts real text (prose, code, JSON) within 0.5% of the exact count, most of it exactly', () => {
    const whole = { ...FULL_LIMITS, exactChars: Infinity };
    for (const file of REAL_TEXT) {
      const text = fs.readFileSync(file, 'utf8');
      const want = exact(text);
      expect(Math.abs(countInPieces(text, exact, whole) - want) / want).toBeLessThan(0.005);
    }
    const prose = fs.readFileSync('CONTRIBUTING.md', 'utf8');
    expect(countInPieces(prose, exact, whole)).toBe(exact(prose));
    // Chinese has no spaces: pieces end at its punctuation.
    const zh =
      '人工智能是计算机科学的一个分支，它企图了解智能的实质，并生产出一种新的能以人类智能相似的方式做出反应的智能机器。'.repeat(
        100,
      );
    expect(countInPieces(zh, exact, whole)).toBe(exact(zh));
  });

  it('gives the exact count whenever every piece ends at a word boundary (any Unicode, any piece size)', async () => {
    // Fragments of up to 24 code units from a rich alphabet, each followed by `. ` (a boundary).
    const alphabet = fc.constantFrom(
      ...'aZé\u0301ß1234567890٣ \t\n\r\u00a0\u3000\'’"/.,;:!?-_()[]{}<>@#$%^&*+=|\\~`漢字かなカナ한글😀👍🏽\u200d'.split(
        '',
      ),
    );
    const fragment = fc.array(alphabet, { maxLength: 24 }).map((cs) => cs.join(''));
    await fuzzAssert(
      'tokens: pieces end at word boundaries',
      fc.property(fc.array(fragment, { maxLength: 40 }), fc.integer({ min: 40, max: 200 }), (fragments, pieceChars) => {
        const text = fragments.join('. ');
        expect(countInPieces(text, exact, { ...FULL_LIMITS, pieceChars })).toBe(exact(text));
      }),
      300,
    );
  });

  it('cuts an unbroken run into bounded pieces, staying close to the exact count', () => {
    for (const run of ['A'.repeat(8_000), unbrokenRun(4_000, 0x61, 26), cjk(1_500)]) {
      const pieces = [...countPlanPieces(run)];
      expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(MAX_PIECE_CHARS);
      expect(pieces.join('')).toBe(run);
      const want = exact(run);
      expect(Math.abs(countInPieces(run, exact, FULL_LIMITS) - want) / want).toBeLessThan(0.02);
    }
  });

  it('estimates a text beyond the exact limit from a bounded sample, within 3%', () => {
    const text = proseOfSize().repeat(4);
    expect(text.length).toBeGreaterThan(FULL_LIMITS.exactChars);
    const sampled: string[] = [];
    const plan = countPlan(text, FULL_LIMITS);
    for (let step = plan.next(); !step.done; step = plan.next()) sampled.push(step.value);
    expect(sampled.join('').length).toBeLessThanOrEqual(FULL_LIMITS.sampleChars + FULL_LIMITS.windows);
    const want = exact(text);
    expect(Math.abs(countInPieces(text, exact, FULL_LIMITS) - want) / want).toBeLessThan(0.03);
  });

  it('bounds what one synchronous call counts; the asynchronous count is exact and replaces it', async () => {
    const long = messageItem('user', proseOfSize());
    const items = [long, messageItem('assistant', 'ok')];
    const provisional = estimateItemsTokens(items);
    const counted = await countItemsTokens(items);
    expect(counted).toBe(exact(long.content[0].text) + 4 + exact('ok') + 4);
    expect(Math.abs(provisional - counted) / counted).toBeLessThan(0.25);
    // Cached now: synchronous counts of the same items agree.
    expect(estimateItemTokens(long)).toBe(exact(long.content[0].text) + 4);
    expect(estimateItemsTokens(items)).toBe(counted);
    expect(SYNC_LIMITS.exactChars).toBeLessThan(FULL_LIMITS.exactChars);
  });

  it('yields to the event loop while counting a hostile text, and stops when aborted', async () => {
    const hostile = cjk(4_000, 7); // one BPE "word" of random CJK characters: ~10 µs each
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let timerRanFirst = false;
    const counted = countTextTokens(hostile).then((n) => {
      timerRanFirst = timerRan;
      return n;
    });
    expect(await counted).toBeGreaterThan(hostile.length / 4);
    expect(timerRanFirst).toBe(true);

    const abort = new AbortController();
    const stopped = countTextTokens(cjk(300_000, 8), abort.signal); // sampled: still a long count
    setImmediate(() => abort.abort());
    await expect(stopped).rejects.toBeInstanceOf(AbortedError);
  });
});

function* countPlanPieces(text: string): Generator<string> {
  const plan = countPlan(text, FULL_LIMITS);
  for (let step = plan.next(); !step.done; step = plan.next()) yield step.value;
}
