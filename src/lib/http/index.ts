export { securityHeaders, CONTENT_SECURITY_POLICY } from './security';
