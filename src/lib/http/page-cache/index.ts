/**
 * The page cache: the only code that knows how pages are kept (keys, audiences, each reader's own
 * parts, pages kept for one person, validators and 304 answers). The server answers kept pages before
 * Astro runs and the middleware looks them up and keeps them, both through `lookUp`, `answer` and `keep`.
 */
export {
  SESSION_COOKIE,
  hasSessionCookie,
  cacheableRequest,
  SHARED_CACHE_CONTROL,
  PRIVATE_CACHE_CONTROL,
  isPrivateCacheControl,
} from './keys';
export { personalMarks } from './personal';
export { PageCache, PersonStamps, PersonalPartsCache, type CachedPage, type PageOwner } from './store';
export { answer, answerResponse, type AnswerRequest, type KeptAnswer, type KeptHit } from './answer';
export { lookUp, type Lookup, type PageRequest, type PageCacheRuntime } from './lookup.server';
export { keep, keepForAudience, encodedBody, type Declared, type Rendered } from './keep.server';
