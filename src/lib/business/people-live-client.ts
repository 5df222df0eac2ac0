/**
 * The browser side of the live people page: listens on the `/business` socket namespace and, when one
 * of the IBO's people made progress, reads the page again (as it is: same filter, search and page) and
 * puts its list, filter counts, summary and pager in place of the old ones, keeping open the people
 * the IBO had open. Events arriving together make one read. Nothing is sent over the socket.
 */
import { io, type Socket } from 'socket.io-client';

/** The parts of the page a refresh replaces, by selector. */
export const LIVE_PARTS = ['.biz-people-list', '.biz-quick', '.biz-people > .report-summary', '.biz-people .pager'] as const;

/** How long events are gathered before the page is read again (ms). */
export const LIVE_GATHER_MS = 250;

/** Swaps the live parts of `doc` for those of `fresh`, keeping open the people whose details were open; returns the name of `contactId` in the fresh list, if there. */
export function swapParts(doc: Document, fresh: Document, contactId: number | null): string | null {
  const open = new Set([...doc.querySelectorAll<HTMLElement>('.biz-person:has(details[open])')].map((el) => el.dataset.contact));
  for (const selector of LIVE_PARTS) {
    const now = doc.querySelector(selector);
    const next = fresh.querySelector(selector);
    if (now && next) now.replaceWith(doc.importNode(next, true));
    else if (now && !next) now.remove();
  }
  for (const id of open) doc.querySelector(`.biz-person[data-contact="${CSS.escape(id ?? '')}"] details`)?.setAttribute('open', '');
  if (contactId === null) return null;
  return doc.querySelector(`.biz-person[data-contact="${contactId}"] .biz-person-name`)?.textContent?.trim() || null;
}

export interface PeopleLive {
  close(): void;
}

/** Starts listening; `told` hears the name of the person who made progress (null when they are not on this page). */
export function startPeopleLive(told: (name: string | null) => void, connect: () => Socket = () => io('/business')): PeopleLive {
  const socket = connect();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last: number | null = null;
  const refresh = async () => {
    timer = null;
    const contactId = last;
    const answer = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
    if (!answer.ok) return;
    const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html');
    told(swapParts(document, fresh, contactId));
  };
  socket.on('person', (message: unknown) => {
    const id = (message as { contactId?: unknown } | null)?.contactId;
    last = typeof id === 'number' ? id : null;
    if (!timer) timer = setTimeout(() => void refresh().catch(() => undefined), LIVE_GATHER_MS);
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      socket.close();
    },
  };
}
