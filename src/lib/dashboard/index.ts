export * from './dashboard';
export { loadDashboard } from './dashboard.server';
