import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, MAX_MESSAGE_BYTES, reconnectDelayMs } from './bus';

describe('bus messages', () => {
  it('round-trips a message and refuses anything that is not one of ours', () => {
    const text = encodeMessage({ from: 'abc', topic: 'session', data: { userId: 7 } });
    expect(decodeMessage(text)).toEqual({ from: 'abc', topic: 'session', data: { userId: 7 } });
    expect(decodeMessage('not json')).toBeNull();
    expect(decodeMessage('{"from":"abc","topic":"payments","data":{}}')).toBeNull();
    expect(decodeMessage('{"topic":"catalog","data":{}}')).toBeNull();
    expect(decodeMessage(JSON.stringify({ from: 'x'.repeat(65), topic: 'catalog' }))).toBeNull();
  });

  it('refuses a message larger than PostgreSQL NOTIFY carries', () => {
    expect(() => encodeMessage({ from: 'abc', topic: 'person', data: { big: 'x'.repeat(MAX_MESSAGE_BYTES) } })).toThrow(/limit is 7000/);
  });

  it('waits longer after each failed reconnection, never more than 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([200, 400, 800, 1600, 3200, 5000, 5000]);
  });
});
