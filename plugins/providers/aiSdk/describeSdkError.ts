/** What the message about a failed request may mention: where it went, which key it used. */
export interface ErrorHints {
  /** The environment variable the API key came from; none means no key was sent. */
  readonly apiKeyEnv?: string;
  /** Where requests go, for errors that do not carry their URL. */
  readonly baseURL?: string;
}

interface HttpFailure {
  statusCode?: number;
  url?: string;
  message: string;
}

const MAX_LINE = 300;

/**
 * One readable line for an error the AI SDK reported: HTTP failures say the status, where, and
 * what the server said (a 401/403 names the variable to check); a `RetryError` reports its last
 * attempt and how many were made; anything else keeps the first line of its message.
 * Duck-typed on the SDK's error fields, so no SDK module is needed to describe its errors.
 */
export function describeSdkError(error: unknown, hints: ErrorHints = {}): string {
  let attempts = 1;
  let e = error as
    (HttpFailure & { name?: string; errors?: unknown[]; lastError?: unknown; cause?: unknown }) | undefined;
  if (e?.name === 'AI_RetryError' && Array.isArray(e.errors)) {
    attempts = e.errors.length;
    e = e.lastError as typeof e;
  }
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  const said = clean(e?.message ?? String(error));
  if (e?.name === 'AI_APICallError') {
    const status = e.statusCode;
    const where = e.url ? ` from ${e.url}` : '';
    if (status === 401 || status === 403) {
      const check = hints.apiKeyEnv
        ? `check ${hints.apiKeyEnv}`
        : 'no API key was sent: set model.apiKeyEnv to the environment variable that holds it';
      return cap(`authentication failed (HTTP ${status}${where}): ${said}; ${check}`);
    }
    if (status === 429) return cap(`rate limited (HTTP 429${where})${after}: ${said}`);
    if (status !== undefined && status >= 500) return cap(`server error (HTTP ${status}${where})${after}: ${said}`);
    // A 2xx whose body failed: the stream broke off; the innermost cause says how.
    if (status !== undefined && status < 300)
      return cap(`the response stream broke off${where ? ` (${where.slice(1)})` : ''}: ${rootCause(e)}`);
    if (status !== undefined) return cap(`request refused (HTTP ${status}${where}): ${said}`);
    return cap(`cannot reach ${e.url ?? hints.baseURL ?? 'the server'}${after}: ${rootCause(e)}`);
  }
  // These messages embed the whole chunk and a multi-line report: show the start of the chunk.
  // An error the API sent inside the stream (`{type: "overloaded_error", message}`).
  const type = (e as { type?: unknown } | undefined)?.type;
  if (!(error instanceof Error) && typeof type === 'string' && type.endsWith('error')) return cap(`${type}: ${said}`);
  // undici's own errors, when they reach us unwrapped (the cause says what happened).
  if (said === 'terminated') return cap(`the response stream broke off: ${rootCause(e)}`);
  if (said === 'fetch failed') return cap(`cannot reach ${hints.baseURL ?? 'the server'}: ${rootCause(e)}`);
  if (e?.name === 'AI_JSONParseError')
    return cap(`malformed response stream: not JSON: ${excerpt((e as { text?: unknown }).text)}`);
  if (e?.name === 'AI_TypeValidationError')
    return cap(
      `malformed response stream: unexpected chunk ${excerpt(JSON.stringify((e as { value?: unknown }).value))}`,
    );
  return cap(said || 'unknown error');
}

/** The message of the innermost `cause` (undici nests: "terminated" ← "other side closed"). */
function rootCause(error: unknown): string {
  let e = error as { message?: unknown; cause?: unknown } | undefined;
  let message = typeof e?.message === 'string' ? e.message : String(error);
  for (let depth = 0; e?.cause !== undefined && depth < 5; depth++) {
    e = e.cause as typeof e;
    if (typeof e?.message === 'string' && e.message !== '') message = e.message;
  }
  return clean(message);
}

/** First line, whitespace collapsed (SDK messages can embed whole response bodies). */
function clean(message: string): string {
  return message.split('\n')[0].replace(/\s+/g, ' ').trim();
}

function excerpt(text: unknown): string {
  const t = clean(String(text));
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

function cap(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
