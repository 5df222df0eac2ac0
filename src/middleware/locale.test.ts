import { describe, expect, it } from 'vitest';
import { answerLanguage, locale } from './locale';
import { fakeContext, fakeNext } from './context.testing';
import { messages } from '~/i18n';

describe('locale step', () => {
  it('puts the language of the address asked for and its messages into locals, also for a page rewritten to the Spanish route', async () => {
    const en = fakeContext('/courses', { originPathname: '/en/courses', headers: { 'accept-language': 'es' } }).ctx;
    await locale(en, fakeNext());
    expect(en.locals.locale).toBe('en');
    expect(en.locals.t).toBe(messages('en'));
    const es = fakeContext('/courses', { headers: { 'accept-language': 'en' } }).ctx;
    await locale(es, fakeNext());
    expect(es.locals.locale).toBe('es');
    expect(es.locals.t).toBe(messages('es'));
  });

  it("answers without a page in the address's language, else the referring page's, else the browser's", () => {
    expect(answerLanguage(fakeContext('/en/_actions/x').ctx)).toBe('en');
    expect(answerLanguage(fakeContext('/_actions/x', { headers: { referer: 'http://localhost:4321/en/cart' } }).ctx)).toBe('en');
    expect(answerLanguage(fakeContext('/_actions/x', { headers: { referer: 'https://other.example/en/cart' } }).ctx)).toBe('es');
    expect(answerLanguage(fakeContext('/_actions/x', { headers: { 'accept-language': 'en-GB' } }).ctx)).toBe('en');
  });
});
