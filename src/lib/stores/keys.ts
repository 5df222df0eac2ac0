/** The browser storage keys the academy uses (`language`, `contact`, `tracking`; plus the identity's). */
export const STORAGE_KEYS = {
  language: 'language',
  contact: 'contact',
  tracking: 'tracking',
  /** Non-secret info of the logged-in user (name, e-mail, avatar, type). */
  user: 'user',
  /** Non-secret info of the IBO session (company, code, image). */
  ibo: 'ibo',
  /** Set for the rest of the tab's life once the welcome modal was dismissed. */
  welcomeDismissed: 'welcome-dismissed',
  /** Exam answers the server has not confirmed yet (given offline or still on their way). */
  examAnswers: 'exam-answers',
} as const;
