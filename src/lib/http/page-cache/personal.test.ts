import { describe, expect, it } from 'vitest';
import { fillPersonal, personalMarks, splitPersonal } from './personal';
import { personalKey } from './keys';

const [userOpen, userClose] = personalMarks('user');
const [sumOpen, sumClose] = personalMarks('summary');
const page = (user: string, summary: string) => `<html><header>${userOpen}${user}${userClose}</header><main>same for all</main>${sumOpen}${summary}${sumClose}</html>`;

describe('personal parts of a kept page', () => {
  it("splits a page into a template and the reader's parts, and fills the template with another reader's", () => {
    const { template, parts } = splitPersonal(page('<b>Ana</b>', '{"n":"Ana"}'));
    expect(parts).toEqual({ user: '<b>Ana</b>', summary: '{"n":"Ana"}' });
    expect(template.names).toEqual(['user', 'summary']);
    expect(template.parts.join('')).not.toContain('Ana');
    expect(fillPersonal(template, { user: '<b>Bea</b>', summary: '{"n":"Bea"}' })).toBe(page('<b>Bea</b>', '{"n":"Bea"}'));
    expect(fillPersonal(template, parts)).toBe(page('<b>Ana</b>', '{"n":"Ana"}'));
  });

  it('refuses to fill a template when a part is missing (the page is rendered instead)', () => {
    const { template } = splitPersonal(page('Ana', 'x'));
    expect(fillPersonal(template, { user: 'Bea' })).toBeNull();
  });

  it('leaves a page without marks whole, and an unclosed mark as it is', () => {
    expect(fillPersonal(splitPersonal('<p>plain</p>').template, {})).toBe('<p>plain</p>');
    const broken = `<p>${userOpen}Ana</p>`;
    const split = splitPersonal(broken);
    expect(split.parts).toEqual({});
    expect(fillPersonal(split.template, {})).toBe(broken);
  });

  it('keys parts by language and by what the session says of its holder', () => {
    const ana = { kind: 'user', user: { name: 'Ana' } };
    expect(personalKey('es', ana)).not.toBe(personalKey('en', ana));
    expect(personalKey('es', ana)).not.toBe(personalKey('es', { kind: 'user', user: { name: 'Ana María' } }));
    expect(personalKey('es', ana)).toBe(personalKey('es', { kind: 'user', user: { name: 'Ana' } }));
  });
});
