export { LOCALES, DEFAULT_LOCALE, isLocale, toLocale, messages, format, keyPaths, type Locale } from './i18n';
export type { Messages } from './types';
export { plural, type Plural } from './plural';
