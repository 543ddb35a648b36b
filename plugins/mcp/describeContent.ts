/** Bytes of base64 data (without decoding it). */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** An embedded resource: its text, or a labelled summary of binary data. */
export function describeResource(resource: Record<string, unknown>): string {
  const uri = typeof resource.uri === 'string' ? resource.uri : '?';
  const mime = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
  if (typeof resource.text === 'string') return `[resource ${uri}${mime ? ` (${mime})` : ''}]\n${resource.text}`;
  const bytes = typeof resource.blob === 'string' ? base64Bytes(resource.blob) : 0;
  return `[binary resource ${uri}: ${mime ?? 'unknown type'}, ${bytes} bytes, not shown]`;
}

/**
 * One MCP content block as text the model reads: text as is, an embedded text resource with its
 * URI; images, audio, binary resources and links as a labelled one-line summary (the pod's
 * history holds text only).
 */
export function describeContent(block: unknown): string {
  if (block === null || typeof block !== 'object') return '[unreadable content]';
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '';
    case 'image':
    case 'audio': {
      const bytes = typeof b.data === 'string' ? base64Bytes(b.data) : 0;
      return `[${b.type}: ${typeof b.mimeType === 'string' ? b.mimeType : 'unknown type'}, ${bytes} bytes, not shown]`;
    }
    case 'resource':
      return b.resource !== null && typeof b.resource === 'object'
        ? describeResource(b.resource as Record<string, unknown>)
        : '[resource]';
    case 'resource_link': {
      const name = typeof b.name === 'string' ? ` (${b.name})` : '';
      return `[resource link ${typeof b.uri === 'string' ? b.uri : '?'}${name}]`;
    }
    default:
      return `[${typeof b.type === 'string' ? b.type : 'unknown'} content, not shown]`;
  }
}
