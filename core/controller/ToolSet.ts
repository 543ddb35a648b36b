import { z } from 'zod';
import type { Hooks } from '../hooks/createHooks.js';
import type { PodInfo } from '../hooks/HookTypes.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import type { ToolDefinition } from '../provider/Provider.js';
import type { Tool } from '../tools/Tool.js';
import type { ActiveRun } from './PodController.js';
import type { ToolRunOptions } from './runToolCalls.js';

/**
 * The tools of the next LLM request: the ones the `tools` factories made at start, as rewritten
 * by `listTools` taps (tools that come and go, such as MCP servers'). Definitions are derived
 * once per tool object, so a stable list costs nothing per request.
 */
export class ToolSet {
  readonly #static: Tool[];
  readonly #defs = new WeakMap<Tool, ToolDefinition>();
  #current: ReadonlyMap<string, Tool>;

  constructor(
    private readonly hooks: Hooks,
    tools: ReadonlyMap<string, Tool>,
    private readonly info: PodInfo,
  ) {
    this.#static = [...tools.values()];
    this.#current = tools;
  }

  /** Names of the tools the pod started with (for the greeting). */
  get startNames(): string[] {
    return this.#static.map((t) => t.name);
  }

  /** Refreshes the list (before each LLM request) and returns its definitions, sorted by name. */
  refresh(): ToolDefinition[] {
    const list =
      this.hooks.listTools.taps.length > 0 ? this.hooks.listTools.call([...this.#static], this.info) : this.#static;
    // The same tools as last time (the common case, every turn): the same definitions, unsorted
    // and unmapped again. A copy: a `beforeTurn` tap may change the request's list.
    const last = this.#last;
    if (last && last.list.length === list.length && list.every((t, i) => t === last.list[i])) return [...last.defs];
    const byName = new Map<string, Tool>();
    for (const tool of list) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    this.#current = byName;
    const defs = [...byName.values()].map((t) => this.#definition(t)).sort((a, b) => compareNames(a.name, b.name));
    this.#last = { list: [...list], defs };
    return [...defs];
  }

  #last: { list: readonly Tool[]; defs: readonly ToolDefinition[] } | undefined;

  get(name: string): Tool | undefined {
    return this.#current.get(name);
  }

  runOptions(rt: PodRuntime, run: ActiveRun): ToolRunOptions {
    return {
      hooks: rt.hooks,
      bus: rt.bus,
      tools: this.#current,
      pod: rt.info,
      signal: run.abort.signal,
      client: run.client,
      outputLimitBytes: rt.config.limits.toolOutputBytes,
      alert: (m) => rt.alert('warn', m),
    };
  }

  #definition(tool: Tool): ToolDefinition {
    let def = this.#defs.get(tool);
    if (!def) {
      // `io: 'input'`: the model writes the input, so fields with a default are optional to it.
      const inputSchema =
        tool.inputJsonSchema ??
        (z.toJSONSchema(tool.input, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>);
      def = { name: tool.name, description: tool.description, inputSchema };
      this.#defs.set(tool, def);
    }
    return def;
  }
}

/**
 * Case-insensitive order of names, lower case first on a tie: the order `localeCompare` gave tool
 * names, without its first call's ~7 ms and 4 MB of ICU collation data in every pod's first run.
 */
function compareNames(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a === b ? 0 : a > b ? -1 : 1;
}
