/** What the IBO form shows: what was typed when the server refused it, else what is stored. Pure. */
import type { IboEditor } from './ibos.server';

export type IboFormValues = Record<'code' | 'companyName' | 'businessId' | 'contactName' | 'contactEmail' | 'contactPhone' | 'accountEmail' | 'sponsorCode', string>;

/** The form's values from the stored IBO (none: a new one) and the refused post's fields (if any). */
export function iboFormValues(stored: IboEditor | null, posted: FormData | null): IboFormValues {
  const typed = (name: keyof IboFormValues, fallback: string): string => {
    const v = posted?.get(name);
    return typeof v === 'string' ? v : fallback;
  };
  const ibo = stored?.ibo;
  return {
    code: typed('code', ibo?.code ?? ''),
    companyName: typed('companyName', ibo?.companyName ?? ''),
    businessId: typed('businessId', ibo?.businessId === null || ibo?.businessId === undefined ? '' : String(ibo.businessId)),
    contactName: typed('contactName', ibo?.contactName ?? ''),
    contactEmail: typed('contactEmail', ibo?.contactEmail ?? ''),
    contactPhone: typed('contactPhone', ibo?.contactPhone ?? ''),
    accountEmail: typed('accountEmail', stored?.accountEmail ?? ''),
    sponsorCode: typed('sponsorCode', stored?.sponsorCode ?? ''),
  };
}
