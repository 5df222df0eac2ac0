/**
 * Answers to an action's caller that the action itself never gave: its caller (the actions client, or
 * a script) reads Astro's action error shape, so an action refused before or around its handler (the
 * database out of reach while the session is checked, say) is answered in that shape too, never with
 * an HTML page or plain text. Pure.
 */
import { isLocale, type Locale } from '~/i18n/locales';
import { ruleOf } from '~/actions/access';

/** Whether a request calls an action: a POST to `/_actions/…` (RPC) or a form posted with `?_action=`. */
export function actionRequest(method: string | undefined, url: URL): boolean {
  return method === 'POST' && (url.pathname.startsWith('/_actions/') || url.searchParams.has('_action'));
}

/** Astro's serialized `ActionError` ("service unavailable") carrying `message`. */
export function busyActionError(message: string): { status: 503; body: string } {
  return { status: 503, body: JSON.stringify({ type: 'AstroActionError', code: 'SERVICE_UNAVAILABLE', status: 503, message }) };
}

/** The input field naming the language of the action a request calls, as the action declares it (`lang` by default). */
export function actionLocaleField(url: URL): string | null {
  const name = url.pathname.startsWith('/_actions/') ? url.pathname.slice('/_actions/'.length) : url.searchParams.get('_action');
  const declared = name === null ? undefined : ruleOf(name)?.locale;
  return declared === 'request' ? null : (declared ?? 'lang');
}

/**
 * The language an action's input names (the field its declaration names, `lang` for most): read from a
 * copy of the posted form or JSON body; `null` when it names none or the body is unreadable.
 */
export async function actionInputLocale(request: Request): Promise<Locale | null> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const field = actionLocaleField(new URL(request.url));
  if (field === null) return null;
  try {
    if (type === 'application/json') {
      const body: unknown = JSON.parse(await request.text());
      const lang = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
      return isLocale(lang) ? lang : null;
    }
    if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
      const lang = (await request.formData()).get(field);
      return isLocale(lang) ? lang : null;
    }
  } catch {
    // An unreadable body names no language.
  }
  return null;
}
