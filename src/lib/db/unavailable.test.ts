import { describe, expect, it } from 'vitest';
import { databaseBusy, databaseConflict, databaseUnavailable } from './unavailable';

/** An error as Drizzle throws it: the failed query, with the driver's error as its cause. */
const drizzleError = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

describe('databaseUnavailable', () => {
  it('recognizes a pool with no free connection in time, however deep the cause', () => {
    expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(databaseUnavailable(drizzleError(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(databaseUnavailable(drizzleError(drizzleError(new Error('Connection terminated unexpectedly'))))).toBe(true);
  });

  it('recognizes refused and cut connections and PostgreSQL shutting down, starting or full', () => {
    expect(databaseUnavailable(drizzleError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    for (const code of ['57P01', '57P03', '53300', '08006', '08001']) expect(databaseUnavailable(drizzleError(Object.assign(new Error('x'), { code })))).toBe(true);
  });

  it('leaves every other failure a server error: wrong SQL, constraint violations, plain bugs', () => {
    expect(databaseUnavailable(drizzleError(Object.assign(new Error('relation "nope" does not exist'), { code: '42P01' })))).toBe(false);
    expect(databaseUnavailable(drizzleError(Object.assign(new Error('duplicate key value'), { code: '23505' })))).toBe(false);
    expect(databaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(databaseUnavailable(null)).toBe(false);
    expect(databaseUnavailable('timeout')).toBe(false);
  });

  it('stops on a cause that points back at itself', () => {
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(databaseUnavailable(loop)).toBe(false);
  });
});

describe('databaseConflict and databaseBusy', () => {
  it('recognize a deadlock or a serialization failure, however deep the cause, as a collision answered "busy"', () => {
    for (const code of ['40P01', '40001']) {
      const err = drizzleError(Object.assign(new Error('deadlock detected'), { code }));
      expect(databaseConflict(err)).toBe(true);
      expect(databaseBusy(err)).toBe(true);
      // A collision is not an outage: the outage watch does not take it for one.
      expect(databaseUnavailable(err)).toBe(false);
    }
  });

  it('count the database out of reach as busy too, and nothing else', () => {
    expect(databaseBusy(drizzleError(Object.assign(new Error('x'), { code: '57P01' })))).toBe(true);
    expect(databaseConflict(drizzleError(Object.assign(new Error('x'), { code: '57P01' })))).toBe(false);
    expect(databaseBusy(drizzleError(Object.assign(new Error('duplicate key value'), { code: '23505' })))).toBe(false);
    expect(databaseBusy(new Error('deadlock detected'))).toBe(false);
  });
});
