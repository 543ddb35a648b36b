import { describe, expect, it } from '@jest/globals';
import { PodRequestError } from '../../client/PodClient.js';
import { cliErrorJson, formatCliError } from '../../cli/formatCliError.js';
import { YoiError } from '../../core/errors/YoiError.js';

describe('formatCliError', () => {
  it('keeps a YoiError message as one line ending with its code, exit code 1', () => {
    expect(formatCliError(new YoiError('YOI_ERR_CONFIG', 'yoi.config.ts: modle: unknown key'))).toEqual({
      line: 'yoi: yoi.config.ts: modle: unknown key [YOI_ERR_CONFIG]',
      exitCode: 1,
      code: 'YOI_ERR_CONFIG',
      message: 'yoi.config.ts: modle: unknown key',
    });
  });

  it("turns oclif's parse errors into one usage line pointing at the command's help, exit code 2", () => {
    const error = Object.assign(new Error('Nonexistent flag: --bogus\nSee more help with --help'), {
      parse: {},
      oclif: { exit: 2 },
    });
    expect(formatCliError(error, 'pod:start')).toMatchObject({
      line: 'yoi: Nonexistent flag: --bogus (see: yoi pod start --help) [YOI_ERR_USAGE]',
      exitCode: 2,
      code: 'YOI_ERR_USAGE',
    });
  });

  it('names unknown commands the way users type them', () => {
    const error = Object.assign(new Error('command pod:strat not found'), { oclif: { exit: 2 } });
    expect(formatCliError(error).line).toBe('yoi: unknown command "pod strat" (see: yoi --help) [YOI_ERR_USAGE]');
  });

  it("a pod's refusal carries both codes; its message loses the pod code prefix", () => {
    const refusal = formatCliError(new PodRequestError('not_running', 'not_running: Pod is not running'));
    expect(refusal).toMatchObject({
      line: 'yoi: Pod is not running [YOI_ERR_REQUEST not_running]',
      code: 'YOI_ERR_REQUEST',
      podCode: 'not_running',
      exitCode: 1,
    });
    expect(JSON.parse(cliErrorJson(refusal))).toEqual({
      error: { code: 'YOI_ERR_REQUEST', pod_code: 'not_running', message: 'Pod is not running', exit_code: 1 },
    });
  });

  it('joins a multi-line message and survives non-errors; an error without a code has no tag', () => {
    expect(formatCliError(new Error('first\n\n  second')).line).toBe('yoi: first; second');
    expect(formatCliError('plain')).toEqual({ line: 'yoi: plain', exitCode: 1, message: 'plain' });
    expect(formatCliError(new Error('')).line).toBe('yoi: unknown error');
    expect(JSON.parse(cliErrorJson(formatCliError(new Error('boom'))))).toEqual({
      error: { code: null, message: 'boom', exit_code: 1 },
    });
  });

  it("defuses control characters of a pod's or a provider's message: the line cannot drive the terminal", () => {
    const osc52 = `\u001b]52;c;${Buffer.from('rm -rf ~').toString('base64')}\u0007`;
    const body = `upstream said: \u001b]0;PWNED\u0007\u001b[2J${osc52}\rOVER\u009b31m\tx\u007f`;
    const e = formatCliError(new PodRequestError('provider_error', `the run failed: ${body}`));
    expect(e.line).toBe(
      'yoi: the run failed: upstream said: \ufffd]0;PWNED\ufffd\ufffd[2J\ufffd]52;c;cm0gLXJmIH4=\ufffd\ufffdOVER\ufffd31m\ufffdx\ufffd [YOI_ERR_REQUEST provider_error]',
    );
    expect(e.line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(JSON.parse(cliErrorJson(e)).error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
