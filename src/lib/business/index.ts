export * from './business';
export { ownedIbo, loadShareKit, iboQr, loadBusinessPage, loadBusinessGate, type BusinessPageView } from './business.server';
export { qrAnswer } from './qr-answer.server';
