/** The labels the identity islands take as props, picked from the catalogue in the page's language. */
import type { Messages } from '~/i18n';
import type { IboCodeLabels } from '~/islands/IboCodeForm';
import type { ProspectLabels } from '~/islands/ProspectForm';

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
