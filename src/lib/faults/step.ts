/**
 * A point in a write where a fault test may stop the process (`kill -9`), named after what is durable
 * by then (`'audit-written'`). A domain function takes one as its last parameter and awaits it at each
 * point; production passes nothing (`noStep`). `Name` lists the points a function has, so a test can
 * only name one that exists.
 */
export type Step<Name extends string = string> = (name: Name) => void | Promise<void>;

/** No fault test: every point passes. */
export const noStep = (): void => undefined;
