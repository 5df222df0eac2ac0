export * from './contact';
export {
  listContactTypes,
  contactTypeExists,
  contactInputSchema,
  submitContactMessage,
  DUPLICATE_WINDOW_MINUTES,
  type ContactTypeOption,
  type ContactOutcome,
  type ContactDelivery,
} from './contact.server';
