import { z } from 'zod';
import { defineService } from '../../../core/api.js';

/** Most bytes of a file, note or workflow added to the context, unless a plugin's options say otherwise. */
export const DEFAULT_FILE_REF_BYTES = 256 * 1024;

/** `limits.fileRefBytes`: owned by the `@file` resolver, shared with `#knowledge` and `/workflow`. */
export const FileRefBytesSchema = z.int().min(1).default(DEFAULT_FILE_REF_BYTES);

/** The configured `limits.fileRefBytes`, provided by `yoi:file-ref`. */
export const FileRefLimit = defineService<{ readonly maxBytes: number }>('yoi:file-ref-limit', 'limits.fileRefBytes');
