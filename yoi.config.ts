import type { YoiConfig } from './index.js';

/**
 * yoi's own config: a pod working on this repository. Plain data (the import is types only),
 * so it loads without a build.
 */
export default {
  name: 'yoi-dev',
  // The offline provider; for a real model use e.g. { provider: 'anthropic', model: '<model id>' }
  // with ANTHROPIC_API_KEY in the environment.
  model: { provider: 'echo' },
  systemPrompt:
    'You work on yoi, a TypeScript framework running LLM agents as pods. Follow CONTRIBUTING.md and keep `npm test` green.',
  scope: {
    allow: [{ target: '.', permission: 'write' }],
    // Generated or managed by tools: readable, never edited by the model.
    deny: [
      { target: '.git', permission: 'write' },
      { target: 'node_modules', permission: 'write' },
      { target: 'dist', permission: 'write' },
    ],
  },
} satisfies YoiConfig;
