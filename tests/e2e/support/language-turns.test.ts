import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageTurns } from './language-turns';

const LANGS = ['es', 'en'] as const;

/** The languages each of a loop body's `count` journeys is declared in, as the journeys' loops call it. */
function declared(count: number, first = 0): string[][] {
  const byJourney: string[][] = Array.from({ length: count }, () => []);
  for (const lang of LANGS) {
    const turn = languageTurns(LANGS, lang, first);
    for (let i = 0; i < count; i++) if (turn()) byJourney[i]!.push(lang);
  }
  return byJourney;
}

describe('languageTurns', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('declares every journey of a loop body once, the languages in turn from the first', () => {
    expect(declared(5)).toEqual([['es'], ['en'], ['es'], ['en'], ['es']]);
  });

  it('starts with the language `first` names', () => {
    expect(declared(3, 1)).toEqual([['en'], ['es'], ['en']]);
  });

  it('runs every journey in every language with JOURNEY_LANGUAGES=all', () => {
    vi.stubEnv('JOURNEY_LANGUAGES', 'all');
    expect(declared(3)).toEqual([LANGS.slice(), LANGS.slice(), LANGS.slice()]);
  });

  it('refuses a language that is not one of the loop’s', () => {
    expect(() => languageTurns(LANGS, 'fr' as never)).toThrow(/not one of the languages/);
  });
});
