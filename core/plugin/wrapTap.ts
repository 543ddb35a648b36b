import { PluginError, isPluginError } from '../errors/PluginError.js';

type TapFn = (...args: unknown[]) => unknown;

/**
 * Wraps one tap's function so that a throw or a rejection becomes a PluginError naming
 * `plugin` and `hook`. When `isolated`, the error goes to `report` instead and the tap yields
 * `undefined`, so the hook's other taps still run.
 */
export function wrapTap(
  fn: TapFn,
  type: 'sync' | 'promise',
  plugin: string,
  hook: string,
  { isolated, report }: { isolated: boolean; report: (error: PluginError) => void },
): TapFn {
  // An error already attributed (a tap calling into another hook) keeps its original plugin.
  const attribute = (error: unknown) => (isPluginError(error) ? error : new PluginError(plugin, hook, error));
  const fail = (error: unknown): undefined => {
    const attributed = attribute(error);
    if (!isolated) throw attributed;
    report(attributed);
    return undefined;
  };

  if (type === 'promise') {
    return (...args) => {
      let result: unknown;
      try {
        result = fn(...args);
      } catch (error) {
        return new Promise((resolve) => resolve(fail(error)));
      }
      return Promise.resolve(result).then(undefined, fail);
    };
  }

  return (...args) => {
    let result: unknown;
    try {
      result = fn(...args);
    } catch (error) {
      return fail(error);
    }
    // A plain function returning a promise through tap(): nobody may await it, so its
    // rejection is reported here rather than left unhandled.
    if (isThenable(result)) {
      result.then(undefined, (error: unknown) => report(attribute(error)));
    }
    return result;
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
