import {
  defineSegmentKind,
  FileRefSegmentSchema,
  KnowledgeRefSegmentSchema,
  PasteSegmentSchema,
  TextSegmentSchema,
  WorkflowInvokeSegmentSchema,
} from '../../../core/api.js';

/** The segment kinds the built-in resolvers declare, with what clients need to write them. */
export const TextKind = defineSegmentKind({
  kind: 'text',
  schema: TextSegmentSchema,
  field: 'content',
  description: 'text the user typed',
});
export const PasteKind = defineSegmentKind({
  kind: 'paste',
  schema: PasteSegmentSchema,
  field: 'content',
  description: 'a bracketed paste',
});
export const FileRefKind = defineSegmentKind({
  kind: 'file_ref',
  schema: FileRefSegmentSchema,
  sigil: '@',
  field: 'path',
  description: "a file or directory in the pod's scope",
});
export const KnowledgeRefKind = defineSegmentKind({
  kind: 'knowledge_ref',
  schema: KnowledgeRefSegmentSchema,
  sigil: '#',
  field: 'slug',
  description: 'a knowledge note',
});
export const WorkflowInvokeKind = defineSegmentKind({
  kind: 'workflow_invoke',
  schema: WorkflowInvokeSegmentSchema,
  sigil: '/',
  field: 'slug',
  description: 'a workflow to apply',
});
