/**
 * The demo authoring journey, end to end: staff upload a video made here (through the library's tus
 * form) and watch it convert to HLS; create a bilingual paid course with one module and two lessons (the
 * uploaded video, and a demo clip of the library); build its question bank (single, multiple and true or
 * false questions in both languages) and the exam's settings; publish. A new learner then finds the course
 * in the catalogue, buys it with the sandbox card, plays both lessons to the end (the uploaded one through
 * its HLS master playlist), passes the exam with the answers the journey wrote, and gets the certificate.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { confirmAddress, expect, test } from './fixtures';
import { browseAsAdministrator } from './support/staff';
import { fillPayment } from './support/payment';
import { registrationForm } from './support/seed';
import { format, messages } from '../../src/i18n';
import { toolPaths } from '../../src/lib/videos';

const t = messages('en');
const e = t.authoring.editor;
const b = t.questionBank.bank;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const COURSE = { es: `Demostración ${RUN}`, en: `Demo ${RUN}` };

/** The bank the journey writes; the learner answers from it (the Spanish texts the exam shows). */
const BANK = [
  {
    kind: 'single',
    prompt: { es: '¿En qué formato se reproduce la lección subida?', en: 'In which format does the uploaded lesson play?' },
    options: [
      { es: 'HLS', en: 'HLS', right: true },
      { es: 'PDF', en: 'PDF', right: false },
      { es: 'Audio', en: 'Audio', right: false },
    ],
  },
  {
    kind: 'multiple',
    prompt: { es: '¿En qué idiomas está el curso?', en: 'Which languages is the course in?' },
    options: [
      { es: 'Español', en: 'Spanish', right: true },
      { es: 'Inglés', en: 'English', right: true },
      { es: 'Francés', en: 'French', right: false },
    ],
  },
  {
    kind: 'true-false',
    prompt: { es: 'El curso tiene dos lecciones.', en: 'The course has two lessons.' },
    options: [
      { es: 'Verdadero', en: 'True', right: true },
      { es: 'Falso', en: 'False', right: false },
    ],
  },
] as const;
/** The uploaded video's title in the library (its file's name). */
const VIDEO_TITLE = `demo-${RUN}`;
/** The module's lessons: the uploaded video (chosen by its title), then a demo clip of the library (by its file). */
const LESSONS = [
  { es: 'La clase subida', en: 'The uploaded class', video: VIDEO_TITLE },
  { es: 'La clase de la biblioteca', en: 'The library class', video: 'clip-4.webm' },
] as const;
/** Questions each attempt draws from the bank's three. */
const DRAWN = 2;

/** A 3-second 640×360 clip with a tone, made with the project's ffmpeg in `dir`. */
function makeClip(dir: string, name: string): string {
  const file = join(dir, name);
  const args = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=24:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'];
  const made = spawnSync(toolPaths().ffmpeg, [...args, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`ffmpeg could not make the clip: ${made.stderr}`);
  return file;
}

const saved = (page: Page, text = t.authoring.done.saved) => expect(page.getByRole('status').filter({ hasText: text })).toBeVisible();
const player = (page: Page) => page.locator('[data-ready="true"]');

test('staff upload a video and build a bilingual paid course with its exam; a new learner buys it, watches it through HLS, passes and gets the certificate', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'demo-course-'));
  let courseId = 0;
  try {
    await browseAsAdministrator(page.context(), baseURL!);

    await test.step('the clip is uploaded and converted', async () => {
      // The video library: the clip goes up through the browser's file chooser (tus), then converts.
      const clip = makeClip(dir, `${VIDEO_TITLE}.mp4`);
      await page.goto('/en/admin/videos');
      const chooser = page.waitForEvent('filechooser');
      await page.getByLabel(t.videos.upload.file).click();
      await (await chooser).setFiles(clip);
      await page.getByRole('button', { name: t.videos.upload.start, exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: t.videos.upload.done })).toBeVisible();
      // The new row names the upload and follows its state live until the conversion is done.
      const row = page.locator('tr[data-video]').filter({ has: page.getByRole('link', { name: VIDEO_TITLE, exact: true }) });
      await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
      await expect(row.getByText(t.videos.states.ready, { exact: true })).toBeVisible();
      await expect(row.getByRole('img', { name: format(t.videos.list.posterAlt, { title: VIDEO_TITLE }) })).toBeVisible();
    });

    await test.step('the course is written', async () => {
      // The course: names and descriptions in both languages, one module, two lessons.
      await page.goto('/en/admin/courses');
      const create = page.getByRole('region', { name: t.authoring.list.createTitle });
      await create.getByLabel(t.authoring.list.code).fill(`DEMO-${RUN}`.toUpperCase());
      await create.getByLabel(e.nameEs).fill(COURSE.es);
      await create.getByLabel(e.nameEn).fill(COURSE.en);
      await create.getByRole('button', { name: t.authoring.list.create }).click();
      await page.waitForURL(/\/en\/admin\/courses\/\d+$/);
      courseId = Number(new URL(page.url()).pathname.split('/').pop());

      const addModule = page.getByRole('group', { name: e.addModule });
      await addModule.getByLabel(e.nameEs).fill('Primeros pasos');
      await addModule.getByLabel(e.nameEn).fill('First steps');
      await page.getByRole('button', { name: e.addModule }).click();
      await saved(page);
      for (const l of LESSONS) {
        const addLesson = page.getByRole('group', { name: e.addLesson });
        await addLesson.getByLabel(e.nameEs).fill(l.es);
        await addLesson.getByLabel(e.nameEn).fill(l.en);
        await page.getByRole('button', { name: e.addLesson }).click();
        await saved(page);
      }
      // Each lesson's video from the library: the upload by its title (its HLS master playlist), the demo clip by its file.
      for (const l of LESSONS) {
        const lesson = page.locator('li.lesson', { hasText: l.en });
        await lesson.locator('summary').click();
        await lesson.getByLabel(e.chooseVideo).selectOption({ label: l.video });
        await lesson.getByRole('button', { name: e.setVideo }).click();
        await saved(page);
      }
      // Paid and shown, described in both languages.
      const settings = page.getByRole('region', { name: e.settings });
      await settings.getByLabel(e.descriptionEs).fill('Un curso de demostración con una clase subida y su examen.');
      await settings.getByLabel(e.descriptionEn).fill('A demo course with an uploaded class and its exam.');
      await settings.getByLabel(e.price).fill('24.50');
      await settings.getByLabel(e.hidden).uncheck();
      await settings.getByRole('button', { name: e.save }).click();
      await saved(page);
    });

    await test.step('its question bank is built', async () => {
      // The question bank, from the editor: three questions in both languages, then the exam's settings.
      await page.getByRole('link', { name: e.questionBank }).click();
      await page.waitForURL(`**/en/admin/questions/${courseId}`);
      for (const q of BANK) {
        const form = page.getByRole('region', { name: b.addTitle });
        await form.getByLabel(b.kindLabel).selectOption(q.kind);
        await form.getByLabel(b.promptEs).fill(q.prompt.es);
        await form.getByLabel(b.promptEn).fill(q.prompt.en);
        for (const [i, o] of q.options.entries()) {
          await form.getByLabel(format(b.optionEs, { n: i + 1 }), { exact: true }).fill(o.es);
          await form.getByLabel(format(b.optionEn, { n: i + 1 }), { exact: true }).fill(o.en);
          if (o.right) await form.getByRole('checkbox', { name: format(b.optionRight, { n: i + 1 }), exact: true }).check();
        }
        await form.getByRole('button', { name: b.add, exact: true }).click();
        await saved(page, b.added);
      }
      await expect(page.locator('ol.questions > li')).toHaveCount(BANK.length);
      await expect(page.locator('ol.questions .kind')).toHaveText(BANK.map((q) => t.questionBank.kinds[q.kind]));
      const exam = page.getByRole('region', { name: b.settingsTitle });
      // A new course's exam was made with the first question; an attempt would draw the whole bank of three.
      await expect(exam.getByLabel(b.questions)).toHaveValue(String(BANK.length));
      await exam.getByLabel(b.attempts).fill('2');
      await exam.getByLabel(b.questions).fill(String(DRAWN));
      await exam.getByLabel(b.minutes).fill('10');
      await exam.getByLabel(b.minimumScore).fill('80');
      await exam.getByRole('button', { name: b.saveSettings }).click();
      await saved(page, b.settingsSaved);
    });

    await test.step('it is published', async () => {
      // Published: live at once.
      await page.getByRole('link', { name: b.toCourse }).click();
      await page.getByRole('button', { name: e.publish, exact: true }).click();
      await saved(page, t.authoring.done.published);
    });

    await test.step('a new learner buys it', async () => {
      // A new learner, with a confirmed address (purchases wait for one), in Spanish.
      await page.context().clearCookies();
      const email = `demo.${RUN}@example.com`;
      expect((await page.request.post('/_actions/auth.register', { form: { ...registrationForm(email, 'Demo'), lang: 'es' } })).status()).toBe(200);
      await confirmAddress(page.request, email);

      // Found in the catalogue, added to the cart, paid with the sandbox's approving card.
      await page.goto(`/courses?q=${encodeURIComponent(RUN)}`);
      const card = page.locator(`article.course-card[data-course-id="${courseId}"]`);
      await expect(card.getByRole('heading', { name: COURSE.es })).toBeVisible();
      await card.getByRole('button', { name: /^Agregar al carrito/ }).click();
      await expect(page.getByRole('button', { name: 'Carrito: 1 producto' })).toBeVisible();
      await page.goto('/purchase-detail');
      await expect(page.locator('form[data-enhanced="true"]')).toBeVisible();
      await fillPayment(page, 'es', '4242 4242 4242 4242');
      await page.getByRole('button', { name: 'Pagar $24.50' }).click();
      await page.waitForURL(/\/myshopping-detail\/\d+\?paid=1$/);
      await expect(page.getByRole('status').filter({ hasText: '¡Pago recibido!' })).toBeVisible();
    });

    await test.step('the learner watches both lessons', async () => {
      // Both lessons played to the end; the uploaded one through its HLS master playlist.
      const master = page.waitForRequest((r) => r.url().endsWith('/master.m3u8'));
      await page.getByRole('link', { name: /^Empezar el curso / }).click();
      await expect(page).toHaveURL(new RegExp(`/course-tracking/${courseId}$`));
      expect((await master).url()).toMatch(/\/media\/resource\/\d+\/hls\/master\.m3u8$/);
      await expect(page.getByRole('heading', { level: 2, name: LESSONS[0].es })).toBeVisible();
      await expect(player(page)).toHaveAttribute('data-connected', 'true');
      await page.getByLabel('Velocidad de reproducción').selectOption('1.5');
      await page.locator('video').evaluate((v: HTMLVideoElement) => v.play());
      // The first lesson ends, is ticked, and the next one plays in place at the same speed until it ends too.
      await expect(page.getByRole('heading', { level: 2, name: LESSONS[1].es })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('progressbar', { name: 'Progreso del curso' })).toHaveAttribute('aria-valuetext', /^2 de 2 lecciones, 100 %$/, { timeout: 20_000 });
    });

    await test.step('the learner passes the exam', async () => {
      // The exam, answered right from the bank the journey wrote.
      await page.goto(`/course-exam-info/${courseId}`);
      await page.getByRole('link', { name: 'Empezar el examen' }).click();
      await page.getByRole('dialog', { name: '¿Empezar el examen?' }).getByRole('button', { name: 'Sí, empezar el intento 1' }).click();
      await page.waitForURL(`**/course-exam/${courseId}`);
      const form = page.locator('form[aria-labelledby="exam-attempt"]');
      await expect(form).toHaveAttribute('data-enhanced', 'true');
      const questions = form.locator('fieldset[id^="question-"]');
      await expect(questions).toHaveCount(DRAWN);
      for (let i = 0; i < DRAWN; i++) {
        const fieldset = questions.nth(i);
        const prompt = (await fieldset.locator('legend span').nth(1).textContent())!.trim();
        const question = BANK.find((q) => q.prompt.es === prompt);
        expect(question, `a question the journey did not write: ${prompt}`).toBeDefined();
        for (const o of question!.options.filter((x) => x.right)) await fieldset.getByLabel(o.es, { exact: true }).check();
        await expect(fieldset.getByText('Guardada')).toBeVisible();
      }
      await page.getByRole('button', { name: 'Entregar el examen' }).click();
      await page.waitForURL(`**/course-result?course=${courseId}&attempt=1`);
      await expect(page.getByRole('heading', { name: '¡Aprobaste!' })).toBeVisible();
      await expect(page.getByText('Puntaje: 100 %')).toBeVisible();
    });

    await test.step('the learner gets the certificate', async () => {
      // The certificate, issued in the learner's name for this course.
      await page.getByRole('link', { name: 'Obtener tu certificado' }).click();
      await page.getByRole('button', { name: 'Emitir mi certificado' }).click();
      await expect(page).toHaveURL(new RegExp(`/course-certificate/${courseId}$`));
      await expect(page.locator('#main').getByText(COURSE.es).first()).toBeVisible();
      await expect(page.locator('#main').getByText('Demo Registro').first()).toBeVisible();
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
