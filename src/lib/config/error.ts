/** A configuration problem a person can fix; printed as one line, never as a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * A setting's value as a message quotes it: in double quotes, with line breaks and other control
 * characters escaped, so a refusal stays one line whatever was typed.
 */
export function quoted(value: string | undefined): string {
  return JSON.stringify(value ?? '');
}

/**
 * The embedded database's file system (Emscripten's, inside PGlite) throws `{ name: 'ErrnoError', errno }`
 * (not an Error, no message) with its own numbers for the same failures Node names.
 */
const EMSCRIPTEN_ERRNO: Readonly<Record<number, string>> = { 2: 'EACCES', 19: 'EDQUOT', 29: 'EIO', 51: 'ENOSPC', 63: 'EPERM', 69: 'EROFS' };

/** PostgreSQL's SQLSTATE for "no space left on device" (a write that could not extend a file). */
const DISK_FULL_SQLSTATE = '53100';

/** The storage failure an error is, by Node's name (`ENOSPC`…), following `cause`; `null` when it is none. */
export function storageFailure(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const { code, errno, name, cause } = current as { code?: unknown; errno?: unknown; name?: unknown; cause?: unknown };
    if (code === DISK_FULL_SQLSTATE) return 'ENOSPC';
    if (typeof code === 'string' && Object.values(EMSCRIPTEN_ERRNO).includes(code)) return code;
    if (name === 'ErrnoError' && typeof errno === 'number' && EMSCRIPTEN_ERRNO[errno]) return EMSCRIPTEN_ERRNO[errno];
    current = cause;
  }
  return null;
}

/**
 * The sentence for a data folder that cannot be used (what failed, where, what to do), or `null` when
 * `err` is no storage failure: a full disk (or quota), a read-only file system, no permission, the disk
 * failing.
 */
export function storageError(err: unknown, where?: string): ConfigError | null {
  const code = storageFailure(err);
  const folder = where ? `the data folder ${where}` : 'the data folder (DATA_DIR)';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new ConfigError(`The disk holding ${folder} is full (${code}): free some space on it, or set DATA_DIR to a folder on a disk with room.`);
  }
  if (code === 'EROFS') return new ConfigError(`${folder[0]!.toUpperCase()}${folder.slice(1)} is on a read-only file system (EROFS): set DATA_DIR to a writable folder.`);
  if (code === 'EACCES' || code === 'EPERM') return new ConfigError(`Cannot write ${folder} (${code}): set DATA_DIR to a writable folder or fix its permissions.`);
  if (code === 'EIO') return new ConfigError(`Reading or writing ${folder} failed (EIO): check the disk, or set DATA_DIR to a folder on another one.`);
  return null;
}

/** A failure in words for a one-line message, whatever was thrown: an Error's message, else what the object names itself. */
export function describeFailure(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (err !== null && typeof err === 'object') {
    const { name, message, code, errno } = err as { name?: unknown; message?: unknown; code?: unknown; errno?: unknown };
    const parts = [name, message, code, errno === undefined ? undefined : `errno ${String(errno)}`].filter((p) => typeof p === 'string' || typeof p === 'number');
    if (parts.length > 0) return parts.join(' ');
    try {
      return JSON.stringify(err);
    } catch {
      return 'an object that cannot be shown';
    }
  }
  return String(err);
}
