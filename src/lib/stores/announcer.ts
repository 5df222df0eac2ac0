/** A polite live region for short status messages ("Added to cart"), shared by every script. */
import { atom } from 'nanostores';

/** The latest status message. */
export const $announcement = atom<{ text: string; at: number } | null>(null);

/** Shows and announces a short message. */
export function announce(text: string): void {
  if (text) $announcement.set({ text, at: Date.now() });
}
