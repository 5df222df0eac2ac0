// @vitest-environment happy-dom
/**
 * The live people page in the browser: a refresh puts the fresh list, counts, summary and pager in
 * place, keeps open the people the IBO had open, and names who made progress when they are on the
 * page; events arriving together make one read of the page; closing stops listening.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import { LIVE_GATHER_MS, startPeopleLive, swapParts } from './people-live-client';

const page = (people: { id: number; name: string; open?: boolean }[], count: string) => `
  <div class="biz-people">
    <ul class="biz-quick"><li><a>Todas (${count})</a></li></ul>
    <p class="report-summary">En esta vista: ${count}.</p>
    <ul class="biz-people-list">${people.map((p) => `<li class="biz-person" data-contact="${p.id}"><h2 class="biz-person-name">${p.name}</h2><details${p.open ? ' open' : ''}><summary>x</summary></details></li>`).join('')}</ul>
  </div>`;
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('the live people page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('swaps the list, counts and summary, keeps open who was open, and names the person when listed', () => {
    document.body.innerHTML = page([{ id: 1, name: 'Ana' }, { id: 2, name: 'Bruno', open: true }], '2');
    const fresh = parse(page([{ id: 3, name: 'Carla' }, { id: 2, name: 'Bruno' }, { id: 1, name: 'Ana' }], '3'));
    expect(swapParts(document, fresh, 3)).toBe('Carla');
    expect([...document.querySelectorAll('.biz-person')].map((el) => (el as HTMLElement).dataset.contact)).toEqual(['3', '2', '1']);
    expect(document.querySelector('.biz-quick')?.textContent).toContain('Todas (3)');
    expect(document.querySelector('.report-summary')?.textContent).toBe('En esta vista: 3.');
    expect(document.querySelector('.biz-person[data-contact="2"] details')?.hasAttribute('open')).toBe(true);
    expect(document.querySelector('.biz-person[data-contact="1"] details')?.hasAttribute('open')).toBe(false);
    // Someone not on this page (another filter or page): no name.
    expect(swapParts(document, fresh, 99)).toBeNull();
  });

  it('reads the page once for events that arrive together, and stops when closed', async () => {
    vi.useFakeTimers();
    document.body.innerHTML = page([{ id: 1, name: 'Ana' }], '1');
    const fetched = vi.fn(async () => new Response(page([{ id: 1, name: 'Ana' }, { id: 5, name: 'Eva' }], '2')));
    vi.stubGlobal('fetch', fetched);
    const handlers = new Map<string, (m: unknown) => void>();
    const socket = { on: (event: string, fn: (m: unknown) => void) => handlers.set(event, fn), close: vi.fn() } as unknown as Socket;
    const told: (string | null)[] = [];
    const live = startPeopleLive((name) => told.push(name), () => socket);
    handlers.get('person')!({ contactId: 1 });
    handlers.get('person')!({ contactId: 5 });
    await vi.advanceTimersByTimeAsync(LIVE_GATHER_MS + 10);
    await vi.waitFor(() => expect(told).toEqual(['Eva']));
    expect(fetched).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll('.biz-person')).toHaveLength(2);
    live.close();
    expect(socket.close).toHaveBeenCalled();
  });
});
