import { describe, expect, it } from 'vitest';
import { centreCrop, cropFits, cropStep, CROP_MIN_SIZE, growCropFromCorner, keptPhotoName, moveCrop, parseCrop, parsePhotoName, photoName, photoRefusal, photoRefusalStatus, photoUrl, PHOTO_MAX_BYTES, resizeCrop, sniffPhoto } from './photo';

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

describe('the crop square', () => {
  it('reads the posted square: none (the centre is kept), three whole numbers, or invalid', () => {
    expect(parseCrop(undefined, undefined, undefined)).toBeNull();
    expect(parseCrop('', '', '')).toBeNull();
    expect(parseCrop('10', '0', '300')).toEqual({ x: 10, y: 0, size: 300 });
    for (const bad of [
      ['10', '0', undefined],
      ['-1', '0', '300'],
      ['1.5', '0', '300'],
      ['1e3', '0', '300'],
      ['0x10', '0', '300'],
      ['010', '0', '300'],
      ['10', '0', '9999999'],
      ['10 ', '0', '300'],
      ['\u0000', '0', '300'],
    ]) {
      expect(parseCrop(bad[0], bad[1], bad[2]), JSON.stringify(bad)).toBe('invalid');
    }
    expect(parseCrop({}, '0', '1')).toBe('invalid');
  });

  it('fits a square inside the real picture only, no smaller than the smallest frame', () => {
    expect(cropFits({ x: 0, y: 0, size: 600 }, 900, 600)).toBe(true);
    expect(cropFits({ x: 300, y: 0, size: 600 }, 900, 600)).toBe(true);
    expect(cropFits({ x: 301, y: 0, size: 600 }, 900, 600)).toBe(false);
    expect(cropFits({ x: 0, y: 1, size: 600 }, 900, 600)).toBe(false);
    expect(cropFits({ x: 0, y: 0, size: 601 }, 900, 600)).toBe(false);
    expect(cropFits({ x: 0, y: 0, size: CROP_MIN_SIZE - 1 }, 900, 600)).toBe(false);
    expect(cropFits({ x: 0, y: 0, size: 0 }, 900, 600)).toBe(false);
    expect(cropFits({ x: -1, y: 0, size: 100 }, 900, 600)).toBe(false);
    expect(cropFits({ x: 0.5, y: 0, size: 100 }, 900, 600)).toBe(false);
    // A picture smaller than the smallest frame: its whole short side.
    expect(cropFits({ x: 0, y: 0, size: 20 }, 20, 30)).toBe(true);
  });

  it('starts at the largest square in the centre', () => {
    expect(centreCrop(900, 600)).toEqual({ x: 150, y: 0, size: 600 });
    expect(centreCrop(600, 901)).toEqual({ x: 0, y: 150, size: 600 });
    expect(centreCrop(500, 500)).toEqual({ x: 0, y: 0, size: 500 });
  });

  it('moves and resizes the frame without ever leaving the picture', () => {
    const start = { x: 150, y: 0, size: 600 };
    expect(moveCrop(start, -30, 0, 900, 600)).toEqual({ x: 120, y: 0, size: 600 });
    expect(moveCrop(start, 1000, 1000, 900, 600)).toEqual({ x: 300, y: 0, size: 600 });
    expect(moveCrop(start, -1000, -5, 900, 600)).toEqual({ x: 0, y: 0, size: 600 });
    // Shrinking keeps the centre; growing past the short side stops there.
    expect(resizeCrop(start, -100, 900, 600)).toEqual({ x: 200, y: 50, size: 500 });
    expect(resizeCrop({ x: 200, y: 50, size: 500 }, 1000, 900, 600)).toEqual({ x: 150, y: 0, size: 600 });
    expect(resizeCrop(start, -10_000, 900, 600).size).toBe(CROP_MIN_SIZE);
    expect(growCropFromCorner({ x: 800, y: 0, size: 50 }, 500, 900, 600)).toEqual({ x: 800, y: 0, size: 100 });
    expect(growCropFromCorner({ x: 0, y: 0, size: 300 }, -1000, 900, 600)).toEqual({ x: 0, y: 0, size: CROP_MIN_SIZE });
    expect(cropStep(900, 600)).toBe(30);
    expect(cropStep(10, 10)).toBe(1);
    // Whatever the moves, the square always fits.
    let crop = centreCrop(640, 480);
    for (const [dx, dy, by] of [[-900, 3, 0], [7, -2, 55], [0, 0, -400], [999, 999, 999], [-3, 4, -13]] as const) {
      crop = resizeCrop(moveCrop(crop, dx, dy, 640, 480), by, 640, 480);
      expect(cropFits(crop, 640, 480), JSON.stringify(crop)).toBe(true);
    }
  });

  it('a crop that does not fit is a 400', () => {
    expect(photoRefusalStatus('badCrop')).toBe(400);
  });
});
