export * from './privacy';
export { zip, zipNames } from '../zip/zip';
export { recordAudit, auditOf, userRef, type AuditEntry } from './audit.server';
export { ExportLinks, linkTokenHash } from './links.server';
export { requestExport, exportsOf, exportForDownload, collectArchive, runExport, exportKey, exportFolder, moveExportsIntoStorage, type ExportJobDeps } from './export.server';
export { type Step } from '../faults/step';
export { requestDeletion, cancelDeletion, pendingDeletion, keptCertificates, runDeletion, type DeletionRequest, type DeletionJobDeps } from './deletion.server';
export { registerPrivacyJobs } from './jobs.server';
export { loadMyDataPage, type MyDataPage } from './pages.server';
