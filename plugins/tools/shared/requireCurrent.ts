import type { ReadTracker } from './ReadTracker.js';
import { ToolRefusal } from '../../../core/api.js';

/** Refuses to change `file` unless its content on disk is what the pod last read or wrote. */
export function requireCurrent(tracker: ReadTracker, file: string, content: Uint8Array): void {
  switch (tracker.check(file, content)) {
    case 'unread':
      throw new ToolRefusal(`${file} has not been read in this session; Read it first`);
    case 'changed':
      throw new ToolRefusal(`${file} was modified externally since it was last read; Read it again`);
    case 'current':
      return;
  }
}
