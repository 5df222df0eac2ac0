import { describe, expect, it } from 'vitest';
import { ackFromHttp, comeBackDelayMs, fallbackBody, parseAck, parseBroadcast, progressEvent } from './tracking-client';

const who = { courseId: 1, contactId: 42, userId: 7 };
const okAck = { ok: true, Identificador: 3, Avance: 4.5, furthest: 6, played: 5, completed: false };

describe('the browser tracking client', () => {
  it('sends the progress-event fields, positions rounded to hundredths and never negative', () => {
    expect(progressEvent(who, 3, 4.56789, true)).toEqual({ Identificador: 3, IdEntidad: 3, IdContacto: 42, Avance: 4.57, Activo: true, CreadoPor: 7 });
    expect(progressEvent({ ...who, userId: null }, 3, -2, false)).toMatchObject({ Avance: 0, Activo: false, CreadoPor: null });
    expect(progressEvent(who, 3, Number.NaN, false).Avance).toBe(0);
  });

  it('posts the HTTP fallback (and the beacon) as { event, courseId, payload }', () => {
    expect(JSON.parse(fallbackBody(who, 'tracking end', progressEvent(who, 3, 8, false)))).toEqual({
      event: 'tracking end',
      courseId: 1,
      payload: { Identificador: 3, IdEntidad: 3, IdContacto: 42, Avance: 8, Activo: false, CreadoPor: 7 },
    });
  });

  it('believes only well-formed acknowledgements; anything else reads as unavailable', () => {
    expect(parseAck(okAck)).toEqual(okAck);
    expect(parseAck({ ok: false, error: 'forbidden' })).toEqual({ ok: false, error: 'forbidden' });
    for (const bad of [null, 'ok', { ok: true }, { ...okAck, completed: 'yes' }, { ok: false, error: 'nope' }, { ...okAck, Avance: -1 }]) {
      expect(parseAck(bad)).toEqual({ ok: false, error: 'unavailable' });
    }
  });

  it('reads the HTTP fallback’s answer, or its status when the body is not an acknowledgement', () => {
    expect(ackFromHttp(200, okAck)).toEqual(okAck);
    expect(ackFromHttp(403, { ok: false, error: 'forbidden', message: 'No' })).toEqual({ ok: false, error: 'forbidden' });
    expect([401, 403, 429, 400, 500, 404].map((s) => ackFromHttp(s, '<html>'))).toEqual([
      { ok: false, error: 'unauthorized' },
      { ok: false, error: 'forbidden' },
      { ok: false, error: 'rate-limited' },
      { ok: false, error: 'invalid' },
      { ok: false, error: 'unavailable' },
      { ok: false, error: 'unavailable' },
    ]);
  });

  it('hears only well-formed broadcasts from the person’s other tabs', () => {
    expect(parseBroadcast({ Identificador: 3, Avance: 2, completed: true })).toEqual({ Identificador: 3, Avance: 2, completed: true });
    expect(parseBroadcast({ Identificador: 'x', Avance: 2, completed: true })).toBeNull();
    expect(parseBroadcast(undefined)).toBeNull();
  });

  it('comes back after 0.5 s, then waits twice as long each time up to 10 s, spread by a fifth either way', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => comeBackDelayMs(n, () => 0.5))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(comeBackDelayMs(1, () => 0)).toBe(400);
    expect(comeBackDelayMs(20, () => 1)).toBe(12_000);
  });
});
