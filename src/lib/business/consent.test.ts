/** The consent rule: who an IBO may see, the default by relation, and what sign-up stores. */
import { describe, expect, it } from 'vitest';
import { isVisibleToIbo, parseShare, relatedToIbo, sharingAtSignUp, sharingByDefault, signUpBoxTicked, ticked, type SharingFacts } from './consent';

const X = 7;
const Y = 9;
const person = (registeredByIboId: number | null, referredByIboId: number | null, iboSharing: boolean | null): SharingFacts => ({ registeredByIboId, account: { referredByIboId, iboSharing } });

describe('isVisibleToIbo', () => {
  it('shows a prospect without an account to the IBO that registered them, and to nobody else', () => {
    expect(isVisibleToIbo({ registeredByIboId: X, account: null }, X)).toBe(true);
    expect(isVisibleToIbo({ registeredByIboId: X, account: null }, Y)).toBe(false);
    expect(isVisibleToIbo({ registeredByIboId: null, account: null }, X)).toBe(false);
  });

  it('without a choice: on for the IBO that registered the person, off for the one whose link they came through', () => {
    expect(isVisibleToIbo(person(X, null, null), X)).toBe(true);
    expect(isVisibleToIbo(person(null, X, null), X)).toBe(false);
    // Registered by X and referred by Y: X sees them, Y does not.
    expect(isVisibleToIbo(person(X, Y, null), X)).toBe(true);
    expect(isVisibleToIbo(person(X, Y, null), Y)).toBe(false);
  });

  it('the person’s choice wins for every IBO they are related to', () => {
    expect(isVisibleToIbo(person(X, null, false), X)).toBe(false);
    expect(isVisibleToIbo(person(null, X, true), X)).toBe(true);
    expect(isVisibleToIbo(person(X, Y, true), Y)).toBe(true);
    expect(isVisibleToIbo(person(X, Y, false), X)).toBe(false);
  });

  it('never shows anyone to an IBO they are not related to, whatever they chose', () => {
    expect(isVisibleToIbo(person(X, null, true), Y)).toBe(false);
    expect(isVisibleToIbo(person(null, X, true), Y)).toBe(false);
    expect(isVisibleToIbo(person(null, null, true), X)).toBe(false);
  });
});

describe('relations and defaults', () => {
  it('is related by registration or by link', () => {
    expect(relatedToIbo(person(X, null, null), X)).toBe(true);
    expect(relatedToIbo(person(null, X, null), X)).toBe(true);
    expect(relatedToIbo(person(Y, Y, null), X)).toBe(false);
  });
  it('shares by default only with the IBO that registered the person', () => {
    expect(sharingByDefault({ registeredByIboId: X }, X)).toBe(true);
    expect(sharingByDefault({ registeredByIboId: Y }, X)).toBe(false);
    expect(sharingByDefault({ registeredByIboId: null }, X)).toBe(false);
  });
});

describe('sign-up', () => {
  it('ticks the box for a person the IBO registered, not for one who only followed a link', () => {
    expect(signUpBoxTicked({ registeredByIbo: true })).toBe(true);
    expect(signUpBoxTicked({ registeredByIbo: false })).toBe(false);
  });
  it('stores the box only when it was shown and an IBO is involved; a forged box with no IBO stores nothing', () => {
    expect(sharingAtSignUp({ offered: true, ticked: true }, true)).toBe(true);
    expect(sharingAtSignUp({ offered: true, ticked: false }, true)).toBe(false);
    expect(sharingAtSignUp({ offered: true, ticked: true }, false)).toBeNull();
    expect(sharingAtSignUp({ offered: false, ticked: true }, false)).toBeNull();
    // Involved but never shown the box (a prospect's address typed with no link): the default applies.
    expect(sharingAtSignUp({ offered: false, ticked: false }, true)).toBeNull();
  });
  it('reads a checkbox as browsers post it', () => {
    expect(ticked('on')).toBe(true);
    expect(ticked(undefined)).toBe(false);
    expect(ticked('')).toBe(false);
    expect(ticked(['on'])).toBe(false);
  });
});

describe('parseShare', () => {
  it('takes the switch’s two values and refuses anything else', () => {
    expect(parseShare('true')).toBe(true);
    expect(parseShare('false')).toBe(false);
    for (const v of ['', 'yes', '1', null, undefined, ['true'], { share: true }, 'TRUE ']) expect(parseShare(v)).toBeNull();
  });
});
