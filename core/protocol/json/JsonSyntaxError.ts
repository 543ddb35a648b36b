/** A line that is not one well-formed JSON value; `column` is 1-based, like serde_json's. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(column > 0 ? `${reason} at column ${column}` : reason);
    this.name = 'JsonSyntaxError';
  }
}
