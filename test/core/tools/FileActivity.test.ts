import { describe, expect, it } from '@jest/globals';
import { FileActivity } from '../../../core/tools/FileActivity.js';

describe('FileActivity', () => {
  it('lists touched files newest first, once each, bounded by its capacity', () => {
    const files = new FileActivity(3);
    files.touch('/a', 'read');
    files.touch('/b', 'read');
    files.touch('/a', 'write');
    expect(files.recent()).toEqual(['/a', '/b']);
    expect(files.lastAccess('/a')).toBe('write');
    files.touch('/c', 'read');
    files.touch('/d', 'read');
    expect(files.recent()).toEqual(['/d', '/c', '/a']);
    expect(files.recent(2)).toEqual(['/d', '/c']);
    expect(files.recent(0)).toEqual([]);
    expect(files.lastAccess('/b')).toBeUndefined();
  });
});
