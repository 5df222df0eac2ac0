/**
 * Exam actions: start an attempt, save one answer as it is given, submit. Thin calls into
 * `src/lib/exams`; the server decides everything (who may start, the draw, the deadline, the grade).
 * Without JavaScript the rules page posts `start` to the exam page and the exam page posts `submit`
 * (with every answer) to the result page; the exam island saves each answer with `answer`.
 */
import { ActionError } from 'astro:actions';
import { action, refusal, type Kit, type Refusals } from './kit';
import { z } from '~/lib/zod';
import { messages, plural, LOCALES, type Locale } from '~/i18n';
import { pagesChange } from '~/lib/runtime/changes';
import { catalogContext } from '~/lib/app.server';
import { attemptOf, gradedChange, saveAnswer, startAttempt, submitAttempt, type SaveError } from '~/lib/exams/exams.server';
import { type CourseExam } from '~/lib/exams/exam-source.server';
import { lessonsRemaining } from '~/lib/exams/exam-info.server';
import { examCourse } from '~/lib/exams/pages.server';
import { normalizeAnswer, rawAnswerSchema } from '~/lib/exams';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const lang = z.enum(LOCALES).default('es');

/** Every exam action's 401: "log in to take the exam". */
const refusals: Refusals = { unauthorized: (t) => t.exams.info.reasons.login };

/** The learner asking: their own contact (a 401 for an account without one) and their view of the catalogue. */
async function learner({ ctx, person, runtime, unauthorized }: Kit<'learner'>) {
  if (person.contactId === null) throw unauthorized();
  const context = await catalogContext(ctx.locals);
  return { ...context, contactId: person.contactId, exams: runtime.exams.get };
}

/** The exam of a course the viewer may know of, or a 404 (unknown course, no exam, not listed for them). */
async function examOf(ctx: Awaited<ReturnType<typeof learner>>, courseId: number, locale: Locale): Promise<CourseExam> {
  const found = examCourse(ctx.catalog, ctx.viewer, courseId, locale);
  const exam = found ? await ctx.exams(courseId) : null;
  if (!exam) throw new ActionError({ code: 'NOT_FOUND', message: messages(locale).notFound.title });
  return exam;
}

/** A refused answer as an HTTP error with its sentence. */
function saveRefusal(error: SaveError, locale: Locale): ActionError {
  const e = messages(locale).exams.errors;
  if (error === 'not-found') return new ActionError({ code: 'NOT_FOUND', message: e.notFound });
  if (error === 'closed') return new ActionError({ code: 'CONFLICT', message: e.closed });
  if (error === 'not-in-attempt') return new ActionError({ code: 'BAD_REQUEST', message: e.notInAttempt });
  return new ActionError({ code: 'BAD_REQUEST', message: e.invalid });
}

/** The answers a form without JavaScript posts: `q{questionId}` fields, one per option chosen. */
const ANSWER_FIELD = /^q([1-9]\d{0,8})$/;
const MAX_FIELDS = 400;

/** What a submit posts. */
const submitForm = z.object({ course: id, attempt: id, lang });

export const exams = {
  /**
   * Starts an attempt (or resumes the one in progress): 401 for anyone but a learner, 404 for a course
   * without an exam or one they may not know of, 403 with the reason (lessons not completed, no
   * attempts left, already passed, course not open to them).
   */
  start: action('exams.start', {
    accept: 'form',
    input: z.object({ course: id, lang }),
    refusals,
    handler: async ({ course: courseId, lang: locale }, kit) => {
      const me = await learner(kit);
      const t = messages(locale).exams;
      const found = examCourse(me.catalog, me.viewer, courseId, locale);
      if (!found) throw new ActionError({ code: 'NOT_FOUND', message: messages(locale).notFound.title });
      if (!found.mayWatch) throw new ActionError({ code: 'FORBIDDEN', message: t.info.reasons.watch });
      const exam = await me.exams(courseId);
      if (!exam) throw new ActionError({ code: 'NOT_FOUND', message: messages(locale).notFound.title });
      // The lessons first (the rules page's order); the attempts are checked under the person's lock.
      const remaining = await lessonsRemaining(me.db, found.course, me.contactId);
      if (remaining > 0) {
        const message = plural(locale, t.info.reasons.lessons, remaining);
        throw new ActionError({ code: 'FORBIDDEN', message });
      }
      const started = await startAttempt(me.db, exam, me.contactId, Date.now());
      if (!started.ok) {
        // Refused, yet the start may have graded an attempt whose time was up (a pass completes the course).
        const message = started.error === 'passed' ? t.info.reasons.passed : started.error === 'no-attempts' ? t.info.reasons.noAttempts : t.errors.noQuestions;
        throw refusal(new ActionError({ code: 'FORBIDDEN', message }), started.changed);
      }
      // My learning shows the attempt in progress (what the person may see is unchanged), and any attempt graded on the way.
      return { course: courseId, attempt: started.attempt.id, resumed: started.resumed, changed: [...started.changed, ...(started.resumed ? [] : [pagesChange(me.contactId)])] };
    },
  }),

  /**
   * Saves one answer of the learner's attempt in progress: 404 for an attempt that is not theirs,
   * 409 once its time (and grace) is over or it was submitted, 400 for a question not in the attempt
   * or options that are not the question's. Nothing is stored on a refusal.
   */
  answer: action('exams.answer', {
    input: z.object({ course: id, attempt: id, question: id, answer: rawAnswerSchema, lang }),
    refusals,
    handler: async ({ course, attempt, question, answer, lang: locale }, kit) => {
      const me = await learner(kit);
      const exam = await examOf(me, course, locale);
      const saved = await saveAnswer(me.db, exam, me.contactId, attempt, question, answer, Date.now());
      if (!saved.ok) throw saveRefusal(saved.error, locale);
      return { question, answer: saved.answer };
    },
  }),

  /**
   * Submits the learner's attempt: first stores the answers a form without JavaScript posts (all
   * checked before any is stored: one bad answer refuses the whole post with 400), then grades it.
   * Idempotent: submitting again answers the stored grade. An attempt whose time is over is graded
   * with what it held (answers posted too late are refused with 409).
   */
  submit: action('exams.submit', {
    accept: 'form',
    refusals,
    handler: async (form: FormData, kit) => {
      const { locale } = kit;
      const parsed = submitForm.safeParse({ course: form.get('course'), attempt: form.get('attempt'), lang: form.get('lang') ?? undefined });
      if (!parsed.success) throw new ActionError({ code: 'BAD_REQUEST', message: kit.t.exams.errors.notFound });
      const { course, attempt } = parsed.data;
      const me = await learner(kit);
      const exam = await examOf(me, course, locale);
      const answers = new Map<number, number[]>();
      let fields = 0;
      for (const [name, value] of form) {
        const match = ANSWER_FIELD.exec(name);
        if (!match) continue;
        if (++fields > MAX_FIELDS) throw saveRefusal('invalid', locale);
        const option = id.safeParse(value);
        if (!option.success) throw saveRefusal('invalid', locale);
        const questionId = Number(match[1]);
        answers.set(questionId, [...(answers.get(questionId) ?? []), option.data]);
      }
      const now = Date.now();
      // Answers posted once the attempt no longer takes any (time and grace over, or already graded).
      let late = false;
      if (answers.size > 0) {
        // Check every answer against the attempt before storing any.
        const own = await attemptOf(me.db, exam, me.contactId, attempt, now);
        if (!own) throw saveRefusal('not-found', locale);
        for (const [questionId, given] of answers) {
          const question = own.questionIds.includes(questionId) ? exam.versions.get(questionId) : undefined;
          if (!question) throw saveRefusal('not-in-attempt', locale);
          const read = normalizeAnswer(question, given);
          if (!read.ok) throw saveRefusal(read.error, locale);
        }
        late = !own.open;
        if (own.open) {
          for (const [questionId, given] of answers) {
            const saved = await saveAnswer(me.db, exam, me.contactId, attempt, questionId, given, now);
            // Time up between the check and the save: the attempt is graded with what it held.
            if (!saved.ok && saved.error !== 'closed') throw saveRefusal(saved.error, locale);
            if (!saved.ok) late = true;
          }
        }
      }
      const graded = await submitAttempt(me.db, exam, me.contactId, attempt, now);
      if (!graded) throw saveRefusal('not-found', locale);
      // A pass completes the course: the player's last lesson and the next course follow it, in every
      // process. Any graded attempt changes my learning (status, best score).
      const passed = graded.attempt.passed === true;
      return { course, attempt: graded.attempt.number, score: graded.attempt.score ?? graded.grade.score, passed, late, changed: [gradedChange(me.contactId, passed)] };
    },
  }),
};

