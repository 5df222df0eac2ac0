/** Account actions: login, logout, registration, password reset. */
export const auth = {};
