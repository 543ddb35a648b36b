import type { z } from 'zod';
import type { Tool, ToolContext, ToolOutput } from './Tool.js';
import { refusalsAsResults } from './ToolRefusal.js';

/** What a tool author writes: a name, a description the model reads, a zod input schema, the body. */
export interface ToolDefinition<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Validates the model's arguments; its JSON Schema (input side) is what the model sees. */
  readonly input: S;
  /** Throw `ToolRefusal` to refuse with a message the model reads (an `is_error` result). */
  execute(input: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/**
 * Makes a Tool from a definition: input typed from its schema, a `ToolRefusal` thrown anywhere
 * in the body turned into the error result the model reads. Register it from a plugin with
 * `api.hooks.tools.for(tool.name).tap(api.name, () => tool)`.
 */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): Tool<z.output<S>> {
  const { name, description, input, execute } = definition;
  return Object.freeze({
    name,
    description,
    input: input as unknown as z.ZodType<z.output<S>>,
    execute: (value: z.output<S>, ctx: ToolContext) => refusalsAsResults(() => execute(value, ctx)),
  });
}
