import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * scripts/bundle.js replaces a few modules inside dist/bundle with stand-ins that load the real
 * thing on first use (needs `npm run build`). What they stand for must still work from the bundle.
 */
const bundle = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const chunkWith = (text: string) =>
  fs
    .readdirSync(bundle)
    .filter((f) => f.endsWith('.js'))
    .find((f) => fs.readFileSync(`${bundle}${f}`, 'utf8').includes(text));

describe("the bundle's stand-ins", () => {
  it("zod's locales load on first use and give zod's own messages; en stays bundled", async () => {
    const chunk = chunkWith('zod/v4/locales/');
    expect(chunk).toBeDefined();
    const mod = (await import(`${bundle}${chunk}`)) as Record<string, unknown>;
    type Z = {
      locales: Record<string, () => unknown>;
      config(l: unknown): void;
      string(): { safeParse(v: unknown): { error?: { issues: { message: string }[] } } };
    };
    const z = Object.values(mod).find(
      (v): v is Z => typeof v === 'object' && v !== null && 'locales' in v && 'string' in v,
    );
    expect(z).toBeDefined();
    const message = () => z!.string().safeParse(1).error!.issues[0].message;
    expect(Object.keys(z!.locales).length).toBeGreaterThan(40);
    // What zod itself (node_modules, not the bundle) says in each language.
    const { z: real } = await import('zod');
    const expected = (locale: string) => {
      real.config(real.locales[locale as 'fr']());
      return real.string().safeParse(1).error!.issues[0].message;
    };
    try {
      for (const locale of ['fr', 'de', 'ja']) {
        const want = expected(locale);
        z!.config(z!.locales[locale]());
        expect(message()).toBe(want);
      }
    } finally {
      z!.config(z!.locales.en());
      real.config(real.locales.en());
    }
    expect(message()).toBe(expected('en'));
    expect(message()).not.toBe(expected('fr'));
  });

  it('uuid draws its random bytes from node:crypto, not WebCrypto', () => {
    expect(chunkWith('randomFillSync(rnds8)')).toBeDefined();
  });
});
