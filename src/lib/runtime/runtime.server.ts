/**
 * The process's runtime: every service the academy's code uses, built once from one validated
 * configuration and handed down (the server passes it to Astro as `locals.runtime`, to the socket and
 * to the scheduler). Nothing else opens connections or reads the environment. Tests build their own.
 *
 * Caches that several processes must agree on (the catalogue, sessions, viewers) are told about
 * changes through the bus: PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or this process only on PGlite.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/config';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db, type DbHandle } from '../db/client';
import { watchOutages, type OutageWatch } from '../db/outage.server';
import { createLogger, type Logger } from '../http/log.server';
import { CatalogStore } from '../catalog/catalog.server';
import { cachedStore, ViewerCache, type PersonRef, type Store } from '../access/store.server';
import { SessionCache, sessionRefOf, type SessionRef } from '../identity/session-cache.server';
import { PageCache, PersonalPartsCache, PersonStamps } from '../http/page-cache';
import { publicOrigin } from '../http/public-origin';
import { createRateLimiter, registerRateLimitPurge, type RateLimiter } from '../http/rate-limit.server';
import { LIMITS, type LimitName } from '../http/rate-limit';
import { createMailer, type Mailer } from '../mail/mail.server';
import { Tracker } from '../learning/tracking.server';
import { createBus, type Bus } from '../bus';
import { createScheduler, registerSessionPurge, type Scheduler } from '../jobs';
import { ExportLinks, registerPrivacyJobs } from '../privacy';
import { registerSupportJobs } from '../support';
import { NUDGE_STOP_PURPOSE, registerNudgeJobs } from '../business/nudge.server';
import { registerExamGrading } from '../exams/exams.server';
import { ExamCache } from '../exams/exam-source.server';
import { registerMembershipRenewals } from '../commerce/memberships.server';
import { registerPaymentReconciler } from '../commerce/reconcile.server';
import { registerRefundReconciler } from '../orders/refunds.server';
import { changeCounts, registerIboChangesMerge } from '../business/changes.server';
import { NextRead } from '../next-read';
import { DatabaseSandboxLedger } from '../commerce/sandbox-ledger.server';
import { loadOrCreateSigningKey, type SigningKey } from '../certificates/signing.server';
import { StatusListCache } from '../certificates/status-list.server';
import { registerRevokedMail } from '../certificates/revoked-mail.server';
import type { PaymentGateway } from '../commerce/gateway';
import { SandboxGateway } from '../commerce/sandbox';
import { CheckoutKeys } from '../commerce/checkout-keys.server';
import { CheckoutService } from '../commerce/checkout.server';
import { SecretSeal, sealPlainSecrets, type Factors } from '../staff';
import { createStorage } from '../storage/create.server';
import type { Storage } from '../storage/storage';

export interface Runtime {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The open database (`database.db` is the Drizzle handle). */
  readonly database: DbHandle;
  readonly db: Db;
  /** The database with the catalogue snapshot and cached viewers. */
  readonly store: Store;
  readonly catalog: CatalogStore;
  /** Where stored files live (lesson media, uploads, renditions, documents): `<DATA_DIR>/files` by default, an S3-compatible bucket when `STORAGE=s3`. */
  readonly storage: Storage;
  readonly viewers: ViewerCache;
  readonly sessions: SessionCache;
  /** Whole pages kept for an audience (visitors, or everyone sharing one access context). */
  readonly pages: PageCache;
  /** Each logged-in reader's own parts of kept pages (the header's user menu). */
  readonly personalParts: PersonalPartsCache;
  /** Pages kept for one person (`locals.ownPage`: my learning, the player…), answered while `personStamps` says nothing of theirs changed. */
  readonly ownPages: PageCache;
  /** The counts of changes of some IBOs now, which a kept business page must still read the same (`changeCounts`). */
  changeCounts(ibos: readonly number[]): Promise<string>;
  /** The embedded database only: how many committed changes to IBOs' business this process was told of. */
  businessClock?: () => number;
  /** The pages being rendered for one person now (see the page cache step). */
  readonly ownRenders: Map<string, Promise<void>>;
  /** When each person's data last changed (progress, completions, purchases), here or in any process. */
  readonly personStamps: PersonStamps;
  readonly bus: Bus;
  readonly rateLimiter: RateLimiter;
  readonly mailer: Mailer;
  readonly tracker: Tracker;
  /** Each course's exam (settings and question pool), kept until the catalogue changes. */
  readonly exams: ExamCache;
  readonly scheduler: Scheduler;
  /** Where a failure is told first: the database out of reach is logged once per outage. */
  readonly outage: OutageWatch;
  /** The Ed25519 key certificates are signed with (`CERTIFICATE_SIGNING_KEY`, else kept in the data folder). */
  readonly signingKey: SigningKey;
  /** Who moves the money: Stripe when `STRIPE_SECRET_KEY` is set, the embedded sandbox otherwise. */
  readonly gateway: PaymentGateway;
  /** The tokens of "My data" archive links (derived from the signing key: the same in every process). */
  readonly exportLinks: ExportLinks;
  /** Staff second factors: the database and the seal their TOTP secrets are kept under. */
  readonly factors: Factors;
  /** The signed revocation lists of the certificates' credentials, kept briefly (dropped by any revocation's notice). */
  readonly statusLists: StatusListCache;
  /** Places and pays orders through `gateway` (one flight per checkout in this process). */
  readonly checkout: CheckoutService;
  /** This process's name in logs and job claims. */
  readonly workerId: string;
  /** The origin absolute URLs of a request use (`PUBLIC_URL`, else an allowed Host, else this machine). */
  siteOrigin(url: URL): string;
  /** The catalogue changed: every process drops its snapshot and pages. */
  catalogChanged(): Promise<void>;
  /** A course's exam (question bank, settings, regraded scores) changed: every process forgets it and drops its kept pages. */
  examChanged(courseId: number): Promise<void>;
  /** A session ended or changed: every process forgets what it kept. */
  sessionChanged(ref: SessionRef): Promise<void>;
  /** What a person may see changed (a course completed, a purchase, a membership): every process forgets their viewer. */
  personChanged(ref: PersonRef): Promise<void>;
  /**
   * Something a person's own pages show changed, but not what they may see (an exam attempt started or
   * failed): their kept pages are stale at once here and, batched like progress, in every process; their
   * viewer is kept (it would cost a query set to read again).
   */
  pagesChanged(contactId: number): void;
  /** Stops the scheduler, writes pending progress, closes the bus, mail, rate limits and the database. */
  close(): Promise<void>;
}

/** What a caller may provide instead of having the runtime build it (tests, the server's own logger). */
export interface RuntimeParts {
  database?: DbHandle;
  logger?: Logger;
  mailer?: Mailer;
  rateLimiter?: RateLimiter;
  bus?: Bus;
  /** The payment gateway (default: chosen by the configuration). */
  gateway?: PaymentGateway;
  /** Where stored files live (default: the configured one, `config.storage`). */
  storage?: Storage;
  /** Start the scheduler's timer (default true; tests run jobs with `scheduler.runDue`). */
  schedule?: boolean;
}

/** Builds the runtime: opens the database and connects the bus (a bad address fails here, with a fix-it sentence). */
export async function createRuntime(config: AppConfig, parts: RuntimeParts = {}): Promise<Runtime> {
  const logger = parts.logger ?? createLogger(config.logLevel);
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  // A malformed key stops the start with one sentence, before anything is opened.
  const signingKey = await loadOrCreateSigningKey(signingKeyFile(config.dataDir), config.certificateSigningKey ?? undefined);
  const database = parts.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const ownsDatabase = parts.database === undefined;
  let bus: Bus;
  try {
    bus =
      parts.bus ??
      createBus(
        config.redisUrl ? { kind: 'redis', redisUrl: config.redisUrl } : config.databaseUrl ? { kind: 'postgres', databaseUrl: config.databaseUrl } : { kind: 'local' },
        logger,
      );
    await bus.ready();
  } catch (err) {
    if (ownsDatabase) await database.close().catch(() => undefined);
    throw err;
  }
  const db = database.db;
  const catalog = new CatalogStore(db);
  const viewers = new ViewerCache(db);
  // Sessions are believed for long only while the bus hears every other process's log outs.
  const sessions = new SessionCache(db, { trustedSince: () => bus.listeningSince() });
  const pages = new PageCache();
  const ownPages = new PageCache(500);
  const personStamps = new PersonStamps();
  const changeCountReads = new NextRead((ibos: string) => changeCounts(db, ibos.split(',').map(Number)));
  // The embedded database tells this process of every committed change to an IBO's business: kept
  // business pages are checked against the database only after one (PostgreSQL: at every request).
  let businessChanges = 0;
  // Not hearing them (a database closed or out of reach at start) only means reading the counts at each request.
  const stopHearingBusiness = database.listen ? await database.listen('ibo_changes', () => void businessChanges++).catch(() => null) : null;
  const rateLimiter =
    parts.rateLimiter ??
    createRateLimiter({
      redisUrl: config.redisUrl,
      spec: (name: LimitName) => config.rateLimits[name] ?? LIMITS[name],
      warn: (line) => logger.warn(line),
      database: { db: database.db, kind: database.kind },
    });
  const mailer = parts.mailer ?? createMailer(config.mail);
  const tracker = new Tracker(db);
  const exams = new ExamCache(db);
  // The database out of reach is told once per outage (and once when it is back), not once per failure.
  const outage = watchOutages(logger, () => db.execute(sql`select 1`));
  const scheduler = createScheduler({ db, logger, workerId, outage });
  // Stripe's SDK (~35 MB of memory) is loaded only when it is configured; the sandbox keeps its charges
  // in the database, where a restarted process (and the reconciler) finds them.
  const gateway =
    parts.gateway ??
    (config.stripe.secretKey ? (await import('../commerce/stripe.server')).paymentGateway(config.stripe) : new SandboxGateway({ ledger: new DatabaseSandboxLedger(db), latencyMs: config.sandboxLatencyMs }));
  const exportLinks = await ExportLinks.fromSigningKey(signingKey.privateKey);
  const factors: Factors = { db, seal: await SecretSeal.fromSigningKey(signingKey.privateKey) };
  // Secrets stored before they were sealed (the demo's, an older database's) are sealed now.
  await sealPlainSecrets(factors).catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'could not seal stored second-factor secrets'));
  const storage = parts.storage ?? (await createStorage(config.storage));
  const ownsStorage = parts.storage === undefined;
  const checkout = new CheckoutService({ db, gateway, keys: await CheckoutKeys.fromSigningKey(signingKey.privateKey), logger: logger.child({ part: 'checkout' }) });

  // Other processes' changes (and, after a lost connection, everything: `resync`).
  // A course's exam changed (`{ exam: courseId }`) forgets that exam only; pages showing it are kept
  // pages, dropped with the catalogue's version. Anything else (a resync included) forgets every exam.
  bus.subscribe('catalog', (data) => {
    catalog.invalidate();
    const courseId = (data as { exam?: unknown } | null)?.exam;
    if (typeof courseId === 'number' && Number.isSafeInteger(courseId)) exams.forget(courseId);
    else exams.clear();
  });
  bus.subscribe('session', (data) => sessions.forget(sessionRefOf(data)));
  bus.subscribe('person', (data) => {
    const progress = progressNotice(data);
    if (progress) {
      // Progress stored by a process: only pages showing it are stale (what the people may see is not).
      for (const contactId of progress) personStamps.changed({ contactId });
      return;
    }
    const ref = personRef(data);
    if (ref) viewers.forget(ref);
    else viewers.clear();
    personStamps.changed(ref);
  });
  // A lesson completed can complete a course, which unlocks the next one.
  tracker.onCompleted((contactId) => void runtime.personChanged({ contactId }));
  // Progress just committed: this process's pages of that person are stale at once; the other
  // processes hear of it in batches (one notice per PROGRESS_NOTICE_MS, whatever the number of events).
  const noticeProgress = progressBatcher(bus, personStamps, logger);
  tracker.onStored((contactId) => noticeProgress.add(contactId));

  registerSessionPurge(scheduler, db, logger);
  registerIboChangesMerge(scheduler, db);
  registerRateLimitPurge(scheduler, db);
  // Attempts whose time is up are graded even if the browser never comes back; a pass completes a course.
  registerExamGrading(scheduler, db, (contactId) => void runtime.personChanged({ contactId }));
  registerMembershipRenewals(scheduler, db, gateway, (userId) => runtime.personChanged({ userId }), logger.child({ part: 'memberships' }));
  // Payment attempts a crash left unanswered are settled with the gateway's word (no order stays pending).
  registerPaymentReconciler(scheduler, db, gateway, (userId) => runtime.personChanged({ userId }), logger.child({ part: 'payments' }));
  // Refunds a crash left asked but unrecorded are finished with the gateway's word, by their stored key.
  registerRefundReconciler(scheduler, db, gateway, (userId) => runtime.personChanged({ userId }), logger.child({ part: 'refunds' }));
  // "My data": archives mailed as links, and account deletions when their 14 days are over.
  registerPrivacyJobs(scheduler, {
    db,
    storage,
    links: exportLinks,
    send: (message) => mailer.send(message),
    sessionChanged: (ref) => runtime.sessionChanged(ref),
    personChanged: (ref) => runtime.personChanged(ref),
    catalogChanged: () => runtime.catalogChanged(),
  });
  // Replies of the support inbox: each mailed once, after it is stored in its message's thread.
  registerSupportJobs(scheduler, { db, send: (message) => mailer.send(message) });
  // Nudges of an IBO's people: each mailed once, after it is stored, with its stop link.
  registerNudgeJobs(scheduler, { db, send: (message) => mailer.send(message), stopToken: (contactId) => exportLinks.sign(NUDGE_STOP_PURPOSE, contactId) });
  // A revocation's notice told again and the holder e-mailed, once the revocation is stored.
  registerRevokedMail(scheduler, { db, send: (message) => mailer.send(message), catalogChanged: () => runtime.catalogChanged() });
  if (parts.schedule !== false) scheduler.start();

  let closing: Promise<void> | null = null;
  const runtime: Runtime = {
    config,
    logger,
    database,
    db,
    store: cachedStore(db, catalog, viewers),
    catalog,
    storage,
    viewers,
    sessions,
    pages,
    personalParts: new PersonalPartsCache(),
    ownPages,
    personStamps,
    // Checked per request of a kept business page: requests together share the next read.
    changeCounts: (ibos) => changeCountReads.get(ibos.join(',')),
    ...(stopHearingBusiness ? { businessClock: () => businessChanges } : {}),
    ownRenders: new Map(),
    bus,
    rateLimiter,
    mailer,
    tracker,
    exams,
    scheduler,
    outage,
    signingKey,
    gateway,
    checkout,
    exportLinks,
    factors,
    statusLists: new StatusListCache(),
    workerId,
    siteOrigin: (url) => publicOrigin(config.origin, { host: url.host, protocol: url.protocol === 'https:' ? 'https:' : 'http:' }),
    catalogChanged: () => bus.publish('catalog', {}),
    examChanged: (courseId) => bus.publish('catalog', { exam: courseId }),
    sessionChanged: (ref) => bus.publish('session', ref),
    personChanged: (ref) => bus.publish('person', ref),
    pagesChanged: (contactId) => noticeProgress.add(contactId),
    close: () =>
      (closing ??= (async () => {
        await scheduler.stop();
        outage.close();
        await tracker.close();
        await noticeProgress.close();
        await bus.close().catch(() => undefined);
        mailer.close();
        await rateLimiter.close().catch(() => undefined);
        if (ownsStorage) await storage.close?.().catch(() => undefined);
        await stopHearingBusiness?.().catch(() => undefined);
        if (ownsDatabase) await database.close();
      })()),
  };
  return runtime;
}

/** Where the certificate signing key is kept when the configuration gives none (created on first start). */
export function signingKeyFile(dataDir: string): string | null {
  // An in-memory database keeps nothing on disk: its key lives as long as the process.
  return dataDir === 'memory://' ? null : join(dataDir, 'certificate-signing-key.json');
}

/** How often progress notices go to the other processes (ms). */
export const PROGRESS_NOTICE_MS = 100;

/** Collects the people whose progress was committed and tells every process, at most once per `PROGRESS_NOTICE_MS`. */
function progressBatcher(bus: Bus, stamps: PersonStamps, logger: Logger) {
  let waiting = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sending: Promise<void> = Promise.resolve();
  const send = () => {
    timer = null;
    if (waiting.size === 0) return;
    const contactIds = [...waiting];
    waiting = new Set();
    // A notice carries a bounded list (PostgreSQL NOTIFY payloads stay far below their 8,000-byte limit).
    for (let i = 0; i < contactIds.length; i += 500) {
      const chunk = contactIds.slice(i, i + 500);
      sending = sending.then(() => bus.publish('person', { progress: chunk })).catch((err: unknown) => logger.warn({ err }, 'progress notice not sent'));
    }
  };
  return {
    add(contactId: number) {
      stamps.changed({ contactId });
      waiting.add(contactId);
      if (!timer) {
        timer = setTimeout(send, PROGRESS_NOTICE_MS);
        timer.unref?.();
      }
    },
    async close() {
      if (timer) clearTimeout(timer);
      send();
      await sending;
    },
  };
}

/** The contacts of a progress notice (`{ progress: [ids] }`), or `null` for any other person notice. */
function progressNotice(data: unknown): number[] | null {
  const list = (data as { progress?: unknown } | null)?.progress;
  if (!Array.isArray(list)) return null;
  return list.filter((id): id is number => Number.isSafeInteger(id));
}

/** A person reference from the bus, or `null` to forget everyone (a resync). */
function personRef(data: unknown): PersonRef | null {
  const d = (data ?? {}) as Record<string, unknown>;
  const userId = typeof d.userId === 'number' ? d.userId : null;
  const contactId = typeof d.contactId === 'number' ? d.contactId : null;
  return userId === null && contactId === null ? null : { userId, contactId };
}
