import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAll } from './listAll.js';
import { listedCopy } from './listedCopy.js';

/**
 * Each list a server may offer, read page by page within listAll's bounds and kept as the pod's
 * own copies (listedCopy). `timeout` bounds each page's request.
 */
export const listServer = {
  tools: (client: Client, timeout: number) =>
    listAll(
      (cursor) => client.listTools({ cursor }, { timeout }).then((r) => ({ items: r.tools, next: r.nextCursor })),
      listedCopy.tool,
    ),
  resources: (client: Client, timeout: number) =>
    listAll(
      (cursor) =>
        client.listResources({ cursor }, { timeout }).then((r) => ({ items: r.resources, next: r.nextCursor })),
      listedCopy.resource,
    ),
  templates: (client: Client, timeout: number) =>
    listAll(
      (cursor) =>
        client
          .listResourceTemplates({ cursor }, { timeout })
          .then((r) => ({ items: r.resourceTemplates, next: r.nextCursor })),
      listedCopy.template,
    ),
  prompts: (client: Client, timeout: number) =>
    listAll(
      (cursor) => client.listPrompts({ cursor }, { timeout }).then((r) => ({ items: r.prompts, next: r.nextCursor })),
      listedCopy.prompt,
    ),
};
