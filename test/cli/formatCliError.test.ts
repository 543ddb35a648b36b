import { describe, expect, it } from '@jest/globals';
import { formatCliError } from '../../cli/formatCliError.js';
import { YoiError } from '../../core/errors/YoiError.js';

describe('formatCliError', () => {
  it('keeps a YoiError message as one line with exit code 1', () => {
    expect(formatCliError(new YoiError('YOI_ERR_CONFIG', 'yoi.config.ts: modle: unknown key'))).toEqual({ line: 'yoi: yoi.config.ts: modle: unknown key', exitCode: 1 });
  });

  it("turns oclif's parse errors into one line pointing at the command's help, exit code 2", () => {
    const error = Object.assign(new Error('Nonexistent flag: --bogus\nSee more help with --help'), { parse: {}, oclif: { exit: 2 } });
    expect(formatCliError(error, 'pod:start')).toEqual({ line: 'yoi: Nonexistent flag: --bogus (see: yoi pod start --help)', exitCode: 2 });
  });

  it('names unknown commands the way users type them', () => {
    const error = Object.assign(new Error('command pod:strat not found'), { oclif: { exit: 2 } });
    expect(formatCliError(error)).toEqual({ line: 'yoi: unknown command "pod strat" (see: yoi --help)', exitCode: 2 });
  });

  it('joins a multi-line message and survives non-errors', () => {
    expect(formatCliError(new Error('first\n\n  second')).line).toBe('yoi: first; second');
    expect(formatCliError('plain')).toEqual({ line: 'yoi: plain', exitCode: 1 });
    expect(formatCliError(new Error('')).line).toBe('yoi: unknown error');
  });
});
