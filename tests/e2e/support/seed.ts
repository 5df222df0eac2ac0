/**
 * What a freshly seeded database holds, for tests that need ids: the seed inserts modules, lessons and
 * resources each in one statement, in catalogue order, so their ids count up from 1 in that order
 * (the same reasoning as `media.spec.ts`). The demo courses are the archives of `assets/demo-catalogue`;
 * the demo people are the README's.
 */
import { readDemoCatalogue } from '../../../src/lib/db/seed/demo-catalogue.server';

/** The demo courses: each one's id and its course archive, in seeding order. */
export const courses = readDemoCatalogue();

/** A readable URL segment (the player's name parts are decorative: the ids decide). */
function slug(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

/** A demo account, with the strings that must never reach anyone else's answers. */
export interface DemoPerson {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const PEOPLE = {
  learner: { email: 'learner@academia.example', password: 'Aprende2026', firstName: 'Laura', lastName: 'Méndez' },
  buyer: { email: 'buyer@academia.example', password: 'Compra2026', firstName: 'Tomás', lastName: 'Rivera' },
  refused: { email: 'refused@academia.example', password: 'Rechazo2026', firstName: 'Rocío', lastName: 'Vargas' },
  admin: { email: 'admin@academia.example', password: 'Admin2026', firstName: 'Andrés', lastName: 'Salazar' },
  /** Watched every lesson of course 2, has not taken its exam. */
  ready: { email: 'ready@academia.example', password: 'Examen2026', firstName: 'Sofía', lastName: 'Arboleda' },
  /** Passed course 2's exam (and completed Real Vision basic, 31). */
  graduate: { email: 'graduate@academia.example', password: 'Gradua2026', firstName: 'Mateo', lastName: 'Gutiérrez' },
} as const satisfies Record<string, DemoPerson>;

/** The accounts of two demo IBOs: an active one (HORIZONTE01) and a suspended one (RUTAS99). */
export const IBO_OWNERS = {
  owner: { email: 'ibo.horizonte@academia.example', password: 'Horizonte2026', firstName: 'Camila', lastName: 'Torres', code: 'HORIZONTE01' },
  suspended: { email: 'ibo.rutas@academia.example', password: 'Rutas2026', firstName: 'Elena', lastName: 'Castro', code: 'RUTAS99' },
} as const;

export interface SeededLesson {
  id: number;
  courseId: number;
  moduleId: number;
  moduleName: string;
  name: string;
  /** The lesson's video resource id. */
  videoId: number;
}

export interface SeededModule {
  id: number;
  courseId: number;
  name: string;
  lessons: SeededLesson[];
}

function seeded() {
  const modules: SeededModule[] = [];
  const lessons: SeededLesson[] = [];
  const resources: { id: number; courseId: number; kind: 'video' | 'pdf' | 'link' }[] = [];
  let moduleId = 0;
  let lessonId = 0;
  for (const c of courses) for (const m of c.archive.course.modules) modules.push({ id: ++moduleId, courseId: c.id, name: m.name.es, lessons: [] });
  let mi = 0;
  for (const c of courses)
    for (const m of c.archive.course.modules) {
      const mod = modules[mi++]!;
      for (const l of m.lessons) {
        const lesson = { id: ++lessonId, courseId: c.id, moduleId: mod.id, moduleName: m.name.es, name: l.name.es, videoId: 0 };
        lessons.push(lesson);
        mod.lessons.push(lesson);
      }
    }
  // Resources are inserted per lesson in catalogue order: the video, then the others.
  let li = 0;
  for (const c of courses)
    for (const m of c.archive.course.modules)
      for (const l of m.lessons) {
        const lesson = lessons[li++]!;
        for (const r of l.resources) {
          if (r.kind === 'video' && !lesson.videoId) lesson.videoId = resources.length + 1;
          resources.push({ id: resources.length + 1, courseId: c.id, kind: r.kind });
        }
      }
  return { modules, lessons, resources };
}

export const SEEDED = seeded();

/** The first module of a course. */
export function firstModule(courseId: number): SeededModule {
  const m = SEEDED.modules.find((x) => x.courseId === courseId);
  if (!m) throw new Error(`course ${courseId} has no seeded module`);
  return m;
}

/** The first lesson of a course. */
export function firstLesson(courseId: number): SeededLesson {
  const l = firstModule(courseId).lessons[0];
  if (!l) throw new Error(`course ${courseId} has no seeded lesson`);
  return l;
}

/** The first resource of a kind in a course (a video or a PDF document). */
export function firstResource(courseId: number, kind: 'video' | 'pdf'): number {
  const r = SEEDED.resources.find((x) => x.courseId === courseId && x.kind === kind);
  if (!r) throw new Error(`course ${courseId} has no ${kind}`);
  return r.id;
}

/** The player's module and lesson addresses of a course's first lesson (the name parts are decorative). */
export function playerPaths(courseId: number): { module: string; lesson: string } {
  const m = firstModule(courseId);
  const l = firstLesson(courseId);
  return {
    module: `/course-tracking/${courseId}/${slug(m.name)}/${m.id}`,
    lesson: `/course-tracking/${courseId}/${slug(m.name)}/${slug(l.name)}/${l.id}`,
  };
}

/** A course's names in both languages (for "never appears" checks). */
export function courseNames(courseId: number): string[] {
  const c = courses.find((x) => x.id === courseId);
  if (!c) throw new Error(`no seeded course ${courseId}`);
  return [c.archive.course.name.es, c.archive.course.name.en];
}

/** A valid registration form for `email` (every field the server checks), as the tests post it. */
export function registrationForm(email: string, name = 'Prueba', password = 'Prueba2026x'): Record<string, string> {
  return {
    name,
    lastName: 'Registro',
    email,
    confirmEmail: email,
    gender: 'other',
    birthDay: '1',
    birthMonth: '1',
    birthYear: '1990',
    password,
    confirmPassword: password,
    lang: 'en',
  };
}
