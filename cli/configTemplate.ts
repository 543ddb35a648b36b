/**
 * The `yoi.config.ts` that `yoi init` writes. Plain data with a type-only import: it loads
 * even where the `yoi` package is not installed locally (the import is erased at load).
 */
export const CONFIG_TEMPLATE = `import type { YoiConfig } from 'yoi';

// yoi config. Check it with \`yoi config\`; \`yoi plugins\` lists plugins and providers.
export default {
  // Default pod name (\`yoi pod start\` without --name, commands without --pod).
  name: 'default',

  // The model: a provider plugin's name plus that provider's own keys. Without a model,
  // pods use the offline \`echo\` provider, which replies with the context it was given.
  // model: { provider: 'echo' },

  // What the pod's tools and @file references may read and write. Relative targets are
  // relative to this file; \`deny\` takes back part of \`allow\`.
  scope: {
    allow: [{ target: '.', permission: 'write' }],
    deny: [{ target: '.git', permission: 'write' }],
  },

  // Omit \`plugins\` to get the built-ins. To add your own, keep the built-ins:
  //   import { defaultPlugins } from 'yoi/plugins';
  //   plugins: [...defaultPlugins(), myPlugin({ ... })],
  // disablePlugins: ['<plugin name>'],

  // systemPrompt: 'You are a careful assistant.',
  // maxTurns: 50,
  // compaction: { threshold: 100_000 },
  // sessions: { dir: '.yoi/sessions' },
} satisfies YoiConfig;
`;
