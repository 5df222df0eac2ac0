import { describe, expect, it } from 'vitest';
import { shouldWelcome } from './welcome';

describe('welcome modal', () => {
  const none = { user: null, ibo: null, codeInUrl: false, dismissed: false };
  it('shows when nothing is stored and no code came in the URL', () => {
    expect(shouldWelcome(none)).toBe(true);
  });
  it('does not show with user info, IBO info, a code in the URL, or once dismissed in this tab', () => {
    expect(shouldWelcome({ ...none, user: '{"name":"Laura"}' })).toBe(false);
    expect(shouldWelcome({ ...none, ibo: '{"code":"HORIZONTE01"}' })).toBe(false);
    expect(shouldWelcome({ ...none, codeInUrl: true })).toBe(false);
    expect(shouldWelcome({ ...none, dismissed: true })).toBe(false);
  });
});
