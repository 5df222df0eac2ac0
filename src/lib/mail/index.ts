export * from './mail';
export { createMailer, type Mailer } from './mail.server';
