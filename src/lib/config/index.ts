export { ConfigError, readConfig, readForgotPasswordUrl, type AppConfig } from './config';
