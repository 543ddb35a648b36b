// The scripted provider's replies for the soak bench: a seeded mix of streamed text (some of it
// slow, so cancels and pauses land mid-run), tool rounds over the project's files, long replies
// that fill the context towards the compaction threshold, and provider errors.
const WORDS = [
  'pod',
  'scope',
  'session',
  'compaction',
  'history',
  'client',
  'socket',
  'event',
  'turn',
  'tool',
  'summary',
  'delta',
];

/** Files the soak project holds, for the tool calls to read and search. */
export function soakFiles() {
  const files = {};
  for (let i = 0; i < 6; i++) {
    files[`src/module${i}.ts`] = Array.from(
      { length: 40 },
      (_, l) => `export const value${i}_${l} = ${l} * ${i}; // ${WORDS[l % WORDS.length]}`,
    ).join('\n');
  }
  return files;
}

function sentence(rand, words) {
  return Array.from({ length: words }, () => rand.pick(WORDS)).join(' ');
}

function toolCall(rand) {
  switch (rand.int(0, 2)) {
    case 0:
      return { name: 'Read', arguments: { file_path: `src/module${rand.int(0, 5)}.ts`, limit: rand.int(5, 40) } };
    case 1:
      return { name: 'Glob', arguments: { pattern: 'src/**/*.ts' } };
    default:
      return { name: 'Grep', arguments: { pattern: rand.pick(WORDS), path: 'src', output_mode: 'count' } };
  }
}

/** One reply of the script. */
function reply(rand) {
  const r = rand.next();
  const delay = rand.chance(0.4) ? { delay_ms: rand.int(20, 400) } : {};
  if (r < 0.5) return { chunks: Array.from({ length: rand.int(1, 40) }, () => `${rand.pick(WORDS)} `), ...delay };
  if (r < 0.75)
    return { text: 'Let me look.', tool_calls: Array.from({ length: rand.int(1, 3) }, () => toolCall(rand)), ...delay };
  if (r < 0.78) return { chunks: ['partial '], error: 'scripted provider failure' };
  // A long reply (1–6 KiB): the context grows until a compaction summarises it.
  return { text: Array.from({ length: rand.int(10, 60) }, () => sentence(rand, 15)).join('\n'), ...delay };
}

/** `count` replies from `rand`. */
export function soakScript(rand, count) {
  return Array.from({ length: count }, () => reply(rand));
}
