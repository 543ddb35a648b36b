import { z } from 'zod';
import { isYoiPlugin, type YoiPlugin } from '../plugin/YoiPlugin.js';
import { PodNameSchema } from '../pod/PodNameSchema.js';

const MiB = 1024 * 1024;
const KiB = 1024;
/** `limits.toolTimeoutMs` by default: 5 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5 * 60 * 1000;

/** A plugin value in `plugins`: only objects made by definePlugin() (any copy of yoi) pass. */
const PluginSchema = z.custom<YoiPlugin>(isYoiPlugin, {
  error: (issue) =>
    typeof issue.input === 'function'
      ? 'expected a plugin made with definePlugin(), got the factory: call it, e.g. jira({ ... })'
      : 'expected a plugin made with definePlugin()',
});

/** One scope rule: which path the pod's tools may read or write. */
export const ScopeRuleSchema = z.strictObject({
  /** The path, absolute or relative to the config file's directory (`~/` is the home directory). */
  target: z.string().min(1),
  /** `read`, or `write` (which includes read). */
  permission: z.enum(['read', 'write']),
  /** Whether the rule covers everything below `target` (default) or only its direct children. */
  recursive: z.boolean().optional(),
});

/** A directory setting: absolute, or relative to the project directory. */
export const DirSchema = z.strictObject({ dir: z.string().min(1).optional() });

/** Size limits (in bytes) and time limits (in milliseconds); plugins may add keys of their own (`limits.fileRefBytes`). */
export const LimitsSchema = z
  .strictObject({
    /** Longest protocol line a pod accepts; longer lines are refused with an error. */
    maxLineBytes: z
      .int()
      .min(1)
      .default(16 * MiB),
    /**
     * Outbound buffer per client; beyond it a slow client loses deltas (and is told so), and its
     * requests get an error instead of a reply until it reads.
     */
    clientQueueBytes: z
      .int()
      .min(1)
      .default(8 * MiB),
    /** Input buffered for all clients together (unfinished lines); a line that does not fit is dropped. */
    inputBufferBytes: z
      .int()
      .min(1)
      .default(64 * MiB),
    /**
     * Replies held for all clients together that they have not read (histories); past it a
     * large reply is refused with an error until they read. A pod holds at most this plus one.
     */
    replyBufferBytes: z
      .int()
      .min(1)
      .default(256 * MiB),
    /**
     * What one run's input may add to the model's context once resolved (@files, notes, pastes
     * together); segments past it are left out, each a placeholder, with one alert.
     */
    runInputBytes: z
      .int()
      .min(1)
      .default(16 * MiB),
    /** Tool output the model sees per call; longer output is cut (and says so). */
    toolOutputBytes: z
      .int()
      .min(1)
      .default(16 * KiB),
    /** Longest a tool call may run; past it the call is stopped and the model told it timed out. */
    toolTimeoutMs: z.int().min(1).default(DEFAULT_TOOL_TIMEOUT_MS),
  })
  .refine((l) => l.inputBufferBytes >= l.maxLineBytes, {
    path: ['inputBufferBytes'],
    message: 'must be at least limits.maxLineBytes (one line must fit)',
  });

/**
 * The config file's schema (`yoi.config.ts`, `.yoirc*`, `package.json#yoi`...). Strict: an
 * unknown key is an error, so a typo never goes unnoticed. Defaults are applied here where
 * they do not depend on where the file is.
 */
export const YoiConfigSchema = z.strictObject({
  /** Default pod name, when `--pod`/`--name` is not given. Also the runtime directory's name. */
  name: PodNameSchema.default('default'),

  /**
   * The model: `provider` names a provider plugin (`echo`, `scripted`, `anthropic`,
   * `openai-compatible`...); the other keys belong to that provider. Omitted: the offline
   * `echo` provider, and the pod says so when it starts.
   */
  model: z.looseObject({ provider: z.string().min(1) }).optional(),

  /**
   * The plugins to apply, in order. Omitted: the built-in plugins (`defaultPlugins()`). Given:
   * exactly this list, so keep the built-ins with `plugins: [...defaultPlugins(), mine()]`.
   */
  plugins: z.array(PluginSchema).optional(),

  /** Names of plugins to leave out (lets a plain-data config drop a built-in). */
  disablePlugins: z.array(z.string().min(1)).optional(),

  /** System prompt for the model (plugins may add to it). */
  systemPrompt: z.string().optional(),

  /** Most LLM requests one run may make before it stops (tool loops end here). */
  maxTurns: z.int().min(1).default(50),

  /** What the pod's tools and `@file` references may read and write. */
  scope: z
    .strictObject({
      /** Paths granted. */
      allow: z.array(ScopeRuleSchema).default([]),
      /** Paths taken back from `allow`: `deny write` leaves read access, `deny read` none. */
      deny: z.array(ScopeRuleSchema).default([]),
    })
    .prefault({}),

  /** Session logs (one JSONL file per session). Default `.yoi/sessions`. */
  sessions: DirSchema.prefault({}),

  /** When and how much history is compacted. No threshold: no automatic compaction. */
  compaction: z
    .strictObject({
      /** Compact after a run once the context exceeds this many tokens. */
      threshold: z.int().min(1).optional(),
      /** Compact before an LLM request (mid-run) once the context exceeds this many tokens. */
      requestThreshold: z.int().min(1).optional(),
      /** Tokens of the most recent history kept verbatim by a compaction. */
      retainedTokens: z.int().min(0).default(8000),
    })
    .prefault({}),

  /** Size limits (in bytes) and time limits (in milliseconds). */
  limits: LimitsSchema.prefault({}),
});

/**
 * The config sections plugins own, by key. Plugins add theirs by declaration merging, so a typed
 * config checks them too:
 * `declare module 'yoi' { interface PluginConfigSections { jira?: { baseUrl: string } } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PluginConfigSections {}

/** What a config file may contain (the type `defineConfig` and `satisfies YoiConfig` check). */
export type YoiConfig = z.input<typeof YoiConfigSchema> & PluginConfigSections;

/** A config after parsing: defaults applied, paths still as written. */
export type ParsedConfig = z.output<typeof YoiConfigSchema>;

/** One scope rule as written. */
export type ScopeRule = z.infer<typeof ScopeRuleSchema>;

/** Default directories, relative to the project directory. */
export const DEFAULT_DIRS = { sessions: '.yoi/sessions' } as const;
