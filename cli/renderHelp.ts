import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Build step (run after `oclif manifest`): renders the root help with oclif's real help class
 * into dist/cli/help.json, so `yoi --help` can print it without loading oclif (bin/run.js). The
 * file records the manifest and package.json it was rendered from; bin/run.js falls back to
 * oclif whenever they changed since. The version line is left as a mark, filled in at run time
 * (it names the platform and Node version).
 */
const COLUMNS = 80;
const USER_AGENT_MARK = '\u0000userAgent\u0000';
const root = new URL('../../', import.meta.url);

async function renderHelp(): Promise<void> {
  process.env.OCLIF_COLUMNS = String(COLUMNS);
  // The builder's own help theme (~/.config/yoi/theme.json) must not end up in the package.
  process.env.YOI_DISABLE_THEME = 'true';
  const { Config, loadHelpClass } = await import('@oclif/core');
  const config = await Config.load(fileURLToPath(root));
  const Help = await loadHelpClass(config);
  const help = new Help(config, config.pjson.oclif.helpOptions);
  let text = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    await help.showHelp([]);
  } finally {
    process.stdout.write = write;
  }
  const stamp = (file: string) => {
    const info = statSync(new URL(file, root));
    return `${info.size}:${info.mtimeMs}`;
  };
  const cache = {
    version: config.version,
    columns: COLUMNS,
    userAgentMark: USER_AGENT_MARK,
    stamps: { 'oclif.manifest.json': stamp('oclif.manifest.json'), 'package.json': stamp('package.json') },
    text: text.replaceAll(config.userAgent, USER_AGENT_MARK),
  };
  writeFileSync(new URL('dist/cli/help.json', root), JSON.stringify(cache));
  // Sanity: the file must be readable JSON before the build reports success.
  JSON.parse(readFileSync(new URL('dist/cli/help.json', root), 'utf8'));
}

await renderHelp();
