/**
 * Errors a user can act on. The CLI prints `message` on one line and exits with `exitCode`;
 * anything else that escapes is a bug and is reported as such, still without a stack trace.
 */
export class OecError extends Error {
  override readonly name: string = 'OecError'
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message)
  }
}

/** Wrong arguments or unreadable input: exit 2. */
export class InputError extends OecError {
  override readonly name = 'InputError'
  constructor(message: string) {
    super(message, 2)
  }
}
