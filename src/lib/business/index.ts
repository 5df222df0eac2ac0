export * from './business';
export { ownedIbo, loadShareKit, iboQr, businessPageView, loadBusinessGate, type BusinessPageView } from './business.server';
export { qrAnswer } from './qr-answer.server';
export * from './consent';
export { visibleToIbo, u, ct, iboSharingOf, setIboSharing, signUpOffer, settleSignUpSharing, type IboSharing, type RelatedIbo, type SharingUpdate, type SignUpOffer } from './consent.server';
