import { describe, expect, it } from 'vitest';
import { keptPhotoName, parsePhotoName, photoName, photoRefusal, photoRefusalStatus, photoUrl, PHOTO_MAX_BYTES, sniffPhoto } from './photo';

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

describe('telling a photo by its bytes', () => {
  it('knows JPEG, PNG and WebP', () => {
    expect(sniffPhoto(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0))).toBe('jpeg');
    expect(sniffPhoto(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(sniffPhoto(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('webp');
  });

  it.each([
    ['a PDF (whatever its name)', text('%PDF-1.7\n')],
    ['an SVG with a script', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a GIF', text('GIF89a')],
    ['a RIFF that is not WebP (a WAV)', text('RIFF\u0000\u0000\u0000\u0000WAVEfmt ')],
    ['two bytes', bytes(0xff, 0xd8)],
    ['nothing', bytes()],
  ])('refuses %s', (_, b) => {
    expect(sniffPhoto(b)).toBeNull();
    expect(photoRefusal({ size: Math.max(1, b.length), bytes: b })).toBe('notImage');
  });

  it('refuses a missing or empty file and one over the size limit, before looking at it', () => {
    expect(photoRefusal(null)).toBe('missing');
    expect(photoRefusal({ size: 0, bytes: bytes() })).toBe('missing');
    expect(photoRefusal({ size: PHOTO_MAX_BYTES + 1, bytes: bytes(0xff, 0xd8, 0xff) })).toBe('tooLarge');
    expect(photoRefusal({ size: PHOTO_MAX_BYTES, bytes: bytes(0xff, 0xd8, 0xff) })).toBeNull();
  });

  it('answers each refusal with a 4xx', () => {
    expect(photoRefusalStatus('tooLarge')).toBe(413);
    expect(photoRefusalStatus('notImage')).toBe(415);
    expect(photoRefusalStatus('tooManyPixels')).toBe(400);
    expect(photoRefusalStatus('missing')).toBe(400);
  });
});

describe('names of kept photos', () => {
  const hash = 'a'.repeat(64);

  it('names a photo by its owner and bytes, and reads the name back', () => {
    const name = photoName(7, hash);
    expect(name).toBe(`7-${'a'.repeat(20)}.webp`);
    expect(parsePhotoName(name)).toEqual({ userId: 7, name });
    expect(keptPhotoName(photoUrl(name))).toBe(name);
  });

  it.each(['../7-aaaaaaaaaaaaaaaaaaaa.webp', '7-aaaaaaaaaaaaaaaaaaaa.svg', '0-aaaaaaaaaaaaaaaaaaaa.webp', '7-AAAAAAAAAAAAAAAAAAAA.webp', '9999999999-aaaaaaaaaaaaaaaaaaaa.webp', '', undefined])('refuses %s', (name) => {
    expect(parsePhotoName(name)).toBeNull();
  });

  it('leaves alone an image address that is not a kept photo (the demo pictures)', () => {
    expect(keptPhotoName('/images/people/laura-mendez.svg')).toBeNull();
    expect(keptPhotoName(null)).toBeNull();
  });
});
