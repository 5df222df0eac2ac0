/** Which language a journey written once per language runs in (`tests/e2e/fixtures.ts` re-exports it). */

/**
 * Journeys written once per language, run once: in a loop over `languages`, `const turn =
 * languageTurns(languages, language)`, then `if (turn()) test(…)` declares the n-th journey of the
 * loop's body only in the language whose turn it is (n mod the number of languages, counted from
 * `first`). Every behaviour is then driven once, and every form and island of the block in each
 * language, instead of every journey twice (the 42 journeys this leaves out took about 130 of 1,227
 * journey-seconds here, running the same code). `JOURNEY_LANGUAGES=all` runs every one in every language. (A wrapper
 * around `test` would do the same, but Playwright takes a journey's file and line from its caller.)
 */
export function languageTurns<L>(languages: readonly L[], language: L, first = 0): () => boolean {
  const mine = languages.indexOf(language);
  if (mine < 0) throw new Error('languageTurns: the language is not one of the languages');
  if (process.env.JOURNEY_LANGUAGES === 'all') return () => true;
  let n = first;
  return () => n++ % languages.length === mine;
}
