export { attachRealtime } from './socket.server';
export { registerTracking, SESSION_RECHECK_MS, type RealtimeTrackingOptions } from './tracking.server';
export { adapterReady, type RealtimeOptions } from './socket.server';
export { handshakeAllowed } from './realtime';
