/** The tracking socket's handshake: who may connect to which course, and from which origin (a real server, on every test database). */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type ManagerOptions } from 'socket.io-client';
import { testDatabases } from '../db/testing';
import { attachRealtime } from './socket.server';
import { trackingServer } from './tracking.server.testing';

const databases = await testDatabases();

describe.each(databases)('progress tracking on $name', ({ create }) => {
  const f = trackingServer(create);
  const { people, newLearner, uncached, connect, refusalOf, row, lessons } = f;

  describe('connection', () => {
    it('refuses a socket without a valid session, or without a person to track', async () => {
      expect(await refusalOf(null, 1)).toBe('unauthorized');
      expect(await refusalOf('forged-token', 1)).toBe('unauthorized');
      expect(await refusalOf(people.iboWithout.token, 1)).toBe('unauthorized');
    });

    it('refuses a course id that is not one', async () => {
      for (const bad of [undefined, 'abc', -1, 0, 1.5, '1; drop table tracking', { id: 1 }]) expect(await refusalOf(people.learner.token, bad), String(bad)).toBe('invalid');
    });

    it('refuses courses the access rules refuse this person', async () => {
      expect(await refusalOf(people.learner.token, 999)).toBe('forbidden'); // unknown
      expect(await refusalOf(people.learner.token, 6)).toBe('forbidden'); // paid, not bought
      expect(await refusalOf(people.learner.token, 10)).toBe('forbidden'); // buyers only
      expect(await refusalOf(people.learner.token, 32)).toBe('forbidden'); // needs course 31 completed
      expect(await refusalOf(people.learner.token, 12)).toBe('forbidden'); // hidden test course
      expect(await refusalOf(people.iboWithProspect.token, 6)).toBe('forbidden'); // guests: free courses only
    });

    it('lets in the people the access rules allow', async () => {
      expect(await refusalOf(people.learner.token, 1)).toBe('connected');
      expect(await refusalOf(people.learner.token, '1')).toBe('connected');
      expect(await refusalOf(people.buyer.token, 10)).toBe('connected');
      expect(await refusalOf(people.buyer.token, 6)).toBe('connected');
      expect(await refusalOf(people.iboWithProspect.token, 1)).toBe('connected');
    });
  });

  describe('origin of the handshake', () => {
    const port = () => new URL(f.base).port;
    const elsewhere = () => ['http://evil.example', `https://127.0.0.1:${port()}`, `http://127.0.0.1:${Number(port()) + 1}`, `http://localhost:${port()}`, 'null'];

    it('refuses a handshake from another origin, over polling and over websocket, and nothing is written', async () => {
      const person = await newLearner('otro.origen@example.com');
      const lesson = lessons(f.course1)[1]!;
      for (const transports of [['polling'], ['websocket'], ['polling', 'websocket']] as const) {
        for (const origin of elsewhere()) {
          const outcome = connect(person.token, 1, { headers: { origin }, transports: [...transports] }).then(
            (sock) => {
              // What a hostile page would send once connected.
              sock.emit('tracking play', { Identificador: lesson.id, Avance: 3 });
              return 'connected';
            },
            () => 'refused',
          );
          expect(await outcome, `${origin} over ${transports.join('+')}`).toBe('refused');
        }
        // Sec-Fetch-Site says another origin (of this site or another) and no Origin was sent.
        for (const site of ['cross-site', 'same-site']) {
          expect(await refusalWith(person.token, { 'sec-fetch-site': site }, [...transports]), `${site} over ${transports.join('+')}`).toBe('refused');
        }
      }
      expect(await row(person.contactId, lesson.id)).toBeUndefined();
      // The polling handshake itself answers 403.
      expect(await pollingHandshake({ origin: 'http://evil.example' })).toBe(403);
      expect(await pollingHandshake({ origin: f.base })).toBe(200);
    });

    it('lets in its own origin, and a client that sends no Origin at all (not a browser)', async () => {
      for (const transports of [['polling'], ['websocket']] as const) {
        expect(await refusalWith(people.learner.token, { origin: f.base }, [...transports])).toBe('connected');
        expect(await refusalWith(people.learner.token, { origin: f.base, 'sec-fetch-site': 'same-origin' }, [...transports])).toBe('connected');
        expect(await refusalWith(people.learner.token, {}, [...transports])).toBe('connected');
      }
      // Its own origin, still the session and the course decide.
      expect(await refusalWith(null, { origin: f.base }, ['websocket'])).toBe('unauthorized');
    });

    it('believes X-Forwarded-Proto only when told to trust the proxy', async () => {
      const servers = [false, true].map((trustProxy) => {
        const h = createServer();
        const sio = attachRealtime(h, f.runtime, { ...uncached(), now: () => f.clock, redisUrl: null, trustProxy });
        return { h, sio };
      });
      const [plain, proxied] = await Promise.all(
        servers.map(async ({ h }) => {
          await new Promise<void>((r) => h.listen(0, '127.0.0.1', r));
          return `http://127.0.0.1:${(h.address() as AddressInfo).port}`;
        }),
      );
      // The visitor's page is https://<host>; a TLS proxy in front forwards plain HTTP and says so.
      const https = (at: string) => ({ origin: at.replace('http:', 'https:'), 'x-forwarded-proto': 'https' });
      for (const transports of [['polling'], ['websocket']] as const) {
        expect(await refusalWith(people.learner.token, https(plain!), [...transports], plain)).toBe('refused');
        expect(await refusalWith(people.learner.token, https(proxied!), [...transports], proxied)).toBe('connected');
        // Trusted or not, the scheme must still match.
        expect(await refusalWith(people.learner.token, { origin: proxied!, 'x-forwarded-proto': 'https' }, [...transports], proxied)).toBe('refused');
      }
      for (const { h, sio } of servers) {
        await new Promise<void>((r) => sio.close(() => r()));
        h.close();
      }
    });

    /** 'connected', 'refused' (the handshake was turned away) or the server's refusal message. */
    function refusalWith(token: string | null, headers: Record<string, string>, transports: ManagerOptions['transports'], at?: string) {
      return connect(token, 1, { headers, transports, ...(at ? { at } : {}) }).then(
        (sock) => {
          sock.disconnect();
          return 'connected';
        },
        (err: Error & { type?: string }) => (err.type === 'TransportError' || /error/.test(err.message) ? 'refused' : err.message),
      );
    }

    /** The status of a raw polling handshake request with these headers. */
    function pollingHandshake(headers: Record<string, string>): Promise<number> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(`${f.base}/socket.io/?EIO=4&transport=polling`, { headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    }
  });
});
