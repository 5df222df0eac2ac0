import { describe, expect, it } from 'vitest';
import { answerLocale, requestLocale } from './locale';

describe('answerLocale', () => {
  it('answers in the query language, else the preferred of Accept-Language, else Spanish', () => {
    expect(answerLocale('en', 'es')).toBe('en');
    expect(answerLocale('fr', 'en-US,en;q=0.9')).toBe('en');
    expect(answerLocale(null, 'fr-FR, en;q=0.8, es;q=0.5')).toBe('en');
    expect(answerLocale(null, 'en;q=0.3, es-CO;q=0.7')).toBe('es');
    expect(answerLocale(null, 'en;q=0, de')).toBe('es');
    expect(answerLocale(null, 'de, fr')).toBe('es');
    expect(answerLocale(null, null)).toBe('es');
  });
  it('reads a request', () => {
    expect(requestLocale(new URL('http://x/media/resource/1?lang=en'), new Headers())).toBe('en');
    expect(requestLocale(new URL('http://x/api/tracking'), new Headers({ 'accept-language': 'en-GB' }))).toBe('en');
  });
});
