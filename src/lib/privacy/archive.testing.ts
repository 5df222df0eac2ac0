/** For tests: what an archive holds. */

/** The archive of the demo learner (no orders, certificates or exam attempts of her own in the seed). */
export const DEMO_LEARNER_ARCHIVE = [
  'README.txt',
  'profile.json',
  'profile.csv',
  'lesson-progress.json',
  'lesson-progress.csv',
  'exam-attempts.json',
  'exam-attempts.csv',
  'certificates.json',
  'certificates.csv',
  'orders.json',
  'orders.csv',
  'order-items.json',
  'order-items.csv',
  'prospects.json',
  'prospects.csv',
  'consents.json',
  'consents.csv',
];
