/**
 * Exam journeys in Chromium, as the demo learner `ready@` (every lesson of course 2 completed, exam not
 * taken) lives them, in order (they share that person's three attempts):
 *
 * 1. the rules page tells a visitor to log in and a learner with lessons left how many remain;
 * 2. with JavaScript: start, every answer saved as given (saved state), a reload resumes, an answer
 *    given offline waits on the device and is sent on reconnect (another device sees it then), one
 *    question at a time with the navigator by keyboard, submit → a failed result whose review keeps
 *    the right answers hidden;
 * 3. without JavaScript at 360 px: twenty simultaneous starts open one attempt, every answer is given
 *    right and posted with the submit → passed, right answers shown, the certificate offered; then
 *    the bad requests: a start after passing (403), an answer to a graded attempt (409), a second
 *    submit (the same result), another person's answer to this attempt (404).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { courses } from './support/seed';

// One person's attempts, in order: a retry would find them used, so a failure is reported as it is.
test.describe.configure({ mode: 'serial', retries: 0 });
// Long journeys (a whole attempt each, axe on three pages): room for a busy machine.
test.setTimeout(120_000);

const READY = { email: 'ready@academia.example', password: 'Examen2026' };
const LEARNER = { email: 'learner@academia.example', password: 'Aprende2026' };
const COURSE = 2;
const pool = courses.find((c) => c.id === COURSE)!.archive.course.exam!.bank;

/** The seed's question whose Spanish prompt is `prompt`. */
const seedQuestion = (prompt: string) => {
  const q = pool.find((x) => x.prompt.es === prompt.trim());
  if (!q) throw new Error(`not a question of course ${COURSE}: ${prompt}`);
  return q;
};

/**
 * Logs the tab's context in through the login action (the session cookie is the context's, with or
 * without JavaScript) and opens `next`. The login form itself is proved in identity.spec.ts.
 */
async function logIn(page: Page, who: { email: string; password: string }, next: string) {
  const origin = test.info().project.use.baseURL!;
  const response = await page.request.post('/_actions/auth.login', { headers: { origin }, form: { email: who.email, password: who.password, lang: 'es' } });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(next);
  await expect(page).toHaveURL((u) => u.pathname + u.search === next || u.pathname === next);
}

const exam = (page: Page) => page.locator('form[aria-labelledby="exam-attempt"]');
const questions = (page: Page) => exam(page).locator('fieldset[id^="question-"]');
/** The prompt of a question fieldset (its legend without the "Pregunta n de m" line). */
const promptOf = async (fieldset: ReturnType<typeof questions>) => (await fieldset.locator('legend span').nth(1).textContent()) ?? '';
/** Clicks the options of `fieldset` whose texts the seed marks right (or one wrong one). */
async function answer(fieldset: ReturnType<typeof questions>, right: boolean) {
  const q = seedQuestion(await promptOf(fieldset));
  const chosen = right ? q.options.filter((o) => o.correct) : [q.options.find((o) => !o.correct)!];
  for (const o of chosen) await fieldset.getByLabel(o.text.es, { exact: true }).check();
  return chosen.map((o) => o.text.es);
}

test('the rules page tells a visitor to log in, and a learner with lessons left how many remain', async ({ page }) => {
  await page.goto(`/en/course-exam-info/${COURSE}`);
  await expect(page.getByText('Log in with your learner account to take the exam.')).toBeVisible();
  await expect(page.getByText(`Questions: ${courses.find((c) => c.id === COURSE)!.archive.course.exam!.questions},`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start the exam' })).toHaveCount(0);
  await logIn(page, LEARNER, `/course-exam-info/${COURSE}`);
  await expect(page.getByText(/Primero completa todas las lecciones del curso: te faltan? \d+\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Empezar el examen' })).toHaveCount(0);
});

test('with JavaScript: answers are saved as given, survive a reload, wait offline and reach another device; a failed submit hides the right answers', async ({ page, browser, baseURL }) => {
  // My learning offers the exam of a course whose lessons are all done, not yet its certificate.
  await logIn(page, READY, '/mylearning');
  const card = page.locator(`article[data-course-id="${COURSE}"]`);
  await expect(card.getByText('Examen: sin presentar')).toBeVisible();
  await expect(card.getByText('Completado', { exact: true })).toHaveCount(0);
  await card.getByRole('link', { name: /^Presentar el examen de / }).click();
  await page.waitForURL(`**/course-exam-info/${COURSE}`);
  await expect(page.getByText('Intentos usados: 0 de 3; restantes: 3.')).toBeVisible();
  await expectNoSeriousViolations(page);
  // The rules page is kept for this learner (seen again, it comes from the page cache)… A catalogue
  // change by a journey running beside this one drops every kept page once: seen again, it is kept again.
  await expect.poll(async () => (await page.reload())?.headers()['x-page-cache'], { timeout: 20_000 }).toBe('hit');
  const siteMenus = page.getByRole('navigation', { name: 'Navegación principal' });
  await expect(siteMenus).toHaveCount(1);
  // Starting uses an attempt: it is confirmed first, and Cancel starts nothing.
  await page.getByRole('link', { name: 'Empezar el examen' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Empezar el examen?' });
  await expect(confirm.getByText('Empezar usa el intento 1 de 3. El reloj (15 minutos) empieza ahora')).toBeVisible();
  await expectNoSeriousViolations(page);
  await confirm.getByRole('link', { name: 'Cancelar' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Intentos usados: 0 de 3; restantes: 3.')).toBeVisible();
  await page.getByRole('link', { name: 'Empezar el examen' }).click();
  await confirm.getByRole('button', { name: 'Sí, empezar el intento 1' }).click();
  await page.waitForURL(`**/course-exam/${COURSE}`);
  await expect(exam(page)).toHaveAttribute('data-enhanced', 'true');
  // The exam has the reader's whole attention: the logo alone, no site menus, search, cart or footer.
  await expect(siteMenus).toHaveCount(0);
  await expect(page.getByRole('search')).toHaveCount(0);
  await expect(page.locator('[data-slot="mini-cart"], footer')).toHaveCount(0);
  await expect(page.locator('.site-header .logo')).toBeVisible();
  // … and shows the attempt just started at once, offering to resume it.
  await page.goto(`/course-exam-info/${COURSE}`);
  await expect(page.getByRole('button', { name: 'Continuar el examen' })).toBeVisible();
  await expect(page.getByText('Intentos usados: 1 de 3; restantes: 2.')).toBeVisible();
  await page.getByRole('button', { name: 'Continuar el examen' }).click();
  await page.waitForURL(`**/course-exam/${COURSE}`);
  await expect(exam(page)).toHaveAttribute('data-enhanced', 'true');
  await expect(page.getByRole('timer')).toHaveText(/^(1[0-5]|0\d):\d\d$/);
  await expect(page.getByText('Intento 1 de 3')).toBeVisible();
  await expectNoSeriousViolations(page);

  // An answer is saved on the server as it is given, and a reload shows it again.
  const first = questions(page).nth(0);
  const [firstText] = await answer(first, false);
  await expect(first.getByText('Guardada')).toBeVisible();
  await page.reload();
  await expect(exam(page)).toHaveAttribute('data-enhanced', 'true');
  await expect(questions(page).nth(0).getByLabel(firstText!, { exact: true })).toBeChecked();

  // Offline: the answer waits on this device; another device does not have it yet…
  await page.context().setOffline(true);
  const second = questions(page).nth(1);
  const [secondText] = await answer(second, false);
  await expect(second.getByText('Sin conexión: se enviará al reconectar')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('exam-answers'))).toContain('"');
  const other = await otherDevice(browser, baseURL!);
  await other.page.goto(`/course-exam/${COURSE}`);
  const otherSecond = questions(other.page).nth(1);
  await expect(otherSecond.getByLabel(secondText!, { exact: true })).not.toBeChecked();
  // … and gets it once the connection is back.
  await page.context().setOffline(false);
  await expect(second.getByText('Guardada')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('exam-answers'))).toBe('{}');
  await other.page.reload();
  await expect(questions(other.page).nth(1).getByLabel(secondText!, { exact: true })).toBeChecked();
  await other.context.close();

  // One question at a time, moving with the navigator from the keyboard.
  await page.getByLabel('Una pregunta a la vez').check();
  await expect(questions(page).nth(1)).toBeHidden();
  const nav = page.getByRole('navigation', { name: 'Preguntas' });
  await expect(nav.getByRole('link', { name: 'Ir a la pregunta 1, respondida' })).toHaveAttribute('aria-current', 'step');
  await nav.getByRole('link', { name: 'Ir a la pregunta 3, sin responder' }).focus();
  await page.keyboard.press('Enter');
  await expect(questions(page).nth(2)).toBeVisible();
  await expect(questions(page).nth(2)).toBeFocused();
  await expect(questions(page).nth(0)).toBeHidden();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(questions(page).nth(2).getByText('Guardada')).toBeVisible();

  // Submitting with questions unanswered asks first; the result fails and keeps the right answers hidden.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Entregar el examen' }).click();
  await page.waitForURL(`**/course-result?course=${COURSE}&attempt=1`);
  await expect(page.getByRole('heading', { name: 'No aprobaste esta vez.' })).toBeVisible();
  await expect(page.getByText('Te quedan 2 intentos.')).toBeVisible();
  await expect(page.getByText('Las respuestas correctas se muestran cuando apruebes o cuando no te queden intentos.')).toBeVisible();
  await expect(page.getByText('Respuesta correcta')).toHaveCount(0);
  await expectNoSeriousViolations(page);
  // The latest result is kept for the learner: seen again, it comes from the page cache.
  await page.goto(`/course-result?course=${COURSE}`);
  await expect(page.getByRole('heading', { name: 'No aprobaste esta vez.' })).toBeVisible();
  await expect.poll(async () => (await page.reload())?.headers()['x-page-cache'], { timeout: 20_000 }).toBe('hit');
  // The attempt is over: its address leads back to the rules, which show the score.
  await page.goto(`/course-exam/${COURSE}`);
  await expect(page).toHaveURL(new RegExp(`/course-exam-info/${COURSE}$`));
  await expect(page.getByText('Intentos usados: 1 de 3; restantes: 2.')).toBeVisible();
  await page.goto('/mylearning');
  await expect(card.getByText('Examen: no aprobado')).toBeVisible();
  await expect(card.getByText('Te quedan 2 intentos')).toBeVisible();
});

/** The passed attempt of the journey without JavaScript, for the bad requests that follow it. */
let passed: { attempt: string; questionId: number; optionId: string; count: number } | undefined;
const noScript = (browser: Browser, baseURL: string) => browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 360, height: 780 } });

test('without JavaScript at 360 px: one attempt for twenty simultaneous starts, every answer posted with the submit, passed', async ({ browser, baseURL }) => {
  const context = await noScript(browser, baseURL!);
  const page = await context.newPage();
  await logIn(page, READY, `/course-exam-info/${COURSE}`);
  // Without JavaScript the confirmation is the rules page asked for again; Cancel goes back and starts nothing.
  await page.getByRole('link', { name: 'Empezar el examen' }).click();
  await expect(page).toHaveURL(`/course-exam-info/${COURSE}?confirm=1`);
  await expect(page.getByRole('heading', { name: '¿Empezar el examen?' })).toBeVisible();
  await page.getByRole('link', { name: 'Cancelar' }).click();
  await expect(page.getByText('Intentos usados: 1 de 3; restantes: 2.')).toBeVisible();
  await page.getByRole('link', { name: 'Empezar el examen' }).click();
  await page.getByRole('button', { name: 'Sí, empezar el intento 2' }).click();
  await page.waitForURL(`**/course-exam/${COURSE}`);
  const origin = { origin: baseURL! };
  const starts = await Promise.all(Array.from({ length: 20 }, () => context.request.post('/_actions/exams.start', { headers: origin, form: { course: String(COURSE), lang: 'es' } })));
  expect(starts.map((r) => r.status())).toEqual(Array(20).fill(200));
  await page.goto(`/course-exam/${COURSE}`);
  await expect(page.getByText('Intento 2 de 3')).toBeVisible();
  const attempt = await page.locator('input[name="attempt"]').inputValue();
  const questionId = Number((await questions(page).first().getAttribute('id'))!.replace('question-', ''));
  const optionId = (await questions(page).first().locator('input').first().getAttribute('value'))!;
  // Every answer right, posted with the submit (the form without JavaScript).
  const count = await questions(page).count();
  for (let i = 0; i < count; i++) await answer(questions(page).nth(i), true);
  await page.getByRole('button', { name: 'Entregar el examen' }).click();
  await page.waitForURL(`**/course-result?course=${COURSE}&attempt=2`);
  await expect(page.getByRole('heading', { name: '¡Aprobaste!' })).toBeVisible();
  await expect(page.getByText('Puntaje: 100 %')).toBeVisible();
  expect(await page.getByText('Respuesta correcta').count()).toBeGreaterThanOrEqual(count);
  await expect(page.getByRole('link', { name: 'Obtener tu certificado' })).toBeVisible();
  // The latest result, kept when the failed attempt was the latest, shows this one.
  await page.goto(`/course-result?course=${COURSE}`);
  await expect(page.getByRole('heading', { name: '¡Aprobaste!' })).toBeVisible();
  // The first attempt's review now shows the right answers too.
  await page.goto(`/course-result?course=${COURSE}&attempt=1`);
  expect(await page.getByText('Respuesta correcta').count()).toBeGreaterThanOrEqual(count);
  passed = { attempt, questionId, optionId, count };
  await context.close();
});

test('after passing, every bad request is refused with its status and nothing stored', async ({ browser, baseURL }) => {
  expect(passed, 'the journey without JavaScript passed first').toBeDefined();
  const { attempt, questionId, optionId } = passed!;
  const context = await noScript(browser, baseURL!);
  const page = await context.newPage();
  await logIn(page, READY, `/course-exam-info/${COURSE}`);
  const origin = { origin: baseURL! };
  const post = (path: string, data: { form?: Record<string, string>; json?: unknown }, ctx: BrowserContext = context) =>
    ctx.request.post(path, { headers: origin, maxRedirects: 0, ...(data.form ? { form: data.form } : { data: data.json }) });
  const again = await post('/_actions/exams.start', { form: { course: String(COURSE), lang: 'en' } });
  expect(again.status()).toBe(403);
  expect(await again.text()).toContain('You already passed this exam!');
  const late = await post('/_actions/exams.answer', { json: { course: COURSE, attempt: Number(attempt), question: questionId, answer: 1, lang: 'en' } });
  expect(late.status()).toBe(409);
  expect(await late.text()).toContain('answers are no longer accepted');
  const resubmit = await post(`/course-result?_action=exams.submit`, { form: { course: String(COURSE), attempt, lang: 'es' } });
  expect(resubmit.status()).toBe(303);
  expect(resubmit.headers().location).toBe(`/course-result?course=${COURSE}&attempt=2`);
  // Answers posted with a submit once the attempt is graded are not stored, and the result says why.
  const forged = await post(`/course-result?_action=exams.submit`, { form: { course: String(COURSE), attempt, lang: 'es', [`q${questionId}`]: '999999' } });
  expect(forged.status()).toBe(400);
  const lateAnswers = await post(`/course-result?_action=exams.submit`, { form: { course: String(COURSE), attempt, lang: 'es', [`q${questionId}`]: optionId } });
  expect(lateAnswers.status()).toBe(303);
  expect(lateAnswers.headers().location).toBe(`/course-result?course=${COURSE}&attempt=2&late=1`);
  await page.goto(lateAnswers.headers().location!);
  await expect(page.getByText('El tiempo de este intento terminó: ya no se aceptan respuestas.')).toBeVisible();
  await expect(page.getByText('Puntaje: 100 %')).toBeVisible();
  const someoneElse = await otherDevice(browser, baseURL!, LEARNER);
  const foreign = await post('/_actions/exams.answer', { json: { course: COURSE, attempt: Number(attempt), question: 1, answer: 1, lang: 'en' } }, someoneElse.context);
  expect(foreign.status()).toBe(404);
  const foreignSubmit = await post('/_actions/exams.submit', { form: { course: String(COURSE), attempt, lang: 'en' } }, someoneElse.context);
  expect(foreignSubmit.status()).toBe(404);
  await someoneElse.context.close();
  // Still one passed attempt and one failed: the rules page says so.
  await page.goto(`/en/course-exam-info/${COURSE}`);
  await expect(page.getByText('Attempts used: 2 of 3; left: 1.')).toBeVisible();
  await expect(page.getByText('You already passed this exam!')).toBeVisible();
  await expect(page.getByText('Your best score so far: 100 %.')).toBeVisible();
  // The course is completed now: my learning says so and offers the certificate.
  await page.goto('/mylearning');
  const card = page.locator(`article[data-course-id="${COURSE}"]`);
  await expect(card.getByText('Completado', { exact: true })).toBeVisible();
  await expect(card.getByText('Examen: aprobado')).toBeVisible();
  await expect(card.getByRole('link', { name: /^Ver el certificado de / })).toHaveAttribute('href', `/course-generate?course=${COURSE}`);
  await context.close();
});

/** Another browser (another device) logged in as `who` (default: ready@). */
async function otherDevice(browser: Browser, baseURL: string, who = READY): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript(() => sessionStorage.setItem('welcome-dismissed', '1'));
  const page = await context.newPage();
  await logIn(page, who, '/mylearning');
  return { context, page };
}
