/** Longest slug accepted (characters). */
export const MAX_SLUG_CHARS = 200;

/**
 * Checks a `#knowledge` or `/workflow` slug: a relative name inside its directory, such as
 * `style` or `team/style`. Returns why it is refused, or `undefined` when it is fine. Refused:
 * empty, over {@link MAX_SLUG_CHARS}, control characters, backslashes, a leading `/`, empty,
 * `.` or `..` segments — so a slug can never name a file outside its directory.
 */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return 'the name is empty';
  if (slug.length > MAX_SLUG_CHARS) return `the name is longer than ${MAX_SLUG_CHARS} characters`;
  if (/[\u0000-\u001f\u007f]/.test(slug)) return 'the name contains control characters';
  if (slug.includes('\\')) return 'the name contains a backslash';
  if (slug.startsWith('/')) return 'the name starts with "/"';
  if (slug.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    return 'the name has an empty, "." or ".." segment';
  }
  return undefined;
}
