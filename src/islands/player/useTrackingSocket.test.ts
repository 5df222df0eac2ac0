// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackingAck } from '~/lib/learning/learning';
import type { TrackingClient, TrackingClientOptions } from '~/lib/realtime/tracking-client';
import { useTrackingSocket, type LastPosition, type TrackingSocketOptions } from './useTrackingSocket';

/** A stand-in for the socket: answers each event with the next queued acknowledgement. */
function fakeClient() {
  const answers: TrackingAck[] = [];
  const sent: [string, number, number, boolean][] = [];
  const beacons: [number, number, boolean][] = [];
  let options: TrackingClientOptions | null = null;
  let closed = false;
  const client: TrackingClient = {
    send: async (event, lessonId, position, playing) => {
      sent.push([event, lessonId, position, playing]);
      return answers.shift() ?? { ok: false, error: 'unavailable' };
    },
    beacon: (lessonId, position, playing) => void beacons.push([lessonId, position, playing]),
    close: () => void (closed = true),
  };
  return {
    connect: (o: TrackingClientOptions) => ((options = o), client),
    answers,
    sent,
    beacons,
    get options() {
      return options!;
    },
    get closed() {
      return closed;
    },
  };
}

const stored = (lesson: number, at: number, completed = false): TrackingAck => ({ ok: true, Identificador: lesson, Avance: at, furthest: at, played: at, completed });

function setup(last: LastPosition | null = null) {
  const fake = fakeClient();
  const calls = { stored: [] as [number, number, boolean][], problems: [] as (string | null)[], lost: 0 };
  const options: TrackingSocketOptions = {
    courseId: 7,
    contactId: 3,
    userId: 5,
    onStored: (...a) => void calls.stored.push(a),
    onProblem: (p) => void calls.problems.push(p),
    onSessionLost: () => void calls.lost++,
    lastPosition: () => last,
    connect: fake.connect,
  };
  const hook = renderHook(() => useTrackingSocket(options));
  return { fake, calls, hook };
}

afterEach(cleanup);

describe('useTrackingSocket', () => {
  it('connects once for the course and person, and closes when the player goes away', () => {
    const { fake, hook } = setup();
    expect(fake.options).toMatchObject({ courseId: 7, contactId: 3, userId: 5 });
    hook.rerender();
    expect(fake.closed).toBe(false);
    hook.unmount();
    expect(fake.closed).toBe(true);
  });

  it('says when the socket drops and when it comes back, and keeps reporting after the reconnection', async () => {
    const { fake, hook, calls } = setup();
    expect(hook.result.current.connected).toBe(false);
    act(() => fake.options.onConnectionChange!(true));
    expect(hook.result.current.connected).toBe(true);
    act(() => fake.options.onConnectionChange!(false));
    expect(hook.result.current.connected).toBe(false);
    act(() => fake.options.onConnectionChange!(true));
    expect(hook.result.current.connected).toBe(true);
    fake.answers.push(stored(11, 12.5));
    await act(() => hook.result.current.report('tracking', 11, 12.5, true));
    expect(fake.sent).toEqual([['tracking', 11, 12.5, true]]);
    expect(calls.stored).toEqual([[11, 12.5, false]]);
    expect(hook.result.current.saved).toBe('11@12.5');
  });

  it('tells a failed save, and clears it with the next stored report', async () => {
    const { fake, hook, calls } = setup();
    fake.answers.push({ ok: false, error: 'unavailable' }, { ok: false, error: 'rate-limited' }, { ok: false, error: 'invalid' }, stored(11, 20, true));
    for (let i = 0; i < 4; i++) await act(() => hook.result.current.report('tracking', 11, 20, true));
    expect(calls.problems).toEqual(['unavailable', 'rateLimited', 'invalid', null]);
    expect(calls.stored).toEqual([[11, 20, true]]);
    expect(hook.result.current.saved).toBe('11@20');
  });

  it('sends nothing more once the course is refused (an answer or the socket itself)', async () => {
    const { fake, hook } = setup();
    fake.answers.push({ ok: false, error: 'forbidden' });
    await act(() => hook.result.current.report('tracking play', 11, 0, true));
    expect(hook.result.current.forbidden).toBe(true);
    expect(await hook.result.current.report('tracking', 11, 5, true)).toBeNull();
    expect(fake.sent).toHaveLength(1);

    const other = setup();
    act(() => other.fake.options.onRefused('forbidden'));
    expect(other.hook.result.current.forbidden).toBe(true);
    expect(await other.hook.result.current.report('tracking', 11, 5, true)).toBeNull();
    expect(other.fake.sent).toHaveLength(0);
  });

  it('hands a lost session over (an answer or the socket refusing the handshake)', async () => {
    const { fake, hook, calls } = setup();
    fake.answers.push({ ok: false, error: 'unauthorized' });
    await act(() => hook.result.current.report('tracking', 11, 5, true));
    act(() => fake.options.onRefused('unauthorized'));
    expect(calls.lost).toBe(2);
    expect(hook.result.current.forbidden).toBe(false);
  });

  it("passes another tab's progress on as stored progress", () => {
    const { fake, calls } = setup();
    act(() => fake.options.onBroadcast({ Identificador: 12, Avance: 40, completed: true }));
    expect(calls.stored).toEqual([[12, 40, true]]);
  });

  it('sends a last position when the page is hidden or left, not when nothing played', () => {
    const playing = setup({ lessonId: 11, position: 33, playing: true });
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockRestore();
    window.dispatchEvent(new Event('pagehide'));
    expect(playing.fake.beacons).toEqual([
      [11, 33, true],
      [11, 33, true],
    ]);
    playing.hook.unmount();
    cleanup();

    const idle = setup({ lessonId: 11, position: 0, playing: false });
    window.dispatchEvent(new Event('pagehide'));
    expect(idle.fake.beacons).toEqual([]);
  });
});
