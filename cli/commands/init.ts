import { YoiCommand } from '../YoiCommand.js';

export default class InitCommand extends YoiCommand {
  static override summary = 'Create a commented yoi.config.ts in the current directory.';
  static override description =
    'Refuses to run where a config file (yoi.config.*, .yoirc*, or a "yoi" key in package.json) already exists. Inside a git repository it also adds .yoi/ (session logs and other per-project state) to .gitignore.';
  static override examples = ['<%= config.bin %> init'];

  async run(): Promise<void> {
    await this.parse(InitCommand);
    const { readFile, writeFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const { SEARCH_PLACES } = await import('../../core/config/searchPlaces.js');
    const { YoiError } = await import('../../core/errors/YoiError.js');
    const { CONFIG_TEMPLATE } = await import('../configTemplate.js');
    const cwd = process.cwd();

    for (const place of SEARCH_PLACES) {
      const text = await readFile(path.join(cwd, place), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      if (place === 'package.json' && !hasYoiKey(text)) continue;
      const what = place === 'package.json' ? 'package.json already has a "yoi" key' : `${place} already exists`;
      throw new YoiError('YOI_ERR_CONFIG_EXISTS', `${what}: edit it, or remove it to start over`);
    }
    const file = 'yoi.config.ts';
    // 'wx': never overwrite, even if the file appeared since the check.
    await writeFile(path.join(cwd, file), CONFIG_TEMPLATE, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST'
        ? new YoiError('YOI_ERR_CONFIG_EXISTS', `${file} already exists: edit it, or remove it to start over`)
        : error;
    });
    this.print(`created ${file}; check it with: yoi config`);
    const { ignoreYoiDir } = await import('../ignoreYoiDir.js');
    const ignored = await ignoreYoiDir(cwd);
    if (ignored) this.print(`added .yoi/ to ${ignored}`);
  }
}

function hasYoiKey(packageJson: string): boolean {
  try {
    const pkg = JSON.parse(packageJson) as unknown;
    return typeof pkg === 'object' && pkg !== null && 'yoi' in pkg;
  } catch {
    return false;
  }
}
