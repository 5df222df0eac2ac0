// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useExamSubmit, type ExamSubmitOptions } from './useExamSubmit';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function setup(over: Partial<ExamSubmitOptions> = {}) {
  const order: string[] = [];
  const options: ExamSubmitOptions = {
    flush: async () => void order.push('flush'),
    forget: () => void order.push('forget'),
    post: () => void order.push('post'),
    confirmUnanswered: () => true,
    ...over,
  };
  return { order, hook: renderHook(() => useExamSubmit(options)) };
}

describe('useExamSubmit', () => {
  it('sends the waiting answers, forgets them, then posts the form', async () => {
    const { order, hook } = setup();
    expect(hook.result.current.submitting).toBe(false);
    let result = '';
    act(() => void (result = hook.result.current.submit(0, true)));
    expect(result).toBe('sending');
    expect(hook.result.current.submitting).toBe(true);
    await waitFor(() => expect(order).toEqual(['flush', 'forget', 'post']));
  });

  it('posts even when the waiting answers could not be sent (the server grades what it has)', async () => {
    const { order, hook } = setup({ flush: () => Promise.reject(new Error('network')) });
    act(() => void hook.result.current.submit(0, true));
    await waitFor(() => expect(order).toEqual(['forget', 'post']));
  });

  it('asks before handing in unanswered questions, and does nothing when the learner says no', () => {
    const confirmUnanswered = vi.fn(() => false);
    const { order, hook } = setup({ confirmUnanswered });
    expect(hook.result.current.submit(3, true)).toBe('cancelled');
    expect(confirmUnanswered).toHaveBeenCalledWith(3);
    expect(order).toEqual([]);
    expect(hook.result.current.submitting).toBe(false);
  });

  it('does not ask when the time is up', async () => {
    const confirmUnanswered = vi.fn(() => false);
    const { order, hook } = setup({ confirmUnanswered });
    act(() => void hook.result.current.submit(3, false));
    expect(confirmUnanswered).not.toHaveBeenCalled();
    await waitFor(() => expect(order).toContain('post'));
  });

  it('offline, it waits for the network and posts once back', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { order, hook } = setup();
    expect(hook.result.current.submit(0, true)).toBe('offline');
    expect(order).toEqual([]);
    online.mockReturnValue(true);
    hook.result.current.resume();
    expect(order).toEqual(['post']);
  });

  it('coming back online posts nothing when no submit waited', () => {
    const { order, hook } = setup();
    hook.result.current.resume();
    expect(order).toEqual([]);
  });

  it('at the deadline, sends what it can and posts without asking', async () => {
    const confirmUnanswered = vi.fn(() => false);
    const { order, hook } = setup({ confirmUnanswered, flush: () => Promise.reject(new Error('down')) });
    act(() => hook.result.current.expire());
    expect(hook.result.current.submitting).toBe(true);
    await waitFor(() => expect(order).toEqual(['post']));
    expect(confirmUnanswered).not.toHaveBeenCalled();
  });
});
