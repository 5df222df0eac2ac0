/**
 * The answer of the QR code downloads (`/mybusiness/qr.png`, `/mybusiness/qr.svg`): the owner of an
 * active IBO gets the image of their link as an attachment; anyone else a sentence in the language of
 * `?lang=` and a 401 (not logged in with an account: a visitor, an IBO session opened with a code) or a
 * 403 (an account owning no IBO, a suspended IBO). Never kept by any cache.
 */
import { messages } from '~/i18n';
import { callerOf } from '../access/policy';
import { requestLocale } from '../http/locale';
import type { SessionInfo } from '../identity/session.server';
import type { Db } from '../db/client';
import { businessGate, QR_FORMATS, qrFileName, type QrFormat } from './business';
import { iboQr, ownedIbo } from './business.server';

/** What the answer reads of the request. */
export interface QrRequest {
  url: URL;
  headers: Headers;
  session: SessionInfo | null | undefined;
  db: Db;
  /** The public origin the link in the code is built with. */
  origin: string;
}

/** The QR code of the caller's IBO link in `qrFormat`, or a refusal in words. */
export async function qrAnswer(req: QrRequest, qrFormat: QrFormat): Promise<Response> {
  const locale = requestLocale(req.url, req.headers);
  const t = messages(locale).business.refusals;
  const base = { 'Cache-Control': 'private, no-store', 'Content-Language': locale, 'Referrer-Policy': 'no-referrer' };
  const userId = req.session?.user?.id;
  const gate = businessGate(callerOf(req.session), userId === undefined ? null : await ownedIbo(req.db, userId));
  if (gate.kind !== 'owner') {
    const [status, sentence] =
      gate.kind === 'login' ? [401, t.login] : gate.kind === 'suspended' ? [403, t.suspended] : [gate.status, gate.reason === 'iboSession' ? t.iboSession : t.notOwner];
    return new Response(sentence, { status, headers: { ...base, 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const body = await iboQr(req.origin, gate.ibo, locale, qrFormat);
  return new Response(typeof body === 'string' ? body : (body as Uint8Array<ArrayBuffer>), {
    headers: {
      ...base,
      'Content-Type': qrFormat === 'svg' ? `${QR_FORMATS.svg}; charset=utf-8` : QR_FORMATS.png,
      'Content-Disposition': `attachment; filename="${qrFileName(gate.ibo.code, qrFormat)}"`,
    },
  });
}
