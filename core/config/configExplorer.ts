import type { Loader } from 'cosmiconfig';
import { SEARCH_OPTIONS } from './searchPlaces.js';

/** A config cosmiconfig found or loaded. */
export interface ExplorerResult {
  readonly filepath: string;
  readonly config: unknown;
  readonly isEmpty?: boolean;
}

/** What yoi uses of cosmiconfig's explorer. */
export interface ConfigExplorer {
  search(from: string): Promise<ExplorerResult | null>;
  load(file: string): Promise<ExplorerResult | null>;
}

type ExplorerClass = new (options: Record<string, unknown>) => ConfigExplorer;

/**
 * cosmiconfig's explorer for yoi's search (SEARCH_OPTIONS with `loaders`), made without
 * `cosmiconfig()`: that function first reads a "meta config" in the process's working directory
 * (`.config/config.{json,yaml,yml,js,ts,cjs,mjs}`, or a `cosmiconfig` key in package.json or
 * package.yaml), which may put search places in front of yoi's and, being JS or TS, is run. A
 * pod's tools could write such a file, so it would choose, or be, the next pod's config: yoi
 * reads none. The class is cosmiconfig's own (its version is pinned; test/core/config/metaConfig
 * fails if it stops being usable this way).
 */
export async function configExplorer(loaders: Record<string, Loader>): Promise<ConfigExplorer> {
  const [{ defaultLoaders }, explorerModule] = await Promise.all([
    import('cosmiconfig'),
    import('cosmiconfig/dist/Explorer.js'),
  ]);
  const { Explorer } = explorerModule as unknown as { Explorer: ExplorerClass };
  return new Explorer({
    moduleName: 'yoi',
    ...SEARCH_OPTIONS,
    searchPlaces: [...SEARCH_OPTIONS.searchPlaces],
    transform: (result: unknown) => result,
    loaders: { ...defaultLoaders, ...loaders },
    metaConfigFilePath: null,
    mergeImportArrays: true,
    mergeSearchPlaces: true,
  });
}
