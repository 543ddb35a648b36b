import type { ResolvedConfig } from './resolveConfig.js';

/** Model keys whose values are credentials: shown as `***`. */
const SECRET_KEY = /(api[-_]?key|token|secret|password)/i;

/**
 * The resolved config as plain JSON (for `yoi config --json` and logs). Plugins appear by name
 * only and credentials in `model` are masked, so the output is safe to paste into a bug report.
 */
export function configToJson(config: ResolvedConfig): Record<string, unknown> {
  const { plugins, model, ...rest } = config;
  const shownModel = Object.fromEntries(Object.entries(model).map(([k, v]) => [k, SECRET_KEY.test(k) && v ? '***' : v]));
  return { ...rest, model: shownModel, plugins: plugins.map((p) => p.name) };
}
