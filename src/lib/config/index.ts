export { ConfigError, readConfig, readForgotPasswordUrl, readOriginSettings, readStripeSettings, readTrustProxy, type AppConfig, type StripeSettings } from './config';
