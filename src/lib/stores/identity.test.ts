import { beforeEach, describe, expect, it } from 'vitest';
import { $contact, $ibo, $user, clearIdentity, syncIdentity } from './identity';

const user = { name: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: null, userType: 1 };
const ibo = { companyName: 'Viajes Horizonte S.A.S.', code: 'HORIZONTE01', imageUrl: null };
const contact = { id: 4, firstName: 'P', lastName: 'Q', email: 'p@example.com' };

describe('the browser’s identity stores', () => {
  beforeEach(() => {
    $user.set(user);
    $ibo.set(ibo);
    $contact.set(contact);
  });

  it('forget user, IBO and prospect on logout or a 401/403', () => {
    clearIdentity();
    expect([$user.get(), $ibo.get(), $contact.get()]).toEqual([null, null, null]);
  });

  it('follow the server: a user session has no IBO or prospect', () => {
    syncIdentity({ kind: 'user', user });
    expect([$user.get(), $ibo.get(), $contact.get()]).toEqual([user, null, null]);
  });

  it('follow the server: an IBO session has its prospect, or none yet', () => {
    syncIdentity({ kind: 'ibo', ibo, contact: null });
    expect([$user.get(), $ibo.get(), $contact.get()]).toEqual([null, ibo, null]);
  });

  it('keep a prospect when there is no session at all (the footer’s sign-up link), and ignore a page that knows nothing', () => {
    syncIdentity(null);
    expect([$user.get(), $ibo.get(), $contact.get()]).toEqual([user, ibo, contact]);
    syncIdentity({ kind: 'none' });
    expect([$user.get(), $ibo.get(), $contact.get()]).toEqual([null, null, contact]);
  });
});
