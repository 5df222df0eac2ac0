import { describe, expect, it } from 'vitest';
import { NextRead } from './next-read';

/** A read whose answers the test releases one by one, counting the reads begun. */
function controlled() {
  const pending: { key: string; resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  let value = 0;
  const reads = new NextRead<string, string>(
    (key) =>
      new Promise<string>((resolve, reject) => {
        pending.push({ key, resolve, reject });
      }),
  );
  /** Lets the database "change" and the oldest read answer with what it holds now. */
  const answerOldest = async (change = false) => {
    if (change) value++;
    const read = pending.shift()!;
    read.resolve(`${read.key}:${value}`);
    // Let the next read begin.
    await new Promise((r) => setImmediate(r));
  };
  return { reads, pending, answerOldest, fail: (e: Error) => pending.shift()!.reject(e) };
}

describe('NextRead', () => {
  it('answers calls made while a read runs with the next read, never the running one, and shares it', async () => {
    const { reads, pending, answerOldest } = controlled();
    const first = reads.get('ana');
    expect(pending).toHaveLength(1);
    // Asked while the first read runs: something may have been written since it began.
    const later = [reads.get('ana'), reads.get('ana'), reads.get('ana')];
    expect(pending).toHaveLength(1);
    await answerOldest();
    expect(await first).toBe('ana:0');
    expect(pending).toHaveLength(1);
    await answerOldest(true);
    expect(await Promise.all(later)).toEqual(['ana:1', 'ana:1', 'ana:1']);
    expect(reads.size).toBe(0);
  });

  it('reads again for a call made after a read ended, and keeps keys apart', async () => {
    const { reads, pending, answerOldest } = controlled();
    const a = reads.get('ana');
    const b = reads.get('ben');
    expect(pending.map((p) => p.key)).toEqual(['ana', 'ben']);
    await answerOldest();
    await answerOldest();
    expect([await a, await b]).toEqual(['ana:0', 'ben:0']);
    const again = reads.get('ana');
    expect(pending).toHaveLength(1);
    await answerOldest(true);
    expect(await again).toBe('ana:1');
  });

  it('passes a failed read to its callers only; the calls waiting get a read of their own', async () => {
    const { reads, pending, answerOldest, fail } = controlled();
    const failing = reads.get('ana');
    const waiting = reads.get('ana');
    fail(new Error('the database is out of reach'));
    await expect(failing).rejects.toThrow('out of reach');
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(1);
    await answerOldest();
    expect(await waiting).toBe('ana:0');
    expect(reads.size).toBe(0);
  });
});
