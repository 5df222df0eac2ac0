/**
 * One registry of the academy's URLs. Navigation, the sitemap, hreflang links and tests build URLs
 * here and nowhere else. Spanish is unprefixed; English lives under `/en`.
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from '~/i18n/locales';
import { hasForbiddenCharacters } from '~/lib/forms/characters';

/** A readable URL segment from a name ("Módulo 1: Bienvenida" → "modulo-1-bienvenida"); only decorative, ids decide. */
export function slug(name: string): string {
  const s = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'x';
}

/** Builders for every route the site serves. */
export const paths = {
  home: '/',
  login: '/login',
  /** Enter as a guest with an IBO code (the welcome modal's guest path, without JavaScript). */
  guest: '/guest',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: (token: string) => `/reset-password?token=${encodeURIComponent(token)}`,
  aboutUs: '/about-us',
  contactUs: '/contact-us',
  privacy: '/privacity',
  /** Terms of purchase and use. */
  terms: '/terms',
  courses: '/courses',
  course: (id: number) => `/courses-details/${id}`,
  coursesInCategory: (categoryId: number) => `/courses?category=${categoryId}`,
  coursesInBusiness: (businessId: number) => `/courses?business=${businessId}`,
  books: '/books',
  plans: '/plans',
  membership: '/membership',
  myLearning: '/mylearning',
  myShopping: '/myshopping',
  /** An IBO owner's business: their share kit (links, QR code, ready messages). */
  myBusiness: '/mybusiness',
  /** The IBO's funnel over a period (`from`, `to` in the query): visits, prospects, sign-ups, buyers, revenue. */
  myBusinessFunnel: '/mybusiness/funnel',
  /** The IBO's people (`show`, `q`, `page` in the query): prospects and the people who let the IBO see them. */
  myBusinessPeople: '/mybusiness/people',
  /** The orders the IBO referred with their commissions, and the monthly statements (`page` in the query). */
  myBusinessSales: '/mybusiness/sales',
  /** The IBOs the IBO sponsored, two levels deep, with their funnels over a period (`from`, `to`). */
  myBusinessTeam: '/mybusiness/team',
  /** The link in a nudge's e-mail that stops every IBO's nudges to a person (`c`: the contact, `t`: its token). */
  nudgeStop: (contactId: number, token: string) => `/nudges/stop?c=${contactId}&t=${encodeURIComponent(token)}`,
  /** The QR code of the IBO's link as an image (`format`: png or svg; `lang`: the language of a refusal). */
  myBusinessQr: (format: 'png' | 'svg', lang: string) => `/mybusiness/qr.${format}?lang=${encodeURIComponent(lang)}`,
  /** An affiliate link that opens one course in the IBO's session (`/{code}?course={id}`). */
  affiliateCourse: (code: string, courseId: number) => `/${encodeURIComponent(code)}?course=${courseId}`,
  /** An IBO's affiliate link (`/{code}`). */
  affiliate: (code: string) => `/${encodeURIComponent(code)}`,
  search: (q: string) => `/courses?q=${encodeURIComponent(q)}`,
  purchase: '/purchase',
  /** The checkout: order summary and payment form (`coupon`: a code to apply). */
  purchaseDetail: '/purchase-detail',
  checkoutWithCoupon: (coupon: string) => `/purchase-detail?coupon=${encodeURIComponent(coupon)}`,
  /** One of the person's orders (/myshopping-detail/{id}); `paid` shows the payment's success message. */
  myShoppingDetail: (orderId: number, paid = false) => `/myshopping-detail/${orderId}${paid ? '?paid=1' : ''}`,
  /** An order's receipt as a PDF (`lang`: the page's language). */
  receiptPdf: (orderId: number, lang: string) => `/myshopping-detail/${orderId}/receipt.pdf?lang=${encodeURIComponent(lang)}`,
  /** A bought book's PDF, generated for its owner (`lang`: the page's language). */
  bookDownload: (bookId: number, lang: string) => `/book-download/${bookId}?lang=${encodeURIComponent(lang)}`,
  profile: '/profile',
  /** The account's security: password, e-mail address, open sessions. */
  profileSecurity: '/profile/security',
  /** Opens an e-mailed link that confirms an address (after sign-up, or a change of address). */
  confirmEmail: (token: string) => `/confirm-email?token=${encodeURIComponent(token)}`,
  /** My data: download an archive of one's data, or delete the account (`deletionCancelled`: the notice after a login cancelled a deletion). */
  myData: '/my-data',
  myDataDeletionCancelled: '/my-data?deletionCancelled=1',
  /** An archive of one's data (the link mailed when it is ready; only its owner's session downloads it). */
  myDataDownload: (token: string) => `/my-data/download/${encodeURIComponent(token)}`,
  indexVariant: (n: 2 | 3) => `/index-${n}`,
  events: '/event',
  eventDetails: (slug?: string) => (slug ? `/events-details/${slug}` : '/events-details'),
  faq: (n: 1 | 2) => `/faq-${n}`,
  portfolio: '/portfolio',
  blog: (layout: 'classic-grid' | 'classic-sidebar' | 'list-sidebar' | 'standard-sidebar') => `/blog-${layout}`,
  blogPost: (slug?: string) => (slug ? `/blog-details/${slug}` : '/blog-details'),
  contactVariant: (n: 1 | 2) => `/contact-${n}`,
  searchApi: '/api/search',
  /** The lesson player on the course's resume point. */
  courseTracking: (courseId: number) => `/course-tracking/${courseId}`,
  /** The lesson player on the first lesson of a module (/course-tracking/{course}/{topic}/{id}). */
  courseTrackingModule: (courseId: number, topicName: string, topicId: number) => `/course-tracking/${courseId}/${slug(topicName)}/${topicId}`,
  /** The lesson player on one lesson (/course-tracking/{course}/{topic}/{subtopic}/{id}). */
  courseTrackingLesson: (courseId: number, topicName: string, lessonName: string, lessonId: number) =>
    `/course-tracking/${courseId}/${slug(topicName)}/${slug(lessonName)}/${lessonId}`,
  /** A course's exam introduction: its rules and the start button. */
  courseExamInfo: (courseId: number) => `/course-exam-info/${courseId}`,
  /** A course's exam in progress (/course-exam/{id}). */
  courseExam: (courseId: number) => `/course-exam/${courseId}`,
  /** A course's exam result: the latest graded attempt, or attempt number `attempt` (/course-result). */
  courseResult: (courseId: number, attempt?: number) => `/course-result?course=${courseId}${attempt === undefined ? '' : `&attempt=${attempt}`}`,
  /** A course's certificate. */
  courseCertificate: (courseId: number) => `/course-certificate/${courseId}`,
  /** Issues the logged-in person's certificate of a completed course (/course-generate). */
  courseGenerate: (courseId: number) => `/course-generate?course=${courseId}`,
  /** The certificate's printable PDF (`lang`: the page's language). */
  certificatePdf: (courseId: number, lang: string) => `/course-certificate/${courseId}/pdf?lang=${encodeURIComponent(lang)}`,
  /** The certificate's signed Open Badges credential (VC-JWT). */
  certificateCredential: (courseId: number) => `/course-certificate/${courseId}/credential`,
  /** After the password, a staff account's code (TOTP or recovery code); `next`: where to go then. */
  secondFactor: (next?: string) => (next ? `/second-factor?next=${encodeURIComponent(next)}` : '/second-factor'),
  /** A staff account sets up its second factor (QR code, first code, recovery codes). */
  secondFactorSetup: '/second-factor/setup',
  /** The back office: the dashboard of the areas the staff member's roles open. */
  admin: '/admin',
  /** Staff management (administrators): roles granted and removed, second factors reset. */
  adminStaff: '/admin/staff',
  /** Certificates (administrators): found by code or the holder's e-mail (`query`), revoked with a reason. */
  adminCertificates: (query = '') => `/admin/certificates${query}`,
  /** The courses list of the back office (editors); `query`: its search. */
  adminCourses: (query = '') => `/admin/courses${query}`,
  /** A course's editor: its draft (editors). */
  adminCourse: (courseId: number) => `/admin/courses/${courseId}`,
  /** A course's draft as a learner would see its page (editors). */
  adminCoursePreview: (courseId: number) => `/admin/courses/${courseId}/preview`,
  /** The published course as one archive (`course.json` and its media) to move it to another academy (editors). */
  adminCourseExport: (courseId: number, lang: string) => `/admin/courses/${courseId}/export?lang=${lang}`,
  /** The audit log (administrators); `query`: its filters. */
  adminAudit: (query = '') => `/admin/audit${query}`,
  /** The question banks (editors): every course with an exam. */
  adminQuestions: '/admin/questions',
  /** One course's question bank and exam settings; `query`: a question being edited (`?edit=7`). */
  adminQuestionBank: (courseId: number, query = '') => `/admin/questions/${courseId}${query}`,
  /** The CSV export of a course's question bank; `lang`: the language of its refusals. */
  adminQuestionBankCsv: (courseId: number, lang: string) => `/admin/questions/${courseId}/bank.csv?lang=${encodeURIComponent(lang)}`,
  /** Books (editors): the list and the new book's form; with `id`, that book's form. */
  adminBooks: (id?: number) => (id === undefined ? '/admin/books' : `/admin/books?book=${id}`),
  /** Membership plans (editors): the list and the new plan's form; with `id`, that plan's form. */
  adminPlans: (id?: number) => (id === undefined ? '/admin/plans' : `/admin/plans?plan=${id}`),
  /** Coupons (finance): the list and the new coupon's form; with `id`, that coupon's form and its uses. */
  adminCoupons: (id?: number) => (id === undefined ? '/admin/coupons' : `/admin/coupons?coupon=${id}`),
  /** A coupon's uses (finance): the orders that redeemed it, page `page`. */
  adminCouponUses: (id: number, page = 1) => `/admin/coupons?coupon=${id}${page > 1 ? `&uses=${page}` : ''}#uses`,
  /** Memberships (finance); `query`: its search, filters and page. */
  adminMemberships: (query = '') => `/admin/memberships${query}`,
  /** One membership (finance): its facts, orders, history and changes. */
  adminMembership: (id: number) => `/admin/memberships/${id}`,
  /** One order of the back office (finance). */
  adminOrder: (id: number) => `/admin/orders/${id}`,
  /** The reports (editors, finance, administrators: each report asks its own role). */
  adminReports: '/admin/reports',
  /** One report; its filters are the query (`from`, `to`, `bucket`, `course`, `category`, `business`, `ibo`). */
  adminReport: (key: string, query = '') => `/admin/reports/${key}${query}`,
  /** One report as a CSV download (the same query, `lang` for its headers). */
  adminReportCsv: (key: string, query = '') => `/admin/reports/${key}.csv${query}`,
  /** IBO commissions (administrators): the rates and the payouts. */
  adminCommissions: '/admin/commissions',
  /** An IBO's commission statement of a month ("2026-05") as a PDF or CSV download (owners of an active IBO). */
  myBusinessStatement: (month: string, format: 'pdf' | 'csv', lang: string) => `/mybusiness/statements/${month}.${format}?lang=${encodeURIComponent(lang)}`,
  /** IBOs (administrators): the list; `query`: its search and page. */
  adminIbos: (query = '') => `/admin/ibos${query}`,
  /** The form of a new IBO (administrators). */
  adminIboNew: '/admin/ibos/new',
  /** One IBO's form, suspension and logo (administrators). */
  adminIbo: (iboId: number) => `/admin/ibos/${iboId}`,
  /** An IBO's logo staff uploaded (public: the header of the IBO's visitors shows it). */
  iboLogo: (name: string) => `/media/ibo-logo/${name}`,
  /** A book cover staff uploaded (public, like the books page). */
  bookCover: (name: string) => `/media/book-cover/${name}`,
  /** The back office's orders (finance); `query`: its search, filters and page. */
  adminOrders: (query = '') => `/admin/orders${query}`,
  /** The support inbox (support staff, administrators); `query`: its filters and page. */
  adminSupport: (query = '') => `/admin/support${query}`,
  /** One contact message of the support inbox, with its thread and forms. */
  adminSupportMessage: (messageId: number) => `/admin/support/${messageId}`,
  /** People (support staff, administrators): the search; `query`: the text and page. */
  adminPeople: (query = '') => `/admin/people${query}`,
  /** One person's page: profile, learning, orders, sessions and the actions on them. */
  adminPerson: (userId: number) => `/admin/people/${userId}`,
  /** The video library (editors): uploads, their conversion, caption tracks; `video`: one video's page. */
  adminVideos: '/admin/videos',
  adminVideo: (videoId: number) => `/admin/videos/${videoId}`,
  /** The resumable upload endpoint (tus) of the video library; an upload's own address is below it. */
  videoUploads: '/admin/videos/uploads',
  /** The state of the library's videos as JSON (the library polls it while a video converts). */
  videoStatusApi: '/api/videos/status',
  /** A library video's HLS files and poster for the editors' preview (`file`: `master.m3u8`, `poster.jpg`…). */
  videoPreviewFile: (videoId: number, file: string) => `/media/video/${videoId}/${file}`,
  /** A library video's caption track for the editors' preview. */
  videoPreviewCaption: (videoId: number, lang: string) => `/media/video/${videoId}/captions-${lang}.vtt`,
  /** The public verification page of a certificate (no login). */
  verify: (code: string) => `/verify/${encodeURIComponent(code)}`,
  /** The public keys certificates are signed with (JWKS). */
  jwks: '/.well-known/jwks.json',
  /** The academy as an Open Badges issuer (`Profile`): the `issuer.id` of every credential. */
  issuerProfile: '/credentials/issuer.json',
  /** A published revocation list of the certificates' credentials (W3C Bitstring Status List), numbered from 1. */
  statusList: (list: number) => `/credentials/status/${list}`,
  /** Progress events over HTTP when the socket is unavailable (and `navigator.sendBeacon`). */
  trackingApi: '/api/tracking',
  /** A lesson resource's bytes (video or document), access-checked, with HTTP Range support. */
  resourceFile: (resourceId: number) => `/media/resource/${resourceId}`,
  /** A video resource's caption track in one language (WebVTT), access-checked. */
  captionFile: (resourceId: number, lang: string) => `/media/resource/${resourceId}/captions/${lang}.vtt`,
  /** A video resource's HLS master playlist (its renditions and segments are addressed relative to it), access-checked. */
  resourceHls: (resourceId: number) => `/media/resource/${resourceId}/hls/master.m3u8`,
} as const;

/** The URL of `path` in `locale` (`/en/about-us` for English, `/about-us` for Spanish). */
export function localePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return clean === '/' ? `/${locale}/` : `/${locale}${clean}`;
}

/** Splits a pathname into its locale and the locale-free path (`/en/courses` → en, `/courses`). */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const m = /^\/([a-z]{2})(\/.*)?$/.exec(pathname);
  if (m && isLocale(m[1]) && m[1] !== DEFAULT_LOCALE) return { locale: m[1], path: normalize(m[2] ?? '/') };
  return { locale: DEFAULT_LOCALE, path: normalize(pathname) };
}

/** Removes a trailing slash (but keeps `/`) and `index.html`, so one page has one canonical path. */
export function normalize(path: string): string {
  const p = path.replace(/index\.html$/, '').replace(/\.html$/, '');
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p || '/';
}

/** The page's address in every language, for hreflang links and the language switcher. */
export function alternates(path: string): { locale: Locale; href: string }[] {
  return (['es', 'en'] as const).map((locale) => ({ locale, href: localePath(locale, path) }));
}

/** Every public page that search engines should know, without its language prefix (sitemap). */
export const PUBLIC_PAGES: readonly string[] = [
  paths.home,
  paths.indexVariant(2),
  paths.indexVariant(3),
  paths.courses,
  paths.books,
  paths.plans,
  paths.membership,
  paths.aboutUs,
  paths.contactUs,
  paths.contactVariant(1),
  paths.contactVariant(2),
  paths.privacy,
  paths.terms,
  paths.events,
  paths.faq(1),
  paths.faq(2),
  paths.portfolio,
  paths.blog('classic-grid'),
  paths.blog('classic-sidebar'),
  paths.blog('list-sidebar'),
  paths.blog('standard-sidebar'),
];

/** The origin `safeNext` resolves against: only where the result points matters, not this name. */
const SAME_SITE = 'http://same-site.invalid';

/** Most characters of a `next` address, before and after normalization. */
const MAX_NEXT = 500;

/**
 * Whether an address to go to holds a character it never may: control characters (a browser's URL
 * parser drops tab and line breaks, so `/\t/evil.example` would become `//evil.example`), DEL, lone
 * surrogates, and the backslash, which browsers read as `/`.
 */
const unsafeInNext = (text: string) => text.includes('\\') || hasForbiddenCharacters(text);

/**
 * A same-site path to go on to after a form (`next=`), or `null`: never another site (no open redirect).
 * The result is the URL parser's own normalization of `raw` (dot segments resolved, `%2e` read as a
 * dot), so what is checked is what a browser will follow: it starts with exactly one `/`, has no
 * scheme or host, and resolves on this site. Feeding a result back in gives the same result.
 */
export function safeNext(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NEXT || !raw.startsWith('/') || unsafeInNext(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, SAME_SITE);
  } catch {
    return null;
  }
  if (url.origin !== SAME_SITE) return null;
  const out = url.pathname + url.search + url.hash;
  // `/.//evil.example` normalizes to `//evil.example`: a path that a browser reads as another host.
  if (out.length > MAX_NEXT || !out.startsWith('/') || out.startsWith('//') || unsafeInNext(out)) return null;
  return out;
}
