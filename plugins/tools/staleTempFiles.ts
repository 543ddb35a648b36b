import { TempJournal } from './shared/TempJournal.js';
import { count } from './shared/count.js';
import { definePlugin } from '../../core/api.js';

export const STALE_TEMP_FILES = 'yoi:stale-temp-files';

/**
 * Cleans what killed writes left: at pod start, the temp files of atomic writes (Write, Edit)
 * whose writer process is dead and that lie in this pod's write scope are deleted, as their
 * journal entries say (`TempJournal`; no project tree is walked). Says what it removed in one
 * alert; a failure is an alert too and never stops the pod.
 */
export const staleTempFiles = definePlugin({
  name: STALE_TEMP_FILES,
  apply(host) {
    host.hooks.podStart.tapPromise(STALE_TEMP_FILES, async (pod) => {
      const journal = TempJournal.of(pod.services);
      if (!journal) return;
      const scope = pod.services.scope;
      let removed: string[];
      try {
        removed = await journal.sweep((temp) => scope.check(temp, 'write').ok);
      } catch (e) {
        pod.services.alert(
          'warn',
          `${STALE_TEMP_FILES}: cannot clean the temp files of interrupted writes: ${(e as Error).message}`,
        );
        return;
      }
      if (removed.length === 0) return;
      const shown = removed.slice(0, 3).join(', ') + (removed.length > 3 ? ', …' : '');
      pod.services.alert(
        'warn',
        `${STALE_TEMP_FILES}: removed ${count(removed.length, 'temp file')} left by interrupted writes: ${shown}`,
      );
    });
  },
});
