/**
 * The bus's messages: what one process tells the others about a change, so every process's caches
 * agree (the catalogue, sessions, viewers). Pure: the topics, the wire format and its checks.
 */
import { z } from '../zod';

/** What a message is about. */
export const BUS_TOPICS = ['catalog', 'session', 'person'] as const;
export type BusTopic = (typeof BUS_TOPICS)[number];

/** PostgreSQL's NOTIFY carries at most 8,000 bytes; a message stays well below. */
export const MAX_MESSAGE_BYTES = 7000;

/** Delivered to every topic's subscribers after the bus reconnected: messages may have been missed, forget everything. */
export const RESYNC = Object.freeze({ resync: true });

const wireSchema = z.object({
  /** The sending process (a process ignores its own messages coming back). */
  from: z.string().min(1).max(64),
  topic: z.enum(BUS_TOPICS),
  data: z.unknown(),
});
export type WireMessage = z.infer<typeof wireSchema>;

/** The text sent for a message; throws when it is too large for the transport. */
export function encodeMessage(message: WireMessage): string {
  const text = JSON.stringify(message);
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) throw new Error(`bus message on "${message.topic}" is ${Buffer.byteLength(text)} bytes; the limit is ${MAX_MESSAGE_BYTES}`);
  return text;
}

/** A received text as a message, or `null` when it is not one of ours. */
export function decodeMessage(text: string): WireMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = wireSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** How long to wait before reconnection attempt `attempt` (1, 2, …): 200 ms doubling, at most 5 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(5000, 200 * 2 ** Math.max(0, Math.min(attempt - 1, 10)));
}
