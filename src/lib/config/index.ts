export { ConfigError, readConfig, type AppConfig, type StripeSettings } from './config';
