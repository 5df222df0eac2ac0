export * from './reports';
export * from './items';
export * from './chart';
