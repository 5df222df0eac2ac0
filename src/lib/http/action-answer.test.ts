import { describe, expect, it } from 'vitest';
import { actionInputLocale, actionRequest, busyActionError } from './action-answer';

const post = (type: string, body: string) => new Request('http://x/_actions/cart.view', { method: 'POST', headers: { 'content-type': type }, body });

describe('answers to an action’s caller', () => {
  it('knows an action request: a POST to /_actions/… or a form posted with ?_action=', () => {
    expect(actionRequest('POST', new URL('http://x/_actions/exams.start'))).toBe(true);
    expect(actionRequest('POST', new URL('http://x/en/course-exam-info/2?_action=exams.start'))).toBe(true);
    expect(actionRequest('GET', new URL('http://x/_actions/exams.start'))).toBe(false);
    expect(actionRequest('POST', new URL('http://x/en/contact'))).toBe(false);
  });

  it('reads the language an action’s input names, from a form or JSON, and nothing else', async () => {
    expect(await actionInputLocale(post('application/x-www-form-urlencoded', 'course=2&lang=en'))).toBe('en');
    expect(await actionInputLocale(post('application/json', '{"lang":"en","course":2}'))).toBe('en');
    expect(await actionInputLocale(post('application/json; charset=utf-8', '{"lang":"es"}'))).toBe('es');
    expect(await actionInputLocale(post('application/json', '{"lang":"fr"}'))).toBeNull();
    expect(await actionInputLocale(post('application/json', '{nope'))).toBeNull();
    expect(await actionInputLocale(post('application/x-www-form-urlencoded', 'course=2'))).toBeNull();
    expect(await actionInputLocale(post('text/plain', 'lang=en'))).toBeNull();
  });

  it('reads the field the action declares for its language (the contact form names it `language`)', async () => {
    const contact = (path: string, body: string) => new Request(`http://x${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(await actionInputLocale(contact('/_actions/contact.send', 'language=en&lang=es'))).toBe('en');
    expect(await actionInputLocale(contact('/en/contact-us?_action=contact.send', 'language=en'))).toBe('en');
    expect(await actionInputLocale(contact('/_actions/contact.send', 'lang=en'))).toBeNull();
    // An action whose answers follow the calling page names none.
    expect(await actionInputLocale(contact('/_actions/auth.verify', 'lang=en'))).toBeNull();
  });

  it('says "busy" in Astro’s action error shape', () => {
    expect(busyActionError('Ocupado')).toEqual({ status: 503, body: JSON.stringify({ type: 'AstroActionError', code: 'SERVICE_UNAVAILABLE', status: 503, message: 'Ocupado' }) });
  });
});
