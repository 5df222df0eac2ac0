export { ConfigError, readConfig, type AppConfig } from './config';
