/**
 * Sends mail with nodemailer: through SMTP when `SMTP_URL` is set, otherwise by writing each message
 * as an `.eml` file to `<DATA_DIR>/outbox/` (open it with any mail program; names sort by time).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { outboxFileName, type MailConfig, type MailMessage, type MailReceipt } from './mail';

/** The message as nodemailer takes it (attachments as Buffers). */
function forNodemailer(message: MailMessage) {
  const { attachments, ...rest } = message;
  return attachments ? { ...rest, attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })) } : rest;
}

/** A configured way of sending mail. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailReceipt>;
  /** Closes pooled SMTP connections (nothing to do for the outbox). */
  close(): void;
}

/** Builds a mailer for a configuration; nothing is contacted until the first message. */
export function createMailer(config: MailConfig): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(
      {
        url: config.smtpUrl,
        connectionTimeout: config.timeoutMs,
        greetingTimeout: config.timeoutMs,
        socketTimeout: config.timeoutMs,
      },
      { from: config.from },
    );
    return {
      kind: 'smtp',
      async send(message) {
        const info = await transport.sendMail(forNodemailer(message));
        return { messageId: String(info.messageId) };
      },
      close: () => transport.close(),
    };
  }

  // No SMTP server: compose the full RFC 822 message in memory and keep it as a file.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from: config.from });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(forNodemailer(message));
      const at = new Date();
      const file = join(config.outboxDir, outboxFileName(at, randomBytes(6).toString('hex')));
      await mkdir(config.outboxDir, { recursive: true });
      // Write under a temporary name and rename, so a reader of the folder never sees half a message.
      const partial = `${file}.partial`;
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, file);
      return { messageId: String(info.messageId), file };
    },
    close: () => transport.close(),
  };
}
