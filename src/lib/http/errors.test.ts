import { describe, expect, it } from 'vitest';
import { acceptedRequestId, unexpectedErrorMessage } from './errors';
import { createLogger, errorLogger } from './log.server';
import { newRequestId } from './errors.server';

describe('request ids', () => {
  it('are random, URL-safe and 16 characters long', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newRequestId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('are taken from a request only from a trusted proxy, and only when safe-looking', () => {
    expect(acceptedRequestId('abc12345-proxy', false)).toBeNull();
    expect(acceptedRequestId('abc12345-proxy', true)).toBe('abc12345-proxy');
    for (const bad of ['short', '<script>alert(1)</script>', 'a'.repeat(65), 'id with spaces', 'id\nforged-log-line']) expect(acceptedRequestId(bad, true), bad).toBeNull();
    expect(acceptedRequestId(undefined, true)).toBeNull();
  });
});

describe('unexpected errors', () => {
  const failed = Object.assign(new Error('Failed query: insert into "contact_messages" ("name") values ($1)\nparams: Ana\u0000,ana@example.com'), { cause: new Error('invalid byte sequence') });

  it('are logged as one JSON line with the request id, method, path, message, cause and stack', () => {
    const lines: string[] = [];
    errorLogger(createLogger('info', { write: (l: string) => void lines.push(l) }))({ requestId: 'req-12345678', method: 'POST', path: '/_actions/contact.send', error: failed, where: 'action contact.send' });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.trimEnd()).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'error',
      msg: 'request failed',
      requestId: 'req-12345678',
      method: 'POST',
      path: '/_actions/contact.send',
      error: expect.stringContaining('Failed query'),
      cause: 'invalid byte sequence',
      stack: expect.stringContaining('errors.test.ts'),
    });
    // The query's parameters (here a name and an e-mail) stay out of the log too.
    expect(line).toContain('params: [redacted]');
    expect(line).not.toContain('ana@example.com');
  });

  it('are told to people in their language with the id, and nothing of the error', () => {
    expect(unexpectedErrorMessage('en', 'abc123')).toBe('Something went wrong on our side. Please try again in a moment. Error reference: abc123');
    expect(unexpectedErrorMessage('es', 'abc123')).toContain('Referencia del error: abc123');
  });
});
