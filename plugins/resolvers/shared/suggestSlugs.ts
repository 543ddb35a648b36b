import { editDistance } from './editDistance.js';

/**
 * Up to `count` existing slugs close to `wanted`: within a few edits (more allowed for longer
 * names), or with the same last segment (`style` → `team/style`). Closest first, then by name,
 * so the same files always give the same suggestions.
 */
export function suggestSlugs(wanted: string, existing: readonly string[], count = 3): string[] {
  const max = Math.max(2, Math.floor(wanted.length / 3));
  const lower = wanted.toLowerCase();
  const leaf = lower.split('/').pop();
  const scored: { slug: string; score: number }[] = [];
  for (const slug of existing) {
    const candidate = slug.toLowerCase();
    let score = editDistance(lower, candidate, max);
    if (candidate.split('/').pop() === leaf) score = 0; // the same name in another folder
    if (score <= max) scored.push({ slug, score });
  }
  scored.sort((x, y) => x.score - y.score || (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0));
  return scored.slice(0, count).map((s) => s.slug);
}
