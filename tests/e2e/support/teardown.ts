/**
 * After the journeys: the run's seeded database template goes. The server's data folder stays for a look
 * (under `npm test` it goes with the run's temporary folder, `scripts/scratch.mjs`).
 */
import { rm } from 'node:fs/promises';

export default async function teardown(): Promise<void> {
  if (process.env.E2E_TEMPLATE_DIR) await rm(process.env.E2E_TEMPLATE_DIR, { recursive: true, force: true });
}
