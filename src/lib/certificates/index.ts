export * from './certificates';
export { certificateByCode, certificateCredential, findCertificate, hasCompletedCourse, holderOf, issueCertificate, revokeCertificate, type IssueOutcome } from './certificates.server';
export { certificatePdf } from './pdf.server';
export { qrPng, qrSvg } from './qr.server';
export { checkCertificateCredential, signCertificate, verifyCredential } from './credentials.server';
export { jwks, type SigningKey } from './signing.server';
export { issueAndNotify, type IssueContext } from './mail.server';
export { loadGeneratePage, loadOwnCertificate, verifyCode, type GeneratePage, type Verification } from './pages.server';
export { revokeEverywhere, type RevocationContext } from './revoke.server';
