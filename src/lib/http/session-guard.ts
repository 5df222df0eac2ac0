/**
 * Browser side of the rule "a 401 or 403 response clears everything and sends the user to the
 * home page". Islands pass every response status (fetch or action error) through `guardStatus`.
 */
import { clearIdentity } from '../stores/identity';

/** True (and the visitor is sent home with identity cleared) when the status says the session is gone. */
export function guardStatus(status: number, home = '/'): boolean {
  if (status !== 401 && status !== 403) return false;
  clearIdentity();
  // Already at home (a stored identity checked on the home page): clearing it is all there is to do.
  if (location.pathname !== home) location.assign(home);
  return true;
}

/** The HTTP status of an Astro Action error code. */
export function actionErrorStatus(code: string | undefined): number {
  return code === 'UNAUTHORIZED' ? 401 : code === 'FORBIDDEN' ? 403 : 400;
}
