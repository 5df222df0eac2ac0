// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { SubmitEvent } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSubmit, type ActionAnswer, type SubmitOptions } from './useSubmit';

type F = 'email' | 'password';

afterEach(cleanup);

/** A submit event of a form holding `email`. */
function submitEvent(): SubmitEvent<HTMLFormElement> {
  const element = document.createElement('form');
  element.innerHTML = '<input name="email" value="ana@example.com">';
  return { preventDefault: vi.fn(), currentTarget: element } as unknown as SubmitEvent<HTMLFormElement>;
}

function setup(over: Partial<SubmitOptions<F, string, ActionAnswer<{ message: string }>>> = {}, valid = true) {
  const form = { checkAll: vi.fn(() => valid), showErrors: vi.fn((found: Partial<Record<F, string>>) => Object.keys(found).length > 0), focusOn: vi.fn() };
  const send = vi.fn(async (): Promise<ActionAnswer<{ message: string }>> => ({ data: { message: 'Sent' } }));
  const options: SubmitOptions<F, string, ActionAnswer<{ message: string }>> = {
    form,
    send,
    fieldErrors: (fields) => Object.fromEntries(Object.entries(fields).filter(([k]) => k === 'email' || k === 'password').map(([k, v]) => [k, v[0]])),
    statusId: 'status',
    connection: 'No connection',
    done: (data) => ({ text: data.message, ok: true }),
    ...over,
  };
  return { form, send, hook: renderHook(() => useSubmit(options)) };
}

const refusal = (over: object) => ({ error: { code: 'BAD_REQUEST', status: 400, message: 'Wrong password', ...over } });

describe('useSubmit', () => {
  it('sends what the form holds and shows the good news in the status line', async () => {
    const { send, form, hook } = setup();
    await act(() => hook.result.current.submit(submitEvent()));
    expect((send.mock.calls[0] as unknown as [FormData])[0].get('email')).toBe('ana@example.com');
    expect(hook.result.current.status).toEqual({ text: 'Sent', ok: true });
    expect(form.focusOn).toHaveBeenCalledWith('status');
    expect(hook.result.current.busy).toBe(false);
  });

  it('sends nothing while a field is wrong', async () => {
    const { send, hook } = setup({}, false);
    await act(() => hook.result.current.submit(submitEvent()));
    expect(send).not.toHaveBeenCalled();
  });

  it('is busy while sending, and a second submit meanwhile sends nothing', async () => {
    let answer: (a: ActionAnswer<{ message: string }>) => void = () => undefined;
    const send = vi.fn(() => new Promise<ActionAnswer<{ message: string }>>((r) => (answer = r)));
    const { hook } = setup({ send });
    let first: Promise<void> = Promise.resolve();
    act(() => void (first = hook.result.current.submit(submitEvent())));
    expect(hook.result.current.busy).toBe(true);
    await act(() => hook.result.current.submit(submitEvent()));
    expect(send).toHaveBeenCalledTimes(1);
    await act(async () => {
      answer({ data: { message: 'Sent' } });
      await first;
    });
    expect(hook.result.current.busy).toBe(false);
  });

  it('shows an input refusal on its fields, not in the status line', async () => {
    const { form, hook } = setup({ send: async () => refusal({ type: 'AstroActionInputError', fields: { password: ['required'] } }) });
    await act(() => hook.result.current.submit(submitEvent()));
    expect(form.showErrors).toHaveBeenCalledWith({ password: 'required' });
    expect(hook.result.current.status).toBeNull();
  });

  it('shows a conflict as the field errors it stands for', async () => {
    const { form, hook } = setup({ conflict: { email: 'emailTaken' }, send: async () => refusal({ code: 'CONFLICT', status: 409, message: 'Taken' }) });
    await act(() => hook.result.current.submit(submitEvent()));
    expect(form.showErrors).toHaveBeenCalledWith({ email: 'emailTaken' });
    expect(hook.result.current.status).toBeNull();
  });

  it('says any other refusal in the status line with the focus on it at once, then does what it calls for while still busy', async () => {
    let focusedBeforeRefused: boolean | undefined;
    let finish!: () => void;
    const refused = vi.fn(() => {
      focusedBeforeRefused = form.focusOn.mock.calls.some(([id]) => id === 'status');
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const { form, hook } = setup({ refused, send: async () => refusal({ code: 'PAYMENT_REQUIRED', status: 402, message: 'Card declined' }) });
    let sent!: Promise<void>;
    act(() => void (sent = hook.result.current.submit(submitEvent())));
    await vi.waitFor(() => expect(refused).toHaveBeenCalledWith(expect.objectContaining({ status: 402 })));
    // The focus is moved before the new key is asked for: never later, away from a field the person is typing in.
    expect(focusedBeforeRefused).toBe(true);
    expect(hook.result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await sent;
    });
    expect(hook.result.current.status).toEqual({ text: 'Card declined', ok: false });
    expect(form.focusOn).toHaveBeenCalledTimes(1);
    expect(hook.result.current.busy).toBe(false);
    expect(form.showErrors).not.toHaveBeenCalled();
  });

  it('says the server could not be reached when the send fails, and clears the last sentence on the next submit', async () => {
    const { hook } = setup({ send: () => Promise.reject(new TypeError('Failed to fetch')), initial: { text: 'Too many attempts', ok: false } });
    expect(hook.result.current.status).toEqual({ text: 'Too many attempts', ok: false });
    await act(() => hook.result.current.submit(submitEvent()));
    expect(hook.result.current.status).toEqual({ text: 'No connection', ok: false });
  });

  it('shows nothing when the form goes on after success', async () => {
    const go = vi.fn();
    const { form, hook } = setup({ done: () => void go() });
    await act(() => hook.result.current.submit(submitEvent()));
    expect(go).toHaveBeenCalledOnce();
    expect(hook.result.current.status).toBeNull();
    expect(form.focusOn).not.toHaveBeenCalled();
  });
});
