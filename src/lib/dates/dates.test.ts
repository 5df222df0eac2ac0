import { describe, expect, it } from 'vitest';
import { formatInstant, isInstantStyle } from './dates';

// 23:30 UTC on 26 November: already the 27th in Madrid, still the 26th in Bogotá.
const at = new Date('2026-11-26T23:30:00Z');

describe('formatInstant', () => {
  it('writes the instant in UTC when no time zone is known, saying so when a time of day shows', () => {
    expect(formatInstant(at, 'es', 'date')).toBe('26 de noviembre de 2026');
    expect(formatInstant(at, 'en', 'date')).toBe('November 26, 2026');
    expect(formatInstant(at, 'es', 'datetime')).toMatch(/^26 de noviembre de 2026.*23:30 UTC$/);
    expect(formatInstant(at, 'en', 'datetime')).toMatch(/^November 26, 2026.*11:30\sPM UTC$/);
  });

  it("writes it in the reader's time zone when the browser gives one, without the UTC mark", () => {
    expect(formatInstant(at, 'es', 'date', 'Europe/Madrid')).toBe('27 de noviembre de 2026');
    expect(formatInstant(at, 'es', 'datetime', 'Europe/Madrid')).toMatch(/^27 de noviembre de 2026.*0:30$/);
    expect(formatInstant(at, 'en', 'datetime', 'America/Bogota')).toMatch(/^November 26, 2026.*6:30\sPM$/);
  });

  it('reads back only the styles it knows', () => {
    expect(['date', 'datetime', 'time', '', undefined].map(isInstantStyle)).toEqual([true, true, false, false, false]);
  });
});
