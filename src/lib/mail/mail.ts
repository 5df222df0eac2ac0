/**
 * Outgoing e-mail: the message shape and the name of outbox files. Pure: no I/O. Any part of the
 * academy that sends mail (contact notifications, password resets …) builds a `MailMessage` and hands
 * it to `sendMail` from `mail.server.ts`. How mail leaves (`SMTP_URL`, `MAIL_FROM`, `MAIL_TIMEOUT_MS`)
 * is the configuration's `mail` setting.
 */
export type { MailConfig } from '../config/config';

/** One e-mail to send. Plain text always; HTML only when the sender has a reason for it. */
export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Where answers go (the visitor who wrote through the contact form, for instance). */
  replyTo?: string | { name: string; address: string };
  /** The Message-ID (`<…@…>`): the same one on a message sent again after a crash lets mail servers keep one. */
  messageId?: string;
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

/**
 * The outbox file name of a message: UTC time to the millisecond first, so that a plain sort of the
 * folder lists mail in the order it was sent, then a unique part so two messages never collide.
 */
export function outboxFileName(at: Date, unique: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  const safe = unique.replace(/[^A-Za-z0-9]/g, '').slice(0, 24) || 'mail';
  return `${stamp}-${safe}.eml`;
}
