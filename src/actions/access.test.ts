/**
 * The declarations table and the actions agree: every action the site serves declares its access,
 * limits and language, every declaration belongs to an action, every action is made with the kit, and
 * every declared limit can be keyed for the callers its access lets in. Read from the source (the
 * actions themselves need Astro to load).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionNames } from '../../tests/e2e/support/routes';
import { ACTION_RULES, ruleOf } from './access';
import { partsAvailable } from '../lib/http/action-limits';
import { ACCESS_LEVELS } from '../lib/access/policy';
import { LIMITS } from '../lib/http/rate-limit';

const served = actionNames();

describe('the actions and their declarations', () => {
  it('finds the actions the site serves', () => {
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect(served).toContain('contact.send');
  });

  it('every action served declares its access, and every declaration is an action served', () => {
    expect(served.filter((name) => !ruleOf(name)), 'actions without a declaration in src/actions/access.ts').toEqual([]);
    expect(Object.keys(ACTION_RULES).filter((name) => !served.includes(name)), 'declarations of no action').toEqual([]);
  });

  it('every action is made with the kit', () => {
    const dir = join(process.cwd(), 'src/actions');
    const outside = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'define.ts' && f !== 'kit.ts')
      .filter((f) => /\bdefineAction\s*\(/.test(readFileSync(join(dir, f), 'utf8')));
    expect(outside, 'files defining actions without the kit').toEqual([]);
  });

  it('declares known access levels and limits, each keyed by what its access level guarantees', () => {
    for (const [name, rule] of Object.entries(ACTION_RULES)) {
      expect(ACCESS_LEVELS, name).toContain(rule.access);
      expect(typeof rule.locale, name).toBe('string');
      for (const limit of rule.limits) {
        expect(Object.keys(LIMITS), `${name}: ${limit.name}`).toContain(limit.name);
        const parts = typeof limit.per === 'string' ? [limit.per] : limit.per;
        for (const part of parts) expect(partsAvailable(rule.access), `${name}: ${limit.name} per ${part}`).toContain(part.startsWith('input.') ? 'input' : part);
      }
    }
  });
});
