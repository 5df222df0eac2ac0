// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { cleanStores } from 'nanostores';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PresentedQuestion } from '~/lib/exams/exams';
import { $pendingAnswers } from '~/lib/stores/exams';
import { useExamAnswers, type ExamAnswersOptions, type SaveOutcome } from './useExamAnswers';

const single: PresentedQuestion = { id: 5, kind: 'single', prompt: 'P', options: [{ id: 1, text: 'a' }, { id: 2, text: 'b' }] } as PresentedQuestion;
const multiple: PresentedQuestion = { id: 6, kind: 'multiple', prompt: 'Q', options: [{ id: 3, text: 'c' }, { id: 4, text: 'd' }] } as PresentedQuestion;

beforeEach(() => $pendingAnswers.set({}));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
// The persistent store lets go of the window's events a second after its last listener leaves: done
// now, while this file's window still exists, not after the file's environment is gone.
afterAll(() => cleanStores($pendingAnswers));

function setup(save: ExamAnswersOptions['save'], over: Partial<ExamAnswersOptions> = {}) {
  const calls = { lost: 0, over: 0 };
  const hook = renderHook(() =>
    useExamAnswers({ attemptId: 9, stored: {}, save, onSessionLost: () => void calls.lost++, onAttemptOver: () => void calls.over++, ...over }),
  );
  return { hook, calls };
}

describe('useExamAnswers', () => {
  it('saves an answer as it is given: saving, then saved, and nothing left waiting', async () => {
    let answer!: (o: SaveOutcome) => void;
    const save = vi.fn(() => new Promise<SaveOutcome>((r) => (answer = r)));
    const { hook } = setup(save);
    act(() => hook.result.current.choose(single, 2, true));
    expect(save).toHaveBeenCalledWith(5, [2]);
    expect(hook.result.current.answers[5]).toEqual([2]);
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'saving' });
    expect($pendingAnswers.get()['9']).toEqual({ '5': [2] });
    await act(async () => answer({ kind: 'saved' }));
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'saved' });
    expect($pendingAnswers.get()['9']).toBeUndefined();
  });

  it('a save that fails (network error or server error) keeps the answer waiting, and flush sends it again', async () => {
    const save = vi.fn<ExamAnswersOptions['save']>().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce({ kind: 'unavailable' }).mockResolvedValue({ kind: 'saved' });
    const { hook } = setup(save);
    await act(async () => hook.result.current.choose(single, 1, true));
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'pending' });
    expect($pendingAnswers.get()['9']).toEqual({ '5': [1] });
    await act(() => hook.result.current.flush());
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'pending' });
    await act(() => hook.result.current.flush());
    expect(save).toHaveBeenCalledTimes(3);
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'saved' });
    expect($pendingAnswers.get()['9']).toBeUndefined();
  });

  it('offline, it does not try: the answer waits until a flush', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const save = vi.fn(async (): Promise<SaveOutcome> => ({ kind: 'saved' }));
    const { hook } = setup(save);
    await act(async () => hook.result.current.choose(multiple, 4, true));
    await act(async () => hook.result.current.choose(multiple, 3, true));
    expect(save).not.toHaveBeenCalled();
    expect(hook.result.current.stateOf(6)).toEqual({ kind: 'pending' });
    online.mockReturnValue(true);
    await act(() => hook.result.current.flush());
    // Only the latest answer goes, options in order.
    expect(save).toHaveBeenCalledExactlyOnceWith(6, [3, 4]);
  });

  it('a refused answer is shown with the reason and no longer waits', async () => {
    const { hook, calls } = setup(async () => ({ kind: 'refused', reason: 'Not an option' }));
    await act(async () => hook.result.current.choose(single, 1, true));
    expect(hook.result.current.stateOf(5)).toEqual({ kind: 'failed', reason: 'Not an option' });
    expect($pendingAnswers.get()['9']).toBeUndefined();
    expect(calls).toEqual({ lost: 0, over: 0 });
  });

  it('an attempt already over on the server drops its waiting answers and hands over to the result', async () => {
    $pendingAnswers.set({ '9': { '6': [3] } });
    const { hook, calls } = setup(async (q) => (q === 5 ? { kind: 'refused', reason: 'Over', attemptOver: true } : { kind: 'unavailable' }));
    await waitFor(() => expect(hook.result.current.stateOf(6)).toEqual({ kind: 'pending' }));
    await act(async () => hook.result.current.choose(single, 1, true));
    expect(calls.over).toBe(1);
    expect($pendingAnswers.get()['9']).toBeUndefined();
  });

  it('a lost session is handed over', async () => {
    const { hook, calls } = setup(async () => ({ kind: 'refused', reason: '', sessionLost: true }));
    await act(async () => hook.result.current.choose(single, 1, true));
    expect(calls.lost).toBe(1);
  });

  it('unticking every option keeps the answer on screen empty and sends nothing', async () => {
    const save = vi.fn(async (): Promise<SaveOutcome> => ({ kind: 'saved' }));
    const { hook } = setup(save, { stored: { '6': [3] } });
    await act(async () => hook.result.current.choose(multiple, 3, false));
    expect(hook.result.current.answers[6]).toEqual([]);
    expect(save).not.toHaveBeenCalled();
  });

  it('answers kept on this device from an earlier visit are newer than the page’s: shown and sent', async () => {
    $pendingAnswers.set({ '9': { '5': [2] }, '8': { '1': [1] } });
    const save = vi.fn(async (): Promise<SaveOutcome> => ({ kind: 'saved' }));
    const { hook } = setup(save, { stored: { '5': [1] } });
    expect(hook.result.current.answers[5]).toEqual([2]);
    await waitFor(() => expect(hook.result.current.stateOf(5)).toEqual({ kind: 'saved' }));
    expect(save).toHaveBeenCalledExactlyOnceWith(5, [2]);
    // Another attempt's answers are not this island's business.
    expect($pendingAnswers.get()).toEqual({ '8': { '1': [1] } });
  });

  it('forget drops this attempt’s waiting answers only', () => {
    $pendingAnswers.set({ '8': { '1': [1] } });
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { hook } = setup(async () => ({ kind: 'saved' }));
    act(() => hook.result.current.choose(single, 1, true));
    online.mockRestore();
    act(() => hook.result.current.forget());
    expect($pendingAnswers.get()).toEqual({ '8': { '1': [1] } });
  });
});
