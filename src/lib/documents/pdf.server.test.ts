import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { newDocument } from './pdf.server';

describe('newDocument', () => {
  it('embeds the document font and sets what the document says of itself', async () => {
    const date = new Date('2025-03-05T10:30:00Z');
    const { doc, font } = await newDocument({ title: 'Recibo A-1', author: 'Academia', subject: 'Pedido A-1', language: 'es', creator: 'Academia Ejemplo', keywords: ['A-1', 'curso'], date });
    expect(font.name).toMatch(/LiberationSerif/);
    // The embedded font prints Spanish: no character is missing from it.
    expect(() => font.encodeText('¿Año? ¡Ñandú! áéíóúü')).not.toThrow();
    doc.addPage().drawText('Año', { font, size: 12 });
    const back = await PDFDocument.load(await doc.save(), { updateMetadata: false });
    expect(back.getTitle()).toBe('Recibo A-1');
    expect(back.getAuthor()).toBe('Academia');
    expect(back.getSubject()).toBe('Pedido A-1');
    expect(back.getKeywords()).toBe('A-1 curso');
    expect(back.getCreator()).toBe('Academia Ejemplo');
    expect(back.getCreationDate()).toEqual(date);
    expect(back.getModificationDate()).toEqual(date);
    expect(back.catalog.lookup(PDFName.of('Lang'), PDFString).decodeText()).toBe('es');
  });

  it('leaves the dates at now when none is given', async () => {
    const before = Date.now() - 1000;
    const { doc } = await newDocument({ title: 't', author: 'a', subject: 's', language: 'en', creator: 'c' });
    expect(doc.getCreationDate()!.getTime()).toBeGreaterThanOrEqual(before);
    expect(doc.getKeywords()).toBeUndefined();
  });
});
