/** One line for any error the SDK, a transport or a server throws. */
export function oneLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/\s*\n\s*/g, ' ').slice(0, 500);
}
