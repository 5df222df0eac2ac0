/**
 * The sign-up form's consent box for the request a page renders: which IBO it names and whether it
 * starts ticked (`signUpOffer`: the IBO session's confirmed prospect, else the `ref` cookie's last
 * link), or null when no IBO is involved. After a failed post without JavaScript, the box keeps what
 * was posted.
 */
import type { AstroGlobal } from 'astro';
import { signUpOffer } from '~/lib/business';
import { REFERRAL_COOKIE } from '~/lib/identity/referral';

/** What `RegisterForm`'s `sharing` prop takes. */
export async function signUpSharing(Astro: AstroGlobal, posted?: { text(name: string): string; failed: boolean }): Promise<{ company: string; ticked: boolean } | null> {
  const offer = await signUpOffer(Astro.locals.runtime.db, { visitorId: Astro.cookies.get(REFERRAL_COOKIE)?.value, session: Astro.locals.session });
  if (!offer) return null;
  const ticked = posted?.failed ? posted.text('iboSharing') === 'on' : offer.ticked;
  return { company: offer.ibo.companyName, ticked };
}
