/** A `{path, key}` entry of a scope's `protectedPaths`: one top-level key of a JSON file. */
export interface ProtectedKey {
  readonly path: string;
  readonly key: string;
  readonly what: string;
}

/** The JSON keys a scope's control plane holds (a package.json's `yoi`, where the next config would be). */
export function protectedKeys(scope: unknown): ProtectedKey[] {
  const listed = (scope as { protectedPaths?: unknown } | undefined)?.protectedPaths;
  if (!Array.isArray(listed)) return [];
  return (listed as Partial<ProtectedKey>[]).filter(
    (e): e is ProtectedKey => typeof e?.path === 'string' && typeof e.key === 'string',
  );
}

/** A key's value as JSON; `absent` without it (or when the text is no JSON object: it holds no config). */
export function protectedKeyValue(bytes: Buffer | undefined, key: string): string {
  if (bytes === undefined) return 'absent';
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return 'absent';
    return JSON.stringify((value as Record<string, unknown>)[key]);
  } catch {
    return 'absent';
  }
}
