/**
 * zod, as every module of the academy imports it. In the browser it runs without compiled parsers:
 * zod probes for them with `new Function`, an eval our Content-Security-Policy forbids, and browsers
 * report the attempt as a security-policy violation even though zod catches it. The server keeps them.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
