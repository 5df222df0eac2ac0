// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCheckedForm } from './form-kit';

type F = 'country' | 'dial' | 'accepts';
const check = (v: Record<string, string>) => {
  const e: Partial<Record<F, string>> = {};
  if (!v.country) e.country = 'required';
  if (v.accepts !== 'on') e.accepts = 'mustAccept';
  return e;
};

function setup(onChange = vi.fn()) {
  const hook = renderHook(() =>
    useCheckedForm<F, string>({ order: ['country', 'dial', 'accepts'], initialValues: { country: 'US', dial: '+1', accepts: '' }, check, idOf: (f) => f, onChange }),
  );
  return { hook, onChange };
}

afterEach(cleanup);

describe('useCheckedForm', () => {
  it('a change may move another value along, and is not checked before the field was left', () => {
    const { hook, onChange } = setup();
    act(() => hook.result.current.update('country', { country: '', dial: '' }));
    expect(hook.result.current.values).toMatchObject({ country: '', dial: '' });
    expect(hook.result.current.errors.country).toBeUndefined();
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('a field checked now (a checkbox) shows its error and clears it as it changes', () => {
    const { hook } = setup();
    act(() => hook.result.current.update('accepts', { accepts: 'on' }, true));
    expect(hook.result.current.errors.accepts).toBeUndefined();
    act(() => hook.result.current.update('accepts', { accepts: '' }, true));
    expect(hook.result.current.errors.accepts).toBe('mustAccept');
  });

  it('after a submit every field is live; reset starts again with nothing touched', () => {
    const { hook } = setup();
    act(() => void hook.result.current.checkAll());
    expect(hook.result.current.errors).toEqual({ accepts: 'mustAccept' });
    act(() => hook.result.current.update('country', { country: '' }));
    expect(hook.result.current.errors.country).toBe('required');
    act(() => hook.result.current.reset({ country: 'US', dial: '+1', accepts: '' }));
    expect(hook.result.current.errors).toEqual({});
    act(() => hook.result.current.update('country', { country: '' }));
    expect(hook.result.current.errors.country).toBeUndefined();
  });
});
