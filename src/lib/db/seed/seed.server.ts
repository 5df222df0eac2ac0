/**
 * Loads the demo catalogue and demo people. Idempotent: every row is upserted by its natural key
 * (id, code, email or position), so running it again updates content and never duplicates it.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import * as s from '../schema';
import * as catalogue from './catalogue';
import * as people from './people';
import { hashPassword } from '../../identity/password';
import { correctOptions, drawAttempt, examSettings, gradeAttempt, passed, seededRandom, type ExamQuestion } from '../../exams/exams';
import { coverageLength } from '../../learning/learning';
import { priceToCents } from '../../commerce/money';
import { buildPaymentPayload } from '../../commerce/payload';

/** `excluded.<column>` for every listed column, for `onConflictDoUpdate` (columns are snake_case in SQL). */
function excluded<T extends PgTable>(_table: T, keys: (keyof T['_']['columns'] & string)[]): Record<string, SQL> {
  return Object.fromEntries(keys.map((k) => [k, sql.raw(`excluded."${k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}"`)]));
}

const CLIPS = ['clip-1', 'clip-2', 'clip-3', 'clip-4', 'clip-5', 'clip-6'] as const;

/** Every further resource (document or link) of every lesson of the seed catalogue. */
function lessonExtras(): catalogue.SeedExtra[] {
  return catalogue.courses.flatMap((c) => c.modules.flatMap((m) => m.lessons.flatMap((l) => l.extras ?? [])));
}

/** True when the catalogue has no course yet (a new database). */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(s.courses);
  return (row?.n ?? 0) === 0;
}

/** What a seed run wrote, for the CLI's summary line. */
export interface SeedSummary {
  courses: number;
  lessons: number;
  questions: number;
  users: number;
  ibos: number;
}

/** Seeds everything in one transaction. `mediaDir` holds the demo videos, captions and documents. */
export async function seed(db: Db, mediaDir: string): Promise<SeedSummary> {
  const hashes = new Map<string, string>();
  for (const u of people.users) hashes.set(u.email, await hashPassword(u.password));
  const durations = JSON.parse(readFileSync(join(mediaDir, 'durations.json'), 'utf8')) as Record<string, number>;

  return db.transaction(async (tx) => {
    await tx
      .insert(s.categories)
      .values(catalogue.categories.map((c, i) => ({ id: c.id, nameEs: c.name.es, nameEn: c.name.en, position: i })))
      .onConflictDoUpdate({ target: s.categories.id, set: excluded(s.categories, ['nameEs', 'nameEn', 'position']) });
    await tx
      .insert(s.businesses)
      .values(catalogue.businesses.map((b, i) => ({ id: b.id, nameEs: b.name.es, nameEn: b.name.en, position: i })))
      .onConflictDoUpdate({ target: s.businesses.id, set: excluded(s.businesses, ['nameEs', 'nameEn', 'position']) });

    // Media: each clip's video and its two caption tracks, and the lessons' PDF documents.
    const documents = [...new Set(lessonExtras().flatMap((x) => (x.kind === 'pdf' ? [x.file] : [])))];
    const mediaRows = [
      ...CLIPS.flatMap((clip) => [
        { key: `video/${clip}.webm`, mime: 'video/webm', duration: durations[clip] ?? null },
        { key: `captions/${clip}.es.vtt`, mime: 'text/vtt', duration: null },
        { key: `captions/${clip}.en.vtt`, mime: 'text/vtt', duration: null },
      ]),
      ...documents.map((key) => ({ key, mime: 'application/pdf', duration: null })),
    ].map((m) => ({
      storageKey: m.key,
      mimeType: m.mime,
      sizeBytes: statSync(join(mediaDir, m.key)).size,
      durationSeconds: m.duration === null ? null : m.duration.toFixed(2),
    }));
    const media = await tx
      .insert(s.mediaFiles)
      .values(mediaRows)
      .onConflictDoUpdate({ target: s.mediaFiles.storageKey, set: excluded(s.mediaFiles, ['mimeType', 'sizeBytes', 'durationSeconds']) })
      .returning({ id: s.mediaFiles.id, key: s.mediaFiles.storageKey });
    const mediaId = (key: string) => media.find((m) => m.key === key)!.id;

    // Courses first without prerequisites (a prerequisite may come later in the list), then the links.
    const courseCols = ['code', 'nameEs', 'nameEn', 'descriptionEs', 'descriptionEn', 'thumbnail', 'categoryId', 'businessId', 'allowAll', 'isTest', 'price', 'visibleOnlyToBuyers'] as const;
    await tx
      .insert(s.courses)
      .values(
        catalogue.courses.map((c) => ({
          id: c.id,
          code: c.code,
          nameEs: c.name.es,
          nameEn: c.name.en,
          descriptionEs: c.description.es,
          descriptionEn: c.description.en,
          thumbnail: c.thumbnail,
          categoryId: c.categoryId,
          businessId: c.businessId,
          allowAll: c.allowAll,
          isTest: c.isTest,
          price: c.price,
          visibleOnlyToBuyers: c.visibleOnlyToBuyers,
        })),
      )
      .onConflictDoUpdate({ target: s.courses.id, set: { ...excluded(s.courses, [...courseCols]), updatedAt: sql`now()` } });
    for (const c of catalogue.courses) {
      await tx.update(s.courses).set({ prerequisiteCourseId: c.prerequisiteCourseId }).where(eq(s.courses.id, c.id));
    }

    // Modules, lessons and resources, each in one statement.
    const topicRows = catalogue.courses.flatMap((c) =>
      c.modules.map((m, i) => ({ courseId: c.id, code: m.code, nameEs: m.name.es, nameEn: m.name.en, position: i + 1 })),
    );
    const topics = await tx
      .insert(s.topics)
      .values(topicRows)
      .onConflictDoUpdate({ target: s.topics.code, set: excluded(s.topics, ['courseId', 'nameEs', 'nameEn', 'position']) })
      .returning({ id: s.topics.id, code: s.topics.code });
    const topicId = new Map(topics.map((t) => [t.code, t.id]));

    const lessonList = catalogue.courses.flatMap((c) => c.modules.flatMap((m) => m.lessons.map((l, i) => ({ m, l, i }))));
    const lessons = await tx
      .insert(s.subtopics)
      .values(
        lessonList.map(({ m, l, i }) => ({
          topicId: topicId.get(m.code)!,
          code: l.code,
          nameEs: l.name.es,
          nameEn: l.name.en,
          summaryEs: l.summary.es,
          summaryEn: l.summary.en,
          position: i + 1,
        })),
      )
      .onConflictDoUpdate({ target: s.subtopics.code, set: excluded(s.subtopics, ['topicId', 'nameEs', 'nameEn', 'summaryEs', 'summaryEn', 'position']) })
      .returning({ id: s.subtopics.id, code: s.subtopics.code });
    const lessonId = new Map(lessons.map((l) => [l.code, l.id]));

    const resourceRows = lessonList.flatMap(({ l }) => [
      {
        subtopicId: lessonId.get(l.code)!,
        typeId: s.RESOURCE_TYPE.video,
        mediaFileId: mediaId(`video/${l.clip}.webm`),
        url: null,
        titleEs: l.name.es,
        titleEn: l.name.en,
        position: 1,
      },
      // Documents are media files served through the access check; links keep their address.
      ...(l.extras ?? []).map((x, i) => ({
        subtopicId: lessonId.get(l.code)!,
        typeId: x.kind === 'pdf' ? s.RESOURCE_TYPE.pdf : s.RESOURCE_TYPE.link,
        mediaFileId: x.kind === 'pdf' ? mediaId(x.file) : null,
        url: x.kind === 'link' ? x.url : null,
        titleEs: x.title.es,
        titleEn: x.title.en,
        position: i + 2,
      })),
    ]);
    const resources = await tx
      .insert(s.resources)
      .values(resourceRows)
      .onConflictDoUpdate({
        target: [s.resources.subtopicId, s.resources.position],
        set: excluded(s.resources, ['typeId', 'mediaFileId', 'url', 'titleEs', 'titleEn']),
      })
      .returning({ id: s.resources.id, mediaFileId: s.resources.mediaFileId, typeId: s.resources.typeId });
    const captionRows = resources
      .filter((r) => r.typeId === s.RESOURCE_TYPE.video && r.mediaFileId !== null)
      .flatMap((r) => {
        const clip = media.find((m) => m.id === r.mediaFileId)!.key.replace(/^video\/(.*)\.webm$/, '$1');
        return (['es', 'en'] as const).map((lang) => ({ resourceId: r.id, lang, mediaFileId: mediaId(`captions/${clip}.${lang}.vtt`) }));
      });
    await tx
      .insert(s.captions)
      .values(captionRows)
      .onConflictDoUpdate({ target: [s.captions.resourceId, s.captions.lang], set: excluded(s.captions, ['mediaFileId']) });

    // Evaluations with their question pools.
    const evaluations = await tx
      .insert(s.evaluations)
      .values(
        catalogue.courses.map((c) => ({
          courseId: c.id,
          minutes: c.exam.minutes,
          questionCount: c.exam.questionCount,
          passingScore: c.exam.passingScore,
          maxAttempts: c.exam.maxAttempts,
        })),
      )
      .onConflictDoUpdate({ target: s.evaluations.courseId, set: excluded(s.evaluations, ['minutes', 'questionCount', 'passingScore', 'maxAttempts']) })
      .returning({ id: s.evaluations.id, courseId: s.evaluations.courseId });
    const evaluationId = new Map(evaluations.map((e) => [e.courseId, e.id]));
    const questionList = catalogue.courses.flatMap((c) => c.exam.pool.map((q, i) => ({ evaluationId: evaluationId.get(c.id)!, q, position: i + 1 })));
    const questions = await tx
      .insert(s.questions)
      .values(questionList.map(({ evaluationId: e, q, position }) => ({ evaluationId: e, kind: q.kind ?? 'single', promptEs: q.prompt.es, promptEn: q.prompt.en, position })))
      .onConflictDoUpdate({ target: [s.questions.evaluationId, s.questions.position], set: excluded(s.questions, ['kind', 'promptEs', 'promptEn']) })
      .returning({ id: s.questions.id, evaluationId: s.questions.evaluationId, position: s.questions.position });
    const questionId = new Map(questions.map((q) => [`${q.evaluationId}:${q.position}`, q.id]));
    await tx
      .insert(s.questionOptions)
      .values(
        questionList.flatMap(({ evaluationId: e, q, position }) =>
          q.options.map((o, i) => ({
            questionId: questionId.get(`${e}:${position}`)!,
            textEs: o.text.es,
            textEn: o.text.en,
            isCorrect: o.correct,
            position: i + 1,
          })),
        ),
      )
      .onConflictDoUpdate({
        target: [s.questionOptions.questionId, s.questionOptions.position],
        set: excluded(s.questionOptions, ['textEs', 'textEn', 'isCorrect']),
      });

    // Books, plans, contact-us types.
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

    // People: accounts are created once and never overwritten (a changed password survives re-seeding).
    await tx
      .insert(s.users)
      .values(
        people.users.map((u) => ({
          email: u.email,
          passwordHash: hashes.get(u.email)!,
          firstName: u.firstName,
          lastName: u.lastName,
          userType: u.userType,
          imageUrl: u.imageUrl,
        })),
      )
      .onConflictDoNothing();
    const userRows = await tx
      .select({ id: s.users.id, email: s.users.email, firstName: s.users.firstName, lastName: s.users.lastName })
      .from(s.users)
      .where(inArray(s.users.email, people.users.map((u) => u.email)));
    const userId = new Map(userRows.map((u) => [u.email, u.id]));
    await tx
      .insert(s.contacts)
      .values(userRows.map((u) => ({ userId: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email })))
      .onConflictDoNothing();
    await tx
      .insert(s.ibos)
      .values(people.ibos.map((i) => ({ code: i.code, companyName: i.companyName, userId: userId.get(i.userEmail)!, status: i.status, imageUrl: i.imageUrl })))
      .onConflictDoUpdate({ target: s.ibos.code, set: excluded(s.ibos, ['companyName', 'status', 'imageUrl']) });

    // Payment form lists and demo coupons (a coupon's uses are real orders': re-seeding keeps them).
    await tx
      .insert(s.identificationTypes)
      .values(catalogue.identificationTypes.map((t, i) => ({ id: t.id, nameEs: t.name.es, nameEn: t.name.en, position: i })))
      .onConflictDoUpdate({ target: s.identificationTypes.id, set: excluded(s.identificationTypes, ['nameEs', 'nameEn', 'position']) });
    await tx
      .insert(s.coupons)
      .values(people.coupons.map((c) => ({ code: c.code, kind: c.kind, percent: c.percent ?? null, amountCents: c.amountCents ?? null, expiresAt: c.expiresAt, maxUses: c.maxUses, uses: c.uses, minimumTotalCents: c.minimumTotalCents })))
      .onConflictDoNothing();

    // Demo purchases: real paid orders (one per product, days apart) with their payment attempt and the
    // access they granted, as a checkout with the sandbox's approved test card would have left them.
    const day = 24 * 3_600_000;
    for (const o of people.demoOrders) {
      const uid = userId.get(o.email)!;
      const course = o.kind === 'course' ? catalogue.courses.find((c) => c.id === o.productId)! : null;
      const book = o.kind === 'book' ? catalogue.books.find((b) => b.id === o.productId)! : null;
      const product = course ? { id: course.id, code: course.code, title: course.name, price: course.price } : { id: book!.id, code: book!.code, title: book!.title, price: book!.price };
      const cents = priceToCents(product.price);
      const at = new Date(Date.now() - o.daysAgo * day);
      const [order] = await tx
        .insert(s.orders)
        .values({
          userId: uid,
          status: 'paid',
          subtotalCents: cents,
          discountCents: 0,
          totalCents: cents,
          language: 'es',
          // Courses keep the key earlier seeds gave them, so re-seeding finds their orders.
          idempotencyKey: o.kind === 'course' ? `seed:${o.email}:${o.productId}` : `seed:${o.email}:${o.kind}-${o.productId}`,
          cardBrand: 'visa',
          cardLast4: '4242',
          cardExpiryMonth: 12,
          cardExpiryYear: 2030,
          createdAt: at,
          paidAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: s.orders.id });
      if (!order) continue;
      await tx.insert(s.orderItems).values({ orderId: order.id, productKind: o.kind, productId: product.id, productCode: product.code, titleEs: product.title.es, titleEn: product.title.en, priceCents: cents });
      const payload = buildPaymentPayload({ lines: [{ kind: o.kind, productCode: product.code, cents }], language: 'es', token: `tok_sandbox_a_visa_4242_122030_seed-${order.id}` });
      await tx.insert(s.paymentAttempts).values({ orderId: order.id, attemptNumber: 1, gateway: 'sandbox', idempotencyKey: `order-${order.id}-attempt-1`, chargeId: `ch_sandbox_seed-${order.id}`, status: 'approved', amountCents: cents, payload, createdAt: at, finishedAt: at });
      // A course's order grants its purchase access; a book's is owned through the paid order itself.
      if (o.kind === 'course') {
        await tx
          .insert(s.purchaseAccess)
          .values({ userId: uid, courseId: product.id, orderId: order.id, grantedAt: at })
          .onConflictDoUpdate({ target: [s.purchaseAccess.userId, s.purchaseAccess.courseId], set: { orderId: order.id } });
      }
    }
    // The single order earlier versions of the seed wrote for all of the buyer's courses: replaced by the ones above.
    const legacy = await tx.select({ id: s.orders.id }).from(s.orders).where(sql`${s.orders.idempotencyKey} like 'seed:%' and ${s.orders.idempotencyKey} not like 'seed:%:%'`);
    if (legacy.length > 0) await tx.delete(s.orders).where(inArray(s.orders.id, legacy.map((l) => l.id)));

    // Demo progress: lessons watched to the end, and passed exams (a real draw answered all right).
    const contactRows = await tx
      .select({ id: s.contacts.id, userId: s.contacts.userId })
      .from(s.contacts)
      .where(inArray(s.contacts.userId, [...userId.values()]));
    const contactOf = (email: string) => contactRows.find((c) => c.userId === userId.get(email))!.id;
    const hour = 3_600_000;
    const base = Date.now() - 30 * 24 * hour;
    for (const [n, u] of people.users.entries()) {
      const contactId = contactOf(u.email);
      // Each person's history starts on a day of its own, a lesson an hour, an exam the day after.
      let at = base + n * 24 * hour;
      for (const courseId of u.lessonsCompletedCourseIds ?? []) {
        const course = catalogue.courses.find((c) => c.id === courseId)!;
        const rows = course.modules.flatMap((m) => m.lessons).map((l) => {
          const seconds = Number((durations[l.clip] ?? 0).toFixed(2));
          const slots = coverageLength(seconds);
          at += hour;
          return {
            contactId,
            courseId,
            subtopicId: lessonId.get(l.code)!,
            lastPosition: seconds.toFixed(2),
            furthestPosition: seconds.toFixed(2),
            playedSeconds: String(slots),
            watched: '1'.repeat(slots),
            completedAt: new Date(at),
            updatedAt: new Date(at),
          };
        });
        // Once seeded, the person's own progress wins (re-seeding never rewinds it).
        await tx.insert(s.tracking).values(rows).onConflictDoNothing();
      }
      for (const courseId of u.examPassedCourseIds ?? []) {
        const evaluation = catalogue.courses.find((c) => c.id === courseId)!.exam;
        const eid = evaluationId.get(courseId)!;
        const options = await tx
          .select({ q: s.questions, o: s.questionOptions })
          .from(s.questions)
          .innerJoin(s.questionOptions, eq(s.questionOptions.questionId, s.questions.id))
          .where(eq(s.questions.evaluationId, eid))
          .orderBy(s.questions.position, s.questionOptions.position);
        const pool = new Map<number, ExamQuestion>();
        for (const { q, o } of options) {
          const question = pool.get(q.id) ?? { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, options: [] };
          pool.set(q.id, { ...question, options: [...question.options, { id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect }] });
        }
        const settings = examSettings(
          { attempts: evaluation.maxAttempts, questions: evaluation.questionCount, minutes: evaluation.minutes, minimumScore: evaluation.passingScore },
          pool.size,
        );
        const drawn = drawAttempt([...pool.values()], settings, seededRandom(contactId * 1000 + courseId));
        const asked = drawn.questionIds.map((id) => pool.get(id)!);
        const answers = Object.fromEntries(asked.map((q) => [String(q.id), correctOptions(q)]));
        const grade = gradeAttempt(asked, answers);
        at += 24 * hour;
        const startedAt = new Date(at);
        await tx
          .insert(s.examAttempts)
          .values({
            evaluationId: eid,
            contactId,
            attemptNumber: 1,
            questionIds: drawn.questionIds,
            optionOrder: drawn.optionOrder,
            answers,
            startedAt,
            deadlineAt: new Date(at + settings.minutes * 60_000),
            submittedAt: new Date(at + Math.min(settings.minutes, 7) * 60_000),
            score: grade.score,
            passed: passed(grade.score, settings.minimumScore),
          })
          .onConflictDoNothing();
      }
    }
    // Demo certificates: written once (the code is fixed), for holders whose account the seed has.
    for (const c of people.certificates) {
      const [holder] = await tx
        .select({ contactId: s.contacts.id, firstName: s.users.firstName, lastName: s.users.lastName })
        .from(s.users)
        .innerJoin(s.contacts, eq(s.contacts.userId, s.users.id))
        .where(sql`lower(${s.users.email}) = ${c.email.toLowerCase()}`);
      if (!holder) continue;
      await tx
        .insert(s.certificates)
        .values({ contactId: holder.contactId, courseId: c.courseId, code: c.code, holderName: `${holder.firstName} ${holder.lastName}`, issuedAt: new Date() })
        .onConflictDoNothing();
    }

    return {
      courses: catalogue.courses.length,
      lessons: lessonList.length,
      questions: questionList.length,
      users: people.users.length,
      ibos: people.ibos.length,
    };
  });
}

/** Drops every table (and the migration journal) so migrations and seed can start over. */
export async function dropEverything(db: Db): Promise<void> {
  await db.execute(sql`DROP SCHEMA IF EXISTS public CASCADE`);
  await db.execute(sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
  await db.execute(sql`CREATE SCHEMA public`);
}
