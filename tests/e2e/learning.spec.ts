/**
 * Learning journeys: the lesson player plays real lessons in Chromium, the server confirms completion
 * (and refuses it after a seek to the end), progress survives a reload and reaches a second browser
 * context live, refused courses answer 403 without a video, unknown ids 404, "my learning" shows the
 * course, and the English player speaks English with English captions by default.
 *
 * Journeys that write progress use a new account each (registered through the action, then logged in
 * through the login action), so they never depend on each other nor on other journeys.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousViolations, test } from './fixtures';

const LEARNER = { email: 'learner@academia.example', password: 'Aprende2026' };

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A new learner account (through the registration action; the journeys log in through the form). */
async function newLearner(page: Page, baseURL: string) {
  const email = `alumna.${unique()}@example.com`;
  const password = 'Aprende2026';
  const response = await page.request.post('/_actions/auth.register', {
    headers: { origin: baseURL },
    form: { name: 'Ana', lastName: 'Prueba', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password, confirmPassword: password, lang: 'es' },
  });
  expect(response.status()).toBe(200);
  await page.context().clearCookies();
  return { email, password };
}

/**
 * Logs the tab's context in through the login action (the session cookie is the context's) and opens
 * `next`. The login form itself is proved in identity.spec.ts; here it would only add a page and a wait.
 */
async function logIn(page: Page, who: { email: string; password: string }, next: string) {
  const origin = test.info().project.use.baseURL!;
  const response = await page.request.post('/_actions/auth.login', { headers: { origin }, form: { email: who.email, password: who.password, lang: 'es' } });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(next);
  await expect(page).toHaveURL((u) => u.pathname === next);
}

const player = (page: Page) => page.locator('[data-ready="true"]');
const video = (page: Page) => page.locator('video');
const outline = (page: Page, name = 'Contenido del curso') => page.getByRole('navigation', { name });
const lessonLink = (page: Page, lesson: string, name?: string) => outline(page, name).getByRole('link', { name: new RegExp(`^${escape(lesson)}`) });
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/**
 * Plays the video faster than normal once the socket is connected (so every event takes the same
 * quick path). 1.5× leaves the server's real-playback check room for a slow CI machine.
 */
async function playFast(page: Page) {
  await expect(player(page)).toHaveAttribute('data-connected', 'true');
  await page.getByLabel('Velocidad de reproducción').selectOption('1.5');
  await video(page).evaluate((v: HTMLVideoElement) => v.play());
}

/** The position of the lesson on screen the server acknowledged last (0 before any). */
async function savedPosition(page: Page, lessonId: string): Promise<number> {
  const saved = (await player(page).getAttribute('data-saved')) ?? '';
  return saved.startsWith(`${lessonId}@`) ? Number(saved.split('@')[1]) : 0;
}

test('a lesson played to the end is ticked by the server and the player moves on; a reload resumes; my learning shows the course', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await logIn(page, await newLearner(page, baseURL!), '/courses-details/1');
  await page.getByRole('link', { name: 'Empezar el curso' }).click();
  await expect(page).toHaveURL(/\/course-tracking\/1$/);
  await expect(player(page)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bienvenida a la academia');
  const first = lessonLink(page, '¿Qué es la academia?');
  await expect(first).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('progressbar', { name: 'Progreso del curso' })).toHaveAttribute('aria-valuetext', '0 de 5 lecciones, 0 %');
  const firstId = await player(page).getAttribute('data-lesson-id');

  // (a) Played to the end: ticked on the server's word, then the next lesson plays in place.
  await playFast(page);
  await expect(page).toHaveURL(/\/course-tracking\/1\/conoce-la-academia\/categorias-y-lineas-de-negocio\/\d+$/, { timeout: 15_000 });
  await expect(first).toHaveAccessibleName(/\(completada\)/);
  await expect(first).not.toHaveAttribute('aria-current');
  const second = lessonLink(page, 'Categorías y líneas de negocio');
  await expect(second).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Categorías y líneas de negocio' })).toBeVisible();
  // Said in the player's own line, in the page's flow (a floating notice would cover the title on a phone).
  await expect(player(page).locator('[data-player-status]')).toHaveText('Lección completada: «¿Qué es la academia?».');
  await expect(player(page).getByRole('status').filter({ hasText: 'Ahora se reproduce: «Categorías y líneas de negocio».' })).toHaveCount(1);
  await expect(page.locator('[data-toast]')).not.toHaveClass(/visible/);
  await expect(page.getByRole('progressbar', { name: 'Progreso del curso' })).toHaveAttribute('aria-valuetext', '1 de 5 lecciones, 20 %');
  await expect(page).toHaveTitle(/^Categorías y líneas de negocio · Bienvenida a la academia/);
  const secondId = await player(page).getAttribute('data-lesson-id');
  expect(secondId).not.toBe(firstId);
  // The stored tracking position follows the lesson (local-storage `tracking` entry).
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('tracking') ?? 'null'));
  expect(stored).toEqual([expect.objectContaining({ courseId: 1, id: Number(secondId), fatherPosition: 0, sonPosition: 1, subtopicName: 'Categorías y líneas de negocio' })]);

  // The next lesson keeps playing (at the chosen speed): stop it part way.
  await expect.poll(() => currentTime(page)).toBeGreaterThan(1.5);
  await video(page).evaluate((v: HTMLVideoElement) => v.pause());
  expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);
  const paused = await currentTime(page);
  // The pause is acknowledged with the position the server will resume from.
  await expect.poll(() => savedPosition(page, secondId!)).toBeCloseTo(paused, 1);
  const position = await savedPosition(page, secondId!);

  // (b) A reload resumes where the server says, and the first lesson stays ticked.
  await page.reload();
  await expect(player(page)).toBeVisible();
  await expect(player(page)).toHaveAttribute('data-lesson-id', secondId!);
  await expect.poll(() => currentTime(page)).toBeCloseTo(position, 0);
  await expect(page.getByText(/Continúas donde lo dejaste \(0:0\d\)/)).toBeVisible();
  await expect(lessonLink(page, '¿Qué es la academia?')).toHaveAccessibleName(/\(completada\)/);
  await expect(lessonLink(page, 'Categorías y líneas de negocio')).not.toHaveAccessibleName(/\(completada\)/);

  // The course address opens the resume point too.
  await page.goto('/course-tracking/1');
  await expect(player(page)).toHaveAttribute('data-lesson-id', secondId!);

  // (g) My learning: the course with its percentage, the last lesson and a working resume button.
  await page.goto('/mylearning');
  const card = page.locator('article[data-course-id="1"]');
  await expect(card.getByRole('heading', { name: 'Bienvenida a la academia' })).toBeVisible();
  await expect(card.getByText('20 % completado')).toBeVisible();
  await expect(card.getByRole('progressbar', { name: 'Progreso de Bienvenida a la academia' })).toHaveAttribute('aria-valuenow', '20');
  await expect(card.getByRole('link', { name: 'Última lección: Categorías y líneas de negocio' })).toBeVisible();
  await card.getByRole('link', { name: 'Continuar Bienvenida a la academia' }).click();
  await expect(page).toHaveURL(/\/course-tracking\/1$/);
  await expect(player(page)).toHaveAttribute('data-lesson-id', secondId!);
  await expect.poll(() => currentTime(page)).toBeGreaterThan(1);
});

test('a second browser context of the same person sees the same progress, live while the first one plays', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const who = await newLearner(page, baseURL!);
  await logIn(page, who, '/course-tracking/2');
  await expect(player(page)).toBeVisible();
  const other = await browser.newContext({ baseURL: baseURL! });
  try {
    const second = await other.newPage();
    await second.addInitScript(() => sessionStorage.setItem('welcome-dismissed', '1'));
    await logIn(second, who, '/course-tracking/2');
    await expect(player(second)).toBeVisible();
    const link = (p: Page) => outline(p).getByRole('link').first();
    await expect(link(second)).not.toHaveAccessibleName(/\(completada\)/);
    // Wait for the second tab's socket before playing, so it hears the broadcast.
    await expect(player(second)).toHaveAttribute('data-connected', 'true');

    await playFast(page);
    await expect(link(page)).toHaveAccessibleName(/\(completada\)/, { timeout: 15_000 });
    // Live: the other context ticks it without reloading, and its progress bar follows.
    await expect(link(second)).toHaveAccessibleName(/\(completada\)/, { timeout: 10_000 });
    await expect(second.getByRole('progressbar', { name: 'Progreso del curso' })).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/);
    // And after a reload, from the server.
    await second.reload();
    await expect(link(second)).toHaveAccessibleName(/\(completada\)/);
  } finally {
    await other.close();
  }
});

test('seeking to the end does not complete a lesson', async ({ page, baseURL }) => {
  test.setTimeout(45_000);
  await logIn(page, await newLearner(page, baseURL!), '/course-tracking/5');
  await expect(player(page)).toBeVisible();
  const first = outline(page).getByRole('link').first();
  await expect(first).toHaveAttribute('aria-current', 'page');
  const url = page.url();
  // Playback starts, then jumps to the end at once, in the page itself: no round trip of the test in
  // between. (Time that really passes between the reports buys credit at the fastest speed, so a test
  // that waited seconds on a busy machine before seeking would be watching, not seeking, in the
  // server's eyes: the lessons are 7–9 s long.)
  const played = await video(page).evaluate(async (v: HTMLVideoElement) => {
    if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
    await v.play();
    const at = v.currentTime;
    v.currentTime = v.duration - 0.3;
    return at;
  });
  expect(played).toBeLessThan(1);
  // The player still moves on, and says why the lesson was not completed.
  await expect(page).not.toHaveURL(url, { timeout: 15_000 });
  await expect(page.getByText(/no quedó completada/)).toBeVisible();
  await expect(first).not.toHaveAccessibleName(/\(completada\)/);
  await expect(page.getByRole('progressbar', { name: 'Progreso del curso' })).toHaveAttribute('aria-valuenow', '0');
  await page.reload();
  await expect(outline(page).getByRole('link').first()).not.toHaveAccessibleName(/\(completada\)/);
});

test('a paid course not bought answers 403 with the next step and no video; unknown ids answer 404', async ({ page }) => {
  // A visitor: the next step is entering as a guest or logging in.
  let response = await page.goto('/course-tracking/1');
  expect(response?.status()).toBe(403);
  // The status line carries the status's own reason phrase, not the page default's "OK".
  expect(response?.statusText()).toBe('Forbidden');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bienvenida a la academia');
  await expect(page.getByRole('link', { name: 'Entrar como invitado' })).toBeVisible();
  await expect(page.locator('video')).toHaveCount(0);

  await logIn(page, LEARNER, '/courses');
  response = await page.goto('/course-tracking/8');
  expect(response?.status()).toBe(403);
  await expect(page.getByText('Aún no puedes ver este curso')).toBeVisible();
  await expect(page.getByText('Compra este curso para verlo.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Comprar' })).toBeVisible();
  await expect(page.locator('video')).toHaveCount(0);
  // Every player address of that course is refused alike.
  response = await page.goto('/en/course-tracking/8');
  expect(response?.status()).toBe(403);
  await expect(page.getByText('Buy this course to watch it.')).toBeVisible();

  // The first is drawn and looked at; the others' pages are read as the server sends them (same session).
  const [first, ...others] = ['/course-tracking/1/modulo/leccion/999999', '/course-tracking/1/modulo/999999', '/course-tracking/99999', '/course-tracking/abc', '/course-tracking/1/a/b/c/1', '/en/course-tracking/1/x/y/0', '/course-tracking/12', '/course-tracking/10'];
  response = await page.goto(first!);
  expect(response?.status(), first).toBe(404);
  expect(response?.statusText(), first).toBe('Not Found');
  await expect(page.locator('video'), first).toHaveCount(0);
  for (const path of others) {
    const r = await page.request.get(path);
    expect(r.status(), path).toBe(404);
    expect(r.statusText(), path).toBe('Not Found');
    expect(await r.text(), path).not.toContain('<video');
  }
  // A lesson of another course is not this course's.
  await page.goto('/course-tracking/2');
  const otherLesson = (await outline(page).getByRole('link').first().getAttribute('href'))!.split('/').at(-1);
  response = await page.goto(`/course-tracking/1/modulo/leccion/${otherLesson}`);
  expect(response?.status()).toBe(404);
});

test('my learning is empty for a new learner, in both languages', async ({ page, baseURL }) => {
  await logIn(page, await newLearner(page, baseURL!), '/mylearning');
  await expect(page.getByText('Todavía no tienes cursos. Explora el catálogo y empieza uno.')).toBeVisible();
  await page.goto('/en/mylearning');
  await expect(page.getByRole('link', { name: 'Browse courses' })).toBeVisible();
});

// ready@'s my learning before and after the exam is in exams.spec.ts (that journey takes ready@'s attempts).
test('my learning: graduate@ sees course 2 passed with the best score and the certificate, in both languages', async ({ page }) => {
  await logIn(page, { email: 'graduate@academia.example', password: 'Gradua2026' }, '/mylearning');
  const passed = page.locator('article[data-course-id="2"]');
  await expect(passed.getByText('Completado', { exact: true })).toBeVisible();
  await expect(passed.getByText('Examen: aprobado')).toBeVisible();
  await expect(passed.getByText('Mejor puntaje: 100 %')).toBeVisible();
  await expect(passed.getByRole('link', { name: 'Ver el certificado de Fundamentos de la industria de viajes' })).toHaveAttribute('href', '/course-generate?course=2');
  await expect(passed.getByRole('link', { name: /examen/i })).toHaveCount(0);
  await page.goto('/en/mylearning');
  const english = page.locator('article[data-course-id="2"]');
  await expect(english.getByText('Exam: passed')).toBeVisible();
  await expect(english.getByText('Best score: 100 %')).toBeVisible();
  await expect(english.getByRole('link', { name: 'See the certificate of Travel industry fundamentals' })).toHaveAttribute('href', '/en/course-generate?course=2');
});

test('the English player speaks English with English captions by default, and axe finds nothing serious @mobile', async ({ page }) => {
  await logIn(page, LEARNER, '/courses');
  await page.goto('/en/course-tracking/1');
  await expect(player(page)).toBeVisible();
  // Another lesson, switched in place from the outline.
  await lessonLink(page, 'Lessons, videos and resources', 'Course content').click();
  await expect(page).toHaveURL(/\/en\/course-tracking\/1\/how-to-study-here\/lessons-videos-and-resources\/\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Lessons, videos and resources' })).toBeFocused();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to the academy');
  await expect(outline(page, 'Course content')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Course progress' })).toHaveAttribute('aria-valuetext', /of 5 lessons, \d+ %/);
  await expect(page.getByLabel('Playback speed')).toHaveValue('1');
  // Modules fold (the outline stays short on a phone).
  const module1 = outline(page, 'Course content').getByRole('button', { name: /^Module 1: Getting to know the academy/ });
  await expect(module1).toHaveAttribute('aria-expanded', 'true');
  await module1.click();
  await expect(module1).toHaveAttribute('aria-expanded', 'false');
  await expect(lessonLink(page, 'What is the academy?', 'Course content')).toBeHidden();
  await module1.click();
  await expect(lessonLink(page, 'What is the academy?', 'Course content')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Lessons, videos and resources' })).toBeVisible();
  // Resources: the video first, then the PDF (new tab).
  const resources = page.getByRole('region', { name: 'Lesson resources' }).getByRole('listitem');
  await expect(resources.first()).toContainText('Video');
  const pdf = page.getByRole('link', { name: /Academy quick guide/ });
  await expect(pdf).toHaveAttribute('target', '_blank');
  await expect(pdf).toHaveAttribute('href', /^\/media\/resource\/\d+$/);
  const tracks = await video(page).evaluate(async (v: HTMLVideoElement) => {
    if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
    return [...v.textTracks].map((t) => ({ lang: t.language, mode: t.mode }));
  });
  expect(tracks).toEqual([
    { lang: 'es', mode: 'disabled' },
    { lang: 'en', mode: 'showing' },
  ]);
  await expectNoSeriousViolations(page);

  await page.goto('/course-tracking/1');
  await expect(player(page)).toBeVisible();
  await expectNoSeriousViolations(page);
  const spanish = await video(page).evaluate((v: HTMLVideoElement) => [...v.textTracks].find((t) => t.mode === 'showing')?.language);
  expect(spanish).toBe('es');
});

test('without the socket the player saves progress over HTTP, and a reload resumes there', async ({ page, baseURL }) => {
  test.setTimeout(45_000);
  await logIn(page, await newLearner(page, baseURL!), '/courses-details/1');
  // The socket cannot connect (a proxy that refuses WebSockets and polling, say).
  await page.route('**/socket.io/**', (route) => route.abort());
  const posted: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/tracking') && r.method() === 'POST') posted.push(JSON.parse(r.postData() ?? '{}').event);
  });
  await page.goto('/course-tracking/1');
  await expect(player(page)).toBeVisible();
  await expect(player(page)).not.toHaveAttribute('data-connected', 'true');
  const lessonId = (await player(page).getAttribute('data-lesson-id'))!;
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => currentTime(page)).toBeGreaterThan(2);
  await video(page).evaluate((v: HTMLVideoElement) => v.pause());
  const paused = await currentTime(page);
  await expect.poll(() => savedPosition(page, lessonId)).toBeCloseTo(paused, 1);
  expect(posted).toEqual(expect.arrayContaining(['tracking play', 'tracking']));

  await page.unroute('**/socket.io/**');
  await page.reload();
  await expect(player(page)).toHaveAttribute('data-lesson-id', lessonId);
  await expect.poll(() => currentTime(page)).toBeCloseTo(paused, 0);
});

test('leaving the page sends the last position with a beacon', async ({ page, baseURL }) => {
  test.setTimeout(45_000);
  await logIn(page, await newLearner(page, baseURL!), '/courses-details/1');
  await page.goto('/course-tracking/1');
  await expect(player(page)).toHaveAttribute('data-connected', 'true');
  const lessonId = (await player(page).getAttribute('data-lesson-id'))!;
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  // Less than the 5-second report interval: only the beacon can tell the server about this position.
  await expect.poll(() => currentTime(page)).toBeGreaterThan(2.5);
  // Note each beacon in the tab's session storage, which outlives the page. (With the beacon dropped
  // instead, the lesson reopens at 0: nothing else reports this position.)
  await page.evaluate(() => {
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      sessionStorage.setItem('beacon', String(url));
      return send(url, data);
    };
  });
  await page.goto('/mylearning');
  expect(await page.evaluate(() => sessionStorage.getItem('beacon'))).toBe('/api/tracking');

  await page.goto('/course-tracking/1');
  await expect(player(page)).toHaveAttribute('data-lesson-id', lessonId);
  await expect.poll(() => currentTime(page)).toBeGreaterThan(2.5);
});

test('the HTTP fallback refuses a visitor with 401 in the visitor’s language', async ({ request, baseURL }) => {
  const body = JSON.stringify({ event: 'tracking', courseId: 1, payload: { Identificador: 1, Avance: 3 } });
  const english = await request.post('/api/tracking', { data: body, headers: { origin: baseURL!, 'accept-language': 'en-US,en;q=0.9' } });
  expect(english.status()).toBe(401);
  expect(await english.json()).toEqual({ ok: false, error: 'unauthorized', message: 'Log in to save your progress.' });
  const spanish = await request.post('/api/tracking?lang=es', { data: body, headers: { origin: baseURL!, 'accept-language': 'en-US' } });
  expect(await spanish.json()).toMatchObject({ error: 'unauthorized', message: 'Inicia sesión para guardar tu avance.' });
});

test('a page on another origin of the same site cannot open the progress socket with the learner’s cookie', async ({ page, baseURL }) => {
  await logIn(page, await newLearner(page, baseURL!), '/course-tracking/1');
  await expect(player(page)).toHaveAttribute('data-connected', 'true');
  const lessonId = Number(await player(page).getAttribute('data-lesson-id'));
  await page.goto('/courses');

  // A page served from another port of the same host: the same site (the SameSite=Lax session cookie
  // rides along), another origin.
  const site = new URL(baseURL!);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Elsewhere</title></html>'));
  await new Promise<void>((resolve) => server.listen(0, site.hostname, resolve));
  const elsewhere = `${site.protocol}//${site.hostname}:${(server.address() as AddressInfo).port}`;
  await page.goto(`${elsewhere}/`);
  const polling = page.waitForResponse((r) => r.url().includes('/socket.io/') && r.url().includes('transport=polling'));
  const outcome = await page.evaluate(
    ({ ws, http, lesson }) => {
      // The polling handshake (its answer is hidden from this page, but not from the test).
      void fetch(http, { mode: 'no-cors', credentials: 'include' }).catch(() => undefined);
      // The WebSocket handshake, speaking socket.io's protocol by hand, then a progress event.
      return new Promise<string>((resolve) => {
        const socket = new WebSocket(ws);
        socket.onmessage = (e) => {
          const message = String(e.data);
          if (message.startsWith('0')) socket.send('40{"courseId":1}');
          else if (message.startsWith('40')) {
            socket.send(`42${JSON.stringify(['tracking play', { Identificador: lesson, IdEntidad: 3, Avance: 3, Activo: true }])}`);
            resolve('connected');
          } else if (message.startsWith('44')) resolve(`refused: ${message}`);
        };
        socket.onerror = () => resolve('refused');
        socket.onclose = () => resolve('refused');
      });
    },
    { ws: `ws://${site.host}/socket.io/?EIO=4&transport=websocket`, http: `${baseURL}/socket.io/?EIO=4&transport=polling`, lesson: lessonId },
  );
  expect(outcome).toBe('refused');
  expect((await polling).status()).toBe(403);
  server.close();

  // Nothing was written: the course was never started.
  await page.goto(`${baseURL}/mylearning`);
  await expect(page.getByText('Todavía no tienes cursos. Explora el catálogo y empieza uno.')).toBeVisible();
});
