import { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';
import { formatZodError } from '../errors/formatZodError.js';
import type { YoiPlugin } from '../plugin/YoiPlugin.js';
import { YoiConfigSchema } from './YoiConfigSchema.js';

/** One config key a plugin owns (`permissions`, or `limits.fileRefBytes` inside a core section). */
interface Claim {
  readonly path: readonly string[];
  readonly schema: z.ZodType;
  readonly plugins: string[];
}

/**
 * The config schema with every key the plugins own added (as `unknown`: each plugin's own schema
 * checks its value), so an unknown key is still an error — with a did-you-mean over core and
 * plugin keys alike — and the core schema never holds a plugin's keys.
 */
export function schemaWithSections(
  plugins: readonly YoiPlugin[],
  where: string,
): { schema: z.ZodType; claims: Claim[] } {
  const claims: Claim[] = [];
  for (const plugin of plugins) {
    if (!plugin.config) continue;
    const path = plugin.config.key.split('.');
    const same = claims.find((c) => c.path.join('.') === path.join('.'));
    if (same && same.schema !== plugin.config.schema) {
      throw new YoiError(
        'YOI_ERR_CONFIG',
        `${where}${plugin.config.key}: claimed by plugins ${same.plugins[0]} and ${plugin.name} with different schemas`,
      );
    }
    if (same) same.plugins.push(plugin.name);
    else claims.push({ path, schema: plugin.config.schema, plugins: [plugin.name] });
  }
  const top: Record<string, z.ZodType> = {};
  const nested = new Map<string, Record<string, z.ZodType>>();
  const shape = YoiConfigSchema.shape as Record<string, z.ZodType>;
  for (const { path, plugins: owners } of claims) {
    const [head, leaf] = path;
    if (leaf === undefined) {
      if (head in shape)
        throw new YoiError(
          'YOI_ERR_CONFIG',
          `plugin ${owners[0]} claims the config key ${head}, which belongs to yoi itself`,
        );
      top[head] = z.unknown().optional();
      continue;
    }
    const section = objectShape(shape[head]);
    if (!section)
      throw new YoiError(
        'YOI_ERR_CONFIG',
        `plugin ${owners[0]} claims ${path.join('.')}, but ${head} is not a section of the config`,
      );
    if (leaf in section)
      throw new YoiError('YOI_ERR_CONFIG', `plugin ${owners[0]} claims ${path.join('.')}, which belongs to yoi itself`);
    nested.set(head, { ...(nested.get(head) ?? {}), [leaf]: z.unknown().optional() });
  }
  let schema = YoiConfigSchema.extend(top);
  for (const [head, extra] of nested) {
    const base = unwrapObject(shape[head])!;
    schema = schema.extend({ [head]: base.extend(extra).prefault({}) });
  }
  return { schema, claims };
}

/**
 * Validates each owned key with its plugin's schema; returns the parsed sections by plugin name.
 * An error names the key path and the plugin: `knowledge.dir: expected string (plugin yoi:knowledge)`.
 */
export function parseSections(
  raw: unknown,
  claims: readonly Claim[],
  where: string,
  prefix: readonly string[],
): Map<string, unknown> {
  const sections = new Map<string, unknown>();
  for (const { path, schema, plugins } of claims) {
    const value = valueAt(raw, path);
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new YoiError(
        'YOI_ERR_CONFIG',
        `${where}${formatZodError(parsed.error, schema, [...prefix, ...path])} (plugin ${plugins.join(', ')})`,
      );
    }
    for (const plugin of plugins) sections.set(plugin, parsed.data);
  }
  return sections;
}

function valueAt(raw: unknown, path: readonly string[]): unknown {
  let node = raw;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function unwrapObject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  let node = schema as unknown as { _zod?: { def: { type: string; innerType?: unknown } } } | undefined;
  while (node?._zod && node._zod.def.type !== 'object' && node._zod.def.innerType)
    node = node._zod.def.innerType as typeof node;
  return node?._zod?.def.type === 'object' ? (node as unknown as z.ZodObject) : undefined;
}

function objectShape(schema: z.ZodType | undefined): Record<string, unknown> | undefined {
  return unwrapObject(schema)?.shape;
}
