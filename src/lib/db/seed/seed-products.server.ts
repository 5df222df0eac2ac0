/** Seeds what the academy sells and asks about besides courses: books, plans and contact-us types. */
import * as s from '../schema';
import * as catalogue from './catalogue';
import { excluded, type Tx } from './seed-kit.server';

/** Writes the books, plans and contact-us types. */
export async function seedProducts(tx: Tx) {
  await tx
    .insert(s.books)
    .values(
      catalogue.books.map((b) => ({
        id: b.id,
        code: b.code,
        titleEs: b.title.es,
        titleEn: b.title.en,
        author: b.author,
        descriptionEs: b.description.es,
        descriptionEn: b.description.en,
        price: b.price,
        cover: b.cover,
      })),
    )
    .onConflictDoUpdate({ target: s.books.id, set: excluded(s.books, ['code', 'titleEs', 'titleEn', 'author', 'descriptionEs', 'descriptionEn', 'price', 'cover']) });
  await tx
    .insert(s.plans)
    .values(
      catalogue.plans.map((p) => ({
        id: p.id,
        code: p.code,
        nameEs: p.name.es,
        nameEn: p.name.en,
        descriptionEs: p.description.es,
        descriptionEn: p.description.en,
        price: p.price,
        period: p.period,
        featuresEs: p.features.map((f) => f.es),
        featuresEn: p.features.map((f) => f.en),
        unlocksCategoryIds: p.unlocksCategoryIds,
      })),
    )
    .onConflictDoUpdate({
      target: s.plans.id,
      set: excluded(s.plans, ['code', 'nameEs', 'nameEn', 'descriptionEs', 'descriptionEn', 'price', 'period', 'featuresEs', 'featuresEn', 'unlocksCategoryIds']),
    });
  await tx
    .insert(s.contactUsTypes)
    .values(catalogue.contactUsTypes.map((t) => ({ id: t.id, descriptionEs: t.description.es, descriptionEn: t.description.en })))
    .onConflictDoUpdate({ target: s.contactUsTypes.id, set: excluded(s.contactUsTypes, ['descriptionEs', 'descriptionEn']) });
}
