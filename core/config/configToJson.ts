import type { ResolvedConfig } from './resolveConfig.js';

/** Model keys whose values are credentials: shown as `***`. */
const SECRET_KEY = /(api[-_]?key|token|secret|password)/i;

/**
 * The resolved config as plain JSON (for `yoi config --json` and logs), in reading order.
 * Plugins appear by name only and credentials in `model` are masked, so the output is safe to
 * paste into a bug report.
 */
export function configToJson(config: ResolvedConfig): Record<string, unknown> {
  const {
    configPath,
    projectDir,
    cwd,
    name,
    model,
    modelIsDefault,
    plugins,
    disablePlugins,
    systemPrompt,
    maxTurns,
    scope,
    sessions,
    compaction,
    limits,
    sections,
    // What config trust compares (yoi trust shows it), not settings.
    configFiles: _files,
    configDigest: _digest,
    ...rest
  } = config;
  const shownModel = Object.fromEntries(
    Object.entries(model).map(([k, v]) => [k, SECRET_KEY.test(k) && v ? '***' : v]),
  );
  return {
    configPath,
    projectDir,
    cwd,
    name,
    model: shownModel,
    modelIsDefault,
    plugins: plugins.map((p) => p.name),
    disablePlugins,
    systemPrompt,
    maxTurns,
    scope,
    sessions,
    compaction,
    limits,
    ...rest,
    // Each plugin's section as it applies (defaults filled in), under the key it owns.
    ...pluginSections(plugins, sections, limits),
  };
}

/** `{ knowledge: {...}, permissions: {...} }`: every plugin section; `limits.x` keys merge into `limits`. */
function pluginSections(
  plugins: ResolvedConfig['plugins'],
  sections: ResolvedConfig['sections'],
  limits: ResolvedConfig['limits'],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const mergedLimits: Record<string, unknown> = { ...limits };
  for (const plugin of plugins) {
    if (!plugin.config || !sections.has(plugin.name)) continue;
    const [head, leaf] = plugin.config.key.split('.');
    const value = sections.get(plugin.name);
    if (leaf === undefined) out[head] = value;
    else if (head === 'limits') mergedLimits[leaf] = value;
    else out[head] = { ...(out[head] as object), [leaf]: value };
  }
  return { ...out, limits: mergedLimits };
}
