import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The command surface (ids, flags, arguments) as the built manifest describes it. A change here is
 * a change users see: review it, then update with `npm run jest -- test/cli/commandSnapshot -u`.
 */
describe('command snapshot', () => {
  it('matches the reviewed command surface', () => {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../oclif.manifest.json', import.meta.url)), 'utf8'),
    ) as {
      commands: Record<
        string,
        { flags: Record<string, { type: string; char?: string; multiple?: boolean }>; args: Record<string, unknown> }
      >;
    };
    const surface = Object.fromEntries(
      Object.entries(manifest.commands)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, command]) => [
          id,
          {
            flags: Object.entries(command.flags)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(
                ([name, flag]) =>
                  `--${name}${flag.char ? `|-${flag.char}` : ''}${flag.type === 'option' ? '=' : ''}${flag.multiple ? '...' : ''}`,
              ),
            args: Object.keys(command.args),
          },
        ]),
    );
    expect(surface).toMatchSnapshot();
  });
});
