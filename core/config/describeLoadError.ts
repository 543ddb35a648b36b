import { YoiError, isYoiError } from '../errors/YoiError.js';

/**
 * One line for a config file that could not be loaded (syntax error, failing import, throw at
 * load): `yoi.config.ts:3:7: syntax error: Unexpected token`. No stack: the location and the
 * first line of the message are what a user needs. A YoiError (bad plugin options) keeps its code.
 */
export function describeLoadError(error: unknown, label: string, filepath: string): YoiError {
  if (isYoiError(error)) return new YoiError(error.code, `${label}: ${error.message}`, { cause: error });
  // Duck-typed: errors from a config evaluated in another realm fail `instanceof Error`.
  const err: Error = typeof (error as Error | null)?.message === 'string' ? (error as Error) : new Error(String(error));
  const isSyntax = err.name === 'SyntaxError';
  const first = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? err.name;
  const fail = (where: string, what: string) => new YoiError('YOI_ERR_CONFIG', `${where}: ${what}`, { cause: error });

  // jiti (babel): "ParseError: Unexpected token \n /abs/yoi.config.ts:1:27"
  const parse = /^ParseError:\s*(.*?)\s*\n\s*(.+):(\d+):(\d+)\s*$/s.exec(err.message);
  if (parse) return fail(`${label}:${parse[3]}:${parse[4]}`, `syntax error: ${parse[1]}`);

  // JSON.parse: "... in JSON at position 42" (the loader attaches the source)
  const source = (err as { source?: string }).source;
  const position = /^(.*?)(?: in JSON)? at position (\d+)/.exec(err.message);
  if (isSyntax && source !== undefined && position) {
    const before = source.slice(0, Number(position[2])).split('\n');
    return fail(`${label}:${before.length}:${before[before.length - 1].length + 1}`, `invalid JSON: ${position[1]}`);
  }
  if (isSyntax && source !== undefined) return fail(label, `invalid JSON: ${first(err.message)}`);

  // js-yaml (cosmiconfig's YAML loader): `mark` is 0-based.
  const yaml = err as { name: string; reason?: string; mark?: { line: number; column: number } };
  if (yaml.name === 'YAMLException' && yaml.mark) {
    return fail(
      `${label}:${yaml.mark.line + 1}:${yaml.mark.column + 1}`,
      `syntax error: ${yaml.reason ?? first(err.message)}`,
    );
  }

  if (isSyntax) return fail(label, `syntax error: ${first(err.message)}`);
  const message = first(err.message).replaceAll(filepath, label);
  return fail(label, `failed to load: ${message}`);
}
