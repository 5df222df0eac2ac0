/**
 * Outgoing e-mail: the message shape, the configuration read from the environment, and the name of
 * outbox files. Pure: no I/O. Any part of the academy that sends mail (contact notifications,
 * password resets …) builds a `MailMessage` and hands it to `sendMail` from `mail.server.ts`.
 */
import { join } from 'node:path';
import { z } from '../zod';
import { ConfigError } from '~/lib/config/error';
import { site } from '~/lib/site';

/** One e-mail to send. Plain text always; HTML only when the sender has a reason for it. */
export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Where answers go (the visitor who wrote through the contact form, for instance). */
  replyTo?: string | { name: string; address: string };
  /** Files sent with it (a receipt's PDF). */
  attachments?: MailAttachment[];
}

/** A file attached to an e-mail. */
export interface MailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

/** What a transport answers for a message it accepted. */
export interface MailReceipt {
  messageId: string;
  /** The `.eml` file written when mail goes to the outbox folder instead of an SMTP server. */
  file?: string;
}

/** Sends one message; rejects when the transport refuses it or cannot be reached. */
export type SendMail = (message: MailMessage) => Promise<MailReceipt>;

/** How mail leaves the process. */
export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://…`; `null` writes every message to `outboxDir` instead. */
  smtpUrl: string | null;
  /** The From header. */
  from: string;
  /** Where messages are written as `.eml` files when there is no SMTP server. */
  outboxDir: string;
  /** Give up on an unresponsive SMTP server after this long, so a visitor is never kept waiting minutes. */
  timeoutMs: number;
}

const smtpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
    } catch {
      return false;
    }
  });

/** A bare address or a `Name <address>` pair. */
const fromAddress = z
  .string()
  .trim()
  .refine((v) => {
    const address = /<([^<>]+)>\s*$/.exec(v)?.[1] ?? v;
    return z.email().safeParse(address.trim()).success && !/[\r\n]/.test(v);
  });

/** The From header used when `MAIL_FROM` is not set. */
export const DEFAULT_FROM = `${site.name} <${site.email}>`;

/**
 * Reads `SMTP_URL`, `MAIL_FROM`, `MAIL_TIMEOUT_MS` and `DATA_DIR` (the outbox is `<DATA_DIR>/outbox`).
 * Throws `ConfigError` with a fix-it sentence on a bad value.
 */
export function readMailConfig(env: Record<string, string | undefined> = process.env): MailConfig {
  let url: string | null = null;
  if (env.SMTP_URL !== undefined && env.SMTP_URL.trim() !== '') {
    if (!smtpUrl.safeParse(env.SMTP_URL).success) {
      throw new ConfigError(
        'SMTP_URL is not an SMTP URL: use smtp://user:password@host:587 or smtps://user:password@host:465, or unset it to write mail to <DATA_DIR>/outbox.',
      );
    }
    url = env.SMTP_URL.trim();
  }
  let from = DEFAULT_FROM;
  if (env.MAIL_FROM !== undefined && env.MAIL_FROM.trim() !== '') {
    if (!fromAddress.safeParse(env.MAIL_FROM).success) {
      throw new ConfigError(`MAIL_FROM "${env.MAIL_FROM}" is not an e-mail address: use name@example.com or "Name <name@example.com>".`);
    }
    from = env.MAIL_FROM.trim();
  }
  let timeoutMs = 15_000;
  if (env.MAIL_TIMEOUT_MS !== undefined && env.MAIL_TIMEOUT_MS.trim() !== '') {
    timeoutMs = Number(env.MAIL_TIMEOUT_MS);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
      throw new ConfigError(`MAIL_TIMEOUT_MS "${env.MAIL_TIMEOUT_MS}" is not a number of milliseconds: use a whole number of at least 100 (default 15000).`);
    }
  }
  const dataDir = env.DATA_DIR?.trim() || './data';
  return { smtpUrl: url, from, outboxDir: join(dataDir, 'outbox'), timeoutMs };
}

/**
 * The outbox file name of a message: UTC time to the millisecond first, so that a plain sort of the
 * folder lists mail in the order it was sent, then a unique part so two messages never collide.
 */
export function outboxFileName(at: Date, unique: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  const safe = unique.replace(/[^A-Za-z0-9]/g, '').slice(0, 24) || 'mail';
  return `${stamp}-${safe}.eml`;
}
