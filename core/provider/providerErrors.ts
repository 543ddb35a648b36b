/** The provider reported an error for this request (or its stream failed). */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** The run (or the compaction) was paused or cancelled while a request was streaming. */
export class AbortedError extends Error {
  override name = 'AbortedError';
}
