export * from './mail';
export { createMailer, getMailer, setMailer, sendMail, type Mailer } from './mail.server';
