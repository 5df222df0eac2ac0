/** The labels the identity islands take as props, picked from the catalogue in the page's language. */
import type { Messages } from '~/i18n';

/** Labels of the IBO code form (`IboCodeForm` island). */
export interface IboCodeLabels {
  codeLabel: string;
  codeHint: string;
  enter: string;
  cancel: string;
  required: string;
  notFound: string;
}

/** Labels of the prospect modal (`ProspectForm` island). */
export interface ProspectLabels {
  open: string;
  title: string;
  lead: string;
  firstName: string;
  lastName: string;
  email: string;
  emailInvalid: string;
  customerFound: string;
  confirm: string;
  cancel: string;
}

/** Labels of the IBO code form. */
export function iboCodeLabels(t: Messages): IboCodeLabels {
  const { codeLabel, codeHint, enter, cancel, required, notFound } = t.ibo;
  return { codeLabel, codeHint, enter, cancel, required, notFound };
}

/** Labels of the prospect modal. */
export function prospectLabels(t: Messages): ProspectLabels {
  const { prospectTitle: title, prospectLead: lead, firstName, lastName, email, emailInvalid, customerFound, confirm, cancel } = t.ibo;
  return { open: t.catalog.startCourse, title, lead, firstName, lastName, email, emailInvalid, customerFound, confirm, cancel };
}
