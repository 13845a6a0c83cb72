// One error type for the whole package: `code` is a stable string (see docs/errors.md).
export class NostrError extends Error {
  constructor(code, message, options) {
    super(message ? `${code}: ${message}` : code, options);
    this.name = 'NostrError';
    this.code = code;
  }
}
