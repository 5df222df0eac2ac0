import { afterEach, describe, expect, it } from 'vitest';
import { madeTestRun, useTestRun } from './test-run';

const NAMES = ['ACADEMY_TEST_RUN', 'ACADEMY_TEST_TEMPLATES', 'ACADEMY_TEST_CHILDREN', 'ACADEMY_PG_TEMPLATES', 'ACADEMY_PG_TABLESPACE'] as const;
// This worker's own run (its other test files read it): put back after each case.
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const n of NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

describe('the run npm test makes beside the checks', () => {
  it('is used as named: templates, test processes and PostgreSQL templates (in their tablespace), or none of the latter', () => {
    process.env.ACADEMY_TEST_RUN = JSON.stringify({ templates: '/tmp/t', children: '/tmp/c', postgres: 'a,b,c' });
    const run = madeTestRun()!;
    useTestRun(run);
    expect([process.env.ACADEMY_TEST_TEMPLATES, process.env.ACADEMY_TEST_CHILDREN, process.env.ACADEMY_PG_TEMPLATES]).toEqual(['/tmp/t', '/tmp/c', 'a,b,c']);
    expect(process.env.ACADEMY_PG_TABLESPACE).toBeUndefined();
    useTestRun({ ...run, tablespace: 'academy_ts_1_a' });
    expect(process.env.ACADEMY_PG_TABLESPACE).toBe('academy_ts_1_a');
    useTestRun({ ...run, postgres: null, tablespace: 'academy_ts_1_a' });
    expect([process.env.ACADEMY_PG_TEMPLATES, process.env.ACADEMY_PG_TABLESPACE]).toEqual([undefined, undefined]);
  });

  it('is made by the global setup when npm test named none', () => {
    delete process.env.ACADEMY_TEST_RUN;
    expect(madeTestRun()).toBeNull();
  });

  it('refuses a value that names no run, saying what it got', () => {
    process.env.ACADEMY_TEST_RUN = JSON.stringify({ templates: 1 });
    expect(() => madeTestRun()).toThrow(/ACADEMY_TEST_RUN is not a test run: \{"templates":1\}/);
  });
});
