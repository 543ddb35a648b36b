// A third-party resolver plugin, written against yoi's public API only. In your own project,
// import from 'yoi' instead of the repository root.
import { defineSegmentKind, definePlugin, z, type Resolution } from '../../index.js';

const NAME = 'example:env';
/** What an environment variable name looks like; anything else is refused before lookup. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

const OptionsSchema = z
  .strictObject({
    /**
     * Variables the model may see: exact names, or prefixes ending in `*` (`PUBLIC_*`). Nothing
     * outside this list is ever revealed, not even whether it is set.
     */
    allow: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/)).default([]),
    /** Longest value put in the context (characters). */
    maxChars: z.int().min(1).default(4096),
  })
  .prefault({});

/**
 * The kind this plugin adds: `{"kind":"env_ref","name":"NODE_ENV"}`, written `$NODE_ENV` in
 * `yoi attach`. The pod validates every env_ref against the schema before the resolver sees it.
 */
export const EnvRef = defineSegmentKind({
  kind: 'env_ref',
  schema: z.object({ name: z.string() }),
  sigil: '$',
  field: 'name',
  description: 'an environment variable from the allow list',
});

/**
 * Resolves `env_ref` segments — `{"kind":"env_ref","name":"NODE_ENV"}` — to the variable's
 * value as an `Env: NAME` context item. Offline and deterministic: a model can ask the user
 * which environment it runs in without a shell tool.
 */
export const envResolver = definePlugin({
  name: NAME,
  options: OptionsSchema,
  apply(api, { allow, maxChars }) {
    const allowed = (name: string) =>
      allow.some((rule) => (rule.endsWith('*') ? name.startsWith(rule.slice(0, -1)) : name === rule));

    const kind = api.segmentKind(EnvRef);
    kind.resolve(async (segment): Promise<Resolution> => {
      // Typed and validated by the pod; still checked, since anyone may call the hook directly.
      const name: unknown = segment.name;
      if (typeof name !== 'string')
        return { type: 'unresolved', reason: 'malformed env_ref segment: `name` is not a string' };
      if (!VARIABLE.test(name)) return { type: 'unresolved', reason: 'not a variable name', ref: name.slice(0, 64) };
      if (!allowed(name)) return { type: 'unresolved', reason: `$${name} is not in the ${NAME} allow list`, ref: name };
      const value = process.env[name];
      if (value === undefined) return { type: 'unresolved', reason: `$${name} is not set`, ref: name };
      if (value.length <= maxChars) return { type: 'context', label: `Env: ${name}`, text: value };
      return {
        type: 'context',
        label: `Env: ${name}`,
        text: value.slice(0, maxChars),
        warning: `$${name} was cut to ${maxChars} of ${value.length} characters`,
      };
    });

    kind.complete(async (items, ctx) => {
      const mine = Object.keys(process.env)
        .filter((name) => allowed(name) && name.startsWith(ctx.prefix))
        .sort();
      return [...items, ...mine.slice(0, ctx.limit)];
    });
  },
});
