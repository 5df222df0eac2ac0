/**
 * Reading a request's body without trusting its size: at most `max` bytes are read, and the rest is
 * never pulled from the client (a sender cannot make the server buffer more than the limit).
 */

/** The body's bytes up to `max`; `complete` is false when it was longer (then `bytes` holds the first `max`). */
export async function readBodyAtMost(request: Request, max: number): Promise<{ bytes: Uint8Array; complete: boolean }> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return { bytes: new Uint8Array(), complete: false };
  if (!request.body) return { bytes: new Uint8Array(), complete: true };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), complete: true };
    const room = max - size;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), complete: false };
    }
  }
}
