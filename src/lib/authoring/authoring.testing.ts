/** A small course document for the authoring tests: two modules, three lessons, one video. */
import type { CourseDoc } from './authoring';

export function sampleDoc(over: Partial<CourseDoc> = {}): CourseDoc {
  return {
    code: 'VENTAS-101',
    nameEs: 'Ventas',
    nameEn: 'Sales',
    descriptionEs: '',
    descriptionEn: '',
    thumbnail: '/images/courses/1.webp',
    categoryId: 2,
    businessId: 1,
    priceCents: 0,
    allowAll: false,
    isTest: false,
    visibleOnlyToBuyers: false,
    hidden: true,
    prerequisiteCourseId: null,
    modules: [
      {
        key: 'm1',
        id: 1,
        nameEs: 'Inicio',
        nameEn: 'Start',
        lessons: [
          { key: 'l1', id: 1, nameEs: 'Hola', nameEn: 'Hello', summaryEs: '', summaryEn: '', resources: [{ key: 'r1', id: 1, kind: 'video', titleEs: 'Video', titleEn: 'Video', url: null, mediaFileId: 4 }] },
          { key: 'l2', id: 2, nameEs: 'Pagos', nameEn: 'Payments', summaryEs: '', summaryEn: '', resources: [] },
        ],
      },
      { key: 'm2', id: 2, nameEs: 'Cierre', nameEn: 'Closing', lessons: [{ key: 'l3', id: 3, nameEs: 'Fin', nameEn: 'End', summaryEs: '', summaryEn: '', resources: [] }] },
    ],
    ...over,
  };
}

