import { describe, expect, it } from 'vitest';
import { retryConflicts } from './retry';

const conflict = (code: string) => Object.assign(new Error('Failed query: insert …'), { cause: Object.assign(new Error('deadlock detected'), { code }) });

/** `work` failing with `failures` in turn, then answering 'done'; and the pauses taken between runs. */
function scripted(failures: unknown[]) {
  const pauses: number[] = [];
  let runs = 0;
  const work = async () => {
    runs += 1;
    const failure = failures.shift();
    if (failure) throw failure;
    return 'done';
  };
  return { work, pauses, runs: () => runs, sleep: async (ms: number) => void pauses.push(ms) };
}

describe('retryConflicts', () => {
  it('runs a transaction again after a deadlock or a serialization failure, pausing a growing, jittered while', async () => {
    const s = scripted([conflict('40P01'), conflict('40001')]);
    expect(await retryConflicts(s.work, { sleep: s.sleep, random: () => 0.5, baseMs: 10 })).toBe('done');
    expect(s.runs()).toBe(3);
    expect(s.pauses).toEqual([10, 20]);
    const jittered = scripted([conflict('40P01')]);
    await retryConflicts(jittered.work, { sleep: jittered.sleep, random: () => 0, baseMs: 10 });
    expect(jittered.pauses).toEqual([5]);
  });

  it('gives up after the attempts allowed and throws the last collision (answered 503 "busy")', async () => {
    const last = conflict('40P01');
    const s = scripted([conflict('40P01'), conflict('40P01'), conflict('40P01'), last]);
    await expect(retryConflicts(s.work, { sleep: s.sleep, attempts: 4 })).rejects.toBe(last);
    expect(s.runs()).toBe(4);
  });

  it('never runs again what failed for any other reason', async () => {
    const duplicate = Object.assign(new Error('duplicate key value'), { code: '23505' });
    const s = scripted([duplicate]);
    await expect(retryConflicts(s.work, { sleep: s.sleep })).rejects.toBe(duplicate);
    expect(s.runs()).toBe(1);
    expect(s.pauses).toEqual([]);
  });
});
