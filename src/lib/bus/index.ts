export * from './bus';
export { createBus, type Bus, type BusOptions } from './bus.server';
