import { describe, expect, it } from 'vitest';
import { sampleDoc } from './authoring.testing';
import { setVideo, addLesson, addLink, addModule, arrangeOutline, editLesson, moveLesson, orderModules, removeLesson, removeModule, removeResource, renameModule, stepLesson, stepModule, type EditResult } from './edits';

const keys = () => {
  let n = 0;
  return () => `n${String(++n).padStart(12, '0')}`;
};
const outline = (r: EditResult) => (r.ok ? r.doc.modules.map((m) => `${m.key}:${m.lessons.map((l) => l.key).join(',')}`) : r.problem);

describe('editing a draft', () => {
  it('adds, renames and removes modules and lessons', () => {
    const key = keys();
    let r = addModule(sampleDoc(), { es: 'Extra', en: '' }, key);
    expect(outline(r)).toEqual(['m1:l1,l2', 'm2:l3', 'n000000000001:']);
    r = addLesson(r.ok ? r.doc : sampleDoc(), 'n000000000001', { es: 'Uno', en: 'One' }, key);
    expect(outline(r)).toEqual(['m1:l1,l2', 'm2:l3', 'n000000000001:n000000000002']);
    r = renameModule(r.ok ? r.doc : sampleDoc(), 'm2', { es: 'Final', en: 'Final' });
    expect(r.ok && r.doc.modules[1]!.nameEs).toBe('Final');
    r = editLesson(r.ok ? r.doc : sampleDoc(), 'l2', { names: { es: 'Cobros', en: 'Charges' }, summary: { es: 'S', en: 'S' } });
    expect(r.ok && r.doc.modules[0]!.lessons[1]).toMatchObject({ nameEs: 'Cobros', nameEn: 'Charges', summaryEs: 'S', id: 2 });
    expect(outline(removeLesson(r.ok ? r.doc : sampleDoc(), 'l1'))).toEqual(['m1:l2', 'm2:l3', 'n000000000001:n000000000002']);
    expect(outline(removeModule(sampleDoc(), 'm1'))).toEqual(['m2:l3']);
  });

  it('moves modules and lessons one place up or down, and says when one is already at the end', () => {
    expect(outline(stepModule(sampleDoc(), 'm2', 'up'))).toEqual(['m2:l3', 'm1:l1,l2']);
    expect(outline(stepModule(sampleDoc(), 'm1', 'up'))).toBe('edge');
    expect(outline(stepLesson(sampleDoc(), 'l1', 'down'))).toEqual(['m1:l2,l1', 'm2:l3']);
    expect(outline(stepLesson(sampleDoc(), 'l3', 'down'))).toBe('edge');
    expect(outline(orderModules(sampleDoc(), ['m2', 'm1']))).toEqual(['m2:l3', 'm1:l1,l2']);
    expect(outline(orderModules(sampleDoc(), ['m2']))).toBe('notAPermutation');
  });

  it("moves a lesson to another module of the course, never into a module the course does not have", () => {
    expect(outline(moveLesson(sampleDoc(), 'l1', 'm2', 0))).toEqual(['m1:l2', 'm2:l1,l3']);
    expect(outline(moveLesson(sampleDoc(), 'l1', 'm2', 99))).toEqual(['m1:l2', 'm2:l3,l1']);
    expect(outline(moveLesson(sampleDoc(), 'l1', 'm1', 1))).toEqual(['m1:l2,l1', 'm2:l3']);
    // Another course's module (m77) or a forged key: refused, nothing changes.
    expect(outline(moveLesson(sampleDoc(), 'l1', 'm77', 0))).toBe('unknownModule');
    expect(outline(moveLesson(sampleDoc(), 'l77', 'm1', 0))).toBe('unknownLesson');
  });

  it('takes the whole outline from drag and drop only when it names every module and lesson once', () => {
    expect(outline(arrangeOutline(sampleDoc(), [{ module: 'm2', lessons: ['l3', 'l1'] }, { module: 'm1', lessons: ['l2'] }]))).toEqual(['m2:l3,l1', 'm1:l2']);
    expect(outline(arrangeOutline(sampleDoc(), [{ module: 'm2', lessons: ['l3', 'l1'] }, { module: 'm1', lessons: [] }]))).toBe('notAPermutation');
    expect(outline(arrangeOutline(sampleDoc(), [{ module: 'm2', lessons: ['l3', 'l1', 'l1'] }, { module: 'm1', lessons: ['l2'] }]))).toBe('notAPermutation');
    expect(outline(arrangeOutline(sampleDoc(), [{ module: 'm9', lessons: ['l3', 'l1', 'l2'] }, { module: 'm1', lessons: [] }]))).toBe('notAPermutation');
  });

  it('adds and removes links; a video keeps its media file (the media library seam)', () => {
    const r = addLink(sampleDoc(), 'l2', { es: 'Guía', en: 'Guide' }, 'https://example.com/g', keys());
    expect(r.ok && r.doc.modules[0]!.lessons[1]!.resources).toEqual([{ key: 'n000000000001', id: null, kind: 'link', titleEs: 'Guía', titleEn: 'Guide', url: 'https://example.com/g', mediaFileId: null }]);
    expect(removeResource(sampleDoc(), 'r9').ok).toBe(false);
    const gone = removeResource(sampleDoc(), 'r1');
    expect(gone.ok && gone.doc.modules[0]!.lessons[0]!.resources).toEqual([]);
    expect(sampleDoc().modules[0]!.lessons[0]!.resources[0]!.mediaFileId).toBe(4);
  });

  it('picks a lesson\'s video from the media library, keeping an existing video resource (and its captions)', () => {
    const kept = setVideo(sampleDoc(), 'l1', 7, keys());
    expect(kept.ok && kept.doc.modules[0]!.lessons[0]!.resources).toEqual([{ key: 'r1', id: 1, kind: 'video', titleEs: 'Video', titleEn: 'Video', url: null, mediaFileId: 7 }]);
    const added = setVideo(sampleDoc(), 'l2', 7, keys());
    expect(added.ok && added.doc.modules[0]!.lessons[1]!.resources).toEqual([{ key: 'n000000000001', id: null, kind: 'video', titleEs: 'Pagos', titleEn: 'Payments', url: null, mediaFileId: 7 }]);
    const none = setVideo(sampleDoc(), 'l1', null, keys());
    expect(none.ok && none.doc.modules[0]!.lessons[0]!.resources).toEqual([]);
    expect(setVideo(sampleDoc(), 'l9', 7, keys()).ok).toBe(false);
  });
});
