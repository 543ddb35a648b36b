import { oneLine as describe } from './oneLine.js';
import { describeContent } from './describeContent.js';
import type { McpManager } from './McpManager.js';
import { promptArguments } from './promptArguments.js';
import type { CompleteContext, Resolution, ResolveContext } from '../../core/api.js';

const MAX_PROMPT_CHARS = 256 * 1024;

/**
 * `/<server>:<prompt>`: a `workflow_invoke` whose slug names a configured server resolves through
 * that server's prompt, with `key=value` arguments from the start of the text that follows.
 * Returns `undefined` for every other slug, so `yoi:workflow` handles it.
 */
export async function resolvePrompt(
  manager: McpManager | undefined,
  segment: Record<string, unknown>,
  ctx: ResolveContext,
): Promise<Resolution | undefined> {
  const slug = segment.slug;
  if (typeof slug !== 'string' || !manager) return undefined;
  const colon = slug.indexOf(':');
  if (colon <= 0) return undefined;
  const conn = manager.servers.get(slug.slice(0, colon));
  if (!conn) return undefined;
  const name = slug.slice(colon + 1);
  const args = promptArguments(ctx.input, ctx.index);
  const prompt = conn.prompts.find((p) => p.name === name);
  if (conn.state === 'ready' && !prompt) {
    const names = conn.prompts.map((p) => p.name).join(', ');
    return {
      type: 'unresolved',
      reason: `MCP server ${conn.name} has no prompt "${name}"${names ? ` (it has: ${names})` : ''}`,
      ref: slug,
    };
  }
  const missing = (prompt?.arguments ?? [])
    .filter((a) => a.required && args[a.name] === undefined)
    .map((a) => `${a.name}=…`);
  if (missing.length > 0)
    return { type: 'unresolved', reason: `prompt /${slug} needs ${missing.join(' ')} after it`, ref: slug };
  let result;
  try {
    result = await conn.getPrompt(name, args, ctx.signal);
  } catch (e) {
    return { type: 'unresolved', reason: `getting prompt /${slug} failed: ${describe(e)}`, ref: slug };
  }
  let text = result.messages.map((m) => `[${m.role}] ${describeContent(m.content)}`).join('\n\n');
  if (result.description) text = `${result.description}\n\n${text}`;
  let warning: string | undefined;
  if (text.length > MAX_PROMPT_CHARS) {
    warning = `prompt /${slug} was cut to ${MAX_PROMPT_CHARS} characters (it has ${text.length})`;
    const end = /[\ud800-\udbff]/.test(text[MAX_PROMPT_CHARS - 1]) ? MAX_PROMPT_CHARS - 1 : MAX_PROMPT_CHARS; // never half a surrogate pair
    text = text.slice(0, end);
  }
  return {
    type: 'context',
    label: `Prompt: ${slug}`,
    text: text || '[the prompt is empty]',
    ...(warning ? { warning } : {}),
  };
}

/** `<server>:<prompt>` of every listed prompt starting with the prefix. */
export function completePrompts(manager: McpManager | undefined, items: string[], ctx: CompleteContext): string[] {
  const out = [...items];
  for (const conn of manager?.servers.values() ?? []) {
    for (const p of conn.prompts) {
      if (out.length >= ctx.limit) return out;
      const slug = `${conn.name}:${p.name}`;
      if (slug.startsWith(ctx.prefix) && !out.includes(slug)) out.push(slug);
    }
  }
  return out;
}
