import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FROM } from '../config/settings';
import { outboxFileName } from './mail';
import { createMailer } from './mail.server';
import { readConfig } from '../config/config';

describe('outbox file names', () => {
  it('sort in the order the mail was written', () => {
    const a = outboxFileName(new Date('2024-05-01T09:59:59.999Z'), 'ffff');
    const b = outboxFileName(new Date('2024-05-01T10:00:00.000Z'), '0000');
    const c = outboxFileName(new Date('2024-12-31T23:00:00.000Z'), 'aaaa');
    expect(a).toBe('20240501T095959999Z-ffff.eml');
    expect([c, b, a].sort()).toEqual([a, b, c]);
  });

  it('keep only safe characters from the unique part', () => {
    expect(outboxFileName(new Date(0), '../../etc/passwd')).toBe('19700101T000000000Z-etcpasswd.eml');
    expect(outboxFileName(new Date(0), '///')).toBe('19700101T000000000Z-mail.eml');
  });
});

describe('mailer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'academy-mail-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each message as a complete .eml file in the outbox', async () => {
    const outbox = join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, from: 'Academia <no-reply@example.com>', outboxDir: outbox, timeoutMs: 1000 });
    expect(mailer.kind).toBe('outbox');
    const first = await mailer.send({ to: 'staff@example.com', subject: 'Hola — ñandú', text: 'Línea 1\nLínea 2', replyTo: { name: 'Ana', address: 'ana@example.com' } });
    const second = await mailer.send({ to: 'staff@example.com', subject: 'Second', text: 'Two' });
    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    expect(join(outbox, files[0]!)).toBe(first.file);
    expect(join(outbox, files[1]!)).toBe(second.file);
    const eml = await readFile(first.file!, 'utf8');
    expect(eml).toMatch(/^From: Academia <no-reply@example\.com>$/m);
    expect(eml).toMatch(/^To: staff@example\.com$/m);
    expect(eml).toMatch(/^Reply-To: Ana <ana@example\.com>$/m);
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(first.messageId).toMatch(/^<.+>$/);
  });

  it('rejects when the outbox cannot be written', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const mailer = createMailer({ smtpUrl: null, from: DEFAULT_FROM, outboxDir: join(file, 'outbox'), timeoutMs: 1000 });
    await expect(mailer.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
  });

  it('rejects quickly when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: DEFAULT_FROM, outboxDir: dir, timeoutMs: 2000 });
    expect(mailer.kind).toBe('smtp');
    await expect(mailer.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });

  it.each([
    ['accepts the connection but never greets', false],
    ['greets, then stops answering', true],
  ])('gives up after the timeout when the SMTP server %s', async (_what, greets) => {
    // A mail server that hangs (overloaded, or a firewall that swallows packets) must not hold the
    // visitor's request for ever: the caller gets a rejection and keeps the stored message.
    const held: Socket[] = [];
    const silent = createServer((socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
      if (greets) socket.write('220 mail.example.com ESMTP\r\n');
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: DEFAULT_FROM, outboxDir: dir, timeoutMs: 500 });
    try {
      const started = Date.now();
      await expect(mailer.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      mailer.close();
      for (const s of held) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('sends where the configuration says: the outbox in DATA_DIR without SMTP_URL', async () => {
    const config = readConfig({ DATA_DIR: dir });
    const mailer = createMailer(config.mail);
    try {
      expect(mailer.kind).toBe('outbox');
      const receipt = await mailer.send({ to: 'x@example.com', subject: 's', text: 't' });
      expect(receipt.file?.startsWith(join(dir, 'outbox'))).toBe(true);
    } finally {
      mailer.close();
    }
    expect(createMailer(readConfig({ DATA_DIR: dir, SMTP_URL: 'smtp://mail.example:587' }).mail).kind).toBe('smtp');
  });

});
