/**
 * The pages `npm run bench:reports` measures, one line each: the back office's lists and pages (as a
 * staff session holding every role reads them) and the learner pages measured alone and while reports
 * run. A page that answers 404 is skipped with a note (one not built yet). `{…}` names a value the
 * benchmark reads from the filled database before it starts:
 *
 * - `{personId}`: the learner with the most lesson progress (their user id); `{personEmail}`, `{personName}`;
 * - `{orderId}`: the newest paid order; `{couponId}`: the coupon most used; `{messageId}`: the newest support message;
 * - `{courseId}`: a course that learner follows; `{certificateCode}`: a certificate's code;
 * - `{yearFrom}`, `{yearTo}`, `{monthFrom}`: the last 365 days and the last 30 (YYYY-MM-DD, UTC), `{iboId}`: the IBO that referred most learners.
 *
 * `csv: true`: an export, read as a stream; the server's memory is sampled while it downloads.
 */
export interface BenchUrl {
  name: string;
  path: string;
  csv?: boolean;
}

/** The back office (threshold: p95 < 300 ms on PostgreSQL at the full data set). */
export const REPORT_URLS: BenchUrl[] = [
  { name: 'dashboard', path: '/admin' },
  { name: 'dashboard (en)', path: '/en/admin' },
  { name: 'support inbox', path: '/admin/support' },
  { name: 'support inbox: new', path: '/admin/support?status=new' },
  { name: 'support inbox: page 50', path: '/admin/support?page=50' },
  { name: 'support message', path: '/admin/support/{messageId}' },
  { name: 'coupons', path: '/admin/coupons' },
  { name: 'coupon and its uses', path: '/admin/coupons?coupon={couponId}' },
  { name: 'certificates by e-mail', path: '/admin/certificates?q={personEmail}' },
  { name: 'certificates by code', path: '/admin/certificates?q={certificateCode}' },
  { name: 'audit log', path: '/admin/audit' },
  { name: 'audit log: last 30 days', path: '/admin/audit?from={monthFrom}&to={yearTo}' },
  { name: 'audit log: page 100', path: '/admin/audit?page=100' },
  { name: 'courses', path: '/admin/courses' },
  { name: 'question banks', path: '/admin/questions' },
  { name: 'staff', path: '/admin/staff' },
  // Pages of the back office being built: measured once they answer.
  { name: 'people: search by name', path: '/admin/people?q={personName}' },
  { name: 'people: search by e-mail', path: '/admin/people?q={personEmail}' },
  { name: 'person', path: '/admin/people/{personId}' },
  { name: 'orders', path: '/admin/orders' },
  { name: 'orders: refunded, last year', path: '/admin/orders?status=refunded&from={yearFrom}&to={yearTo}' },
  { name: 'order', path: '/admin/orders/{orderId}' },
  { name: 'memberships', path: '/admin/memberships' },
  { name: 'IBOs', path: '/admin/ibos' },
  { name: 'IBO', path: '/admin/ibos/{iboId}' },
  { name: 'reports', path: '/admin/reports' },
  { name: 'report: enrolments', path: '/admin/reports/enrolments?from={yearFrom}&to={yearTo}' },
  { name: 'report: progress funnel', path: '/admin/reports/funnel?from={yearFrom}&to={yearTo}' },
  { name: 'report: exam results', path: '/admin/reports/exams?from={yearFrom}&to={yearTo}' },
  { name: 'report: item analysis', path: '/admin/reports/exams?course={courseId}&from={yearFrom}&to={yearTo}' },
  { name: 'report: revenue', path: '/admin/reports/revenue?from={yearFrom}&to={yearTo}' },
  { name: 'report: acquisition', path: '/admin/reports/acquisition?from={yearFrom}&to={yearTo}' },
  { name: 'CSV: enrolments', path: '/admin/reports/enrolments.csv?from={yearFrom}&to={yearTo}', csv: true },
  { name: 'CSV: orders of a year', path: '/admin/reports/orders.csv?year=2026', csv: true },
  { name: 'CSV: revenue of a year', path: '/admin/reports/revenue.csv?from={yearFrom}&to={yearTo}', csv: true },
];

/** The learner's pages, measured alone and while reports are requested in a loop. */
export const LEARNER_URLS: (BenchUrl & { who: 'visitor' | 'learner' })[] = [
  { name: 'catalogue', path: '/courses', who: 'visitor' },
  { name: 'course page', path: '/courses-details/{courseId}', who: 'visitor' },
  { name: 'my learning', path: '/mylearning', who: 'learner' },
  { name: 'lesson player (progress)', path: '/course-tracking/{courseId}', who: 'learner' },
];
