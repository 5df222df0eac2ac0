/** The business page's rules: who gets it, the share links and ready messages, the share buttons' addresses. */
import { describe, expect, it } from 'vitest';
import type { Caller } from '../access/policy';
import { affiliateUrl, businessNav, namesOtherIbo, businessGate, courseShareUrl, qrFileName, readyMessage, shareKit, shareTargets, type OwnedIbo } from './business';

const ORIGIN = 'https://academia.example';
const active: OwnedIbo = { id: 1, code: 'HORIZONTE01', companyName: 'Viajes Horizonte S.A.S.', imageUrl: null, status: 'active' };
const suspended: OwnedIbo = { ...active, id: 3, code: 'RUTAS99', status: 'suspended' };
const visitor: Caller = { session: 'visitor', roles: [] };
const iboSession: Caller = { session: 'ibo', roles: [] };
const learner: Caller = { session: 'user', roles: [] };
const owner: Caller = { session: 'user', roles: [], ownsIbo: true };

describe('who gets the business page', () => {
  it('sends a visitor to log in', () => {
    expect(businessGate(visitor, null)).toEqual({ kind: 'login' });
  });

  it('refuses an IBO session opened with a code (401), even for the IBO whose code it is', () => {
    expect(businessGate(iboSession, null)).toEqual({ kind: 'refused', status: 401, reason: 'iboSession' });
    expect(businessGate(iboSession, active)).toEqual({ kind: 'refused', status: 401, reason: 'iboSession' });
  });

  it('refuses a logged-in account that owns no IBO (403), and an owner whose IBO is gone', () => {
    expect(businessGate(learner, null)).toEqual({ kind: 'refused', status: 403, reason: 'notOwner' });
    expect(businessGate(owner, null)).toEqual({ kind: 'refused', status: 403, reason: 'notOwner' });
    // A session read before the account owned one: refused until it is read again.
    expect(businessGate(learner, active)).toEqual({ kind: 'refused', status: 403, reason: 'notOwner' });
  });

  it("gives an active IBO's owner the page and a suspended IBO's owner the notice only", () => {
    expect(businessGate(owner, active)).toEqual({ kind: 'owner', ibo: active });
    expect(businessGate(owner, suspended)).toEqual({ kind: 'suspended', ibo: suspended });
  });
});

describe('the share links', () => {
  it('builds the affiliate link in each language, without a doubled slash', () => {
    expect(affiliateUrl(ORIGIN, 'HORIZONTE01', 'es')).toBe('https://academia.example/HORIZONTE01');
    expect(affiliateUrl(`${ORIGIN}/`, 'HORIZONTE01', 'en')).toBe('https://academia.example/en/HORIZONTE01');
  });

  it('builds a course link that opens the course with the code', () => {
    expect(courseShareUrl(ORIGIN, 'HORIZONTE01', 6, 'es')).toBe('https://academia.example/HORIZONTE01?course=6');
    expect(courseShareUrl(ORIGIN, 'HORIZONTE01', 6, 'en')).toBe('https://academia.example/en/HORIZONTE01?course=6');
  });

  it('writes the ready message in the language asked for, whatever the page', () => {
    const es = readyMessage(ORIGIN, active, 'es');
    const en = readyMessage(ORIGIN, active, 'en');
    expect(es.text).toContain('Hola');
    expect(es.text).toContain('https://academia.example/HORIZONTE01');
    expect(es.subject).toContain('Viajes Horizonte S.A.S.');
    expect(en.text).toContain('Hi');
    expect(en.text).toContain('https://academia.example/en/HORIZONTE01');
  });

  it('gives each share button its address, the message encoded once', () => {
    const message = readyMessage(ORIGIN, { code: 'ABC', companyName: 'Sol & Mar' }, 'es');
    const t = shareTargets(message);
    expect(t.whatsapp.startsWith('https://wa.me/?text=')).toBe(true);
    expect(decodeURIComponent(t.whatsapp.slice('https://wa.me/?text='.length))).toBe(message.text);
    expect(new URL(t.facebook).origin).toBe('https://www.facebook.com');
    expect(new URL(t.facebook).searchParams.get('u')).toBe('https://academia.example/ABC');
    expect(t.email.startsWith('mailto:?subject=')).toBe(true);
    // The company's "&" cannot cut the subject short, and spaces stay %20 (not "+") for mail clients.
    const [subject, body] = t.email.slice('mailto:?'.length).split('&');
    expect(decodeURIComponent(subject!.slice('subject='.length))).toBe(message.subject);
    expect(decodeURIComponent(body!.slice('body='.length))).toBe(message.text);
    expect(t.email).not.toContain('+');
  });

  it('makes a kit with both languages and a link per course', () => {
    const kit = shareKit(ORIGIN, active, [
      { id: 1, name: 'Intro' },
      { id: 6, name: 'Paid' },
    ]);
    expect(Object.keys(kit.messages).sort()).toEqual(['en', 'es']);
    expect(kit.messages.en.targets.whatsapp).toContain(encodeURIComponent('https://academia.example/en/HORIZONTE01'));
    expect(kit.courses).toEqual([
      { id: 1, name: 'Intro', urls: { es: 'https://academia.example/HORIZONTE01?course=1', en: 'https://academia.example/en/HORIZONTE01?course=1' } },
      { id: 6, name: 'Paid', urls: { es: 'https://academia.example/HORIZONTE01?course=6', en: 'https://academia.example/en/HORIZONTE01?course=6' } },
    ]);
  });

  it('names the QR file after the code, with nothing a header could be broken with', () => {
    expect(qrFileName('HORIZONTE01', 'png')).toBe('HORIZONTE01-qr.png');
    expect(qrFileName('a"b\r\nc', 'svg')).toBe('abc-qr.svg');
  });
});

describe('the sections', () => {
  it('lists every section in order, each its own page in the reader\'s language, the current one marked', () => {
    const es = businessNav('es', 'funnel');
    expect(es.map((s) => s.id)).toEqual(['share', 'funnel', 'people', 'sales', 'team']);
    expect(es.map((s) => s.href)).toEqual(['/mybusiness', '/mybusiness/funnel', '/mybusiness/people', '/mybusiness/sales', '/mybusiness/team']);
    expect(es.filter((s) => s.current).map((s) => s.id)).toEqual(['funnel']);
    expect(businessNav('en', 'share').map((s) => [s.href, s.label, s.current])).toEqual([
      ['/en/mybusiness', 'Share', true],
      ['/en/mybusiness/funnel', 'Funnel', false],
      ['/en/mybusiness/people', 'People', false],
      ['/en/mybusiness/sales', 'Sales', false],
      ['/en/mybusiness/team', 'Team', false],
    ]);
  });
});

describe('the IBO an address names', () => {
  it('is refused when any `ibo` in it is another than the page\'s own; empty or its own is no refusal', () => {
    const other = (q: string) => namesOtherIbo(new URLSearchParams(q), 7);
    expect(other('')).toBe(false);
    expect(other('ibo=&ibo=7')).toBe(false);
    expect(other('ibo=8')).toBe(true);
    expect(other('ibo=7&ibo=8')).toBe(true);
    expect(other('ibo=07')).toBe(true);
    expect(other(`ibo=${'x'.repeat(1000)}`)).toBe(true);
  });
});
