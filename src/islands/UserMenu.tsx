/**
 * The header's user slot: a login link for a visitor; for a learner, a menu with the
 * avatar, name and e-mail, my learning, my shopping and log out; for an IBO session, a menu with the
 * company name, the code and a close-session item. It shows the browser's stored identity, which the
 * server keeps in step on every page it renders (`SessionSync`). On a prerendered page, where the
 * server said nothing, a stored identity is checked with `auth.verify`: a 401 or 403 clears every
 * stored identity and sends the visitor home. The menus are `<details>`, so they open without
 * JavaScript too, and log out is a form posting to the `auth.logout` action.
 */
import { useEffect, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { actions } from 'astro:actions';
import { useStore } from '@nanostores/react';
import { format } from '~/i18n/format';
import type { Locale } from '~/i18n/locales';
import { guardStatus } from '~/lib/http/session-guard';
import { displayName } from '~/lib/forms/characters';
import { $ibo, $user, clearIdentity, syncIdentity, type SessionSummary, type StoredIbo, type StoredUser } from '~/lib/stores/identity';
import '~/styles/user-menu.css';

/** The texts of the slot. */
export interface UserMenuText {
  login: string;
  myLearning: string;
  myShopping: string;
  logout: string;
  profile: string;
  security: string;
  /** 'Account menu of {name}'. */
  account: string;
  /** 'IBO session of {company}'. */
  ibo: string;
  /** 'Code: {code}'. */
  code: string;
  closeSession: string;
  /** The back office, for staff accounts. */
  backOffice: string;
  /** My business, for an IBO's own account. */
  myBusiness: string;
}

interface Props {
  locale: Locale;
  t: UserMenuText;
  hrefs: { login: string; myLearning: string; myShopping: string; profile: string; security: string; home: string; admin: string; myBusiness: string };
  /** Where the log-out form posts without JavaScript. */
  logoutAction: string;
  /** What the server knows of the session, or `null` on a prerendered page. */
  session: SessionSummary | null;
  /** The login link's icon (server-rendered). */
  children?: ReactNode;
}

/** Up to two initials of a name, for an avatar without a picture. */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join('');
}

/** A round picture, or the initials of `name` when there is none. Decorative: the name is always written beside it. */
function Avatar({ name, imageUrl, size }: { name: string; imageUrl: string | null; size: number }) {
  return imageUrl ? (
    <img className="avatar" src={imageUrl} alt="" width={size} height={size} />
  ) : (
    <span className="avatar avatar-initials" aria-hidden="true" style={{ width: size, height: size }}>
      {initials(name)}
    </span>
  );
}

export default function UserMenu({ locale, t, hrefs, logoutAction, session, children }: Props) {
  const storedUser = useStore($user);
  const storedIbo = useStore($ibo);
  const [mounted, setMounted] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    // Server-rendered: the server's word first (so the menu never shows a stale identity).
    if (session) syncIdentity(session);
    setMounted(true);
    if (session || ($user.get() === null && $ibo.get() === null)) return;
    // Prerendered page with a stored identity: is the session still there?
    actions.auth
      .verify()
      .then(({ data, error }) => {
        if (error) guardStatus(error.status, hrefs.home);
        else if (data.user) syncIdentity({ kind: 'user', user: data.user });
        else if (data.ibo) syncIdentity({ kind: 'ibo', ibo: data.ibo, contact: data.contact });
      })
      .catch(() => undefined);
  }, []);

  // Close the menu on Escape or a click elsewhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && menu.current?.open) {
        menu.current.open = false;
        menu.current.querySelector('summary')?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(e.target as Node)) menu.current.open = false;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  async function logout(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await actions.auth.logout(new FormData(event.currentTarget));
    } catch {
      /* unreachable server: forget locally anyway; its next page will say who is logged in */
    }
    clearIdentity();
    location.assign(hrefs.home);
  }

  // Before hydration finishes, draw what the server knows (the stores are the browser's).
  const user: StoredUser | null = mounted ? storedUser : session?.kind === 'user' ? session.user : null;
  const ibo: StoredIbo | null = mounted ? storedIbo : session?.kind === 'ibo' ? session.ibo : null;

  const logoutForm = (label: string) => (
    <form method="post" action={logoutAction} onSubmit={logout}>
      <input type="hidden" name="lang" value={locale} />
      <button type="submit" className="menu-item">
        {label}
      </button>
    </form>
  );

  if (user) {
    const fullName = `${displayName(user.name)} ${displayName(user.lastName)}`;
    return (
      <details className="dropdown user-menu" ref={menu}>
        <summary aria-label={format(t.account, { name: fullName })}>
          <Avatar name={fullName} imageUrl={user.imageUrl} size={32} />
          <span className="user-menu-name">
            <bdi>{displayName(user.name)}</bdi>
          </span>
        </summary>
        <div className="dropdown-list user-menu-list">
          <a className="user-card" href={hrefs.profile}>
            <Avatar name={fullName} imageUrl={user.imageUrl} size={44} />
            <span>
              <strong>
                <bdi>{fullName}</bdi>
              </strong>
              <span className="user-email">{user.email}</span>
            </span>
          </a>
          <ul>
            {session?.kind === 'user' && session.staff && (
              <li>
                <a href={hrefs.admin}>{t.backOffice}</a>
              </li>
            )}
            {session?.kind === 'user' && session.business && (
              <li>
                <a href={hrefs.myBusiness}>{t.myBusiness}</a>
              </li>
            )}
            <li>
              <a href={hrefs.myLearning}>{t.myLearning}</a>
            </li>
            <li>
              <a href={hrefs.myShopping}>{t.myShopping}</a>
            </li>
            <li>
              <a href={hrefs.profile}>{t.profile}</a>
            </li>
            <li>
              <a href={hrefs.security}>{t.security}</a>
            </li>
            <li>{logoutForm(t.logout)}</li>
          </ul>
        </div>
      </details>
    );
  }

  if (ibo) {
    return (
      <details className="dropdown user-menu" ref={menu}>
        <summary aria-label={format(t.ibo, { company: displayName(ibo.companyName) })}>
          <Avatar name={displayName(ibo.companyName)} imageUrl={ibo.imageUrl} size={32} />
          <span className="user-menu-name">
            <bdi>{displayName(ibo.companyName)}</bdi>
          </span>
        </summary>
        <div className="dropdown-list user-menu-list">
          <p className="user-card">
            <span>
              <strong>
                <bdi>{displayName(ibo.companyName)}</bdi>
              </strong>
              <span className="user-email">{format(t.code, { code: ibo.code })}</span>
            </span>
          </p>
          <ul>
            <li>{logoutForm(t.closeSession)}</li>
          </ul>
        </div>
      </details>
    );
  }

  return (
    <a className="button button-small" href={hrefs.login}>
      {children} {t.login}
    </a>
  );
}
