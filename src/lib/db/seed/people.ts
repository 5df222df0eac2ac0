/**
 * Demo people: one of each kind of user (learner, buyer, refused, administrator), and IBOs active and suspended.
 * The README lists these accounts; they exist only to try the academy out.
 */
import { USER_TYPE } from '../schema';

/** A demo account. */
export interface SeedUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  userType: number;
  imageUrl: string | null;
  /** Courses this user has bought (purchase access). */
  purchasedCourseIds: number[];
  /** Courses whose every lesson this user has watched to the end (complete tracking rows). */
  lessonsCompletedCourseIds?: number[];
  /** Courses whose exam this user passed: one graded attempt, drawn from the pool and answered all right. */
  examPassedCourseIds?: number[];
}

/** Demo accounts, one per kind of user. */
export const users: SeedUser[] = [
  { email: 'learner@academia.example', password: 'Aprende2026', firstName: 'Laura', lastName: 'Méndez', userType: USER_TYPE.learner, imageUrl: '/images/people/laura-mendez.svg', purchasedCourseIds: [] },
  { email: 'buyer@academia.example', password: 'Compra2026', firstName: 'Tomás', lastName: 'Rivera', userType: USER_TYPE.learner, imageUrl: '/images/people/tomas-rivera.svg', purchasedCourseIds: [10, 16, 6] },
  { email: 'refused@academia.example', password: 'Rechazo2026', firstName: 'Rocío', lastName: 'Vargas', userType: USER_TYPE.refused, imageUrl: null, purchasedCourseIds: [] },
  { email: 'admin@academia.example', password: 'Admin2026', firstName: 'Andrés', lastName: 'Salazar', userType: USER_TYPE.admin, imageUrl: null, purchasedCourseIds: [] },
  { email: 'ibo.horizonte@academia.example', password: 'Horizonte2026', firstName: 'Camila', lastName: 'Torres', userType: USER_TYPE.learner, imageUrl: '/images/people/camila-torres.svg', purchasedCourseIds: [] },
  { email: 'ibo.mundo@academia.example', password: 'Mundo2026', firstName: 'Julián', lastName: 'Pardo', userType: USER_TYPE.learner, imageUrl: '/images/people/julian-pardo.svg', purchasedCourseIds: [] },
  // Ready for course 2's exam: every lesson watched, no attempt yet.
  { email: 'ready@academia.example', password: 'Examen2026', firstName: 'Sofía', lastName: 'Arboleda', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [], lessonsCompletedCourseIds: [2] },
  // Passed course 2's exam (its certificate is issued too); also completed Real Vision basic (31), which opens the intermediate course (32).
  {
    email: 'graduate@academia.example',
    password: 'Gradua2026',
    firstName: 'Mateo',
    lastName: 'Gutiérrez',
    userType: USER_TYPE.learner,
    imageUrl: null,
    purchasedCourseIds: [],
    lessonsCompletedCourseIds: [2, 31],
    examPassedCourseIds: [2, 31],
  },
  { email: 'ibo.rutas@academia.example', password: 'Rutas2026', firstName: 'Elena', lastName: 'Castro', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [] },
  // A member: the Elite membership (categories 2 to 5), yearly, bought 10 days before the seed (`demoMemberships`): a monthly one would fall due inside the renewal tests' months.
  { email: 'socia@academia.example', password: 'Socia2026', firstName: 'Isabel', lastName: 'Moreno', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [] },
  // Staff: an editor of the back office (sets up the second factor at the first login).
  { email: 'editor@academia.example', password: 'Edita2026', firstName: 'Valeria', lastName: 'Ríos', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [] },  // HORIZONTE01's people (`business`): Marta, a prospect it registered, watched every lesson of course 1;
  // Jorge, another, passed course 5's exam; Sara came through its link, shares her progress and bought;
  // Raúl came through its link too, bought, and does not share his progress (the IBO never sees him).
  { email: 'marta.ruiz@academia.example', password: 'Marta2026', firstName: 'Marta', lastName: 'Ruiz', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [], lessonsCompletedCourseIds: [1] },
  { email: 'jorge.pena@academia.example', password: 'Jorge2026', firstName: 'Jorge', lastName: 'Peña', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [], lessonsCompletedCourseIds: [5], examPassedCourseIds: [5] },
  { email: 'sara.leon@academia.example', password: 'Sara2026', firstName: 'Sara', lastName: 'León', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [] },
  { email: 'raul.diaz@academia.example', password: 'Raul2026', firstName: 'Raúl', lastName: 'Díaz', userType: USER_TYPE.learner, imageUrl: null, purchasedCourseIds: [] },
];

/**
 * Demo staff: their roles, and for the administrator a fixed TOTP secret and recovery codes printed in
 * the README (for trying the academy out only: a real academy's administrator sets up their own).
 */
export const staff: { email: string; roles: ('administrator' | 'editor' | 'support' | 'finance')[]; factor?: { secret: string; recoveryCodes: string[] } }[] = [
  {
    email: 'admin@academia.example',
    roles: ['administrator'],
    factor: {
      secret: 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD',
      recoveryCodes: [
        'demo-2026-aaaa-0001',
        'demo-2026-aaaa-0002',
        'demo-2026-aaaa-0003',
        'demo-2026-aaaa-0004',
        'demo-2026-aaaa-0005',
        'demo-2026-aaaa-0006',
        'demo-2026-aaaa-0007',
        'demo-2026-aaaa-0008',
        'demo-2026-aaaa-0009',
        'demo-2026-aaaa-0010',
      ],
    },
  },
  { email: 'editor@academia.example', roles: ['editor'] },
];

/**
 * The IBO commission rates a new academy starts with, in hundredths of a percent (20 %, 10 %, 15 %), in
 * force from the start (orders paid at any time earn them); an administrator changes them in the back office.
 */
export const defaultCommissionRates: { kind: 'course' | 'book' | 'plan'; rateBp: number }[] = [
  { kind: 'course', rateBp: 2000 },
  { kind: 'book', rateBp: 1000 },
  { kind: 'plan', rateBp: 1500 },
];

/** Demo IBOs: two active, one suspended. `userEmail` is the IBO's own account. */
export const ibos: { code: string; companyName: string; userEmail: string; status: 'active' | 'suspended'; imageUrl: string | null }[] = [
  { code: 'HORIZONTE01', companyName: 'Viajes Horizonte S.A.S.', userEmail: 'ibo.horizonte@academia.example', status: 'active', imageUrl: '/images/people/3.webp' },
  { code: 'MUNDO2026', companyName: 'Mundo Travel Group', userEmail: 'ibo.mundo@academia.example', status: 'active', imageUrl: '/images/people/4.webp' },
  { code: 'RUTAS99', companyName: 'Rutas del Sol Ltda.', userEmail: 'ibo.rutas@academia.example', status: 'suspended', imageUrl: null },
];

/**
 * Demo certificates with a fixed verification code (linked from the README), written when their holder's
 * account exists: `graduate@academia.example` passed course 2's exam and holds its certificate.
 */
export const certificates: { email: string; courseId: number; code: string }[] = [{ email: 'graduate@academia.example', courseId: 2, code: 'ACAD-GRAD-2026-0000-0002' }];

/**
 * Demo coupons (listed in the README): one percent, one fixed amount with a minimum, one spent (its
 * only use taken) and one expired. Their uses are counted by real orders and never reset by re-seeding.
 */
export const coupons: { code: string; kind: 'percent' | 'fixed'; percent?: number; amountCents?: number; expiresAt: Date | null; maxUses: number | null; uses: number; minimumTotalCents: number }[] = [
  { code: 'BIENVENIDA10', kind: 'percent', percent: 10, expiresAt: null, maxUses: null, uses: 0, minimumTotalCents: 0 },
  { code: 'AHORRA5', kind: 'fixed', amountCents: 500, expiresAt: null, maxUses: 1000, uses: 0, minimumTotalCents: 2000 },
  { code: 'AGOTADO', kind: 'percent', percent: 50, expiresAt: null, maxUses: 1, uses: 1, minimumTotalCents: 0 },
  { code: 'VENCIDO', kind: 'percent', percent: 20, expiresAt: new Date('2025-01-01T00:00:00Z'), maxUses: null, uses: 0, minimumTotalCents: 0 },
];

/**
 * The demo buyer's orders: one paid order per product (courses 6, 10 and 16, and book 1, whose PDF my
 * shopping offers to download), days apart, paid with the sandbox's approved test card (only its brand,
 * last 4 and expiry are kept).
 */
/** Demo memberships: a paid order of the plan and its membership, renewing with the sandbox's test card. */
export const demoMemberships: { email: string; planId: number; daysAgo: number }[] = [{ email: 'socia@academia.example', planId: 3, daysAgo: 10 }];

export const demoOrders: { email: string; kind: 'course' | 'book'; productId: number; daysAgo: number; ibo?: string }[] = [
  { email: 'buyer@academia.example', kind: 'course', productId: 6, daysAgo: 21 },
  { email: 'buyer@academia.example', kind: 'course', productId: 10, daysAgo: 14 },
  { email: 'buyer@academia.example', kind: 'course', productId: 16, daysAgo: 7 },
  { email: 'buyer@academia.example', kind: 'book', productId: 1, daysAgo: 3 },
  // Orders HORIZONTE01 referred, a commission in every state (`business.commissions`): approved (paid
  // 45 days ago), pending (4 days ago), cancelled (refunded within the window), paid (a payout covered
  // it), reversed (paid, then refunded).
  { email: 'sara.leon@academia.example', kind: 'course', productId: 6, daysAgo: 45, ibo: 'HORIZONTE01' },
  { email: 'sara.leon@academia.example', kind: 'book', productId: 1, daysAgo: 4, ibo: 'HORIZONTE01' },
  { email: 'raul.diaz@academia.example', kind: 'book', productId: 2, daysAgo: 12, ibo: 'HORIZONTE01' },
  { email: 'sara.leon@academia.example', kind: 'course', productId: 8, daysAgo: 90, ibo: 'HORIZONTE01' },
  { email: 'raul.diaz@academia.example', kind: 'book', productId: 3, daysAgo: 75, ibo: 'HORIZONTE01' },
];

/**
 * HORIZONTE01's business, for trying the IBO's pages: MUNDO2026 is the IBO it sponsored (and RUTAS99,
 * suspended, the one MUNDO2026 sponsored: its team's second level); visits through
 * its link on each of the last 60 days; its prospects at every stage (two without an account, one of
 * them stuck on a course for 12 days; Marta and Jorge above, registered by it), and the people who
 * came through its link (Sara, who shares her progress, and Raúl, who does not).
 */
export const business = {
  ibo: 'HORIZONTE01',
  sponsored: [
    { code: 'MUNDO2026', sponsor: 'HORIZONTE01' },
    { code: 'RUTAS99', sponsor: 'MUNDO2026' },
  ],
  /** The sponsored IBO's own visits (its team's figures). */
  teamVisits: { code: 'MUNDO2026', days: 30 },
  visitDays: 60,
  prospects: [
    { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia.gomez@example.com', daysAgo: 2 },
    { firstName: 'Pedro', lastName: 'Salas', email: 'pedro.salas@example.com', daysAgo: 20, stuckOnCourse: 1, stuckDaysAgo: 12 },
  ],
  registered: ['marta.ruiz@academia.example', 'jorge.pena@academia.example'],
  signedUp: [
    { email: 'sara.leon@academia.example', sharing: true, daysAgo: 100 },
    { email: 'raul.diaz@academia.example', sharing: false, daysAgo: 80 },
  ],
  commissions: {
    /** A payout 55 days ago of the orders paid before it (their commissions were approved then). */
    payout: { key: 'seed-payout-horizonte-1', reference: 'TRF-DEMO-0001', daysAgo: 55, ordersOlderThanDays: 60 },
    /** Refunded whole: the book paid 12 days ago (its commission cancelled) and the one paid 75 days ago (paid, so reversed). */
    refunds: [
      { email: 'raul.diaz@academia.example', kind: 'book', productId: 2, daysAgo: 10 },
      { email: 'raul.diaz@academia.example', kind: 'book', productId: 3, daysAgo: 20 },
    ],
  },
} as const;
