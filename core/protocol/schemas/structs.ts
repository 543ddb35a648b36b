import { z } from 'zod';
import { AlertLevelSchema, AlertSourceSchema, PermissionSchema } from './enums.js';
import { Bool, I64, Str, seq, struct } from './primitives.js';

/** A scope rule; `recursive` defaults to true and is always written. */
export const ScopeRuleSchema = struct({
  target: Str,
  permission: PermissionSchema,
  recursive: Bool.default(true),
});
export type ScopeRule = z.infer<typeof ScopeRuleSchema>;

/** A user-facing diagnostic, buffered by the pod and replayed to new connections. */
export const AlertSchema = struct({
  level: AlertLevelSchema,
  source: AlertSourceSchema,
  message: Str,
  timestamp_ms: I64,
});
export type Alert = z.infer<typeof AlertSchema>;

/** Describes the pod; sent with `history`. */
export const GreetingSchema = struct({
  pod_name: Str,
  cwd: Str,
  provider: Str,
  model: Str,
  scope_summary: Str,
  tools: seq(Str),
});
export type Greeting = z.infer<typeof GreetingSchema>;

const UUID_HEX = /^[0-9a-fA-F]{32}$/;

/**
 * A UUID in any form the Rust `uuid` crate parses (hyphenated, simple, braced, urn, any case),
 * normalised to lower-case hyphenated.
 */
export const UuidSchema = Str.transform((s, ctx) => {
  let body = s;
  if (body.startsWith('urn:uuid:')) body = body.slice(9);
  else if (body.startsWith('{') && body.endsWith('}')) body = body.slice(1, -1);
  const hyphenated = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(body);
  const hex = hyphenated ? body.replaceAll('-', '') : body;
  if (!(hyphenated || UUID_HEX.test(body))) {
    ctx.issues.push({ code: 'custom', message: `invalid UUID \`${s}\``, input: s });
    return z.NEVER;
  }
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
});
