/**
 * The request pipeline of pages rendered on demand: one-purpose steps, in this order (each step's
 * `next()` runs the ones below it, then the page).
 */
import { sequence } from 'astro:middleware';
import { ActionError, getActionContext } from 'astro:actions';
import { DatabaseBusy } from '../actions/define';
import { requestId } from './request-id';
import { failures } from './failures';
import { varyOnCookies } from './vary';
import { sameSite } from './same-site';
import { session } from './session';
import { locale } from './locale';
import { protectedPaths } from './protected-paths';
import { actions } from './actions';
import { pageCache } from './page-cache';
import { statusFixups } from './status-fixups';

export const onRequest = sequence(
  requestId,
  failures,
  varyOnCookies,
  sameSite,
  session,
  locale,
  protectedPaths,
  // Actions run before the cache: a posted action is never answered from it.
  actions({ getActionContext, ActionError, DatabaseBusy }),
  // The session is read before the cache key is made from it.
  pageCache,
  statusFixups,
);
