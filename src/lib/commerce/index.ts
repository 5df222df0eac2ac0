/**
 * The commerce domain's surface. Pure modules only (never a `*.server.ts`), so browser code may
 * import it; islands that must stay small import the one module they need (`./cart`) instead.
 */
export * from './cart';
export * from './money';
export * from './payment';
export * from './coupon';
export * from './payload';
export * from './gateway';
export * from './sandbox';
export * from './order';
export * from './membership';
export * from './mini-cart';
export * from './checkout';
