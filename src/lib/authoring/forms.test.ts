import { describe, expect, it } from 'vitest';
import { addLessonSchema, createCourseSchema, itemKey, settingsSchema } from './forms';

describe('the authoring forms', () => {
  it('reads an empty field (sent as null) as an empty text, to be flagged rather than refused', () => {
    expect(addLessonSchema.parse({ courseId: '3', moduleKey: 'm4', nameEs: 'Hola', nameEn: null, lang: 'en' })).toEqual({ courseId: 3, moduleKey: 'm4', nameEs: 'Hola', nameEn: '', lang: 'en' });
  });

  it('reads checkboxes and an empty prerequisite', () => {
    const form = { courseId: '3', nameEs: 'A', nameEn: 'B', descriptionEs: null, descriptionEn: null, categoryId: '2', businessId: '1', price: '1', allowAll: 'on', isTest: null, visibleOnlyToBuyers: null, hidden: 'on', prerequisiteCourseId: null, lang: 'es' };
    expect(settingsSchema.parse(form)).toMatchObject({ allowAll: true, isTest: false, hidden: true, prerequisiteCourseId: null, descriptionEs: '' });
    expect(settingsSchema.parse({ ...form, prerequisiteCourseId: '31' }).prerequisiteCourseId).toBe(31);
  });

  it('refuses item keys that are not a draft item, codes with paths, and control characters in texts', () => {
    for (const bad of ['m0', 'x1', 'n123', "m1' or 1=1", '../m1', 'm1\u0000']) expect(itemKey.safeParse(bad).success).toBe(false);
    expect(itemKey.safeParse('n0123456789ab').success).toBe(true);
    expect(createCourseSchema.safeParse({ code: '../etc', nameEs: 'A', nameEn: 'B', categoryId: '2', businessId: '1', lang: 'en' }).success).toBe(false);
    expect(createCourseSchema.parse({ code: 'ventas-1', nameEs: 'A', nameEn: 'B', categoryId: '2', businessId: '1', lang: 'en' }).code).toBe('VENTAS-1');
    expect(addLessonSchema.safeParse({ courseId: '3', moduleKey: 'm4', nameEs: 'Hola\u0000', nameEn: '', lang: 'en' }).success).toBe(false);
  });
});
