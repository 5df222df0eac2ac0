import { describe, expect, it } from 'vitest';
import { ConfigError, describeFailure, storageError, storageFailure } from './error';

/** What PGlite's file system throws when the disk is full (captured from a full tmpfs): no Error, no message. */
const emscriptenFull = () => ({ name: 'ErrnoError', errno: 51 });

describe('storage failures at start', () => {
  it('names a full disk however it is thrown: Emscripten inside PGlite, Node, or PostgreSQL out of room', () => {
    expect(storageFailure(emscriptenFull())).toBe('ENOSPC');
    expect(storageFailure(Object.assign(new Error("ENOSPC: no space left on device, mkdir '/x'"), { code: 'ENOSPC' }))).toBe('ENOSPC');
    expect(storageFailure(Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('could not extend file'), { code: '53100' }) }))).toBe('ENOSPC');
    expect(storageFailure({ name: 'ErrnoError', errno: 69 })).toBe('EROFS');
    expect(storageFailure(new Error('something else'))).toBeNull();
    expect(storageFailure({ name: 'ErrnoError', errno: 44 })).toBeNull();
  });

  it('says what is full, where, and what to do, as a configuration error (one line)', () => {
    const err = storageError(emscriptenFull(), '/srv/academy/data/pglite');
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toBe('The disk holding the data folder /srv/academy/data/pglite is full (ENOSPC): free some space on it, or set DATA_DIR to a folder on a disk with room.');
    expect(storageError(emscriptenFull())!.message).toMatch(/^The disk holding the data folder \(DATA_DIR\) is full/);
    expect(storageError({ name: 'ErrnoError', errno: 69 }, '/ro')!.message).toBe('The data folder /ro is on a read-only file system (EROFS): set DATA_DIR to a writable folder.');
    expect(storageError(new Error('no'), '/x')).toBeNull();
    expect(err!.message).not.toContain('\n');
  });

  it('puts anything thrown in words, never "[object Object]"', () => {
    expect(describeFailure({ name: 'ErrnoError', errno: 44 })).toBe('ErrnoError errno 44');
    expect(describeFailure(new Error('boom'))).toBe('boom');
    expect(describeFailure({ a: 1 })).toBe('{"a":1}');
    expect(describeFailure('text')).toBe('text');
    expect(describeFailure(undefined)).toBe('undefined');
  });
});
