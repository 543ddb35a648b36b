/**
 * How a tool call reads in `yoi send`'s transcript: its name, its main argument (the path, the
 * pattern, the pod ...) and its outcome in a few words, `✓ Read src/math.ts → 6 lines`.
 */

/** Argument keys that say what a call is about, most telling first. */
const MAIN_KEYS = ['file_path', 'path', 'pattern', 'command', 'name', 'url', 'uri', 'query', 'slug', 'id'];
const MAX_ARG = 80;
const MAX_OUTCOME = 120;

/** The argument that says what a call is about, as the model wrote it; undefined when none. */
export function mainArgument(argumentsJson: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  const key =
    MAIN_KEYS.find((k) => typeof record[k] === 'string' && record[k] !== '') ??
    Object.keys(record).find((k) => typeof record[k] === 'string' && record[k] !== '');
  return key === undefined ? undefined : clip(oneLine(record[key] as string), MAX_ARG);
}

/** Outcomes of the built-in tools, shortened: what happened, not the path again. */
const OUTCOMES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^Read (\d+ lines?) \[(\d+\.\.\d+)\] of (\d+) from /, (m) => `${m[1]} [${m[2]}] of ${m[3]}`],
  [/^Read (\d+ lines?) of (\d+) from .* \((offset \d+ is past the end)\)$/, (m) => `${m[1]} of ${m[2]} (${m[3]})`],
  [/^Read (\d+ lines?) from /, (m) => m[1]],
  [/^(Created|Overwrote) .* \((\d+ bytes?)\)$/, (m) => `${m[1].toLowerCase()} (${m[2]})`],
  [/^Edited .* \((\d+ replacements?)\)$/, (m) => m[1]],
  [/^Found (\d+ files?) matching .*?( \(showing .*\))?$/, (m) => `${m[1]}${m[2] ?? ''}`],
  [/^cannot (?:read|write) .+?: (.+)$/, (m) => m[1]],
];

/** The outcome of a call in a few words, from its result summary. */
export function outcomeText(summary: string): string {
  const first = oneLine(summary);
  for (const [pattern, short] of OUTCOMES) {
    const m = pattern.exec(first);
    if (m) return clip(short(m), MAX_OUTCOME);
  }
  return clip(first, MAX_OUTCOME);
}

function oneLine(text: string): string {
  return text.split('\n', 1)[0].trim();
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
