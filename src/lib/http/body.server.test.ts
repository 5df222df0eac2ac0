import { describe, expect, it } from 'vitest';
import { readBodyAtMost } from './body.server';

/** A POST whose body arrives in `parts`, with no declared length. */
function streamed(parts: string[]): Request {
  const enc = new TextEncoder();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled < parts.length) controller.enqueue(enc.encode(parts[pulled++]!));
      else controller.close();
    },
  });
  return new Request('http://localhost/x', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBodyAtMost', () => {
  it('reads a body within the limit whole', async () => {
    const r = await readBodyAtMost(streamed(['ab', 'cd']), 4);
    expect(r.complete).toBe(true);
    expect(Buffer.from(r.bytes).toString()).toBe('abcd');
  });
  it('stops at the limit, keeping only the first bytes, and says it was cut', async () => {
    const r = await readBodyAtMost(streamed(['abc', 'def', 'ghi']), 4);
    expect(r.complete).toBe(false);
    expect(Buffer.from(r.bytes).toString()).toBe('abcd');
  });
  it('refuses a declared length over the limit without reading, and takes an empty body as complete', async () => {
    const declared = new Request('http://localhost/x', { method: 'POST', body: 'x'.repeat(10), headers: { 'content-length': '10' } });
    expect(await readBodyAtMost(declared, 4)).toEqual({ bytes: new Uint8Array(), complete: false });
    expect((await readBodyAtMost(new Request('http://localhost/x', { method: 'POST' }), 4)).complete).toBe(true);
  });
});
