/** The scheduler's handlers of "My data": archives and account deletions. */
import type { Scheduler } from '../jobs/jobs.server';
import { runDeletion, type DeletionJobDeps } from './deletion.server';
import { runExport, type ExportJobDeps } from './export.server';
import { type Step } from '../faults/step';
import { DELETION_JOB, EXPORT_JOB } from './privacy';

/** Registers both jobs; `step` is a fault test's crash point (nothing in production). */
export function registerPrivacyJobs(scheduler: Scheduler, deps: ExportJobDeps & Omit<DeletionJobDeps, 'db' | 'storage' | 'now'>, step?: Step): void {
  scheduler.handle(EXPORT_JOB, (payload) => runExport(deps, payload, step));
  scheduler.handle(DELETION_JOB, (payload) => runDeletion(deps, payload, step));
}
