export { attachRealtime } from './socket.server';
