/** A configuration problem a person can fix; printed as one line, never as a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
