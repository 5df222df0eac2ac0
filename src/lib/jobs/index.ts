export * from './jobs';
export { createScheduler, enqueue, cancelJob, type Scheduler, type SchedulerOptions } from './jobs.server';
export { registerSessionPurge, SESSION_PURGE_INTERVAL_MS } from './session-purge.server';
