import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';

/** What a server may put before the model: a description and a schema each this large at most. */
export const MAX_DESCRIPTION = 4096;
export const MAX_SCHEMA_CHARS = 64 * 1024;
/** Most arguments of one prompt kept (as many as `/<server>:<prompt>` parses). */
const MAX_PROMPT_ARGUMENTS = 64;

/**
 * A description as the pod may show it: one over MAX_DESCRIPTION is trimmed and cut (as `makePodTool`
 * cuts it), so the copy shows the same and does not hold what the server sent (a 9.5 MiB
 * description per item made a listing hold 2 GB); a shorter one is kept as it is.
 */
function cut(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= MAX_DESCRIPTION) return text;
  const trimmed = text.trim();
  return trimmed.length > MAX_DESCRIPTION ? `${trimmed.slice(0, MAX_DESCRIPTION)}…` : trimmed;
}

/** Only the fields the pod uses: the rest of the server's message is left to the GC. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The copies a connection keeps of listed items: the fields the pod reads, each description cut
 * at MAX_DESCRIPTION, and a tool's input schema over MAX_SCHEMA_CHARS replaced by "an object"
 * (what `makePodTool` offers for it; the server still validates).
 */
export const listedCopy = {
  tool: (t: Tool): Tool =>
    defined({
      name: t.name,
      title: cut(t.title),
      description: cut(t.description),
      inputSchema:
        JSON.stringify(t.inputSchema).length <= MAX_SCHEMA_CHARS
          ? t.inputSchema
          : { type: 'object' as const, additionalProperties: true },
    }),
  resource: (r: Resource): Resource => defined({ uri: r.uri, name: r.name, mimeType: r.mimeType }),
  template: (t: ResourceTemplate): ResourceTemplate =>
    defined({ uriTemplate: t.uriTemplate, name: t.name, mimeType: t.mimeType }),
  prompt: (p: Prompt): Prompt =>
    defined({
      name: p.name,
      description: cut(p.description),
      arguments: p.arguments
        ?.slice(0, MAX_PROMPT_ARGUMENTS)
        .map((a) => defined({ name: a.name, required: a.required, description: cut(a.description) })),
    }),
};
