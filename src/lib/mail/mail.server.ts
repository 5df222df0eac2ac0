/**
 * Sends mail with nodemailer: through SMTP when `SMTP_URL` is set, otherwise by writing each message
 * as an `.eml` file to `<DATA_DIR>/outbox/` (open it with any mail program; names sort by time).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { outboxFileName, readMailConfig, type MailConfig, type MailMessage, type MailReceipt } from './mail';

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
        const info = await transport.sendMail(message);
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
      const info = await transport.sendMail(message);
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

const KEY = Symbol.for('academy.mailer');
type Holder = { [KEY]?: Mailer };

/** The process-wide mailer, configured from the environment on first use. */
export function getMailer(): Mailer {
  const g = globalThis as Holder;
  g[KEY] ??= createMailer(readMailConfig());
  return g[KEY];
}

/** Replaces the process-wide mailer (tests, or a server that configures mail itself). */
export function setMailer(mailer: Mailer | undefined): void {
  const g = globalThis as Holder;
  g[KEY]?.close();
  if (mailer) g[KEY] = mailer;
  else delete g[KEY];
}

/**
 * Sends one message with the process-wide mailer. A configuration problem (a bad `SMTP_URL`) is
 * reported as a rejected promise like any other sending failure, so callers handle one failure path.
 */
export async function sendMail(message: MailMessage): Promise<MailReceipt> {
  return getMailer().send(message);
}
