/**
 * Glob matching for command lines: `*` matches any run of characters (`/` and newlines
 * included), `?` one character, `\` makes the next character literal; everything else is
 * literal. Linear in the command's length for each `*`: picomatch's regular expressions
 * backtrack polynomially in the number of `*`, and a command line (up to 100 KB, chosen by the
 * model) must never stall the pod.
 */
type Token = { t: 'lit'; c: string } | { t: 'one' } | { t: 'any' };

export interface CommandGlob {
  /** Has `*` or `?` (an escaped literal has neither). */
  readonly wildcard: boolean;
  test(command: string): boolean;
}

export function commandGlob(pattern: string): CommandGlob {
  const tokens: Token[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\' && i + 1 < chars.length) tokens.push({ t: 'lit', c: chars[++i] });
    else if (c === '*') {
      if (tokens.at(-1)?.t !== 'any') tokens.push({ t: 'any' });
    } else if (c === '?') tokens.push({ t: 'one' });
    else tokens.push({ t: 'lit', c });
  }
  const wildcard = tokens.some((k) => k.t !== 'lit');
  return { wildcard, test: (command) => matchTokens(tokens, [...command]) };
}

/** Greedy matching with one backtrack point (the last `*`): O(text × tokens) at worst. */
function matchTokens(tokens: readonly Token[], text: readonly string[]): boolean {
  let ti = 0;
  let pi = 0;
  let star = -1;
  let mark = 0;
  while (ti < text.length) {
    const k = tokens[pi];
    if (k && (k.t === 'one' || (k.t === 'lit' && k.c === text[ti]))) {
      ti++;
      pi++;
    } else if (k?.t === 'any') {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (tokens[pi]?.t === 'any') pi++;
  return pi === tokens.length;
}
