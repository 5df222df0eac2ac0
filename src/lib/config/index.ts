export { ConfigError, readConfig, readForgotPasswordUrl, readOriginSettings, readTrustProxy, type AppConfig } from './config';
