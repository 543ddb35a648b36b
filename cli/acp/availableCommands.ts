import type { AvailableCommand } from '@agentclientprotocol/sdk';

/**
 * The pod's `/slug` completions (its workflows, and MCP prompts as `/<server>:<prompt>`) as ACP
 * commands. The editor sends a command as the prompt's text (`/slug rest…`); the rest becomes
 * the run's text, or the prompt's arguments (`key=value`) for an MCP prompt.
 */
export function availableCommands(slugs: readonly string[]): AvailableCommand[] {
  return slugs
    .filter((s) => s !== '' && !/\s/.test(s))
    .map((slug) => {
      const mcp = /^([^:]+):(.+)$/.exec(slug);
      return mcp
        ? {
            name: slug,
            description: `MCP prompt ${mcp[2]} from server ${mcp[1]}`,
            input: { hint: 'arguments as key=value' },
          }
        : { name: slug, description: `yoi workflow ${slug}`, input: { hint: 'what to apply it to' } };
    });
}
