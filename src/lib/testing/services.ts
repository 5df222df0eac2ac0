/** Whether the optional services integration tests use are reachable, so tests can skip with a clear message. */
import Redis from 'ioredis';

/** True when a Redis server answers PING at `url` within a second. */
export async function redisReachable(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
