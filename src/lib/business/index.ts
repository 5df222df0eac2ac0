export * from './business';
export { ownedIbo, loadShareKit, iboQr, loadBusinessPage, type BusinessPageView } from './business.server';
export { qrAnswer } from './qr-answer.server';
